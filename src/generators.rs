//! `chronoid_generators()`, behind the `chronoid_generators` view
//! (`sql/generators.sql`): one row per server-wide generator with its
//! ticker, its durable high-water mark and its counters, read from shared
//! memory as the `pg_stat_*` functions read theirs.

use pgrx::datum::TimestampWithTimeZone;
use pgrx::prelude::*;

use chronoid_formats::caloriosa::Caloriosa;
use chronoid_formats::counter_id::TickSource;
use chronoid_formats::nanoflake::Nanoflake;
use chronoid_formats::uid60::Uid60;

use super::counter_id::CounterIdSqlType;
use super::high_water::Generator;
use super::{shmem, BackendLocal};

/// IDs this backend handed out and has not yet added to the shared
/// `minted` counters: one plain increment per ID, added at the end of each
/// transaction (as PostgreSQL flushes its own statistics), so the view is
/// exact once the generating transaction has ended and no ID pays for an
/// atomic read-modify-write on a line every backend writes.
static UNFLUSHED_MINTED: BackendLocal<[u64; 3]> = BackendLocal::new();

#[inline]
pub fn count_minted(g: Generator) {
    UNFLUSHED_MINTED.with(
        || {
            // The first ID of this process: flush at every transaction end.
            // SAFETY: registers a callback that lives as long as the process.
            unsafe { pg_sys::RegisterXactCallback(Some(flush_minted), std::ptr::null_mut()) };
            [0; 3]
        },
        |counts| counts[g as usize] += 1,
    );
}

/// At every transaction event (commit, abort, their parallel-worker forms):
/// IDs handed out count whether or not their transaction commits.
#[pg_guard]
unsafe extern "C-unwind" fn flush_minted(
    _event: pg_sys::XactEvent::Type,
    _arg: *mut std::ffi::c_void,
) {
    let counts = UNFLUSHED_MINTED
        .try_with(std::mem::take)
        .unwrap_or_default();
    for g in Generator::ALL {
        if counts[g as usize] > 0 {
            g.stats().add_minted(counts[g as usize]);
        }
    }
}

type Row = (
    String,
    Option<TimestampWithTimeZone>,
    Option<i32>,
    Option<TimestampWithTimeZone>,
    i64,
    i64,
    i64,
    i64,
    i64,
    Option<i32>,
    TimestampWithTimeZone,
    TimestampWithTimeZone,
    i64,
    i64,
    f64,
);

fn row<T: CounterIdSqlType>() -> Row {
    let stats = T::GENERATOR.stats().snapshot();
    // Before its first ID since start a ticker only holds the millisecond
    // it resumed above: nothing issued yet.
    let last = (stats.minted > 0)
        .then(|| T::ticker().last_tick())
        .flatten();
    // The durable mark (the file's): above the one callers check while a
    // reservation waits for the standbys, or after an operator moved it up.
    let mark = super::high_water::durable_marks()[T::GENERATOR as usize];
    let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let (reservations, waits, wait_ms) = super::reserver::counters(T::GENERATOR);
    (
        T::GENERATOR.name().to_owned(),
        last.map(|t| super::unix_ms_timestamptz(t.unix_ms as i64)),
        last.map(|t| t.sequence as i32),
        (mark > 0).then(|| super::unix_ms_timestamptz(mark as i64)),
        count(stats.minted),
        count(stats.sequence_waits),
        count(stats.clock_behind_events),
        count(stats.max_clock_lag_ms),
        count(stats.clock_behind_errors),
        T::node_id().map(i32::from),
        super::unix_ms_timestamptz(T::epoch_unix_ms()),
        super::unix_ms_timestamptz(shmem::GENERATOR_COUNTERS.get().0.since_unix_ms as i64),
        count(reservations),
        count(waits),
        wait_ms,
    )
}

#[pg_extern(sql = false)]
#[allow(clippy::type_complexity)]
fn chronoid_generators() -> TableIterator<
    'static,
    (
        name!(generator, String),
        name!(last_issued, Option<TimestampWithTimeZone>),
        name!(last_sequence, Option<i32>),
        name!(high_water_mark, Option<TimestampWithTimeZone>),
        name!(minted, i64),
        name!(sequence_waits, i64),
        name!(clock_behind_events, i64),
        name!(max_clock_lag_ms, i64),
        name!(clock_behind_errors, i64),
        name!(node_id, Option<i32>),
        name!(epoch, TimestampWithTimeZone),
        name!(since, TimestampWithTimeZone),
        name!(reservations, i64),
        name!(reservation_waits, i64),
        name!(reservation_wait_time, f64),
    ),
> {
    shmem::require_preloaded("chronoid_generators()");
    TableIterator::new(vec![row::<Nanoflake>(), row::<Caloriosa>(), row::<Uid60>()])
}
