//! SQL functions of the `caloriosa` type (declared in `sql/caloriosa.sql`;
//! operators and operator classes in `sql/int8_backed.sql`).

use std::ffi::CStr;

use pgrx::datum::{AnyNumeric, Internal, TimestampWithTimeZone};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::{error, error_with_hint, invalid_text, shmem, PallocCString, SystemClock};
use crate::core::caloriosa::{Caloriosa, GenerateError, ParseError, MAX_CLOCK_WAIT_MS};

super::by_value_8_byte_type!(
    Caloriosa, "caloriosa",
    to_bits: Caloriosa::to_i64,
    from_bits: Caloriosa::from_stored
);

const TYPE: &str = "caloriosa";

#[pg_extern(sql = false)]
fn caloriosa_in(input: &CStr) -> Caloriosa {
    match Caloriosa::parse(input.to_bytes()) {
        Ok(name) => name,
        Err(ParseError::Syntax) => invalid_text(TYPE, input),
        Err(ParseError::NoPrefix { value }) => error_with_hint(
            PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!(
                "invalid input syntax for type caloriosa: \"{}\"",
                super::quote_bytes(input.to_bytes())
            ),
            &format!(
                "It is base 62 for {value}, which lacks the prefix bit (2^63) of the 11-character \
                 layout; the seed's example \"katjjMQN\" is in the old 48-bit layout, which this \
                 type does not store."
            ),
        ),
    }
}

#[pg_extern(sql = false)]
fn caloriosa_out(name: Caloriosa) -> PallocCString {
    PallocCString::new(&name.encode())
}

#[pg_extern(sql = false)]
fn caloriosa_recv(buf: Internal) -> Caloriosa {
    let bits = unsafe { super::recv_i64(buf) };
    Caloriosa::from_u64(bits as u64).unwrap_or_else(|| {
        error(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            format!("invalid external caloriosa value: the prefix bit is not set ({bits})"),
        )
    })
}

/// The bigint with the same 64 bits: caloriosa's prefix bit is bigint's sign.
#[pg_extern(sql = false)]
fn caloriosa_from_bigint(value: i64) -> Caloriosa {
    Caloriosa::from_u64(value as u64).unwrap_or_else(|| {
        error(
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            format!(
                "value {value} is out of range for type caloriosa: as a bigint every caloriosa is \
                 negative (its prefix bit is the sign bit)"
            ),
        )
    })
}

/// The unsigned 64-bit number the seed calls the snowflake.
#[pg_extern(sql = false)]
fn caloriosa_to_numeric(name: Caloriosa) -> AnyNumeric {
    AnyNumeric::from(name.to_u64())
}

#[pg_extern(sql = false)]
fn gen_caloriosa() -> Caloriosa {
    shmem::require_preloaded("gen_caloriosa()");
    let random = super::random::random_u16();
    match Caloriosa::generate(shmem::CALORIOSA_TICKER.get(), &mut SystemClock, random) {
        Ok(name) => name,
        Err(GenerateError::BeforeEpoch | GenerateError::TimestampOverflow) => error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            "the system clock is outside the caloriosa range (2017-01-01 .. 2086-09-07)".into(),
        ),
        Err(GenerateError::ClockBehind(behind)) => {
            super::clock_behind(TYPE, behind, MAX_CLOCK_WAIT_MS)
        }
    }
}

#[pg_extern(sql = false)]
fn caloriosa_timestamp(name: Caloriosa) -> TimestampWithTimeZone {
    super::unix_ms_timestamptz(name.unix_ms())
}

#[pg_extern(sql = false)]
fn caloriosa_random(name: Caloriosa) -> i32 {
    i32::from(name.random())
}

#[pg_extern(sql = false)]
fn caloriosa_increment(name: Caloriosa) -> i32 {
    i32::from(name.increment())
}

fn bounds(ts: TimestampWithTimeZone) -> (Caloriosa, Caloriosa) {
    let ms = super::timestamptz_unix_ms(ts, TYPE);
    Caloriosa::bounds_of_unix_ms(ms)
        .unwrap_or_else(|| super::timestamp_out_of_range(TYPE, ts, "2017-01-01 .. 2086-09-07"))
}

#[pg_extern(sql = false)]
fn caloriosa_floor(ts: TimestampWithTimeZone) -> Caloriosa {
    bounds(ts).0
}

#[pg_extern(sql = false)]
fn caloriosa_ceil(ts: TimestampWithTimeZone) -> Caloriosa {
    bounds(ts).1
}

// Casts from the narrower integers, as from bigint.

#[pg_extern(sql = false)]
fn caloriosa_from_integer(value: i32) -> Caloriosa {
    caloriosa_from_bigint(i64::from(value))
}

#[pg_extern(sql = false)]
fn caloriosa_from_smallint(value: i16) -> Caloriosa {
    caloriosa_from_bigint(i64::from(value))
}
