//! A server's place handed over before its successor's first ID (the
//! policy, and what is left to chance, is
//! `chronoid_formats::node_handover`):
//!
//! - **the successor** (a standby promoted) asks the server its
//!   `primary_conninfo` names, over a replication connection as its
//!   walreceiver did (the role and `pg_hba.conf` line it already had), to
//!   take its place: `SHOW chronoid.handover`. Every verdict of this
//!   server waits for the answer (`judge_predecessor`); the question is
//!   asked again every round, so an old primary that comes back is told;
//! - **the predecessor** answers from the backend that serves the question
//!   (a walsender, or a superuser's connection): it records its successor
//!   in `chronoid.successor` in the data directory (fsynced, under the data
//!   directory's lock), marks this server handed over in shared memory,
//!   moves the configuration epoch on (every caller then finds no verdict
//!   and reads the mark: it refuses, 55000), and only then answers. No
//!   worker or round is needed, so nothing a role holds can delay it.
//!
//! The mark is read again from the file by the peer worker as it starts:
//! a restart keeps it. Every scope's verdict refuses while it stands.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::ffi::{c_char, CStr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgAtomic};

use super::asking::SuccessorAnswer;
use super::{answering, identity, instance, release, verdict};
use crate::durable::generator::{last_ticks, resume_above, InShmem};
use crate::pg::guc::{define_shown, shown, Settings, Startup, TextVariable};
use crate::pg::shared_text::SharedText;
use chronoid_formats::node_handover::{self as policy, Handover};
use chronoid_formats::node_judging::Judgement;
use chronoid_formats::node_ledger::{Known, Ledger};

/// Where the successor is recorded: one line, `by system since node_id
/// name`, `by` the rank of the instance that handed over (a copy of this
/// data directory, taken before or after, carries the file, and is
/// another instance: the file is not its own).
const FILE: &str = "chronoid.successor";
const HEADER: &str = "chronoid successor 2";

/// How often the predecessor is asked again once it answered (or was
/// taken for down), and, while it is being waited for, after a failure.
const ASK_EVERY: Duration = Duration::from_secs(10);
const ASK_AGAIN_WAITING: Duration = Duration::from_secs(1);

pub struct Successor {
    system: AtomicU64,
    /// Its rank; 0: this server has handed over to no one.
    since: AtomicU64,
    /// Written under the data directory's lock.
    name: SharedText<128>,
}

// SAFETY: atomics only, valid in any process that maps the segment.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<Successor> {}

// SAFETY: a unique name; placed by `request_shmem` before any backend runs.
static SUCCESSOR: PgAtomic<InShmem<Successor>> = unsafe { PgAtomic::new(c"chronoid.successor") };

/// From `_PG_init`, while preloading.
pub fn request_shmem() {
    pg_shmem_init!(
        SUCCESSOR = InShmem(Successor {
            system: AtomicU64::new(0),
            since: AtomicU64::new(0),
            name: SharedText::new(),
        })
    );
}

/// The refusal every verdict of a server that handed over carries:
/// message and hint.
pub fn refusal() -> Option<(String, String)> {
    if !crate::pg::guards::is_preloaded() {
        return None;
    }
    let s = &SUCCESSOR.get().0;
    let since = s.since.load(Ordering::Acquire);
    (since != 0).then(|| {
        (
            chronoid_formats::reason!(
                "this server handed its place over to \"{}\", a copy of it made active after it (system identifier {}), which asked to take it before its first ID",
                s.name.get(),
                s.system.load(Ordering::Acquire)
            ),
            policy::HINT_HANDED_OVER.to_owned(),
        )
    })
}

/// The refusal of `scope`: this server's, where it handed its place over;
/// a Citus database's, where its coordinator told it its group is no
/// longer its (`release.rs`).
pub fn refusal_in(scope: verdict::Scope) -> Option<(String, String)> {
    refusal().or_else(|| match scope {
        verdict::Scope::Citus(db) => release::refusal(db),
        verdict::Scope::Server => None,
    })
}

/// The successor this very instance handed over to, if any.
fn recorded() -> Option<Known> {
    let text = std::fs::read_to_string(FILE).ok()?;
    let mut lines = text.lines();
    (lines.next()? == HEADER).then_some(())?;
    let mut f = lines.next()?.splitn(5, ' ');
    let by: u64 = f.next()?.parse().ok()?;
    (by == instance::own_since() && by != 0).then_some(())?;
    Some(Known {
        system: f.next()?.parse().ok()?,
        since: f.next()?.parse().ok()?,
        node_id: f.next()?.parse().ok()?,
        seen_ms: 0,
        name: f.next().unwrap_or("").to_owned(),
    })
}

/// Marks this server handed over to `k` in shared memory.
fn mark(k: &Known) {
    let s = &SUCCESSOR.get().0;
    s.name.set(&k.name);
    s.system.store(k.system, Ordering::Release);
    s.since.store(k.since, Ordering::Release);
}

/// The peer worker, as it starts: a successor recorded before a restart.
pub fn load() {
    let lock = std::fs::File::open(".").and_then(|dir| dir.lock().map(|()| dir));
    if let Some(k) = recorded() {
        mark(&k);
    }
    drop(lock);
    resume_as_recorded();
}

/// Records `asker` as this server's successor and refuses from now on;
/// `Ok(false)` where a later successor is recorded already.
fn hand_over(asker: &Known) -> Result<bool, String> {
    let lock = std::fs::File::open(".")
        .and_then(|dir| dir.lock().map(|()| dir))
        .map_err(|e| format!("could not lock the data directory to write \"{FILE}\": {e}"))?;
    let before = recorded();
    if !policy::keeps(before.as_ref(), asker) {
        return Ok(false);
    }
    let name: String = asker.name.chars().filter(|c| !c.is_control()).collect();
    let by = instance::own_since();
    let line = format!(
        "{by} {} {} {} {name}",
        asker.system, asker.since, asker.node_id
    );
    crate::pg::files::replace(FILE, format!("{HEADER}\n{line}\n").as_bytes())
        .map_err(|e| format!("could not write file \"{FILE}\": {e}"))?;
    mark(asker);
    drop(lock);
    if before.is_none_or(|b| (b.system, b.since) != (asker.system, asker.since)) {
        pgrx::log!(
            "chronoid: this server handed its place over to \"{}\" (system identifier {}), a copy of it made active after it: its counter generators refuse from now on",
            asker.name,
            asker.system
        );
    }
    // Every caller finds no verdict for the new epoch, and reads the mark.
    verdict::configuration_changed();
    Ok(true)
}

static HANDOVER: TextVariable = TextVariable::new();

pub const SETTINGS: Settings = Settings {
    names: &[c"chronoid.handover"],
    define: define_settings,
};

fn define_settings(_startup: Startup) {
    define_shown(
        c"chronoid.handover",
        c"This server, then the copy of it that took its place, if any: system identifier, since, node id, age (ms), name. Read-only.",
        c"What this server answers a standby of it that was promoted and asks to take its place, or (a Citus coordinator) a node that asks who holds its group; docs/across-servers.md, \"Handover\".",
        &HANDOVER,
        show_handover,
    );
}

/// The answer to a successor (`SHOW chronoid.handover`): a later copy of
/// this server asking to take its place is recorded first, and this
/// server refuses before it answers. Raises 58030 where it cannot record.
#[pg_guard]
unsafe extern "C-unwind" fn show_handover() -> *const c_char {
    shown(answer, "chronoid cannot hand this server's place over")
}

/// This instance as a successor sees it: its node id as set.
fn own_as_set() -> Known {
    Known {
        node_id: identity::node_id_set(),
        ..instance::own(identity::node_id_set())
    }
}

fn answer() -> Result<String, String> {
    let now = crate::pg::clock::now_ms();
    let own = own_as_set();
    // SAFETY: a GUC variable PostgreSQL keeps set, NUL-terminated.
    let appname = unsafe {
        let name = pg_sys::application_name;
        if name.is_null() {
            String::new()
        } else {
            CStr::from_ptr(name).to_string_lossy().into_owned()
        }
    };
    let asker = appname
        .strip_prefix("chronoid:successor:")
        .filter(|_| may_ask())
        .and_then(|rest| answering::asker(&format!("chronoid:{rest}"), now));
    // A Citus coordinator's word on a group (`release.rs`).
    let group = |prefix: &str| {
        appname
            .strip_prefix(prefix)
            .and_then(|g| g.parse::<i32>().ok())
    };
    if let Some(g) = group("chronoid:holding:") {
        return Ok(release::answer_holder(g));
    }
    if let Some(g) = group("chronoid:release:").filter(|_| may_ask()) {
        return release::answer_release(g);
    }
    if let Some(a) = asker.filter(|a| policy::takes_place_of(&own, a)) {
        hand_over(&a)?;
    }
    let successor = recorded();
    let handed_over = successor.is_some();
    let ledger = Ledger {
        known: successor
            .map(|k| Known { seen_ms: now, ..k })
            .into_iter()
            .collect(),
        ..Ledger::default()
    };
    let mut text = ledger.answer(&own, now);
    // Where its generators stopped: the successor resumes above.
    if handed_over {
        text += &policy::last_line(last_ticks());
    }
    Ok(text)
}

/// Whether the role this backend logged in as may ask a server to give
/// way: a walsender's (checked for REPLICATION as it logged in), or a
/// superuser or REPLICATION role read in a transaction (not `SET ROLE`).
fn may_ask() -> bool {
    // SAFETY: this backend's state; the role checks read the syscache, in
    // a transaction.
    unsafe {
        pg_sys::am_walsender
            || (pg_sys::IsTransactionState() && {
                let role = pg_sys::GetSessionUserId();
                pg_sys::superuser_arg(role) || pg_sys::has_rolreplication(role)
            })
    }
}

/// The server this one was a standby of, as the worker asks it.
pub struct Predecessor {
    /// The ledger's key: this instance's own (a copy of this server
    /// carries the entry, and must ask for itself).
    pub key: String,
    conninfo: String,
    pub name: String,
    asked: Option<Instant>,
}

/// The server `primary_conninfo` names, where it is set on a primary.
pub fn predecessor() -> Option<Predecessor> {
    // SAFETY: a GUC variable this process keeps set.
    let conninfo = unsafe {
        let p = pg_sys::PrimaryConnInfo;
        (!p.is_null())
            .then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
            .filter(|c| !c.trim().is_empty())?
    };
    let since = instance::own_since();
    (since != 0).then(|| Predecessor {
        key: format!("predecessor of instance {}", instance::base36(since)),
        name: format!("{PREDECESSOR} (primary_conninfo)"),
        conninfo,
        asked: None,
    })
}

/// What the ledger says the predecessor answered this instance.
pub fn remembered(ledger: &Ledger, key: &str) -> Option<Handover> {
    let me = (instance::own_system(), instance::own_since());
    ledger
        .peers
        .iter()
        .find(|p| p.key == key && (p.system, p.since) == me)
        .and_then(|p| Handover::from_code(p.node_id, &p.name))
}

/// Judges the predecessor, where there is one.
pub fn judge(
    p: Option<&Predecessor>,
    ledger: &Ledger,
    failed: &std::collections::HashMap<String, String>,
) -> Option<Judgement> {
    let p = p?;
    let said = remembered(ledger, &p.key);
    Some(policy::judge_predecessor(
        &p.name,
        said.as_ref(),
        failed.get(&p.key).map(String::as_str),
    ))
}

const PREDECESSOR: &str = "the server this one was a standby of";

/// What the predecessor answered this server (`None`: chronoid is not
/// loaded there), as the ledger records it; where it gave way, its
/// generators' last pairs are kept in the entry's name, and every pair
/// this server hands out lies above them.
pub fn took_place(said: Option<SuccessorAnswer>) -> (Handover, String) {
    let (lines, last) = match &said {
        Some((lines, last)) => (Some(lines.as_slice()), *last),
        None => (None, None),
    };
    let handover = policy::read_answer(&own_as_set(), lines);
    let stopped = match (&handover, last) {
        (Handover::Stopped, Some(last)) => {
            resume_above(last);
            Some(last)
        }
        _ => None,
    };
    (handover, policy::with_stop(PREDECESSOR, stopped))
}

/// The peer worker, as it starts: where the generators of each server
/// whose place this instance took stopped, as recorded (its predecessor's,
/// a Citus group's last holder's): a restart before this server's first ID
/// would otherwise resume only above its own marks.
fn resume_as_recorded() {
    let me = (instance::own_system(), instance::own_since());
    for entry in super::ledger::read().peers {
        if (entry.system, entry.since) == me {
            if let (_, Some(last)) = policy::read_stop(&entry.name) {
                resume_above(last);
            }
        }
    }
}

/// The `application_name` a successor's question carries.
fn appname() -> String {
    let mut text = format!(
        "chronoid:successor:{}:{}:{}:{}",
        identity::node_id_set(),
        instance::base36(instance::own_system()),
        instance::base36(instance::own_since()),
        instance::own_name()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            })
            .collect::<String>()
    );
    text.truncate(63);
    text
}

impl Predecessor {
    /// Reads `primary_conninfo` again (a reload may change it), keeping
    /// when it was last asked while it names the same server.
    pub fn look(was: Option<Predecessor>) -> Option<Predecessor> {
        let now = predecessor()?;
        Some(match was {
            Some(w) if w.key == now.key && w.conninfo == now.conninfo => w,
            _ => now,
        })
    }

    /// The question to ask it when due (at once, then every `ASK_EVERY`;
    /// every `ASK_AGAIN_WAITING` while it is waited for): a replication
    /// connection's conninfo, and who asks.
    pub fn due(&mut self, ledger: &Ledger) -> Option<(String, String)> {
        let every = if remembered(ledger, &self.key).is_none() {
            ASK_AGAIN_WAITING
        } else {
            ASK_EVERY
        };
        if self.asked.is_some_and(|t| t.elapsed() < every) {
            return None;
        }
        self.asked = Some(Instant::now());
        let conninfo =
            crate::pg::libpq::with_parameter(&self.conninfo, "replication", "true", true);
        // Its own deadline (5 s) tells a host down from a server that does
        // not answer; libpq's must not end the attempt first.
        let conninfo = crate::pg::libpq::with_parameter(&conninfo, "connect_timeout", "30", true);
        Some((conninfo, appname()))
    }
}
