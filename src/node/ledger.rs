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
//! `application_name` (`chronoid:ID:SYSTEM:SINCE:NAME`, the numbers in base
//! 36); the answering backend records it if the role it logged in as may
//! replicate (a superuser or a REPLICATION role, as a subscription's is;
//! `SET ROLE` does not count, as it does not for replication), so that no
//! mere user can make a server refuse by claiming an id. An asker that
//! cannot be recorded (the file cannot be written) gets an ERROR, not an
//! answer: its question is as good as unanswered.
//!
//! `since`, when this instance of the cluster first asked or answered as a
//! primary, is kept in shared memory: a restart, a promotion or a copy
//! started on its own each gets a later one
//! (`chronoid_formats::node_ledger`).
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
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgAtomic, PgSqlErrorCode};

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
/// anything. Returns the ledger as it now is, and `Err` with it if the
/// change could not be written (reported: the next change writes it again).
pub fn update(change: impl FnOnce(&mut Ledger) -> bool) -> (Ledger, Result<(), String>) {
    let lock = std::fs::File::open(".").and_then(|dir| dir.lock().map(|()| dir));
    let mut ledger = read();
    let now = now_ms();
    let written = match &lock {
        Err(e) => Err(format!(
            "could not lock the data directory to change \"{FILE}\": {e}"
        )),
        Ok(_) if !(change(&mut ledger) | ledger.forget_old(now)) => Ok(()),
        Ok(_) => write(&ledger).map_err(|e| format!("could not write file \"{FILE}\": {e}")),
    };
    drop(lock);
    if let Err(why) = &written {
        pgrx::warning!("chronoid: {why}");
    }
    (ledger, written)
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

// SAFETY: unique names; placed by `request_shmem` before any backend runs.
static SINCE: PgAtomic<AtomicU64> = unsafe { PgAtomic::new(c"chronoid.peers_since") };
static PUBLISHED_SETTING: PgAtomic<AtomicI64> =
    unsafe { PgAtomic::new(c"chronoid.published_node_id") };

/// Not yet published (the value before any process read the setting).
const NOT_PUBLISHED: i64 = i64::MIN;

/// From `_PG_init`, while preloading.
pub fn request_shmem() {
    pg_shmem_init!(SINCE);
    pg_shmem_init!(PUBLISHED_SETTING = AtomicI64::new(NOT_PUBLISHED));
}

/// Which instance of its cluster this one is, as an order: its timeline
/// (high bits: a promoted standby is on a later one than the primary it
/// replaced, however often that one restarts), then when it first asked or
/// answered as a primary (unix ms, 42 bits: to the year 2109). 0 on a
/// standby, or where the library was not preloaded. Set on first use, never
/// during recovery.
pub fn own_since() -> u64 {
    // SAFETY: reads shared recovery state.
    if !crate::pg::guards::is_preloaded() || unsafe { pg_sys::RecoveryInProgress() } {
        return 0;
    }
    let since = SINCE.get();
    match since.load(Ordering::Acquire) {
        0 => {
            // SAFETY: reads shared state of the WAL insertion, on a primary.
            let timeline = u64::from(unsafe { pg_sys::GetWALInsertionTimeLine() });
            let rank = (timeline << 42) | (now_ms().max(1) & ((1 << 42) - 1));
            match since.compare_exchange(0, rank, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => rank,
                Err(first) => first,
            }
        }
        first => first,
    }
}

/// Tells every backend the value of `chronoid.node_id` the peer worker
/// read from the configuration, as soon as a reload woke it: the worker
/// reads it again at once, where a backend reads it only between
/// statements.
pub fn publish_setting(setting: i32) {
    if crate::pg::guards::is_preloaded() {
        PUBLISHED_SETTING
            .get()
            .store(i64::from(setting), Ordering::Release);
    }
}

/// The value of `chronoid.node_id` another process published, if it is not
/// `mine`: a reload changed it while this backend's statement runs (a
/// backend reads the configuration again only between statements).
pub fn setting_changed_from(mine: i32) -> Option<i32> {
    if !crate::pg::guards::is_preloaded() {
        return None;
    }
    match PUBLISHED_SETTING.get().load(Ordering::Acquire) {
        NOT_PUBLISHED => None,
        published if published == i64::from(mine) => None,
        published => i32::try_from(published).ok(),
    }
}

/// This server as it tells others.
pub fn own(node_id: i32) -> Known {
    Known {
        system: own_system(),
        since: own_since(),
        node_id,
        seen_ms: now_ms(),
        name: own_name(),
    }
}

fn base36(mut n: u64) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(char::from_digit((n % 36) as u32, 36).expect("a digit"));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
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
    let mut text = format!(
        "chronoid:{own_id}:{}:{}:{name}",
        base36(own_system()),
        base36(own_since())
    );
    // NAMEDATALEN - 1: the server cuts it there anyway.
    text.truncate(63);
    text
}

/// Who asks, from an `application_name` of `appname`'s.
fn asker(appname: &str, now: u64) -> Option<Known> {
    let mut fields = appname.strip_prefix("chronoid:")?.splitn(4, ':');
    let node_id = fields.next()?.parse().ok()?;
    let system = u64::from_str_radix(fields.next()?, 36).ok()?;
    let since = u64::from_str_radix(fields.next()?, 36).ok()?;
    let name = fields.next().unwrap_or("");
    Some(Known {
        system,
        since,
        node_id,
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
            c"This server and the servers it knows to mint near it: system identifier, since, node id, age (ms), name, one per line. Read-only.".as_ptr(),
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
/// asking at once the second is told of the first. Guarded: it raises an
/// ERROR where the asker cannot be recorded.
#[pg_guard]
unsafe extern "C-unwind" fn show_node_ids_seen() -> *const c_char {
    let answer = pgrx::PgTryBuilder::new(answer)
        .catch_others(|_| Ok(String::new()))
        .execute()
        .unwrap_or_else(|why| {
            crate::pg::error::error(
                PgSqlErrorCode::ERRCODE_IO_ERROR,
                format!("chronoid cannot answer a server whose asking it cannot record: {why}"),
            )
        });
    let answer = CString::new(answer).unwrap_or_default();
    // SAFETY: a copy in the caller's memory context, as guc.c's own hooks' strings live.
    unsafe { pg_sys::pstrdup(answer.as_ptr()) }
}

fn answer() -> Result<String, String> {
    let now = now_ms();
    // SAFETY: whether catalog lookups may run (a walsender's SHOW, say, may
    // have no transaction).
    let in_transaction = unsafe { pg_sys::IsTransactionState() };
    let own = own(if in_transaction {
        super::identity::node_id_answered()
    } else {
        super::identity::node_id_set()
    });
    // SAFETY: a GUC variable; the role checks read the syscache, in a
    // transaction. The role logged in as, as for a replication connection.
    let asked_by = unsafe {
        let name = pg_sys::application_name;
        (!name.is_null() && in_transaction)
            .then(|| asker(&CStr::from_ptr(name).to_string_lossy(), now))
            .flatten()
            .filter(|_| {
                let role = pg_sys::GetSessionUserId();
                pg_sys::superuser_arg(role) || pg_sys::has_rolreplication(role)
            })
    };
    let ledger = match asked_by {
        Some(k) if (k.system, k.since) != (own.system, own.since) => {
            let (ledger, written) = update(|l| l.note_known(k));
            written?;
            ledger
        }
        _ => read(),
    };
    Ok(ledger.answer(&own, now))
}

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    #[pgrx::pg_test]
    fn an_asker_is_read_from_its_application_name() {
        let k = super::asker("chronoid:7:3f:a:east_1", 5).unwrap();
        assert_eq!(
            (k.node_id, k.system, k.since, k.name.as_str(), k.seen_ms),
            (7, 3 * 36 + 15, 10, "east_1", 5)
        );
        assert_eq!(super::asker("chronoid:-1:9:0", 0).unwrap().name, "system 9");
        assert!(super::asker("psql", 0).is_none());
        assert!(super::asker("chronoid:x:1:1:a", 0).is_none());
        assert!(super::asker("chronoid:1:1", 0).is_none());
        let mine = super::appname(1023);
        assert!(mine.len() <= 63, "{mine}");
        let read = super::asker(&mine, 0).unwrap();
        assert_eq!(
            (read.system, read.since),
            (super::own_system(), super::own_since())
        );
        assert_eq!(super::base36(u64::MAX), "3w5e11264sgsf");
    }
}
