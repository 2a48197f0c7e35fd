//! The reserver: a background worker that moves the generators' high-water
//! marks ahead of their callers, so that a generator in use never waits for
//! a flush, as `nextval()` logs values ahead of need.
//!
//! On a primary it looks at each generator's ticker every few hundred
//! milliseconds; one whose ticker moved within `chronoid.reserve_keep_warm`
//! is warm, and its mark is kept at least half a window
//! (`RESERVATION_WINDOW_MS`) above the clock: when it comes within half a
//! window, every warm generator's mark moves a window ahead in one record
//! (`high_water::reserve`). A caller that finds its pair above the mark (the
//! first call after an idle spell, or a reserver that fell behind) asks for
//! a reservation and sleeps on a condition variable until the mark covers
//! it: cancellable, with wait event `ChronoidReservation` (`Extension`
//! before PostgreSQL 17), counted in the view.
//!
//! On a standby it flushes the marks file that redo wrote without a flush.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pgrx::bgworkers::{BackgroundWorkerBuilder, BgWorkerStartTime};
use pgrx::pg_sys;
use pgrx::{pg_guard, pg_shmem_init, PgAtomic, PgSqlErrorCode};

use chronoid_formats::clock::Clock;
use chronoid_formats::high_water::{ahead_of, due_at, keep_ahead, KeepWarm, RESERVATION_WINDOW_MS};

use super::guc::{self, IntSetting, Settings, Startup};
use super::high_water::{self, Generator};
use super::shmem::InShmem;
use super::BackendClock;

/// How long a generator stays warm after its last ID, in seconds.
pub static KEEP_WARM_S: IntSetting = IntSetting::seconds(60);

pub const SETTINGS: Settings = Settings {
    names: &[c"chronoid.reserve_keep_warm"],
    define: define_settings,
};

fn define_settings(_startup: Startup) {
    guc::define_int(
        c"chronoid.reserve_keep_warm",
        c"How long after its last ID a generator's high-water mark is kept ahead of the clock.",
        Some(
            c"While a generator is warm its callers never wait for a reservation; it costs a \
               WAL record and a file flush every half second. An idle server writes nothing.",
        ),
        &KEEP_WARM_S,
        10,
        86_400,
        pg_sys::GucContext::PGC_SIGHUP,
        None,
    );
}

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
}

// SAFETY: atomics, and a condition variable PostgreSQL's own functions
// lock; all valid in any process that maps the segment.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<Shared> {}

// SAFETY: a unique name; placed by `init` before any backend runs.
static SHARED: PgAtomic<InShmem<Shared>> = unsafe { PgAtomic::new(c"chronoid.reserver") };

fn shared() -> &'static Shared {
    &SHARED.get().0
}

/// From `high_water::init`, while preloading.
pub fn init() {
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
        })
    );
    BackgroundWorkerBuilder::new("chronoid reserver")
        .set_library("chronoid")
        .set_function("chronoid_reserver_main")
        .enable_shmem_access(None)
        // From the start: on a standby it flushes what redo writes.
        .set_start_time(BgWorkerStartTime::PostmasterStart)
        .set_restart_time(Some(Duration::from_secs(1)))
        .load();
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

/// How long a caller waits for a reserver that is not running before it
/// gives up (it restarts within a second of a crash).
const NO_RESERVER_GIVE_UP: Duration = Duration::from_secs(10);

/// Called by a generator whose next pair (of `unix_ms`) its mark does not
/// cover: returns once the reserver has made a mark above it durable.
pub fn wait_for_reservation(g: Generator, unix_ms: u64, function: &str) {
    let s = shared();
    let i = g as usize;
    let started = Instant::now();
    s.requested_ms[i].fetch_max(unix_ms, Ordering::AcqRel);
    wake_reserver();
    let cv = s.moved.get();
    // SAFETY: the condition variable initialized by `init_shared`; a
    // cancelled sleep raises through pgrx's guard, and the transaction's
    // abort cancels the sleep.
    unsafe { pg_sys::ConditionVariablePrepareToSleep(cv) };
    while !g.mark().covers(unix_ms) {
        if s.pid.load(Ordering::Acquire) == 0 && started.elapsed() > NO_RESERVER_GIVE_UP {
            // SAFETY: as above.
            unsafe { pg_sys::ConditionVariableCancelSleep() };
            super::error_with_hint(
                PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!("{function} could not reserve IDs: chronoid's reserver is not running"),
                "The \"chronoid reserver\" background worker makes the high-water marks durable. \
                 See the server log for why it stopped; max_worker_processes must leave room for it.",
            );
        }
        // SAFETY: as above.
        unsafe { pg_sys::ConditionVariableTimedSleep(cv, 100, reservation_wait_event()) };
        s.requested_ms[i].fetch_max(unix_ms, Ordering::AcqRel);
        wake_reserver();
    }
    // SAFETY: as above.
    unsafe { pg_sys::ConditionVariableCancelSleep() };
    s.waits[i].fetch_add(1, Ordering::Relaxed);
    s.wait_us[i].fetch_add(started.elapsed().as_micros() as u64, Ordering::Relaxed);
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

/// The background worker's entry point (named in `init`).
#[pg_guard]
#[no_mangle]
pub extern "C-unwind" fn chronoid_reserver_main(_arg: pg_sys::Datum) {
    // SAFETY: the standard handlers: SIGTERM sets ProcDiePending (handled
    // at CHECK_FOR_INTERRUPTS, never inside a critical section), SIGHUP
    // asks for a reload; SIGINT (pg_cancel_backend) is ignored, so that a
    // cancel never cuts a wait for the synchronous standbys short.
    unsafe {
        super::ffi::set_signal_handler(pg_sys::SIGTERM as _, Some(super::ffi::die_signal_handler));
        super::ffi::set_signal_handler(
            pg_sys::SIGHUP as _,
            Some(super::ffi::config_reload_signal_handler),
        );
        super::ffi::set_signal_handler(pg_sys::SIGINT as _, sig_ign());
        pg_sys::BackgroundWorkerUnblockSignals();
        pg_sys::before_shmem_exit(Some(unpublish), pg_sys::Datum::from(0));
    }
    let s = shared();
    // SAFETY: MyLatch and MyProcPid are this process's.
    unsafe {
        s.latch.store(pg_sys::MyLatch as usize, Ordering::Release);
        s.pid.store(pg_sys::MyProcPid, Ordering::Release);
    }
    let mut warm: [KeepWarm; 3] = Generator::ALL.map(|g| KeepWarm::new(g.last_tick()));
    loop {
        // SAFETY: this process's latch.
        unsafe { pg_sys::ResetLatch(pg_sys::MyLatch) };
        pgrx::check_for_interrupts!();
        // SAFETY: flags PostgreSQL's handlers set, read in this process.
        unsafe {
            if pg_sys::ConfigReloadPending != 0 {
                pg_sys::ConfigReloadPending = 0;
                pg_sys::ProcessConfigFile(pg_sys::GucContext::PGC_SIGHUP);
            }
        }
        // SAFETY: reads shared recovery state.
        let timeout_ms = if unsafe { pg_sys::RecoveryInProgress() } {
            flush_replayed_marks();
            // Replay moves the tickers; that is not use, and a promoted
            // standby starts with every generator cold.
            warm = Generator::ALL.map(|g| KeepWarm::new(g.last_tick()));
            1000
        } else {
            keep_marks_ahead(&mut warm)
        };
        // SAFETY: this process's latch; exits if the postmaster dies.
        unsafe {
            pg_sys::WaitLatch(
                pg_sys::MyLatch,
                (pg_sys::WL_LATCH_SET | pg_sys::WL_TIMEOUT | pg_sys::WL_EXIT_ON_PM_DEATH) as _,
                timeout_ms as _,
                pg_sys::PG_WAIT_EXTENSION,
            )
        };
    }
}

fn sig_ign() -> pg_sys::pqsigfunc {
    // SAFETY: SIG_IGN is the handler value 1, as <signal.h> defines it.
    Some(unsafe { std::mem::transmute::<usize, unsafe extern "C-unwind" fn(i32)>(1) })
}

#[pg_guard]
unsafe extern "C-unwind" fn unpublish(_code: i32, _arg: pg_sys::Datum) {
    let s = shared();
    s.latch.store(0, Ordering::Release);
    s.pid.store(0, Ordering::Release);
}

fn flush_replayed_marks() {
    let s = shared();
    if s.file_dirty.swap(false, Ordering::AcqRel) {
        // Written again, not only fsynced: after a failed fsync the OS may
        // have dropped the pages, and a second fsync would not say so.
        if let Err(e) = high_water::rewrite_marks_file() {
            s.file_dirty.store(true, Ordering::Release);
            super::error(
                PgSqlErrorCode::ERRCODE_IO_ERROR,
                format!("could not flush file \"chronoid.marks\": {e}"),
            );
        }
    }
}

/// One round on a primary: reserve for every warm generator whose mark is
/// due (and every caller waiting), in one record; returns how long to sleep.
/// When one mark is due, every other warm one moves with it, so that warm
/// generators share their records rather than fall out of step.
fn keep_marks_ahead(warm: &mut [KeepWarm; 3]) -> u64 {
    let s = shared();
    // Use is timed on the monotonic clock: a wall clock stepped by an hour
    // neither keeps a generator warm for that hour nor cools every one.
    let mono = BackendClock.monotonic_ms();
    let keep_warm_ms = KEEP_WARM_S.get() as u64 * 1000;
    let mut requested = [0; 3];
    let mut warm_now = [false; 3];
    for g in Generator::ALL {
        let i = g as usize;
        warm[i].observe(g.last_tick(), mono);
        requested[i] = s.requested_ms[i].swap(0, Ordering::AcqRel);
        if requested[i] > 0 {
            warm[i].touch(mono);
        }
        warm_now[i] = warm[i].warm(mono, keep_warm_ms);
    }
    // Where each warm generator's callers are: the later of the clock, its
    // last pair and the pair a caller waits for.
    let bases = || {
        let now = BackendClock.now_ms();
        Generator::ALL.map(|g| {
            let i = g as usize;
            warm_now[i].then(|| {
                now.max(g.last_tick().map_or(0, |t| t.unix_ms))
                    .max(requested[i])
            })
        })
    };
    let due = bases()
        .into_iter()
        .zip(Generator::ALL)
        .any(|(base, g)| base.is_some_and(|base| keep_ahead(g.mark(), base).is_some()));
    if due {
        // Computed again under the lock: an operator may just have moved a
        // ticker back (chronoid_set_high_water_mark), and a base read
        // before that would carry the old mark forward again.
        let moved = high_water::reserve(|| bases().map(|base| base.map(ahead_of)));
        for g in Generator::ALL {
            if moved[g as usize] {
                s.reservations[g as usize].fetch_add(1, Ordering::Relaxed);
            }
        }
        marks_moved();
    }
    if !warm_now.contains(&true) {
        // Idle: nothing to write until a caller asks (it sets the latch).
        return 10_000;
    }
    // Wake when the first warm mark comes due, and at least four times a
    // window to see which generators are still in use.
    let now = BackendClock.now_ms();
    Generator::ALL
        .into_iter()
        .filter(|g| warm_now[*g as usize])
        .map(|g| due_at(g.mark().get()).saturating_sub(now))
        .min()
        .unwrap_or(RESERVATION_WINDOW_MS)
        .clamp(1, RESERVATION_WINDOW_MS / 4)
}
