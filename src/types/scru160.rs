//! SQL functions of the `scru160` type (declared in `sql/scru160.sql`): a
//! 20-byte fixed-length type passed by reference, like core `uuid`.
//!
//! Type adapters: may import `src/durable/`, `src/pg/` and the files of
//! `src/types/` it names, never `src/generators.rs`.

use pgrx::datum::{AnyNumeric, Internal, TimestampWithTimeZone};
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use crate::pg::backend_local::BackendLocal;
use crate::pg::clock::BackendClock;
use crate::pg::datum::SqlDatum;
use crate::pg::error::error;
use crate::pg::input_error::InputError;
use crate::pg::time::{timestamptz_unix_ms, unix_ms_timestamptz};
use chronoid_formats::clock::Clock;
use chronoid_formats::scru160::{
    self, GenerateError, Generator, InstantGenerator, InstantOutOfRange, Notice, Scru160, LEN,
};

crate::pg::datum::by_reference_fixed_type!(Scru160, "scru160", LEN,
    to_bytes: Scru160::as_bytes,
    from_bytes: Scru160::from_bytes
);

const TYPE: &str = "scru160";

// Text input and output, run once per value by COPY: without pgrx's guard
// (see fmgr::unguarded_text_io!), only a rejected input raises an ERROR.
crate::pg::fmgr::unguarded_text_io!(
    input "scru160_in_wrapper": parse_text, reject_text;
    output "scru160_out_wrapper": [u8; LEN], print_text
);

fn parse_text(text: &[u8]) -> Result<[u8; LEN], scru160::ParseError> {
    Scru160::parse(text).map(|id| *id.as_bytes())
}

fn reject_text(text: &[u8], _: scru160::ParseError) -> InputError {
    InputError::invalid_text(TYPE, text)
}

fn print_text(id: [u8; LEN], out: &mut [u8; crate::pg::fmgr::MAX_TEXT]) -> usize {
    let text = Scru160::from_bytes(id).encode();
    out[..text.len()].copy_from_slice(&text);
    text.len()
}

#[pg_extern(sql = false)]
fn scru160_recv(buf: Internal) -> SqlDatum<Scru160> {
    SqlDatum(Scru160::from_bytes(crate::pg::ffi::recv_array::<LEN>(buf)))
}

#[pg_extern(sql = false)]
fn scru160_send(id: SqlDatum<Scru160>) -> Vec<u8> {
    id.as_bytes().to_vec()
}

#[pg_extern(sql = false)]
fn scru160_from_bytea(bytes: &[u8]) -> SqlDatum<Scru160> {
    let bytes: [u8; LEN] = bytes.try_into().unwrap_or_else(|_| {
        error(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            format!(
                "invalid length for type scru160: a scru160 is exactly 20 bytes, got {}",
                bytes.len()
            ),
        )
    });
    SqlDatum(Scru160::from_bytes(bytes))
}

#[pg_extern(sql = false)]
fn scru160_to_bytea(id: SqlDatum<Scru160>) -> Vec<u8> {
    id.as_bytes().to_vec()
}

#[pg_extern(sql = false)]
fn scru160_to_hex(id: SqlDatum<Scru160>) -> String {
    String::from_utf8(id.encode_hex().to_vec()).expect("ASCII")
}

#[pg_extern(sql = false)]
fn scru160_timestamp(id: SqlDatum<Scru160>) -> TimestampWithTimeZone {
    unix_ms_timestamptz(id.timestamp() as i64)
}

#[pg_extern(sql = false)]
fn scru160_counter(id: SqlDatum<Scru160>) -> i32 {
    i32::from(id.counter())
}

#[pg_extern(sql = false)]
fn scru160_random16(id: SqlDatum<Scru160>) -> i32 {
    i32::from(id.random16())
}

#[pg_extern(sql = false)]
fn scru160_random80(id: SqlDatum<Scru160>) -> AnyNumeric {
    AnyNumeric::from(id.random80())
}

fn bounds(ts: TimestampWithTimeZone) -> (Scru160, Scru160) {
    let ms = timestamptz_unix_ms(ts, TYPE);
    u64::try_from(ms)
        .ok()
        .and_then(Scru160::bounds_of_ms)
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                format!(
                    "timestamp out of range for type scru160: {ts} is outside 1970-01-01 .. +10889"
                ),
            )
        })
}

#[pg_extern(sql = false)]
fn scru160_floor(ts: TimestampWithTimeZone) -> SqlDatum<Scru160> {
    SqlDatum(bounds(ts).0)
}

#[pg_extern(sql = false)]
fn scru160_ceil(ts: TimestampWithTimeZone) -> SqlDatum<Scru160> {
    SqlDatum(bounds(ts).1)
}

static GENERATOR: BackendLocal<Generator> = BackendLocal::new();

/// What the unguarded path of gen_scru160() leaves to the guarded one: a
/// state or RNG not set up yet (`None`), or a result with something to
/// report.
type Deferred = Option<Result<(Scru160, Option<Notice>), GenerateError>>;

/// The common case of gen_scru160(), run without pgrx's guard (see
/// `fmgr::unguarded_generator!`): nothing here can raise an ERROR or panic.
#[inline(always)]
fn generate_unguarded() -> Result<[u8; LEN], Deferred> {
    let now = BackendClock.now_ms();
    let result = GENERATOR
        .try_with(|g| crate::pg::random::try_with_seeded_rng(|rng| g.generate(now, rng)))
        .flatten();
    match result {
        Some(Ok((id, None))) => Ok(*id.as_bytes()),
        other => Err(other),
    }
}

/// Everything else, under the guard: first use in a backend, a clock that
/// moved back (a WARNING), or no timestamp left (an ERROR).
fn generate_guarded(deferred: Deferred) -> [u8; LEN] {
    let result = deferred.unwrap_or_else(|| {
        let now = BackendClock.now_ms();
        GENERATOR.with(Generator::new, |g| {
            crate::pg::random::with_rng(|rng| g.generate(now, rng))
        })
    });
    match result {
        Ok((id, None)) => *id.as_bytes(),
        Ok((id, Some(Notice::ClockReset { last_ms, clock_ms }))) => {
            pgrx::warning!(
                "system clock moved back {} ms (more than {} ms) since the last scru160 of this \
                 backend; new IDs sort before earlier ones",
                last_ms - clock_ms,
                scru160::MAX_ROLLBACK_MS
            );
            *id.as_bytes()
        }
        Err(GenerateError::TimestampOverflow { ms }) => error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!("scru160 timestamp overflow: {ms} ms does not fit in 48 bits"),
        ),
    }
}

// gen_scru160() under the symbol its SQL declares: a DEFAULT runs it once per
// row, and pgrx's wrapper (guard, context switch) cost more than the ID.
crate::pg::fmgr::unguarded_generator!("gen_scru160_wrapper", LEN,
    fast: generate_unguarded, slow: generate_guarded);

static INSTANT_GENERATOR: BackendLocal<InstantGenerator> = BackendLocal::new();

/// gen_scru160(timestamptz): an ID for a given instant. Unique through its
/// random bits like any scru160 (see `InstantGenerator`); the clock-driven
/// generator's state is untouched, so live IDs keep their order.
#[pg_extern(sql = false)]
fn gen_scru160_at(ts: TimestampWithTimeZone) -> SqlDatum<Scru160> {
    let ms = timestamptz_unix_ms(ts, TYPE);
    let ms = u64::try_from(ms).unwrap_or(0);
    let result = INSTANT_GENERATOR.with(InstantGenerator::new, |g| {
        crate::pg::random::with_rng(|rng| g.generate_at(ms, rng))
    });
    SqlDatum(result.unwrap_or_else(|InstantOutOfRange { .. }| {
        error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!(
                "timestamp out of range for type scru160: {ts} is outside \
                 1970-01-01 00:00:00.001+00 .. +10889 (timestamps 0 and 2^48-1 are reserved)"
            ),
        )
    }))
}

// Comparison, hashing, min/max and sort support: plain fmgr functions (see
// fmgr.rs), abbreviating a key to its timestamp and counter, which tell
// almost every pair of time-ordered IDs apart without the other 12 bytes.
crate::pg::fmgr::fixed_length_functions!("scru160", LEN, abbreviate: abbreviated_key);

fn abbreviated_key(bytes: &[u8; LEN]) -> u64 {
    Scru160::from_bytes(*bytes).prefix_u64()
}
