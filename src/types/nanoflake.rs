//! SQL functions and settings of the `nanoflake` type (declared, with its
//! operators and operator classes, in `sql/nanoflake.sql`). The shared shape of the epoch + ticker types is in
//! `src/types/counter_id.rs`; here is what only nanoflake has: base-36 text, a node id and
//! an epoch that the server's configuration sets, and reading IDs under
//! another epoch.
//!
//! Type adapters: may import `src/durable/`, `src/pg/` and the files of
//! `src/types/` it names, never `src/generators.rs`.

use pgrx::datum::TimestampWithTimeZone;
use pgrx::pg_sys::GucContext;
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::counter_id::{self, counter_id_functions, CounterIdSqlType};
use crate::durable::generator::NANOFLAKE_TICKER;
use crate::pg::clock::BackendClock;
use crate::pg::datum::SqlDatum;
use crate::pg::error::{error, error_with_hint};
use crate::pg::guc::{self, Parsed, ParsedSetting, Settings, Startup};
use crate::pg::input_error::InputError;
use crate::pg::time::{timestamptz_unix_ms, unix_ms_timestamptz};
use chronoid_formats::base36;
use chronoid_formats::clock::Clock;
use chronoid_formats::counter_id::GenerateError;
use chronoid_formats::nanoflake::{
    Nanoflake, NanoflakeTicker, ParseError, DEFAULT_EPOCH_UNIX_MS, MAX_TIMESTAMP,
};
use chronoid_formats::time::{format_utc_instant, parse_utc_instant};

crate::pg::datum::by_value_8_byte_type!(
    Nanoflake, "nanoflake",
    to_bits: Nanoflake::to_i64,
    from_bits: Nanoflake::from_stored
);

/// `chronoid.nanoflake_epoch`: fixed at server start (when preloaded), since
/// the shared ticker's (ms, sequence) pairs are unique server-wide and only
/// one epoch turns them into unique IDs.
static EPOCH: ParsedSetting = ParsedSetting::new(DEFAULT_EPOCH_UNIX_MS);

struct Epoch;

impl Parsed for Epoch {
    fn setting() -> &'static ParsedSetting {
        &EPOCH
    }
    fn parse(text: &str) -> Result<i64, &'static str> {
        // Not checked against the clock: a server whose clock reads before
        // the epoch (a machine booted before its clock was set) must still
        // start; gen_nanoflake() refuses until the clock passes the epoch.
        parse_utc_instant(text).ok_or(
            "Expected an absolute instant such as \"2020-01-01 00:00:00+00\", \
             \"2020-01-01T00:00:00Z\" or \"2020-01-01 00:00:00 UTC\".",
        )
    }
}

pub const SETTINGS: Settings = Settings {
    names: &[c"chronoid.nanoflake_epoch"],
    define: define_settings,
};

fn define_settings(startup: Startup) {
    // PostgreSQL lets only a preloaded library define a PGC_POSTMASTER
    // setting (elsewhere it is FATAL). Without preload no generator mints
    // nanoflakes (they need shared memory); the epoch then only reads IDs,
    // and still comes from the server's configuration alone (PGC_SIGHUP).
    guc::define_parsed::<Epoch>(
        c"chronoid.nanoflake_epoch",
        c"The instant nanoflake timestamps count from; fixed at server start.",
        c"An absolute instant such as '2020-01-01 00:00:00+00', '2020-01-01T00:00:00Z' or \
          '2020-01-01 00:00:00 UTC' (UTC unless an offset is given); gen_nanoflake() refuses while the clock is before it.",
        format_utc_instant(DEFAULT_EPOCH_UNIX_MS),
        match startup {
            Startup::Preloaded => GucContext::PGC_POSTMASTER,
            Startup::Session => GucContext::PGC_SIGHUP,
        },
    );
}

/// From `_PG_init` while preloading: a clock before the epoch does not
/// stop the server, but the log says why gen_nanoflake() will refuse.
pub fn log_epoch_ahead_of_clock() {
    let epoch = EPOCH.get();
    let now = BackendClock.now_ms() as i64;
    if now < epoch {
        pgrx::warning!(
            "chronoid: the system clock ({}) reads before chronoid.nanoflake_epoch ({}): \
             gen_nanoflake() refuses (SQLSTATE 22023) until the clock passes the epoch",
            format_utc_instant(now),
            format_utc_instant(epoch)
        );
    }
}

impl CounterIdSqlType for Nanoflake {
    const NAME: &'static str = "nanoflake";

    fn ticker() -> &'static NanoflakeTicker {
        NANOFLAKE_TICKER.get()
    }
    const GENERATOR: crate::durable::generator::Generator =
        crate::durable::generator::Generator::Nanoflake;
    fn epoch_unix_ms() -> i64 {
        EPOCH.get()
    }
    fn node_or_random(node: Option<u16>, _function: &str) -> u16 {
        chronoid_formats::node_id::nanoflake_generator(node)
    }
    fn carried_node(node: Option<u16>) -> Option<u16> {
        Some(chronoid_formats::node_id::nanoflake_generator(node))
    }
    fn node_bits_unguarded(node: Option<u16>) -> Option<u16> {
        Some(chronoid_formats::node_id::nanoflake_generator(node))
    }
    fn to_bits(self) -> i64 {
        Nanoflake::to_i64(self)
    }
    fn unix_ms(self, epoch_unix_ms: i64) -> i64 {
        Nanoflake::unix_ms(self, epoch_unix_ms)
    }
    fn from_bits(bits: i64) -> Option<Self> {
        Nanoflake::from_i64(bits)
    }
    fn recv_rejects(bits: i64) -> String {
        format!("invalid external nanoflake value: negative ({bits})")
    }
    fn bigint_rejects(value: i64) -> String {
        format!("value {value} is out of range for type nanoflake: a nanoflake is never negative")
    }
    fn time_range(epoch_unix_ms: i64) -> String {
        format!(
            "the 41-bit millisecond range starting at the epoch ({})",
            unix_ms_timestamptz(epoch_unix_ms)
        )
    }
    fn generate_failed(err: GenerateError) -> ! {
        match err {
            GenerateError::BeforeEpoch {
                epoch_unix_ms,
                now_unix_ms,
            } => error_with_hint(
                PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!(
                    "chronoid.nanoflake_epoch ({}) lies after the current time ({})",
                    unix_ms_timestamptz(epoch_unix_ms),
                    unix_ms_timestamptz(now_unix_ms as i64)
                ),
                "gen_nanoflake() makes IDs once the system clock passes the epoch: set the \
                 clock right (a machine that booted before its clock was set), or set \
                 chronoid.nanoflake_epoch to an earlier instant and restart.",
            ),
            GenerateError::TimestampOverflow { ms_since_epoch } => error(
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                format!(
                    "nanoflake timestamp overflow: {ms_since_epoch} ms since \
                     chronoid.nanoflake_epoch does not fit in 41 bits (at most {MAX_TIMESTAMP})"
                ),
            ),
            GenerateError::PastTickerRange {
                unix_ms,
                last_unix_ms,
            } => counter_id::past_ticker_range(Self::NAME, unix_ms, last_unix_ms),
            GenerateError::FieldOutOfRange { value, max } => error(
                PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!("chronoid.node_id {value} is above {max}"),
            ),
            GenerateError::Abandoned => counter_id::abandoned(Self::NAME),
            GenerateError::ClockBehind(behind) => counter_id::clock_behind(
                Self::NAME,
                behind,
                chronoid_formats::counter_id::MAX_CLOCK_WAIT_MS,
                Self::GENERATOR.durable_mark(),
            ),
        }
    }
}

counter_id_functions!(Nanoflake {
    recv: nanoflake_recv,
    from_bigint: nanoflake_from_bigint,
    from_integer: nanoflake_from_integer,
    from_smallint: nanoflake_from_smallint,
    generate: gen_nanoflake,
    timestamp: nanoflake_timestamp,
    floor: nanoflake_floor,
    ceil: nanoflake_ceil,
});

// Text input and output, run once per value by COPY: without pgrx's guard
// (see fmgr::unguarded_text_io!), only a rejected input raises an ERROR.
crate::pg::fmgr::unguarded_text_io!(
    input "nanoflake_in_wrapper": parse_text, reject_text;
    output "nanoflake_out_wrapper": i64, print_text
);

fn parse_text(text: &[u8]) -> Result<i64, ParseError> {
    Nanoflake::parse(text).map(|id| id.to_i64())
}

fn reject_text(text: &[u8], e: ParseError) -> InputError {
    match e {
        ParseError::Syntax => InputError::invalid_text(Nanoflake::NAME, text),
        ParseError::OutOfRange => InputError::out_of_range(Nanoflake::NAME, text),
    }
}

fn print_text(id: i64, out: &mut [u8; crate::pg::fmgr::MAX_TEXT]) -> usize {
    let mut digits = [0u8; base36::MAX_LEN];
    let start = base36::encode_into(id as u64, &mut digits);
    let text = &digits[start..];
    out[..text.len()].copy_from_slice(text);
    text.len()
}

#[pg_extern(sql = false)]
fn nanoflake_generator(id: SqlDatum<Nanoflake>) -> i32 {
    i32::from(id.generator())
}

#[pg_extern(sql = false)]
fn nanoflake_sequence(id: SqlDatum<Nanoflake>) -> i32 {
    i32::from(id.sequence())
}

// For IDs minted under another epoch (another server's, or this one's
// before its epoch was changed): the epoch is fixed per server, so reading
// them takes it as an argument rather than a session setting.

fn epoch_arg(epoch: TimestampWithTimeZone) -> i64 {
    timestamptz_unix_ms(epoch, Nanoflake::NAME)
}

#[pg_extern(sql = false)]
fn nanoflake_timestamp_at_epoch(
    id: SqlDatum<Nanoflake>,
    epoch: TimestampWithTimeZone,
) -> TimestampWithTimeZone {
    counter_id::timestamp(id.0, epoch_arg(epoch))
}

#[pg_extern(sql = false)]
fn nanoflake_floor_at_epoch(
    ts: TimestampWithTimeZone,
    epoch: TimestampWithTimeZone,
) -> SqlDatum<Nanoflake> {
    SqlDatum(counter_id::bounds(ts, epoch_arg(epoch)).0)
}

#[pg_extern(sql = false)]
fn nanoflake_ceil_at_epoch(
    ts: TimestampWithTimeZone,
    epoch: TimestampWithTimeZone,
) -> SqlDatum<Nanoflake> {
    SqlDatum(counter_id::bounds(ts, epoch_arg(epoch)).1)
}
