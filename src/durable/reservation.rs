//! The reservation state that callers and the reserver share, in shared
//! memory: the reserver's latch and pid, the pairs waiting callers need
//! covered, the "redo wrote the file" flag, a condition variable broadcast
//! whenever marks move, and the counters the view shows. Callers use it to
//! ask for a reservation and wait (`wait_for_reservation`); the worker
//! (`reserver.rs`) to publish itself and take requests.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgAtomic, PgSqlErrorCode};

use super::generator::{Generator, InShmem};
use crate::pg::error::error_with_hint;
use crate::pg::shared_text::SharedText;

/// What callers and the reserver share.
pub struct Shared {
    /// The reserver's latch (a pointer into its PGPROC) and pid; 0 while
    /// none runs.
    latch: AtomicUsize,
    pid: AtomicI32,
    /// The highest pair (unix ms) a waiting caller needs covered.
    requested_ms: [AtomicU64; 3],
    /// A standby's redo wrote the file; the reserver has not flushed it.
    file_dirty: AtomicBool,
    /// Records that moved each generator's mark.
    reservations: [AtomicU64; 3],
    /// Calls that waited for a reservation, and for how long in all.
    waits: [AtomicU64; 3],
    wait_us: [AtomicU64; 3],
    /// Broadcast whenever marks move.
    moved: std::cell::UnsafeCell<pg_sys::ConditionVariable>,
    /// Failed writes of `chronoid.marks` (start, reserver, operator).
    write_failures: AtomicU64,
    /// What the last failed write said.
    write_error: SharedText<200>,
}

// SAFETY: atomics, and a condition variable PostgreSQL's own functions
// lock; all valid in any process that maps the segment.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<Shared> {}

// SAFETY: a unique name; placed by `request_shmem` before any backend runs.
static SHARED: PgAtomic<InShmem<Shared>> = unsafe { PgAtomic::new(c"chronoid.reserver") };

fn shared() -> &'static Shared {
    &SHARED.get().0
}

/// From `_PG_init`, while preloading.
pub fn request_shmem() {
    pg_shmem_init!(
        SHARED = InShmem(Shared {
            latch: AtomicUsize::new(0),
            pid: AtomicI32::new(0),
            requested_ms: Default::default(),
            file_dirty: AtomicBool::new(false),
            reservations: Default::default(),
            waits: Default::default(),
            wait_us: Default::default(),
            // SAFETY: plain C data; `init_shared` initializes it properly.
            moved: std::cell::UnsafeCell::new(unsafe { std::mem::zeroed() }),
            write_failures: AtomicU64::new(0),
            write_error: SharedText::new(),
        })
    );
}

/// In the postmaster, whenever shared memory is (re)built.
pub fn init_shared() {
    // SAFETY: the postmaster, before any other process maps the segment.
    unsafe { pg_sys::ConditionVariableInit(shared().moved.get()) };
}

/// For the view: reservations, waits, and total wait in ms.
pub fn counters(g: Generator) -> (u64, u64, f64) {
    let s = shared();
    let i = g as usize;
    (
        s.reservations[i].load(Ordering::Relaxed),
        s.waits[i].load(Ordering::Relaxed),
        s.wait_us[i].load(Ordering::Relaxed) as f64 / 1000.0,
    )
}

fn wake_reserver() {
    let latch = shared().latch.load(Ordering::Acquire);
    if latch != 0 {
        // SAFETY: a latch in the reserver's PGPROC, in shared memory, which
        // outlives it; setting a latch no one waits on is harmless.
        unsafe { pg_sys::SetLatch(latch as *mut pg_sys::Latch) };
    }
}

/// A caller's pair lies less than half a window under its mark: the
/// reserver is late. Cheap when its latch is already set.
pub fn nudge() {
    wake_reserver();
}

/// Whether a reserver runs (and so will flush what redo writes).
pub fn running() -> bool {
    shared().pid.load(Ordering::Acquire) != 0
}

/// Redo wrote the file without flushing it.
pub fn replayed_marks_written() {
    shared().file_dirty.store(true, Ordering::Release);
    wake_reserver();
}

/// Marks moved (a reservation, an operator): wake whoever waits.
pub fn marks_moved() {
    // SAFETY: the condition variable initialized by `init_shared`.
    unsafe { pg_sys::ConditionVariableBroadcast(shared().moved.get()) };
}

/// A write of `chronoid.marks` failed (`e` names the file): callers that
/// wait for a mark are told, rather than left to wait.
pub fn write_failed(e: &std::io::Error) {
    let s = shared();
    s.write_error.set(&e.to_string());
    s.write_failures.fetch_add(1, Ordering::AcqRel);
    // Waiters wake within 100 ms anyway; the postmaster (at start) has no
    // PGPROC to broadcast from.
    // SAFETY: reads this process's pointer.
    if !unsafe { pg_sys::MyProc }.is_null() {
        marks_moved();
    }
}

/// A generator whose mark was lost (`LOST_MARK_MS`: a backup restored
/// without `chronoid.marks`) makes no ID until an operator, or a replayed
/// record, sets it.
fn refuse_lost(g: Generator, function: &str) {
    if g.durable_mark() == chronoid_formats::high_water::LOST_MARK_MS {
        pgrx::pg_sys::panic::ErrorReport::new(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{function} cannot make IDs: the high-water mark of {} was lost", g.name()),
            "chronoid",
        )
        .set_detail(
            "This server started from a backup without its file chronoid.marks, and its WAL \
             replayed no mark: from the clock alone it could repeat an ID made before.",
        )
        .set_hint(format!(
            "Set the mark above every {} already made: SELECT chronoid_set_high_water_mark('{}', <a time after the last one>); \
             or stop the server and restore chronoid.marks from the backup.",
            g.name(),
            g.name()
        ))
        .report(pgrx::PgLogLevel::ERROR);
    }
}

/// The file could not be written since this caller asked: it is told so.
fn refuse_unwritable(function: &str) -> ! {
    error_with_hint(
        PgSqlErrorCode::ERRCODE_IO_ERROR,
        format!(
            "{function} could not reserve IDs: {}",
            shared().write_error.get()
        ),
        "chronoid keeps the generators' high-water marks in chronoid.marks in the data directory: \
         give it (and the directory) back to the server's user with the data directory's mode; \
         the generators resume at the next reservation.",
    )
}

/// How long a caller waits for a reserver that is not running before it
/// gives up (it restarts within a second of a crash).
const NO_RESERVER_GIVE_UP: Duration = Duration::from_secs(10);

/// Called by a generator whose next pair (of `unix_ms`) its mark does not
/// cover, taken when `g` had seen `moves_seen` operator's moves: returns
/// `true` once the reserver has made a mark above it durable, or `false` as
/// soon as an operator moved the generator meanwhile to a position at or
/// below the pair (the moved ticker may hand it out again: the caller gives
/// it up and takes a new one). A pair below the new position stands.
pub fn wait_for_reservation(
    g: Generator,
    unix_ms: u64,
    function: &str,
    mut moves_seen: u64,
) -> bool {
    let s = shared();
    let i = g as usize;
    // Whether the pair still stands after the moves since `moves_seen`: one
    // move, to above it. After two or more, an earlier one may have put the
    // ticker at or below the pair, which it may have handed out since.
    let stands = |moves_seen: &mut u64| {
        if g.moves() == *moves_seen {
            return true;
        }
        let (moves, moved_to) = g.last_move();
        let one_move_above = moves == *moves_seen + 1 && unix_ms < moved_to;
        *moves_seen = moves;
        one_move_above
    };
    if !stands(&mut moves_seen) {
        return false;
    }
    refuse_lost(g, function);
    // A file that could not be written at the last try: this caller waits
    // for the next try (the reserver's), and is told if it fails too.
    let failures_seen = s.write_failures.load(Ordering::Acquire);
    let started = Instant::now();
    s.requested_ms[i].fetch_max(unix_ms, Ordering::AcqRel);
    wake_reserver();
    let cv = s.moved.get();
    // SAFETY: the condition variable initialized by `init_shared`; a
    // cancelled sleep raises through pgrx's guard, and the transaction's
    // abort cancels the sleep.
    unsafe { pg_sys::ConditionVariablePrepareToSleep(cv) };
    let granted = loop {
        // The move is checked first: a mark an operator lowered and the
        // reserver raised again may cover the pair, which is given up all
        // the same.
        if !stands(&mut moves_seen) {
            break false;
        }
        if g.mark().covers(unix_ms) {
            break true;
        }
        if s.write_failures.load(Ordering::Acquire) != failures_seen {
            // SAFETY: as above.
            unsafe { pg_sys::ConditionVariableCancelSleep() };
            refuse_unwritable(function);
        }
        if s.pid.load(Ordering::Acquire) == 0 && started.elapsed() > NO_RESERVER_GIVE_UP {
            // SAFETY: as above.
            unsafe { pg_sys::ConditionVariableCancelSleep() };
            error_with_hint(
                PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!("{function} could not reserve IDs: chronoid's reserver is not running"),
                "The \"chronoid reserver\" background worker makes the high-water marks durable. \
                 See the server log for why it stopped; max_worker_processes must leave room for it.",
            );
        }
        // SAFETY: as above.
        unsafe { pg_sys::ConditionVariableTimedSleep(cv, 100, reservation_wait_event()) };
        if g.moves() == moves_seen {
            s.requested_ms[i].fetch_max(unix_ms, Ordering::AcqRel);
            wake_reserver();
        }
    };
    // SAFETY: as above.
    unsafe { pg_sys::ConditionVariableCancelSleep() };
    s.waits[i].fetch_add(1, Ordering::Relaxed);
    s.wait_us[i].fetch_add(started.elapsed().as_micros() as u64, Ordering::Relaxed);
    granted
}

/// An operator moved `g`: what callers asked for before is not asked any
/// more (a caller that still waits asks again only if its pair stands).
pub fn forget_request(g: Generator) {
    shared().requested_ms[g as usize].store(0, Ordering::Release);
}

/// What pg_stat_activity shows for a caller waiting for a reservation:
/// wait event `ChronoidReservation` (type `Extension`) from PostgreSQL 17,
/// which lets extensions name theirs; `Extension` before.
fn reservation_wait_event() -> u32 {
    #[cfg(any(feature = "pg17", feature = "pg18"))]
    {
        // Per process: the id comes from shared memory, looked up once.
        static EVENT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let mut event = EVENT.load(Ordering::Relaxed);
        if event == 0 {
            // SAFETY: a NUL-terminated name; registers it once per cluster.
            event = unsafe { pg_sys::WaitEventExtensionNew(c"ChronoidReservation".as_ptr()) };
            EVENT.store(event, Ordering::Relaxed);
        }
        event
    }
    #[cfg(not(any(feature = "pg17", feature = "pg18")))]
    pg_sys::PG_WAIT_EXTENSION
}

/// The worker, at start: callers may wake it from now on.
pub fn publish(latch: *mut pg_sys::Latch, pid: i32) {
    let s = shared();
    s.latch.store(latch as usize, Ordering::Release);
    s.pid.store(pid, Ordering::Release);
}

/// The worker, as it exits.
pub fn unpublish() {
    let s = shared();
    s.latch.store(0, Ordering::Release);
    s.pid.store(0, Ordering::Release);
}

/// The highest pair a caller asked to be covered since the last take (0:
/// none).
pub fn take_requested(g: Generator) -> u64 {
    shared().requested_ms[g as usize].swap(0, Ordering::AcqRel)
}

/// Whether redo wrote the file since the last take; a failed flush puts
/// it back (`file_still_dirty`).
pub fn take_file_dirty() -> bool {
    shared().file_dirty.swap(false, Ordering::AcqRel)
}

pub fn file_still_dirty() {
    shared().file_dirty.store(true, Ordering::Release);
}

/// A record moved `g`'s mark, for the view.
pub fn count_reservation(g: Generator) {
    shared().reservations[g as usize].fetch_add(1, Ordering::Relaxed);
}
