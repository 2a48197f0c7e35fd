//! SQL functions of the `nanoflake` type. The type, its operators and operator
//! classes are declared in `sql/nanoflake.sql`; comparison and hashing reuse
//! PostgreSQL's own `int8` functions, since a nanoflake datum is an int8 datum.

use std::ffi::CStr;

use pgrx::datum::{Internal, TimestampWithTimeZone};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::{error, guc, invalid_text, shmem, text_out_of_range, SystemClock};
use crate::core::base36;
use crate::core::nanoflake::{GenerateError, Nanoflake, ParseError, MAX_TIMESTAMP};

super::by_value_8_byte_type!(
    Nanoflake, "nanoflake",
    to_bits: Nanoflake::to_i64,
    from_bits: Nanoflake::from_stored
);

const TYPE: &str = "nanoflake";

#[pg_extern(sql = false)]
fn nanoflake_in(input: &CStr) -> Nanoflake {
    match Nanoflake::parse(input.to_bytes()) {
        Ok(id) => id,
        Err(ParseError::Syntax) => invalid_text(TYPE, input),
        Err(ParseError::OutOfRange) => text_out_of_range(TYPE, input),
    }
}

#[pg_extern(sql = false)]
fn nanoflake_out(id: Nanoflake) -> super::PallocCString {
    let mut digits = [0u8; base36::MAX_LEN];
    let start = base36::encode_into(id.to_i64() as u64, &mut digits);
    super::PallocCString::new(&digits[start..])
}

#[pg_extern(sql = false)]
fn nanoflake_recv(buf: Internal) -> Nanoflake {
    let bits = unsafe { super::recv_i64(buf) };
    Nanoflake::from_i64(bits).unwrap_or_else(|| {
        error(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            format!("invalid external nanoflake value: negative ({bits})"),
        )
    })
}

#[pg_extern(sql = false)]
fn nanoflake_from_bigint(value: i64) -> Nanoflake {
    Nanoflake::from_i64(value).unwrap_or_else(|| {
        error(
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            format!(
                "value {value} is out of range for type nanoflake: a nanoflake is never negative"
            ),
        )
    })
}

#[pg_extern(sql = false)]
fn gen_nanoflake() -> Nanoflake {
    shmem::require_preloaded("gen_nanoflake()");
    let epoch = guc::nanoflake_epoch_unix_ms();
    match Nanoflake::generate(
        shmem::NANOFLAKE_TICKER.get(),
        &mut SystemClock,
        epoch,
        guc::node_id(),
    ) {
        Ok(id) => id,
        Err(GenerateError::EpochInFuture {
            epoch_unix_ms,
            now_unix_ms,
        }) => error(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!(
                "chronoid.nanoflake_epoch ({}) lies after the current time ({})",
                super::unix_ms_timestamptz(epoch_unix_ms),
                super::unix_ms_timestamptz(now_unix_ms as i64)
            ),
        ),
        Err(GenerateError::TimestampOverflow { ms_since_epoch }) => error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!(
                "nanoflake timestamp overflow: {ms_since_epoch} ms since chronoid.nanoflake_epoch \
                 does not fit in 41 bits (at most {MAX_TIMESTAMP})"
            ),
        ),
        Err(GenerateError::ClockBehind(behind)) => {
            super::clock_behind(TYPE, behind, crate::core::nanoflake::MAX_CLOCK_WAIT_MS)
        }
    }
}

#[pg_extern(sql = false)]
fn nanoflake_timestamp(id: Nanoflake) -> TimestampWithTimeZone {
    super::unix_ms_timestamptz(id.unix_ms(guc::nanoflake_epoch_unix_ms()))
}

/// For IDs minted under another epoch (another server's, or this one's
/// before its epoch was changed): the epoch is fixed per server, so reading
/// them takes it as an argument rather than a session setting.
#[pg_extern(sql = false)]
fn nanoflake_timestamp_at_epoch(id: Nanoflake, epoch: TimestampWithTimeZone) -> TimestampWithTimeZone {
    super::unix_ms_timestamptz(id.unix_ms(super::timestamptz_unix_ms(epoch, TYPE)))
}

#[pg_extern(sql = false)]
fn nanoflake_generator(id: Nanoflake) -> i32 {
    i32::from(id.generator())
}

#[pg_extern(sql = false)]
fn nanoflake_sequence(id: Nanoflake) -> i32 {
    i32::from(id.sequence())
}

/// The IDs of the millisecond `ts` falls in, under an epoch.
fn bounds(ts: TimestampWithTimeZone, epoch: i64) -> (Nanoflake, Nanoflake) {
    let ms = super::timestamptz_unix_ms(ts, TYPE);
    ms.checked_sub(epoch)
        .and_then(|ms| u64::try_from(ms).ok())
        .and_then(Nanoflake::bounds_of_ms)
        .unwrap_or_else(|| {
            super::timestamp_out_of_range(
                TYPE,
                ts,
                &format!(
                    "the 41-bit millisecond range starting at the epoch ({})",
                    super::unix_ms_timestamptz(epoch)
                ),
            )
        })
}

#[pg_extern(sql = false)]
fn nanoflake_floor(ts: TimestampWithTimeZone) -> Nanoflake {
    bounds(ts, guc::nanoflake_epoch_unix_ms()).0
}

#[pg_extern(sql = false)]
fn nanoflake_ceil(ts: TimestampWithTimeZone) -> Nanoflake {
    bounds(ts, guc::nanoflake_epoch_unix_ms()).1
}

#[pg_extern(sql = false)]
fn nanoflake_floor_at_epoch(ts: TimestampWithTimeZone, epoch: TimestampWithTimeZone) -> Nanoflake {
    bounds(ts, super::timestamptz_unix_ms(epoch, TYPE)).0
}

#[pg_extern(sql = false)]
fn nanoflake_ceil_at_epoch(ts: TimestampWithTimeZone, epoch: TimestampWithTimeZone) -> Nanoflake {
    bounds(ts, super::timestamptz_unix_ms(epoch, TYPE)).1
}

// Casts from the narrower integers, as from bigint.

#[pg_extern(sql = false)]
fn nanoflake_from_integer(value: i32) -> Nanoflake {
    nanoflake_from_bigint(i64::from(value))
}

#[pg_extern(sql = false)]
fn nanoflake_from_smallint(value: i16) -> Nanoflake {
    nanoflake_from_bigint(i64::from(value))
}
