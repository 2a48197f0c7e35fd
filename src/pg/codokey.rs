//! SQL functions of the `codokey` type (declared in `sql/codokey.sql`).
//!
//! A codokey datum is a varlena laid out exactly like `bytea`: one byte per
//! base-36 digit, holding the digit's value. Its order is the key's text
//! order, so the type reuses PostgreSQL's bytea comparison, hashing and sort
//! support; the functions here take and return that byte string.

use std::ffi::CStr;

use pgrx::datum::{Internal, Timestamp, TimestampWithTimeZone};
use pgrx::pg_sys;
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::{error, guc, invalid_text, PallocCString};
use crate::core::codokey::{
    Codokey, Context, ContextError, DecodeError, EncodeError, MAX_PRECISION,
};

const TYPE: &str = "codokey";

fn context_error(e: ContextError) -> ! {
    let what = match e {
        ContextError::YearRange => {
            "the year zero must lie in 1..=294276 and not after the maximum year"
        }
        ContextError::FractionMax => {
            "the fraction maximum must be 9, 99, 999, 9999, 99999 or 999999"
        }
    };
    error(
        PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
        format!("invalid codokey context: {what}"),
    )
}

fn session_context() -> Context {
    guc::codokey_context().unwrap_or_else(|e| context_error(e))
}

fn explicit_context(year_zero: i32, max_year: i32, fraction_max: i32) -> Context {
    u32::try_from(fraction_max)
        .map_err(|_| ContextError::FractionMax)
        .and_then(|f| Context::new(year_zero, max_year, f))
        .unwrap_or_else(|e| context_error(e))
}

fn precision_arg(precision: Option<i32>) -> u8 {
    let p = precision.unwrap_or(i32::from(guc::codokey_precision()));
    u8::try_from(p)
        .ok()
        .filter(|p| *p <= MAX_PRECISION)
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!("codokey precision must be 0 (year) .. 6 (fraction of a second), got {p}"),
            )
        })
}

fn stored(key: &[u8]) -> Codokey {
    Codokey::from_storage(key).unwrap_or_else(|| {
        error(
            PgSqlErrorCode::ERRCODE_DATA_CORRUPTED,
            "corrupt codokey value: a byte is not a base-36 digit".into(),
        )
    })
}

fn decode(key: &[u8], ctx: &Context) -> crate::core::codokey::Decoded {
    let key = stored(key);
    key.decode(ctx).unwrap_or_else(|_| {
        error(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!(
                "codokey \"{key}\" is not a key of the context (year zero {}, max year {}, fraction max {})",
                ctx.year_zero(),
                ctx.max_year(),
                ctx.fraction_max()
            ),
        )
    })
}

fn encode(ctx: &Context, unix_micros: i64, precision: u8) -> Vec<u8> {
    Codokey::encode(ctx, unix_micros, precision)
        .unwrap_or_else(|e| encode_error(ctx, e))
        .to_storage()
}

fn encode_error(ctx: &Context, e: EncodeError) -> ! {
    match e {
        EncodeError::YearOutOfContext { year } => error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!(
                "year {year} is outside the codokey context ({} .. {})",
                ctx.year_zero(),
                ctx.max_year()
            ),
        ),
        EncodeError::Precision => unreachable!("precision checked by precision_arg"),
    }
}

/// Microseconds since 1970 of a finite timestamp; the calendar of a
/// `timestamptz` is UTC whatever the session's TimeZone.
fn unix_micros(pg_usec: i64, finite: bool) -> i64 {
    if !finite {
        error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            "codokey of an infinite timestamp".into(),
        );
    }
    pg_usec + crate::core::time::PG_EPOCH_UNIX_MS * 1000
}

fn to_timestamptz(unix_micros: i64) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(unix_micros - crate::core::time::PG_EPOCH_UNIX_MS * 1000)
        .unwrap_or_else(|_| {
            error(
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                "timestamp out of range".into(),
            )
        })
}

#[pg_extern(sql = false)]
fn codokey_in(input: &CStr) -> Vec<u8> {
    match Codokey::parse(&session_context(), input.to_bytes()) {
        Ok(key) => key.to_storage(),
        Err(_) => invalid_text(TYPE, input),
    }
}

#[pg_extern(sql = false)]
fn codokey_out(key: &[u8]) -> PallocCString {
    PallocCString::new(stored(key).as_bytes())
}

#[pg_extern(sql = false)]
fn codokey_recv(buf: Internal) -> Vec<u8> {
    let buf = super::recv_buffer(buf);
    let bytes = unsafe {
        let remaining = ((*buf).len - (*buf).cursor) as usize;
        std::slice::from_raw_parts(
            pg_sys::pq_getmsgbytes(buf, remaining as i32).cast::<u8>(),
            remaining,
        )
    };
    let key = Codokey::from_storage(bytes)
        .and_then(|k| Codokey::parse(&session_context(), k.as_bytes()).ok())
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
                format!(
                    "invalid external codokey value ({} bytes) for the session's codokey context",
                    bytes.len()
                ),
            )
        });
    key.to_storage()
}

// The precision argument may be NULL (the session's chronoid.codokey_precision),
// so these are not STRICT; a NULL timestamp gives NULL.

#[pg_extern(sql = false)]
fn codokey_encode(ts: Option<TimestampWithTimeZone>, precision: Option<i32>) -> Option<Vec<u8>> {
    ts.map(|ts| encode_in_session(ts.into_inner(), ts.is_finite(), precision))
}

/// A `timestamp` without time zone is a wall-clock reading: its own calendar
/// fields are encoded, which is how a key "in a time zone" is made:
/// `codokey(now() AT TIME ZONE 'Asia/Tokyo')`.
#[pg_extern(sql = false)]
fn codokey_encode_local(ts: Option<Timestamp>, precision: Option<i32>) -> Option<Vec<u8>> {
    ts.map(|ts| encode_in_session(ts.into_inner(), ts.is_finite(), precision))
}

/// Either timestamp type, as microseconds since 2000-01-01, in the session's context.
fn encode_in_session(pg_usec: i64, finite: bool, precision: Option<i32>) -> Vec<u8> {
    encode(
        &session_context(),
        unix_micros(pg_usec, finite),
        precision_arg(precision),
    )
}

#[pg_extern(sql = false)]
fn codokey_encode_in_context(
    ts: TimestampWithTimeZone,
    precision: i32,
    year_zero: i32,
    max_year: i32,
    fraction_max: i32,
) -> Vec<u8> {
    let ctx = explicit_context(year_zero, max_year, fraction_max);
    encode(
        &ctx,
        unix_micros(ts.into_inner(), ts.is_finite()),
        precision_arg(Some(precision)),
    )
}

#[pg_extern(sql = false)]
fn codokey_parse_in_context(
    text: &str,
    year_zero: i32,
    max_year: i32,
    fraction_max: i32,
) -> Vec<u8> {
    let ctx = explicit_context(year_zero, max_year, fraction_max);
    match Codokey::parse(&ctx, text.as_bytes()) {
        Ok(key) => key.to_storage(),
        Err(DecodeError::Length | DecodeError::Digit | DecodeError::Field) => error(
            PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!("invalid input syntax for type codokey: \"{text}\""),
        ),
    }
}

#[pg_extern(sql = false)]
fn codokey_timestamp(key: &[u8]) -> TimestampWithTimeZone {
    to_timestamptz(decode(key, &session_context()).unix_micros)
}

#[pg_extern(sql = false)]
fn codokey_timestamp_in_context(
    key: &[u8],
    year_zero: i32,
    max_year: i32,
    fraction_max: i32,
) -> TimestampWithTimeZone {
    to_timestamptz(decode(key, &explicit_context(year_zero, max_year, fraction_max)).unix_micros)
}

#[pg_extern(sql = false)]
fn codokey_precision(key: &[u8]) -> i32 {
    i32::from(decode(key, &session_context()).precision)
}

#[pg_extern(sql = false)]
fn codokey_precision_in_context(
    key: &[u8],
    year_zero: i32,
    max_year: i32,
    fraction_max: i32,
) -> i32 {
    i32::from(decode(key, &explicit_context(year_zero, max_year, fraction_max)).precision)
}

fn period(ts: TimestampWithTimeZone, precision: Option<i32>) -> (Vec<u8>, Vec<u8>) {
    let ctx = session_context();
    let micros = unix_micros(ts.into_inner(), ts.is_finite());
    let (lo, hi) = Codokey::period_bounds(&ctx, micros, precision_arg(precision))
        .unwrap_or_else(|e| encode_error(&ctx, e));
    (lo.to_storage(), hi.to_storage())
}

#[pg_extern(sql = false)]
fn codokey_floor(ts: Option<TimestampWithTimeZone>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(period(ts?, precision).0)
}

#[pg_extern(sql = false)]
fn codokey_ceil(ts: Option<TimestampWithTimeZone>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(period(ts?, precision).1)
}
