//! The verdicts in shared memory: one per database where IDs are minted,
//! made by the peer worker (`judge.rs`, scheduled by `watcher.rs`) and
//! read by every counter generator with one word (`require_mint`). Nothing
//! a caller does here connects anywhere: a caller that finds no verdict for
//! what it sees (a configuration epoch moved on, another node id in
//! effect) wakes the worker and waits for one, at most
//! `WAIT_FOR_VERDICT_MS`, never for a peer.
//!
//! The configuration epoch moves on when a caller finds that what a
//! verdict rests on (`configuration.rs`: the subscriptions, the Citus
//! formation) differs from what its database's verdict was judged on, which
//! it looks at on its first call and after each change it is told of; and
//! when the worker reads a reload that changes the node id.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgAtomic, PgSqlErrorCode};

use crate::durable::generator::InShmem;
use crate::pg::error::error_with_hint;
use crate::pg::shared_text::SharedText;
use chronoid_formats::node_verdict::{Reading, State, Verdict, NO_VERDICT};

/// Databases with a verdict of their own at once (each where IDs are
/// minted, or where subscriptions are).
pub const MAX_DATABASES: usize = 64;

/// Of those, the last few are kept for databases a superuser owns (and
/// those with a superuser's subscriptions), as PostgreSQL keeps
/// connections for superusers: a role that may create databases can take
/// the others, not these.
pub const RESERVED_FOR_SUPERUSERS: usize = 8;

/// How long a caller waits for a verdict on what it sees: a judging that
/// asks one new peer that never answers takes 5 s.
const WAIT_FOR_VERDICT_MS: u64 = 12_000;

struct Slot {
    /// The database's oid; 0: free.
    db: AtomicU32,
    word: AtomicU64,
    /// When (unix ms) the worker last confirmed the verdict.
    confirmed_ms: AtomicU64,
    /// What it was judged on (`configuration::fingerprint`).
    judged: AtomicU64,
    /// A refusal's message and hint, or what a pending verdict waits for,
    /// split by a NUL.
    reason: SharedText<1536>,
    /// Held while a judge publishes (two may, for a moment: one told to
    /// stop, which may not have yet, and its successor).
    publishing: AtomicBool,
}

pub struct Shared {
    epoch: AtomicU64,
    launcher_latch: AtomicUsize,
    launcher_pid: AtomicI32,
    /// The peer worker's last try to start a judge found no worker slot.
    starved: AtomicBool,
    slots: [Slot; MAX_DATABASES],
}

// SAFETY: atomics only, valid in any process that maps the segment.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<Shared> {}

// SAFETY: a unique name; placed by `request_shmem` before any backend runs.
static SHARED: PgAtomic<InShmem<Shared>> = unsafe { PgAtomic::new(c"chronoid.verdicts") };

fn shared() -> &'static Shared {
    &SHARED.get().0
}

/// From `_PG_init`, while preloading.
pub fn request_shmem() {
    pg_shmem_init!(
        SHARED = InShmem(Shared {
            // Epochs start at 1: a word of epoch 0 (`NO_VERDICT`) is none.
            epoch: AtomicU64::new(1),
            launcher_latch: AtomicUsize::new(0),
            launcher_pid: AtomicI32::new(0),
            starved: AtomicBool::new(false),
            slots: [const {
                Slot {
                    db: AtomicU32::new(0),
                    word: AtomicU64::new(NO_VERDICT),
                    confirmed_ms: AtomicU64::new(0),
                    judged: AtomicU64::new(0),
                    reason: SharedText::new(),
                    publishing: AtomicBool::new(false),
                }
            }; MAX_DATABASES],
        })
    );
}

thread_local! {
    /// This backend's database's slot, once found.
    static MY_SLOT: Cell<Option<usize>> = const { Cell::new(None) };
}

pub fn is_preloaded() -> bool {
    crate::pg::guards::is_preloaded()
}

/// A change a verdict rests on: every verdict made before is out of date.
pub fn configuration_changed() {
    if !is_preloaded() {
        return;
    }
    shared().epoch.fetch_add(1, Ordering::AcqRel);
    wake_worker();
}

/// The worker's own change (a reload that changed the node id).
pub fn worker_saw_change() {
    shared().epoch.fetch_add(1, Ordering::AcqRel);
}

pub fn epoch() -> u64 {
    shared().epoch.load(Ordering::Acquire)
}

/// Wakes the peer worker (a judge as it ends, a caller that needs a
/// verdict).
pub fn wake_worker() {
    let latch = shared().launcher_latch.load(Ordering::Acquire);
    if latch != 0 {
        // SAFETY: a latch in the worker's PGPROC, in shared memory, which
        // outlives it; setting a latch no one waits on is harmless.
        unsafe { pg_sys::SetLatch(latch as *mut pg_sys::Latch) };
    }
}

/// The peer worker, at start, and as it exits (a null latch, pid 0).
pub fn publish_worker(latch: *mut pg_sys::Latch, pid: i32) {
    let s = shared();
    s.launcher_latch.store(latch as usize, Ordering::Release);
    s.launcher_pid.store(pid, Ordering::Release);
}

/// The peer worker, after each try to start a judge: whether it found no
/// worker slot.
pub fn note_starved(starved: bool) {
    shared().starved.store(starved, Ordering::Release);
}

/// The slot of database `db`, claimed if it has none (`None`: all taken,
/// or all but the reserved ones where `reserved` is false).
fn slot_of(db: u32, reserved: bool) -> Option<usize> {
    let s = shared();
    if let Some(i) = s
        .slots
        .iter()
        .position(|sl| sl.db.load(Ordering::Acquire) == db)
    {
        return Some(i);
    }
    let free = s
        .slots
        .iter()
        .filter(|sl| sl.db.load(Ordering::Acquire) == 0)
        .count();
    if !reserved && free <= RESERVED_FOR_SUPERUSERS {
        return None;
    }
    for (i, sl) in s.slots.iter().enumerate() {
        match sl
            .db
            .compare_exchange(0, db, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => return Some(i),
            Err(other) if other == db => return Some(i),
            Err(_) => {}
        }
    }
    None
}

/// The databases that have a verdict (or want one).
pub fn databases() -> Vec<u32> {
    shared()
        .slots
        .iter()
        .map(|sl| sl.db.load(Ordering::Acquire))
        .filter(|db| *db != 0)
        .collect()
}

/// Wants a verdict for `db` (the worker, for a database with subscriptions).
pub fn want(db: u32) -> bool {
    slot_of(db, true).is_some()
}

/// Gives up the slot of a database that is gone.
pub fn forget(db: u32) {
    if let Some(sl) = shared()
        .slots
        .iter()
        .find(|sl| sl.db.load(Ordering::Acquire) == db)
    {
        sl.word.store(NO_VERDICT, Ordering::Release);
        sl.db.store(0, Ordering::Release);
    }
}

/// The verdict on `db`, if it has a slot.
pub fn word_of(db: u32) -> Option<Verdict> {
    shared()
        .slots
        .iter()
        .find(|sl| sl.db.load(Ordering::Acquire) == db)
        .map(|sl| Verdict::from_word(sl.word.load(Ordering::Acquire)))
}

/// One database's verdict as operators see it (`chronoid_node_verdicts`).
pub struct Published {
    pub db: u32,
    pub verdict: Verdict,
    /// Made for the configuration in effect (else being judged again).
    pub current: bool,
    /// When (unix ms) the worker last confirmed it; 0: never.
    pub confirmed_ms: u64,
    pub message: String,
    pub hint: String,
}

/// Every database's verdict, as published now.
pub fn published() -> Vec<Published> {
    let now = Verdict::epoch_of(epoch());
    shared()
        .slots
        .iter()
        .filter_map(|sl| {
            let db = sl.db.load(Ordering::Acquire);
            (db != 0).then(|| {
                let verdict = Verdict::from_word(sl.word.load(Ordering::Acquire));
                let (message, hint) = split_reason(sl.reason.get());
                Published {
                    db,
                    verdict,
                    current: verdict.epoch == now,
                    confirmed_ms: sl.confirmed_ms.load(Ordering::Acquire),
                    message,
                    hint,
                }
            })
        })
        .collect()
}

/// The worker publishes its verdict on `db`, made for `epoch` on what
/// `judged` (`configuration::fingerprint`) says.
/// A verdict made for an epoch older than the one already published
/// (a judge told to stop that had not yet) is dropped.
pub fn publish(db: u32, verdict: Verdict, reason: &str, now_ms: u64, judged: u64) {
    let Some(i) = slot_of(db, true) else {
        return;
    };
    let sl = &shared().slots[i];
    while sl
        .publishing
        .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        std::hint::spin_loop();
    }
    let word = sl.word.load(Ordering::Acquire);
    // Epochs are 32-bit counters that wrap: older is behind by less than
    // half their range.
    let older = word != NO_VERDICT
        && (verdict.epoch.wrapping_sub(Verdict::from_word(word).epoch) as i32) < 0;
    if !older {
        // The reason first: a caller that reads the new word finds it.
        sl.reason.set(reason);
        sl.judged.store(judged, Ordering::Release);
        sl.confirmed_ms.store(now_ms, Ordering::Release);
        sl.word.store(verdict.to_word(), Ordering::Release);
    }
    sl.publishing.store(false, Ordering::Release);
}

/// What a refused or pending verdict says: (message, hint).
pub fn reason_of(db: u32) -> (String, String) {
    let text = shared()
        .slots
        .iter()
        .find(|sl| sl.db.load(Ordering::Acquire) == db)
        .map(|sl| sl.reason.get())
        .unwrap_or_default();
    split_reason(text)
}

fn split_reason(text: String) -> (String, String) {
    match text.split_once('\0') {
        Some((m, h)) => (m.to_owned(), h.to_owned()),
        None => (text, String::new()),
    }
}

fn my_db() -> u32 {
    // SAFETY: this backend's database, set at connection.
    u32::from(unsafe { pg_sys::MyDatabaseId })
}

/// Refuses (55000) unless the peer worker's verdict on this database lets
/// this server mint with `node` now. One read of the verdict and one of the
/// epoch when it does. `judge_here` judges this database from what the
/// server remembers, asking nobody (`judge::judge_without_asking`): called
/// only while no judge can start (every worker slot taken).
pub fn require_mint(function: &str, node: Option<u16>, judge_here: fn(u32)) {
    let slot = match MY_SLOT.get() {
        Some(i) => i,
        None => {
            // A database a superuser owns may take a reserved slot.
            let owner = crate::pg::catalog::database_owner(my_db());
            let reserved = owner.is_some_and(crate::pg::subscriptions::owned_by_superuser);
            let Some(i) = slot_of(my_db(), reserved) else {
                error_with_hint(
                    PgSqlErrorCode::ERRCODE_CONFIGURATION_LIMIT_EXCEEDED,
                    format!("{function} refuses: more than {MAX_DATABASES} databases of this server mint IDs or have subscriptions, and chronoid judges at most {MAX_DATABASES}, the last {RESERVED_FOR_SUPERUSERS} of them for databases a superuser owns"),
                    "Mint chronoid IDs in fewer databases of one server.",
                )
            };
            MY_SLOT.set(Some(i));
            i
        }
    };
    let sl = &shared().slots[slot];
    // A change this backend was told of (or its first call): judged again
    // only if what the verdict rests on differs from what it was judged on.
    if super::configuration::take_changed()
        && super::configuration::fingerprint() != sl.judged.load(Ordering::Acquire)
    {
        configuration_changed();
    }
    let word = sl.word.load(Ordering::Acquire);
    match Verdict::reading(word, epoch(), node) {
        Reading::Mint => {}
        Reading::Refuse => refuse(function, slot),
        Reading::Wait => wait_for_verdict(function, node, slot, judge_here),
    }
}

fn refuse(function: &str, slot: usize) -> ! {
    let (message, hint) = split_reason(shared().slots[slot].reason.get());
    error_with_hint(
        PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        format!("{function} refuses: {message}"),
        &hint,
    )
}

fn wait_for_verdict(function: &str, node: Option<u16>, slot: usize, judge_here: fn(u32)) {
    let s = shared();
    let sl = &s.slots[slot];
    let started = Instant::now();
    let mut judged_here = false;
    let first = Verdict::from_word(sl.word.load(Ordering::Acquire));
    if first.epoch == Verdict::epoch_of(epoch())
        && first.state != State::Pending
        && first.node != node
    {
        // A verdict on what this backend sees, for another node id: this
        // backend read a change (a Citus group id) no other process told
        // the worker of, or has not read a reload the worker read.
        // SAFETY: a flag this backend's SIGHUP handler sets.
        if unsafe { pg_sys::ConfigReloadPending } != 0 {
            refuse_reload(function, node, first.node);
        }
        configuration_changed();
    }
    wake_worker();
    loop {
        let word = sl.word.load(Ordering::Acquire);
        match Verdict::reading(word, epoch(), node) {
            Reading::Mint => return,
            Reading::Refuse => refuse(function, slot),
            Reading::Wait => {}
        }
        // No judge can start (a role's parallel queries may take every
        // worker slot): what a judge would publish first, from what the
        // server remembers, this caller publishes itself; a verdict that
        // needs a question waits for a judge still.
        if !judged_here && s.starved.load(Ordering::Acquire) {
            judged_here = true;
            judge_here(sl.db.load(Ordering::Acquire));
            continue;
        }
        let v = Verdict::from_word(word);
        // SAFETY: as above.
        if v.epoch == Verdict::epoch_of(epoch())
            && v.state != State::Pending
            && v.node != node
            && unsafe { pg_sys::ConfigReloadPending } != 0
        {
            refuse_reload(function, node, v.node);
        }
        if started.elapsed() > Duration::from_millis(WAIT_FOR_VERDICT_MS) {
            let v = Verdict::from_word(word);
            let (waiting_for, _) = split_reason(sl.reason.get());
            let why = if s.launcher_pid.load(Ordering::Acquire) == 0 {
                "the chronoid peer worker is not running".to_owned()
            } else if v.state == State::Pending && !waiting_for.is_empty() {
                format!("the chronoid peer worker has not judged this server's peers yet ({waiting_for})")
            } else {
                "the chronoid peer worker has not judged this server's configuration yet".to_owned()
            };
            error_with_hint(
                PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!("{function} refuses: {why} (waited {} s)", WAIT_FOR_VERDICT_MS / 1000),
                "Call again in a moment. The \"chronoid peer worker\" background worker judges whether this server may mint; see the server log, and leave room for it and its judges in max_worker_processes.",
            );
        }
        // SAFETY: this process's latch; an interrupt (a cancel) raises
        // through pgrx's guard at the check below.
        unsafe {
            pg_sys::WaitLatch(
                pg_sys::MyLatch,
                (pg_sys::WL_LATCH_SET | pg_sys::WL_TIMEOUT | pg_sys::WL_EXIT_ON_PM_DEATH) as _,
                5,
                pg_sys::PG_WAIT_EXTENSION,
            );
            pg_sys::ResetLatch(pg_sys::MyLatch);
        }
        pgrx::check_for_interrupts!();
    }
}

/// A statement that runs on across a reload (a backend reads the
/// configuration only between statements) would mint with an id the
/// server has given up, and a peer may have taken.
fn refuse_reload(function: &str, mine: Option<u16>, now: Option<u16>) -> ! {
    let id = |n: Option<u16>| n.map_or(-1, i32::from);
    error_with_hint(
        PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        format!(
            "{function} refuses: chronoid.node_id was changed from {} to {} by a reload while this statement ran, and a statement keeps the configuration it began with",
            id(mine),
            id(now)
        ),
        "Run the statement again: a new statement takes the new node id.",
    )
}
