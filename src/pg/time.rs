//! `timestamptz` to and from unix milliseconds, the unit every chronoid
//! format's timestamp is read and bounded in, with the errors for what no
//! millisecond or no format can hold.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use pgrx::datum::TimestampWithTimeZone;
use pgrx::PgSqlErrorCode;

use chronoid_formats::time::{pg_usec_to_unix_ms, unix_ms_to_pg_usec};

use super::error::error;

/// The unix millisecond a `timestamptz` falls in; infinities have none.
pub fn timestamptz_unix_ms(ts: TimestampWithTimeZone, type_name: &str) -> i64 {
    if !ts.is_finite() {
        error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!("timestamp out of range for type {type_name}: {ts}"),
        );
    }
    pg_usec_to_unix_ms(ts.into_inner())
}

pub fn unix_ms_timestamptz(ms: i64) -> TimestampWithTimeZone {
    unix_ms_to_pg_usec(ms)
        .and_then(|usec| TimestampWithTimeZone::try_from(usec).ok())
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                "timestamp out of range".into(),
            )
        })
}

/// A `timestamptz` outside the range a type's timestamp field can hold.
pub fn timestamp_out_of_range(type_name: &str, ts: TimestampWithTimeZone, range: &str) -> ! {
    error(
        PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
        format!("timestamp out of range for type {type_name}: {ts} is outside {range}"),
    )
}
