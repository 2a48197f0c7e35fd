//! The escape hatch's SQL face: `chronoid_set_high_water_mark(generator,
//! mark)`, as `setval()` is for a sequence. Who may call it, and what it
//! accepts, are here; the move itself is `marks::move_mark`.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use pgrx::datum::TimestampWithTimeZone;
use pgrx::pg_sys;
use pgrx::PgSqlErrorCode;

use chronoid_formats::high_water::LOST_MARK_MS;
use chronoid_formats::ticker::MAX_TICK_MS;
use chronoid_formats::time::format_utc_instant;

use super::generator::Generator;
use super::marks;
use crate::pg::error::{error, error_with_hint};
use crate::pg::guards::{
    refuse_during_recovery, refuse_in_read_only_transaction, require_preloaded,
};
use crate::pg::time::timestamptz_unix_ms;

/// `chronoid_set_high_water_mark(generator, mark)`: as `setval()` is for a
/// sequence, the way out of a mark a forward clock jump left in the future.
#[pgrx::pg_extern(sql = false)]
fn chronoid_set_high_water_mark(generator: &str, mark: TimestampWithTimeZone) {
    const FUNCTION: &str = "chronoid_set_high_water_mark()";
    require_preloaded(FUNCTION);
    // SAFETY: reads the session's user.
    if !unsafe { pg_sys::superuser() } {
        error_with_hint(
            PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
            "permission denied to set a chronoid high-water mark".into(),
            "Only a superuser may: a mark moved back lets the generator issue IDs again.",
        );
    }
    refuse_during_recovery(FUNCTION);
    refuse_in_read_only_transaction(FUNCTION);
    let Some(g) = Generator::from_name(generator) else {
        error_with_hint(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("unknown chronoid generator \"{generator}\""),
            "The generators with a high-water mark are nanoflake, caloriosa and uid60.",
        );
    };
    let ms = timestamptz_unix_ms(mark, "a high-water mark");
    // The ticker moves to the mark, so its next pair lies at the mark: no
    // later than the last millisecond the generator's IDs can hold (one
    // past it, no ID could ever be handed out again). Not at 1 ms either,
    // the mark that says a generator's marks were lost (`LOST_MARK_MS`).
    let last = g.tick_range().map_or(MAX_TICK_MS, |r| r.last_ms);
    let Some(ms) = u64::try_from(ms)
        .ok()
        .filter(|ms| (LOST_MARK_MS + 1..=last).contains(ms))
    else {
        error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!(
                "a high-water mark of {} must lie after 1970-01-01 00:00:00.001 UTC and no later than {}, the last millisecond its IDs can hold",
                g.name(),
                format_utc_instant(last as i64)
            ),
        );
    };
    let replaced = marks::move_mark(g, ms);
    // Pairs may have been handed out up to the old durable mark (by this run
    // or one before it) and up to the ticker's last pair (a forward clock
    // jump, a caller in flight): a new position below either can repeat.
    let reached = replaced
        .last_pair
        .map_or(0, |t| t.unix_ms + 1)
        .max(replaced.durable_mark);
    if ms < reached {
        pgrx::pg_sys::panic::ErrorReport::new(
            PgSqlErrorCode::ERRCODE_WARNING,
            format!(
                "the high-water mark of {} moved back from {} to {}",
                g.name(),
                format_utc_instant(reached as i64),
                format_utc_instant(ms as i64)
            ),
            "chronoid",
        )
        .set_detail(format!(
            "gen_{}() may now issue IDs at or above {} again: any such ID issued before can repeat.",
            g.name(),
            format_utc_instant(ms as i64)
        ))
        .report(pgrx::PgLogLevel::WARNING);
    }
}
