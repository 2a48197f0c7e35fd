//! `chronoid_generators()`, behind the `chronoid_generators` view
//! (`sql/generators.sql`): one row per server-wide generator with its
//! ticker, its durable high-water mark and its counters, read from shared
//! memory as the `pg_stat_*` functions read theirs.
//!
//! The top layer, beside `src/lib.rs`: it reads both the type adapters
//! (`src/types/`) and the durable generators (`src/durable/`), and nothing
//! below imports it.

use pgrx::datum::TimestampWithTimeZone;
use pgrx::prelude::*;

use chronoid_formats::caloriosa::Caloriosa;
use chronoid_formats::counter_id::TickSource;
use chronoid_formats::nanoflake::Nanoflake;
use chronoid_formats::uid60::Uid60;

use crate::durable::generator::GENERATOR_COUNTERS;
use crate::durable::{marks, reservation};
use crate::pg::guards::require_preloaded;
use crate::pg::time::unix_ms_timestamptz;
use crate::types::counter_id::CounterIdSqlType;

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
    String,
    TimestampWithTimeZone,
    TimestampWithTimeZone,
    i64,
    i64,
    f64,
);

fn row<T: CounterIdSqlType>() -> Row {
    let stats = T::GENERATOR.stats().snapshot();
    let node = crate::node::identity::node_in_effect("chronoid_generators()");
    // Before its first ID since start a ticker only holds the millisecond
    // it resumed above: nothing issued yet.
    let last = (stats.minted > 0)
        .then(|| T::ticker().last_tick())
        .flatten();
    // The durable mark (the file's): above the one callers check while a
    // reservation waits for the standbys, or after an operator moved it up.
    let mark = marks::durable_marks()[T::GENERATOR as usize];
    let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let (reservations, waits, wait_ms) = reservation::counters(T::GENERATOR);
    (
        T::GENERATOR.name().to_owned(),
        last.map(|t| unix_ms_timestamptz(t.unix_ms as i64)),
        last.map(|t| t.sequence as i32),
        (mark > 0).then(|| unix_ms_timestamptz(mark as i64)),
        count(stats.minted),
        count(stats.sequence_waits),
        count(stats.clock_behind_events),
        count(stats.max_clock_lag_ms),
        count(stats.clock_behind_errors),
        T::carried_node(node.id).map(i32::from),
        crate::node::identity::describe(node.source),
        unix_ms_timestamptz(T::epoch_unix_ms()),
        unix_ms_timestamptz(GENERATOR_COUNTERS.get().0.since_unix_ms as i64),
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
        name!(node_id_source, String),
        name!(epoch, TimestampWithTimeZone),
        name!(since, TimestampWithTimeZone),
        name!(reservations, i64),
        name!(reservation_waits, i64),
        name!(reservation_wait_time, f64),
    ),
> {
    require_preloaded("chronoid_generators()");
    TableIterator::new(vec![row::<Nanoflake>(), row::<Caloriosa>(), row::<Uid60>()])
}
