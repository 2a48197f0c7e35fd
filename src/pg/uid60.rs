//! SQL functions of the `uid60` type (declared in `sql/uid60.sql`;
//! operators and operator classes in `sql/int8_backed.sql`).

use std::ffi::CStr;

use pgrx::datum::{Internal, TimestampWithTimeZone};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::{error, invalid_text, shmem, PallocCString, SystemClock};
use crate::core::uid60::{GenerateError, Uid60, MAX_CLOCK_WAIT_MS};

super::by_value_8_byte_type!(
    Uid60, "uid60",
    to_bits: Uid60::to_i64,
    from_bits: Uid60::from_stored
);

const TYPE: &str = "uid60";

#[pg_extern(sql = false)]
fn uid60_in(input: &CStr) -> Uid60 {
    Uid60::parse(input.to_bytes()).unwrap_or_else(|_| invalid_text(TYPE, input))
}

#[pg_extern(sql = false)]
fn uid60_out(id: Uid60) -> PallocCString {
    let (text, len) = id.encode();
    PallocCString::new(&text[..len])
}

#[pg_extern(sql = false)]
fn uid60_recv(buf: Internal) -> Uid60 {
    let bits = unsafe { super::recv_i64(buf) };
    u64::try_from(bits)
        .ok()
        .and_then(Uid60::from_u64)
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
                format!("invalid external uid60 value: {bits} is not in 0 .. 2^60-1"),
            )
        })
}

#[pg_extern(sql = false)]
fn uid60_from_bigint(value: i64) -> Uid60 {
    u64::try_from(value)
        .ok()
        .and_then(Uid60::from_u64)
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
                format!("value {value} is out of range for type uid60 (0 .. 2^60-1)"),
            )
        })
}

#[pg_extern(sql = false)]
fn gen_uid60() -> Uid60 {
    shmem::require_preloaded("gen_uid60()");
    let random = super::random::random_u16();
    match Uid60::generate(shmem::UID60_TICKER.get(), &mut SystemClock, random) {
        Ok(id) => id,
        Err(GenerateError::BeforeEpoch | GenerateError::TimestampOverflow) => error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            "the system clock is outside the uid60 range (2018-03-01 .. 2157-07-13)".into(),
        ),
        Err(GenerateError::ClockBehind(behind)) => {
            super::clock_behind(TYPE, behind, MAX_CLOCK_WAIT_MS)
        }
    }
}

#[pg_extern(sql = false)]
fn uid60_timestamp(id: Uid60) -> TimestampWithTimeZone {
    super::unix_ms_timestamptz(id.unix_ms())
}

#[pg_extern(sql = false)]
fn uid60_sequence(id: Uid60) -> i32 {
    i32::from(id.sequence())
}

#[pg_extern(sql = false)]
fn uid60_random(id: Uid60) -> i32 {
    i32::from(id.random())
}

fn bounds(ts: TimestampWithTimeZone) -> (Uid60, Uid60) {
    let ms = super::timestamptz_unix_ms(ts, TYPE);
    Uid60::bounds_of_unix_ms(ms)
        .unwrap_or_else(|| super::timestamp_out_of_range(TYPE, ts, "2018-03-01 .. 2157-07-13"))
}

#[pg_extern(sql = false)]
fn uid60_floor(ts: TimestampWithTimeZone) -> Uid60 {
    bounds(ts).0
}

#[pg_extern(sql = false)]
fn uid60_ceil(ts: TimestampWithTimeZone) -> Uid60 {
    bounds(ts).1
}

// Casts from the narrower integers, as from bigint.

#[pg_extern(sql = false)]
fn uid60_from_integer(value: i32) -> Uid60 {
    uid60_from_bigint(i64::from(value))
}

#[pg_extern(sql = false)]
fn uid60_from_smallint(value: i16) -> Uid60 {
    uid60_from_bigint(i64::from(value))
}
