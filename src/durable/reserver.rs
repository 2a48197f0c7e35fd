//! The reserver: a background worker that moves the generators' high-water
//! marks ahead of their callers, so that a generator in use never waits for
//! a flush, as `nextval()` logs values ahead of need.
//!
//! On a primary it looks at each generator's ticker every few hundred
//! milliseconds; one whose ticker moved within `chronoid.reserve_keep_warm`
//! is warm, and its mark is kept at least half a window
//! (`RESERVATION_WINDOW_MS`) above the clock: when it comes within half a
//! window, every warm generator's mark moves a window ahead in one record
//! (`marks::reserve`). A caller that finds its pair above the mark (the
//! first call after an idle spell, or a reserver that fell behind) asks for
//! a reservation and sleeps on a condition variable until the mark covers
//! it (`reservation.rs`, the state both share).
//!
//! On a standby it flushes the marks file that redo wrote without a flush.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use std::time::Duration;

use pgrx::bgworkers::{BackgroundWorkerBuilder, BgWorkerStartTime};
use pgrx::pg_sys;
use pgrx::{pg_guard, PgSqlErrorCode};

use chronoid_formats::clock::Clock;
use chronoid_formats::high_water::{
    ahead_of, due_at, keep_ahead, trim_to, ClockJudge, KeepWarm, RESERVATION_WINDOW_MS,
};

use super::generator::Generator;
use super::{marks, reservation};
use crate::pg::clock::BackendClock;
use crate::pg::error::error;
use crate::pg::guc::{self, IntSetting, Settings, Startup};

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

/// From `_PG_init` while preloading.
pub fn register_worker() {
    BackgroundWorkerBuilder::new("chronoid reserver")
        .set_library("chronoid")
        .set_function("chronoid_reserver_main")
        .enable_shmem_access(None)
        // From the start: on a standby it flushes what redo writes.
        .set_start_time(BgWorkerStartTime::PostmasterStart)
        .set_restart_time(Some(Duration::from_secs(1)))
        .load();
}

/// The background worker's entry point (named in `register_worker`).
#[pg_guard]
#[no_mangle]
pub extern "C-unwind" fn chronoid_reserver_main(_arg: pg_sys::Datum) {
    // SIGINT (pg_cancel_backend) is ignored, so that a cancel never cuts a
    // wait for the synchronous standbys short.
    crate::pg::worker::set_signal_handlers(true);
    // SAFETY: runs `unpublish` as the process exits.
    unsafe { pg_sys::before_shmem_exit(Some(unpublish), pg_sys::Datum::from(0)) };
    // SAFETY: MyLatch and MyProcPid are this process's.
    unsafe { reservation::publish(pg_sys::MyLatch, pg_sys::MyProcPid) };
    let mut warm: [KeepWarm; 3] = Generator::ALL.map(|g| KeepWarm::new(g.last_tick()));
    let mut judges: [ClockJudge; 3] = Default::default();
    loop {
        // SAFETY: this process's latch.
        unsafe { pg_sys::ResetLatch(pg_sys::MyLatch) };
        pgrx::check_for_interrupts!();
        crate::pg::worker::reload_if_asked();
        // SAFETY: reads shared recovery state.
        let timeout_ms = if unsafe { pg_sys::RecoveryInProgress() } {
            flush_replayed_marks();
            // Replay moves the tickers; that is not use, and a promoted
            // standby starts with every generator cold.
            warm = Generator::ALL.map(|g| KeepWarm::new(g.last_tick()));
            1000
        } else {
            keep_marks_ahead(&mut warm, &mut judges)
        };
        crate::pg::worker::wait(timeout_ms);
    }
}

#[pg_guard]
unsafe extern "C-unwind" fn unpublish(_code: i32, _arg: pg_sys::Datum) {
    reservation::unpublish();
}

fn flush_replayed_marks() {
    if reservation::take_file_dirty() {
        // Written again, not only fsynced: after a failed fsync the OS may
        // have dropped the pages, and a second fsync would not say so.
        if let Err(e) = marks::rewrite_marks_file() {
            reservation::file_still_dirty();
            error(
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
fn keep_marks_ahead(warm: &mut [KeepWarm; 3], judges: &mut [ClockJudge; 3]) -> u64 {
    // Use is timed on the monotonic clock: a wall clock stepped by an hour
    // neither keeps a generator warm for that hour nor cools every one.
    let mono = BackendClock.monotonic_ms();
    let keep_warm_ms = KEEP_WARM_S.get() as u64 * 1000;
    // Requests are taken with the count of operators' moves they were made
    // under: one made before a move asks for a pair the operator gave up.
    let moves = Generator::ALL.map(Generator::moves);
    let mut requested = [0; 3];
    let mut warm_now = [false; 3];
    for g in Generator::ALL {
        let i = g as usize;
        warm[i].observe(g.last_tick(), mono);
        requested[i] = reservation::take_requested(g);
        if requested[i] > 0 {
            warm[i].touch(mono);
        }
        warm_now[i] = warm[i].warm(mono, keep_warm_ms);
    }
    // The clock as believed, per generator: a wall clock that jumped forward
    // is not reserved on for a generator that handed out no pair there (a
    // glitch would otherwise leave its mark in the future, and a restart
    // refusing until then), even if another generator did.
    let wall = BackendClock.now_ms();
    let mut now = [0; 3];
    for g in Generator::ALL {
        let i = g as usize;
        let own = g.last_tick().map_or(0, |t| t.unix_ms).max(requested[i]);
        now[i] = judges[i].believed(wall, mono, own);
    }
    // Where each warm generator's callers are: the later of the clock, its
    // last pair and the pair a caller waits for (unless an operator has
    // moved it since the caller asked).
    let bases = || {
        Generator::ALL.map(|g| {
            let i = g as usize;
            let request = if g.moves() == moves[i] {
                requested[i]
            } else {
                0
            };
            warm_now[i].then(|| {
                now[i]
                    .max(g.last_tick().map_or(0, |t| t.unix_ms))
                    .max(request)
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
        let moved = marks::reserve(|| bases().map(|base| base.map(ahead_of)));
        for g in Generator::ALL {
            if moved[g as usize] {
                reservation::count_reservation(g);
            }
        }
        reservation::marks_moved();
    }
    // A mark further ahead than the clock, the pairs handed out and the
    // pairs callers wait for need (a reservation for a call that went away
    // during a forward glitch) comes back: a pair no caller received
    // covers nothing.
    for g in Generator::ALL {
        let i = g as usize;
        let needed = || {
            let request = if g.moves() == moves[i] {
                requested[i]
            } else {
                0
            };
            now[i]
                .max(g.last_tick().map_or(0, |t| t.unix_ms))
                .max(request)
        };
        if trim_to(g.mark().get().max(g.durable_mark()), needed()).is_some() {
            marks::trim(g, || {
                trim_to(g.mark().get().max(g.durable_mark()), needed())
            });
        }
    }
    // After a checkpoint, the marks once more, for a base backup's WAL.
    marks::log_after_checkpoint();
    if !warm_now.contains(&true) {
        // Idle: nothing to write until a caller asks (it sets the latch);
        // a look at the checkpoints four times a second.
        return RESERVATION_WINDOW_MS / 4;
    }
    // Wake when the first warm mark that can still move comes due, and at
    // least four times a window to see which generators are still in use.
    // A mark that cannot move (the clock at the end of what a ticker holds)
    // is not waited on: the reserver never spins.
    bases()
        .into_iter()
        .zip(Generator::ALL)
        .filter_map(|(base, g)| {
            let base = base?;
            (ahead_of(base) > g.mark().get())
                .then(|| due_at(g.mark().get()).saturating_sub(now[g as usize]))
        })
        .min()
        .unwrap_or(RESERVATION_WINDOW_MS / 4)
        .clamp(1, RESERVATION_WINDOW_MS / 4)
}
