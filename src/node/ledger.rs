//! What this server remembers of the servers whose IDs meet its own, in
//! `chronoid.peers` in the data directory (the policy, what each entry
//! means and when it is forgotten, is `chronoid_formats::node_ledger`):
//!
//! - each peer's last answer, so that a peer out of reach is judged by it
//!   (`src/node/peers.rs`) rather than passed over: two servers cut apart
//!   and given one id no longer both mint;
//! - the servers known to mint near this one, with their ids: its peers,
//!   the servers that asked it, and what its peers know. Whoever asks this
//!   server is told them (`chronoid.node_ids_seen`), so a clash two
//!   servers away is seen: A ⇄ B ⇄ C with A and C on one id.
//!
//! A server that asks says who it is in its connection's
//! `application_name` (`chronoid:node=ID:system=S:NAME`); the answering
//! backend records it if the role it connected as may replicate (a
//! superuser or a REPLICATION role, as a subscription's is), so that no
//! mere user can make a server refuse by claiming an id.
//!
//! The file is read without a lock (it is only ever replaced whole, by
//! rename) and changed under a lock on the data directory (`flock`), so
//! that of two servers asking a third at once the second sees the first.
//! It is copied by pg_basebackup, so a promoted standby remembers what its
//! primary did.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::cell::UnsafeCell;
use std::ffi::{c_char, CStr, CString};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;

use pgrx::pg_sys;

use crate::pg::guc::{Settings, Startup};
use chronoid_formats::clock::Clock;
use chronoid_formats::node_ledger::{Known, Ledger};

const FILE: &str = "chronoid.peers";
const TEMP: &str = "chronoid.peers.tmp";

/// What the file says (nothing, if there is none; a file that cannot be
/// read is reported and taken as empty: what was remembered is asked again).
pub fn read() -> Ledger {
    match std::fs::read_to_string(FILE) {
        Ok(text) => Ledger::from_text(&text).unwrap_or_else(|why| {
            pgrx::warning!("chronoid: file \"{FILE}\" is not a chronoid peers file ({why}); it is taken as empty");
            Ledger::default()
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ledger::default(),
        Err(e) => {
            pgrx::warning!("chronoid: could not read file \"{FILE}\": {e}");
            Ledger::default()
        }
    }
}

/// Changes the file under its lock: `change` returns whether it changed
/// anything. Returns the ledger as it now is (and as written, unless the
/// write failed, which is reported: the next change writes it again).
pub fn update(change: impl FnOnce(&mut Ledger) -> bool) -> Ledger {
    let lock = std::fs::File::open(".").and_then(|dir| dir.lock().map(|()| dir));
    if let Err(e) = &lock {
        pgrx::warning!("chronoid: could not lock the data directory to change \"{FILE}\": {e}");
    }
    let mut ledger = read();
    let now = now_ms();
    if change(&mut ledger) | ledger.forget_old(now) {
        if let Err(e) = write(&ledger) {
            pgrx::warning!("chronoid: could not write file \"{FILE}\": {e}");
        }
    }
    drop(lock);
    ledger
}

fn write(ledger: &Ledger) -> std::io::Result<()> {
    // SAFETY: a global PostgreSQL sets from the data directory's mode at start.
    let mode = unsafe { crate::pg::ffi::pg_file_create_mode } as u32;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(mode)
        .open(TEMP)?;
    file.write_all(ledger.to_text().as_bytes())?;
    file.sync_all()?;
    std::fs::rename(TEMP, FILE)?;
    std::fs::File::open(".")?.sync_all()
}

pub fn now_ms() -> u64 {
    crate::pg::clock::BackendClock.now_ms()
}

/// This cluster's system identifier (`pg_controldata`'s "Database system
/// identifier"): the same on a primary and its standbys, another on every
/// cluster initdb made.
pub fn own_system() -> u64 {
    // SAFETY: reads the control file's copy in shared memory.
    unsafe { pg_sys::GetSystemIdentifier() }
}

/// How this server names itself to others: `cluster_name`, else its port.
pub fn own_name() -> String {
    // SAFETY: GUC variables, NUL-terminated strings PostgreSQL keeps set.
    let cluster = unsafe {
        let name = pg_sys::cluster_name;
        if name.is_null() {
            String::new()
        } else {
            CStr::from_ptr(name).to_string_lossy().into_owned()
        }
    };
    if cluster.is_empty() {
        // SAFETY: as above.
        format!("port {}", unsafe { pg_sys::PostPortNumber })
    } else {
        cluster
    }
}

/// The `application_name` an asking connection of this server carries.
pub fn appname(own_id: i32) -> String {
    let name: String = own_name()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut text = format!("chronoid:node={own_id}:system={}:{name}", own_system());
    // NAMEDATALEN - 1: the server cuts it there anyway.
    text.truncate(63);
    text
}

/// Who asks, from an `application_name` of `appname`'s.
fn asker(appname: &str, now: u64) -> Option<Known> {
    let rest = appname.strip_prefix("chronoid:node=")?;
    let (node_id, rest) = rest.split_once(":system=")?;
    let (system, name) = rest.split_once(':').unwrap_or((rest, ""));
    Some(Known {
        system: system.parse().ok()?,
        node_id: node_id.parse().ok()?,
        seen_ms: now,
        name: if name.is_empty() {
            format!("system {system}")
        } else {
            name.to_owned()
        },
    })
}

struct TextVariable(UnsafeCell<*mut c_char>);
// SAFETY: written only by PostgreSQL's GUC machinery in a backend's one thread.
unsafe impl Sync for TextVariable {}
static NODE_IDS_SEEN: TextVariable = TextVariable(UnsafeCell::new(std::ptr::null_mut()));

pub const SETTINGS: Settings = Settings {
    names: &[c"chronoid.node_ids_seen"],
    define: define_settings,
};

fn define_settings(_startup: Startup) {
    // SAFETY: the strings and the variable live for the process.
    unsafe {
        pg_sys::DefineCustomStringVariable(
            c"chronoid.node_ids_seen".as_ptr(),
            c"This server and the servers it knows to mint near it: system identifier, node id, age (ms), name, one per line. Read-only.".as_ptr(),
            c"What this server answers a peer that asks before it mints; docs/across-servers.md.".as_ptr(),
            NODE_IDS_SEEN.0.get(),
            c"".as_ptr(),
            pg_sys::GucContext::PGC_INTERNAL,
            (pg_sys::GUC_NOT_IN_SAMPLE | pg_sys::GUC_DISALLOW_IN_FILE) as i32,
            None,
            None,
            Some(show_node_ids_seen),
        );
    }
}

/// The answer (`SHOW chronoid.node_ids_seen`, or a peer's
/// `current_setting`). Records the asker first, so that of two servers
/// asking at once the second is told of the first.
unsafe extern "C-unwind" fn show_node_ids_seen() -> *const c_char {
    let answer = pgrx::PgTryBuilder::new(answer)
        .catch_others(|_| String::new())
        .execute();
    let answer = CString::new(answer).unwrap_or_default();
    // SAFETY: a copy in the caller's memory context, as guc.c's own hooks' strings live.
    unsafe { pg_sys::pstrdup(answer.as_ptr()) }
}

fn answer() -> String {
    let now = now_ms();
    // SAFETY: whether catalog lookups may run (`postgres -C` reads settings with none).
    let in_transaction = unsafe { pg_sys::IsTransactionState() };
    let own = Known {
        system: own_system(),
        node_id: if in_transaction {
            super::identity::node_id_answered()
        } else {
            super::identity::node_id_set()
        },
        seen_ms: now,
        name: own_name(),
    };
    // SAFETY: a GUC variable; the role checks read the syscache, in a transaction.
    let asked_by = unsafe {
        let name = pg_sys::application_name;
        (!name.is_null() && in_transaction)
            .then(|| asker(&CStr::from_ptr(name).to_string_lossy(), now))
            .flatten()
            .filter(|_| pg_sys::superuser() || pg_sys::has_rolreplication(pg_sys::GetUserId()))
    };
    let ledger = match asked_by {
        Some(k) if k.system != own.system => update(|l| l.note_known(k)),
        _ => read(),
    };
    ledger.answer(&own, now)
}

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    #[pgrx::pg_test]
    fn an_asker_is_read_from_its_application_name() {
        let k = super::asker("chronoid:node=7:system=123:east_1", 5).unwrap();
        assert_eq!(
            (k.node_id, k.system, k.name.as_str(), k.seen_ms),
            (7, 123, "east_1", 5)
        );
        assert_eq!(
            super::asker("chronoid:node=-1:system=9", 0).unwrap().name,
            "system 9"
        );
        assert!(super::asker("psql", 0).is_none());
        assert!(super::asker("chronoid:node=x:system=1:a", 0).is_none());
        let mine = super::appname(1023);
        assert!(mine.len() <= 63, "{mine}");
        assert_eq!(super::asker(&mine, 0).unwrap().system, super::own_system());
    }
}
