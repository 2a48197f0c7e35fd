//! SQL functions and settings of the `codokey` type (declared, with its
//! operators and operator classes, in `sql/codokey.sql`).
//!
//! A codokey datum is a varlena laid out exactly like `bytea`: one byte per
//! base-36 digit, holding the digit's value. Its order is the key's text
//! order, so the type reuses PostgreSQL's bytea comparison, hashing and sort
//! support; the functions here take and return that byte string.
//!
//! Storing a key never depends on a context: input and receive accept every
//! key some context can make (`Codokey::parse_any`), so a dump, a COPY or a
//! parallel worker loads whatever was stored. A context (the session's, or
//! an explicit one) is checked where it is used: making, decoding, bounds.
//!
//! Type adapters: may import `src/durable/`, `src/pg/` and the files of
//! `src/types/` it names, never `src/generators.rs`.

use std::ffi::CStr;

use pgrx::datum::{Date, Internal, Timestamp, TimestampWithTimeZone};
use pgrx::pg_sys::GucContext;
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use crate::pg::datum::PallocCString;
use crate::pg::error::{error, error_with_hint};
use crate::pg::guc::{self, Check, IntSetting, Settings, Startup};
use crate::pg::input_error::invalid_text_bytes;
use crate::pg::input_error::InputError;
use chronoid_formats::codokey::{
    Codokey, Context, ContextError, EncodeError, DEFAULT_CONTEXT, DEFAULT_PRECISION, MAX_PRECISION,
    MAX_YEAR, MIN_YEAR,
};
use chronoid_formats::time::PG_EPOCH_UNIX_MS;

// The codokey context and default precision of this session. The context
// is the application's: any user may set it for a session, a role or a
// database. Each setting is checked alone; the pair (year zero <= max year)
// where a key is made or read.
static YEAR_ZERO: IntSetting = IntSetting::new(DEFAULT_CONTEXT.year_zero());
static MAX_YEAR_SETTING: IntSetting = IntSetting::new(DEFAULT_CONTEXT.max_year());
static FRACTION_MAX: IntSetting = IntSetting::new(DEFAULT_CONTEXT.fraction_max() as i32);
static PRECISION: IntSetting = IntSetting::new(DEFAULT_PRECISION as i32);

pub const SETTINGS: Settings = Settings {
    names: &[
        c"chronoid.codokey_year_zero",
        c"chronoid.codokey_max_year",
        c"chronoid.codokey_fraction_max",
        c"chronoid.codokey_precision",
    ],
    define: define_settings,
};

/// A fraction maximum is 10^d - 1 for d = 1..6.
struct FractionMax;

impl Check<i32> for FractionMax {
    fn check(value: &i32) -> Result<(), &'static str> {
        match Context::new(MIN_YEAR, MIN_YEAR, *value as u32) {
            Err(ContextError::FractionMax) => Err(
                "The fraction maximum must be 10^d - 1 for d = 1..6: 9, 99, 999, 9999, 99999 or 999999.",
            ),
            _ => Ok(()),
        }
    }
}

fn define_settings(_: Startup) {
    const CONTEXT: Option<&CStr> =
        Some(c"Part of the codokey context; changing it changes every key.");
    guc::define_int(
        c"chronoid.codokey_year_zero",
        c"First year codokeys can represent.",
        CONTEXT,
        &YEAR_ZERO,
        MIN_YEAR,
        MAX_YEAR,
        GucContext::PGC_USERSET,
        None,
    );
    guc::define_int(
        c"chronoid.codokey_max_year",
        c"Last year codokeys can represent; its countdown from year zero sets the year width.",
        CONTEXT,
        &MAX_YEAR_SETTING,
        MIN_YEAR,
        MAX_YEAR,
        GucContext::PGC_USERSET,
        None,
    );
    guc::define_int(
        c"chronoid.codokey_fraction_max",
        c"Largest codokey fraction of a second: 9 (tenths), 99, 999, 9999, 99999 or 999999 (microseconds).",
        CONTEXT,
        &FRACTION_MAX,
        9,
        999_999,
        GucContext::PGC_USERSET,
        guc::int_check::<FractionMax>(),
    );
    guc::define_int(
        c"chronoid.codokey_precision",
        c"Default codokey precision: 0 year, 1 month, 2 day, 3 hour, 4 minute, 5 second, 6 fraction.",
        None,
        &PRECISION,
        0,
        i32::from(MAX_PRECISION),
        GucContext::PGC_USERSET,
        None,
    );
}

fn context_error(e: ContextError, whose: &str) -> ! {
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
        format!("invalid codokey context{whose}: {what}"),
    )
}

/// The session's context. Its settings are checked one by one when set (a
/// pair cannot be: logins, parallel workers and restores apply them in any
/// order), and as a combination here, when a key is made or read.
fn session_context() -> Context {
    let (year_zero, max_year) = (YEAR_ZERO.get(), MAX_YEAR_SETTING.get());
    Context::new(year_zero, max_year, FRACTION_MAX.get() as u32).unwrap_or_else(|e| {
        context_error(
            e,
            &format!(
                " (chronoid.codokey_year_zero = {year_zero}, chronoid.codokey_max_year = {max_year})"
            ),
        )
    })
}

fn explicit_context(year_zero: i32, max_year: i32, fraction_max: i32) -> Context {
    u32::try_from(fraction_max)
        .map_err(|_| ContextError::FractionMax)
        .and_then(|f| Context::new(year_zero, max_year, f))
        .unwrap_or_else(|e| context_error(e, ""))
}

fn precision_arg(precision: Option<i32>) -> u8 {
    let p = precision.unwrap_or(PRECISION.get());
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

/// A stored key read in a context it does not belong to is a value that
/// context cannot represent: 22P02, as if it had been typed in that context.
fn decode(key: &[u8], ctx: &Context) -> chronoid_formats::codokey::Decoded {
    let key = stored(key);
    key.decode(ctx).unwrap_or_else(|_| {
        error_with_hint(
            PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!(
                "codokey \"{key}\" is not a key of the context (year zero {}, max year {}, fraction max {})",
                ctx.year_zero(),
                ctx.max_year(),
                ctx.fraction_max()
            ),
            "A key made in another context reads back with that context: \
             codokey_timestamp(key, year_zero, max_year, fraction_max).",
        )
    })
}

fn encode(ctx: &Context, unix_micros: i128, precision: u8) -> Vec<u8> {
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

const PG_EPOCH_UNIX_MICROS: i128 = PG_EPOCH_UNIX_MS as i128 * 1000;
const MICROS_PER_DAY: i128 = 86_400_000_000;

/// What a key is made from, as microseconds since 1970 on the calendar the
/// key is written in: a `timestamptz` is an instant, whose calendar is UTC
/// whatever the session's TimeZone; a `timestamp` is a wall-clock reading and
/// a `date` a calendar date, taken as they are. No conversion between them
/// (which PostgreSQL would do in the session's TimeZone) is ever involved.
trait CalendarValue: std::fmt::Display {
    fn finite(&self) -> bool;
    fn pg_micros(&self) -> i128;

    fn unix_micros(&self) -> i128 {
        if !self.finite() {
            error(
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                format!("codokey of an infinite value: {self}"),
            );
        }
        self.pg_micros() + PG_EPOCH_UNIX_MICROS
    }
}

impl CalendarValue for TimestampWithTimeZone {
    fn finite(&self) -> bool {
        self.is_finite()
    }
    fn pg_micros(&self) -> i128 {
        i128::from(self.into_inner())
    }
}

impl CalendarValue for Timestamp {
    fn finite(&self) -> bool {
        self.is_finite()
    }
    fn pg_micros(&self) -> i128 {
        i128::from(self.into_inner())
    }
}

impl CalendarValue for Date {
    fn finite(&self) -> bool {
        self.is_finite()
    }
    fn pg_micros(&self) -> i128 {
        i128::from(self.to_pg_epoch_days()) * MICROS_PER_DAY
    }
}

fn to_timestamptz(unix_micros: i128) -> TimestampWithTimeZone {
    i64::try_from(unix_micros - PG_EPOCH_UNIX_MICROS)
        .ok()
        .and_then(|usec| TimestampWithTimeZone::try_from(usec).ok())
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                "timestamp out of range".into(),
            )
        })
}

// Storage: no context. ----------------------------------------------------------

// The input function by hand, under the symbol pgrx would give it: it needs
// fcinfo->context, to save its error softly when the caller asks
// (PostgreSQL 16+: pg_input_is_valid, COPY ... ON_ERROR).
crate::pg::fmgr::finfo!("codokey_in_wrapper");

#[unsafe(export_name = "codokey_in_wrapper")]
unsafe extern "C-unwind" fn codokey_in(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    // SAFETY: the guard turns an ERROR raised inside into one raised after
    // it; the first argument is a NUL-terminated cstring alive for the call.
    unsafe {
        pg_sys::panic::pgrx_extern_c_guard(|| {
            let input =
                CStr::from_ptr(crate::pg::ffi::arg(fcinfo, 0).cast_mut_ptr::<std::ffi::c_char>())
                    .to_bytes();
            match Codokey::parse_any(input) {
                Ok(key) => key.to_storage().into_datum().expect("a bytea datum"),
                Err(_) => {
                    InputError::invalid_text("codokey", input).report((*fcinfo).context);
                    // A soft error's result is never read.
                    pg_sys::Datum::from(0usize)
                }
            }
        })
    }
}

#[pg_extern(sql = false)]
fn codokey_out(key: &[u8]) -> PallocCString {
    PallocCString::new(stored(key).as_bytes())
}

#[pg_extern(sql = false)]
fn codokey_recv(buf: Internal) -> Vec<u8> {
    checked_storage(crate::pg::ffi::recv_rest(buf), "external codokey value")
}

/// bytea -> codokey: the bytes of the storage (and of the binary form), so
/// the cast accepts exactly what binary receive accepts.
#[pg_extern(sql = false)]
fn codokey_from_bytea(bytes: &[u8]) -> Vec<u8> {
    checked_storage(bytes, "bytea for type codokey")
}

fn checked_storage(bytes: &[u8], what: &str) -> Vec<u8> {
    let key = Codokey::from_storage(bytes)
        .and_then(|k| Codokey::parse_any(k.as_bytes()).ok())
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
                format!(
                    "invalid {what} ({} bytes): no codokey context has this key",
                    bytes.len()
                ),
            )
        });
    key.to_storage()
}

#[pg_extern(sql = false)]
fn codokey_smaller(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.min(b).to_vec()
}

#[pg_extern(sql = false)]
fn codokey_larger(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.max(b).to_vec()
}

// Making keys. ------------------------------------------------------------------
// The precision argument may be NULL (the session's chronoid.codokey_precision),
// so the session-context makers are not STRICT; a NULL value gives NULL.

fn make_in_session(value: &impl CalendarValue, precision: Option<i32>) -> Vec<u8> {
    encode(
        &session_context(),
        value.unix_micros(),
        precision_arg(precision),
    )
}

fn make_in_context(
    value: &impl CalendarValue,
    precision: i32,
    year_zero: i32,
    max_year: i32,
    fraction_max: i32,
) -> Vec<u8> {
    encode(
        &explicit_context(year_zero, max_year, fraction_max),
        value.unix_micros(),
        precision_arg(Some(precision)),
    )
}

#[pg_extern(sql = false)]
fn codokey_encode(ts: Option<TimestampWithTimeZone>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(make_in_session(&ts?, precision))
}

/// `codokey(now() AT TIME ZONE 'Asia/Tokyo')` is a key for Tokyo's calendar.
#[pg_extern(sql = false)]
fn codokey_encode_local(ts: Option<Timestamp>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(make_in_session(&ts?, precision))
}

#[pg_extern(sql = false)]
fn codokey_encode_date(date: Option<Date>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(make_in_session(&date?, precision))
}

/// `codokey(t, precision, year_zero, max_year, fraction_max)` for each type
/// of `t` (timestamptz, timestamp, date): a key made under an explicit
/// context.
macro_rules! encode_in_context {
    ($($name:ident($ty:ty);)*) => {$(
        #[pg_extern(sql = false)]
        fn $name(t: $ty, precision: i32, year_zero: i32, max_year: i32, fraction_max: i32) -> Vec<u8> {
            make_in_context(&t, precision, year_zero, max_year, fraction_max)
        }
    )*};
}

encode_in_context! {
    codokey_encode_in_context(TimestampWithTimeZone);
    codokey_encode_local_in_context(Timestamp);
    codokey_encode_date_in_context(Date);
}

/// `codokey(text, context...)`: a key typed for an explicit context, checked
/// against it. The text is taken as bytes: in a SQL_ASCII or LATIN1 database
/// it need not be UTF-8, and a bad byte is bad input (22P02), not a crash.
#[pg_extern(sql = false)]
fn codokey_parse_in_context(
    text: &[u8],
    year_zero: i32,
    max_year: i32,
    fraction_max: i32,
) -> Vec<u8> {
    let ctx = explicit_context(year_zero, max_year, fraction_max);
    match Codokey::parse(&ctx, text) {
        Ok(key) => key.to_storage(),
        Err(_) => invalid_text_bytes("codokey", text),
    }
}

// Reading keys. -----------------------------------------------------------------

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

// Period bounds, in the session's context. ---------------------------------------

fn period(value: &impl CalendarValue, precision: Option<i32>) -> (Vec<u8>, Vec<u8>) {
    let ctx = session_context();
    let (lo, hi) = Codokey::period_bounds(&ctx, value.unix_micros(), precision_arg(precision))
        .unwrap_or_else(|e| encode_error(&ctx, e));
    (lo.to_storage(), hi.to_storage())
}

#[pg_extern(sql = false)]
fn codokey_floor(ts: Option<TimestampWithTimeZone>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(period(&ts?, precision).0)
}

#[pg_extern(sql = false)]
fn codokey_ceil(ts: Option<TimestampWithTimeZone>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(period(&ts?, precision).1)
}

#[pg_extern(sql = false)]
fn codokey_floor_local(ts: Option<Timestamp>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(period(&ts?, precision).0)
}

#[pg_extern(sql = false)]
fn codokey_ceil_local(ts: Option<Timestamp>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(period(&ts?, precision).1)
}

#[pg_extern(sql = false)]
fn codokey_floor_date(date: Option<Date>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(period(&date?, precision).0)
}

#[pg_extern(sql = false)]
fn codokey_ceil_date(date: Option<Date>, precision: Option<i32>) -> Option<Vec<u8>> {
    Some(period(&date?, precision).1)
}

// Sort support with abbreviated keys that pack the first ten digit values
// (see `Codokey::abbreviate_storage`): sorts and index builds compare one
// integer per pair, as for timestamptz.
crate::pg::fmgr::varlena_sortsupport!("codokey", abbreviate: Codokey::abbreviate_storage);
