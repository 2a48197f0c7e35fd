//! The verdicts in shared memory, made by the peer worker alone
//! (`peer_worker.rs`) and read by every counter generator with one word
//! (`require_mint`): one for the server, whose node id and subscriptions
//! are the server's (`pg_subscription` is a shared catalog), and one more
//! for each database that is a node of a Citus formation (a formation's
//! facts are a database's, and only a superuser can create Citus), with
//! that database's group id beside it.
//!
//! A caller reads shared memory only: no catalog, no lock, no other
//! server. Which verdict is its own it learns from the Citus table (at
//! most `MAX_CITUS_DATABASES` entries, kept by the worker; a database
//! not in it reads the server's), remembered while the table's
//! generation stands. A caller that finds no verdict for what it sees
//! (a configuration epoch moved on, another node id in effect) wakes the
//! worker and waits for one, at most `WAIT_FOR_VERDICT_MS`, never for a
//! peer.
//!
//! One writer (the worker), so no lock: each text is a sequence lock
//! (`SharedText`), written before its word. The epoch moves on when the
//! worker finds a change, and when a backend answering a peer learns of a
//! clash with this server's id (`answering.rs`).
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering};

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgAtomic};

use crate::durable::generator::InShmem;
use crate::pg::shared_text::SharedText;
use chronoid_formats::node_verdict::{Reading, State, Verdict, NO_VERDICT};

/// Citus databases judged at once (only a superuser can create Citus; one
/// past it makes the server's verdict a refusal, `peer_worker.rs`).
pub const MAX_CITUS_DATABASES: usize = 32;

/// A Citus database whose group id could not be read.
const NO_GROUP: i32 = i32::MIN;

pub(super) struct Slot {
    pub(super) word: AtomicU64,
    /// When (unix ms) the worker last confirmed the verdict.
    confirmed_ms: AtomicU64,
    /// A refusal's message and hint, or what a pending verdict waits for,
    /// split by a NUL.
    pub(super) reason: SharedText<1536>,
}

impl Slot {
    const fn new() -> Slot {
        Slot {
            word: AtomicU64::new(NO_VERDICT),
            confirmed_ms: AtomicU64::new(0),
            reason: SharedText::new(),
        }
    }
}

pub(super) struct CitusSlot {
    /// The database's oid; 0: free.
    db: AtomicU32,
    group: AtomicI32,
    /// `pg_dist_node`'s and `pg_dist_local_group`'s oids there.
    tables: [AtomicU32; 2],
    slot: Slot,
    /// A group the coordinator told this node is no longer its
    /// (`release.rs`), and when (unix ms); `NO_GROUP`: none.
    released: AtomicI32,
    released_ms: AtomicU64,
}

pub struct Shared {
    epoch: AtomicU64,
    worker_latch: AtomicUsize,
    pub(super) worker_pid: AtomicI32,
    /// A backend saw a change go by: the worker looks at once (callers
    /// go on by the verdict standing).
    pub(super) look_requested: AtomicU32,
    /// Moves on whenever a database joins or leaves the Citus table.
    generation: AtomicU64,
    server: Slot,
    citus: [CitusSlot; MAX_CITUS_DATABASES],
    /// What the worker could not do in its last look (a catalog locked).
    note: SharedText<512>,
    /// Databases whose schemas changed (`CREATE EXTENSION citus` makes one),
    /// for the worker to look at again at once; `rescan_all` where they
    /// did not fit.
    pub(super) schemas_changed: [AtomicU32; 8],
    pub(super) rescan_all: AtomicU32,
    /// Transactions prepared with a change (its database above its xid;
    /// 0: free), until the worker sees them end (`changes.rs`).
    pub(super) prepared: [AtomicU64; 16],
}

// SAFETY: atomics only, valid in any process that maps the segment.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<Shared> {}

// SAFETY: a unique name; placed by `request_shmem` before any backend runs.
static SHARED: PgAtomic<InShmem<Shared>> = unsafe { PgAtomic::new(c"chronoid.verdicts") };

pub(super) fn shared() -> &'static Shared {
    &SHARED.get().0
}

/// From `_PG_init`, while preloading.
pub fn request_shmem() {
    pg_shmem_init!(
        SHARED = InShmem(Shared {
            // Epochs start at 1: a word of epoch 0 (`NO_VERDICT`) is none.
            epoch: AtomicU64::new(1),
            worker_latch: AtomicUsize::new(0),
            worker_pid: AtomicI32::new(0),
            look_requested: AtomicU32::new(0),
            generation: AtomicU64::new(1),
            server: Slot::new(),
            citus: [const {
                CitusSlot {
                    db: AtomicU32::new(0),
                    group: AtomicI32::new(NO_GROUP),
                    tables: [const { AtomicU32::new(0) }; 2],
                    slot: Slot::new(),
                    released: AtomicI32::new(NO_GROUP),
                    released_ms: AtomicU64::new(0),
                }
            }; MAX_CITUS_DATABASES],
            note: SharedText::new(),
            schemas_changed: [const { AtomicU32::new(0) }; 8],
            rescan_all: AtomicU32::new(0),
            prepared: [const { AtomicU64::new(0) }; 16],
        })
    );
}

pub fn is_preloaded() -> bool {
    crate::pg::guards::is_preloaded()
}

/// A change every verdict made before must be judged again for.
pub fn configuration_changed() {
    if !is_preloaded() {
        return;
    }
    shared().epoch.fetch_add(1, Ordering::AcqRel);
    wake_worker();
}

pub fn epoch() -> u64 {
    shared().epoch.load(Ordering::Acquire)
}

/// Wakes the peer worker.
pub fn wake_worker() {
    let latch = shared().worker_latch.load(Ordering::Acquire);
    if latch != 0 {
        // SAFETY: a latch in the worker's PGPROC, in shared memory, which
        // outlives it; setting a latch no one waits on is harmless.
        unsafe { pg_sys::SetLatch(latch as *mut pg_sys::Latch) };
    }
}

/// The peer worker, at start, and as it exits (a null latch, pid 0).
pub fn publish_worker(latch: *mut pg_sys::Latch, pid: i32) {
    let s = shared();
    s.worker_latch.store(latch as usize, Ordering::Release);
    s.worker_pid.store(pid, Ordering::Release);
}

/// Which verdict a database reads: the server's, or its Citus one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Scope {
    Server,
    Citus(u32),
}

fn slot(scope: Scope) -> Option<&'static Slot> {
    match scope {
        Scope::Server => Some(&shared().server),
        Scope::Citus(db) => shared()
            .citus
            .iter()
            .find(|c| c.db.load(Ordering::Acquire) == db)
            .map(|c| &c.slot),
    }
}

/// Database `db` of this server was told by its coordinator that `group`
/// is no longer its: its callers refuse from now on (the epoch moves on).
/// `false` where the worker does not count `db` a Citus node.
pub fn mark_released(db: u32, group: i32, now_ms: u64) -> bool {
    let Some(c) = shared()
        .citus
        .iter()
        .find(|c| c.db.load(Ordering::Acquire) == db)
    else {
        return false;
    };
    c.released_ms.store(now_ms, Ordering::Release);
    c.released.store(group, Ordering::Release);
    configuration_changed();
    true
}

/// The group database `db` was told is no longer its, where that is the
/// group it reads, and when.
pub fn released_in(db: u32) -> Option<(i32, u64)> {
    let c = shared()
        .citus
        .iter()
        .find(|c| c.db.load(Ordering::Acquire) == db)?;
    let group = c.released.load(Ordering::Acquire);
    (group != NO_GROUP && group == c.group.load(Ordering::Acquire))
        .then(|| (group, c.released_ms.load(Ordering::Acquire)))
}

/// The worker: database `db`'s coordinator says `group` is this node's
/// again (asked after it said otherwise).
pub fn clear_released(db: u32, group: i32) {
    for c in shared()
        .citus
        .iter()
        .filter(|c| c.db.load(Ordering::Acquire) == db)
    {
        let _ = c
            .released
            .compare_exchange(group, NO_GROUP, Ordering::AcqRel, Ordering::Acquire);
    }
}

/// Whether the worker counts database `db` a Citus node.
pub fn lists_citus(db: u32) -> bool {
    is_preloaded()
        && shared()
            .citus
            .iter()
            .any(|c| c.db.load(Ordering::Acquire) == db)
}

/// Whether `relid` is one of the Citus formation's tables in database `db`.
pub fn is_formation_table(db: u32, relid: u32) -> bool {
    if !is_preloaded() || relid == 0 {
        return false;
    }
    shared().citus.iter().any(|c| {
        c.db.load(Ordering::Acquire) == db
            && c.tables.iter().any(|t| t.load(Ordering::Acquire) == relid)
    })
}

/// The worker: the Citus databases, their group ids (`None`: cannot be
/// read) and their formation tables' oids, the table made to match.
/// Returns those that found no room.
pub fn set_citus_databases(dbs: &[(u32, Option<i32>, [u32; 2])]) -> Vec<u32> {
    let s = shared();
    let mut moved = false;
    for c in &s.citus {
        let db = c.db.load(Ordering::Acquire);
        if db != 0 && !dbs.iter().any(|(d, _, _)| *d == db) {
            c.slot.word.store(NO_VERDICT, Ordering::Release);
            c.db.store(0, Ordering::Release);
            moved = true;
        }
    }
    let mut no_room = Vec::new();
    for (db, group, tables) in dbs {
        let group = group.unwrap_or(NO_GROUP);
        let set = |c: &CitusSlot| {
            c.group.store(group, Ordering::Release);
            for (t, oid) in c.tables.iter().zip(tables) {
                t.store(*oid, Ordering::Release);
            }
        };
        if let Some(c) = s.citus.iter().find(|c| c.db.load(Ordering::Acquire) == *db) {
            set(c);
        } else if let Some(c) = s.citus.iter().find(|c| c.db.load(Ordering::Acquire) == 0) {
            c.slot.word.store(NO_VERDICT, Ordering::Release);
            set(c);
            c.db.store(*db, Ordering::Release);
            moved = true;
        } else {
            no_room.push(*db);
        }
    }
    if moved {
        s.generation.fetch_add(1, Ordering::AcqRel);
    }
    no_room
}

/// The worker publishes its verdict on `scope`.
pub fn publish(scope: Scope, verdict: Verdict, reason: &str, now_ms: u64) {
    let Some(sl) = slot(scope) else { return };
    if sl.word.load(Ordering::Acquire) != verdict.to_word() || reason_text(sl) != reason {
        // The reason first: a caller that reads the new word finds it.
        sl.reason.set(reason);
        sl.word.store(verdict.to_word(), Ordering::Release);
    }
    sl.confirmed_ms.store(now_ms, Ordering::Release);
}

/// The worker: every scope waits, for `epoch`, saying why (a prepared
/// transaction's change is not yet committed or rolled back).
pub fn hold_all(epoch: u64, reason: &str) {
    let s = shared();
    let occupied = s
        .citus
        .iter()
        .filter(|c| c.db.load(Ordering::Acquire) != 0)
        .map(|c| &c.slot);
    for sl in std::iter::once(&s.server).chain(occupied) {
        let held = Verdict {
            epoch: Verdict::epoch_of(epoch),
            state: State::Pending,
            ..Verdict::from_word(sl.word.load(Ordering::Acquire))
        };
        if sl.word.load(Ordering::Acquire) != held.to_word() || reason_text(sl) != reason {
            sl.reason.set(reason);
            sl.word.store(held.to_word(), Ordering::Release);
        }
    }
}

/// The worker's note on what it could not do (empty: nothing).
pub fn set_note(text: &str) {
    if shared().note.get() != text {
        shared().note.set(text);
    }
}

fn reason_text(sl: &Slot) -> String {
    sl.reason.get()
}

/// The verdict standing on `scope`, and its reason.
pub fn standing(scope: Scope) -> Option<(Verdict, String)> {
    slot(scope).map(|sl| {
        (
            Verdict::from_word(sl.word.load(Ordering::Acquire)),
            sl.reason.get(),
        )
    })
}

/// One verdict as operators see it (`chronoid_node_verdicts`).
pub struct Published {
    pub verdict: Verdict,
    /// Made for the configuration in effect (else being judged again).
    pub current: bool,
    /// When (unix ms) the worker last confirmed it; 0: never.
    pub confirmed_ms: u64,
    pub message: String,
    pub hint: String,
    /// The worker's note (a catalog it could not read).
    pub note: String,
}

/// The verdict database `db` reads, as published now.
pub fn published_for(db: u32) -> Published {
    let s = shared();
    let sl = s
        .citus
        .iter()
        .find(|c| c.db.load(Ordering::Acquire) == db)
        .map_or(&s.server, |c| &c.slot);
    let verdict = Verdict::from_word(sl.word.load(Ordering::Acquire));
    let (message, hint) = split_reason(sl.reason.get());
    Published {
        verdict,
        current: verdict.epoch == Verdict::epoch_of(epoch()),
        confirmed_ms: sl.confirmed_ms.load(Ordering::Acquire),
        message,
        hint,
        note: s.note.get(),
    }
}

pub(super) fn split_reason(text: String) -> (String, String) {
    match text.split_once('\0') {
        Some((m, h)) => (m.to_owned(), h.to_owned()),
        None => (text, String::new()),
    }
}

// This backend's own (a process each: plain statics, not thread-locals,
// which a library loaded at run time reaches through a call per read).
/// Whether the server preloads Citus (read once: a server setting): 0 not
/// yet read, 1 no, 2 yes.
static CITUS: AtomicU32 = AtomicU32::new(0);
/// This backend's slot in the Citus table (index + 1; 0: the server's),
/// and the table's generation it was found in.
static HERE_INDEX: AtomicUsize = AtomicUsize::new(0);
static HERE_GENERATION: AtomicU64 = AtomicU64::new(0);

fn my_db() -> u32 {
    // SAFETY: this backend's database, set at connection.
    u32::from(unsafe { pg_sys::MyDatabaseId })
}

/// This backend's slot, and its Citus entry where its database has one.
pub(super) fn here() -> (&'static Slot, Option<&'static CitusSlot>) {
    let s = shared();
    let citus = match CITUS.load(Ordering::Relaxed) {
        0 => {
            let c = crate::pg::guards::preloads("citus");
            CITUS.store(if c { 2 } else { 1 }, Ordering::Relaxed);
            c
        }
        c => c == 2,
    };
    if !citus {
        return (&s.server, None);
    }
    let generation = s.generation.load(Ordering::Acquire);
    let index = if HERE_GENERATION.load(Ordering::Relaxed) == generation {
        HERE_INDEX.load(Ordering::Relaxed)
    } else {
        let db = my_db();
        let index = s
            .citus
            .iter()
            .position(|c| c.db.load(Ordering::Acquire) == db)
            .map_or(0, |i| i + 1);
        HERE_INDEX.store(index, Ordering::Relaxed);
        HERE_GENERATION.store(generation, Ordering::Relaxed);
        index
    };
    match index {
        0 => (&s.server, None),
        i => (&s.citus[i - 1].slot, Some(&s.citus[i - 1])),
    }
}

/// This database's Citus group id, as the worker read it: `None` where
/// this database is no Citus node (or its group id cannot be read: its
/// verdict then refuses, saying why).
pub fn citus_group_here() -> Option<i32> {
    let (_, c) = here();
    c.map(|c| c.group.load(Ordering::Acquire))
        .filter(|g| *g != NO_GROUP)
}

/// Whether the verdict lets this server mint with `node` now, for the
/// unguarded path of a generator (reads two words; raises nothing).
#[inline(always)]
pub fn mints_unguarded(node: Option<u16>) -> bool {
    let (sl, _) = here();
    Verdict::reading(sl.word.load(Ordering::Acquire), epoch(), node) == Reading::Mint
}
