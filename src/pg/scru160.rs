//! SQL functions of the `scru160` type (declared in `sql/scru160.sql`): a
//! 20-byte fixed-length type passed by reference, like core `uuid`.

use std::cmp::Ordering;
use std::ffi::CStr;

use pgrx::datum::{AnyNumeric, Internal, TimestampWithTimeZone};
use pgrx::pg_sys;
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

use super::fmgr::{self, arg, pg_function_info_v1};
use super::{error, invalid_text, BackendLocal, PallocCString, SystemClock};
use crate::core::clock::Clock;
use crate::core::scru160::{self, GenerateError, Generator, Notice, Scru160, LEN};

super::by_reference_fixed_type!(Scru160, "scru160", LEN,
    to_bytes: Scru160::as_bytes,
    from_bytes: Scru160::from_bytes
);

const TYPE: &str = "scru160";

#[pg_extern(sql = false)]
fn scru160_in(input: &CStr) -> Scru160 {
    Scru160::parse(input.to_bytes()).unwrap_or_else(|_| invalid_text(TYPE, input))
}

#[pg_extern(sql = false)]
fn scru160_out(id: Scru160) -> PallocCString {
    PallocCString::new(&id.encode())
}

#[pg_extern(sql = false)]
fn scru160_recv(buf: Internal) -> Scru160 {
    let buf = super::recv_buffer(buf);
    // pq_getmsgbytes raises 08P01 when fewer than 20 bytes remain.
    let bytes = unsafe { pg_sys::pq_getmsgbytes(buf, LEN as i32) }.cast::<[u8; LEN]>();
    Scru160::from_bytes(unsafe { *bytes })
}

#[pg_extern(sql = false)]
fn scru160_send(id: Scru160) -> Vec<u8> {
    id.as_bytes().to_vec()
}

#[pg_extern(sql = false)]
fn scru160_from_bytea(bytes: &[u8]) -> Scru160 {
    let bytes: [u8; LEN] = bytes.try_into().unwrap_or_else(|_| {
        error(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            format!(
                "invalid length for type scru160: a scru160 is exactly 20 bytes, got {}",
                bytes.len()
            ),
        )
    });
    Scru160::from_bytes(bytes)
}

#[pg_extern(sql = false)]
fn scru160_to_bytea(id: Scru160) -> Vec<u8> {
    id.as_bytes().to_vec()
}

#[pg_extern(sql = false)]
fn scru160_to_hex(id: Scru160) -> String {
    String::from_utf8(id.encode_hex().to_vec()).expect("ASCII")
}

#[pg_extern(sql = false)]
fn scru160_timestamp(id: Scru160) -> TimestampWithTimeZone {
    super::unix_ms_timestamptz(id.timestamp() as i64)
}

#[pg_extern(sql = false)]
fn scru160_counter(id: Scru160) -> i32 {
    i32::from(id.counter())
}

#[pg_extern(sql = false)]
fn scru160_random16(id: Scru160) -> i32 {
    i32::from(id.random16())
}

#[pg_extern(sql = false)]
fn scru160_random80(id: Scru160) -> AnyNumeric {
    AnyNumeric::from(id.random80())
}

fn bounds(ts: TimestampWithTimeZone) -> (Scru160, Scru160) {
    let ms = super::timestamptz_unix_ms(ts, TYPE);
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
fn scru160_floor(ts: TimestampWithTimeZone) -> Scru160 {
    bounds(ts).0
}

#[pg_extern(sql = false)]
fn scru160_ceil(ts: TimestampWithTimeZone) -> Scru160 {
    bounds(ts).1
}

static GENERATOR: BackendLocal<Generator> = BackendLocal::new();

#[pg_extern(sql = false)]
fn gen_scru160() -> Scru160 {
    let now = SystemClock.now_ms();
    let result = GENERATOR.with(Generator::new, |g| {
        super::random::with_rng(|rng| g.generate(now, rng))
    });
    match result {
        Ok((id, None)) => id,
        Ok((id, Some(Notice::ClockReset { last_ms, clock_ms }))) => {
            pgrx::warning!(
                "system clock moved back {} ms (more than {} ms) since the last scru160 of this \
                 backend; new IDs sort before earlier ones",
                last_ms - clock_ms,
                scru160::MAX_ROLLBACK_MS
            );
            id
        }
        Err(GenerateError::TimestampOverflow { ms }) => error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!("scru160 timestamp overflow: {ms} ms does not fit in 48 bits"),
        ),
    }
}

// Comparison, hashing and sort support: plain fmgr functions (see fmgr.rs).

/// # Safety
/// `d` is a scru160 datum: a pointer to 20 bytes.
#[inline(always)]
unsafe fn bytes<'a>(d: pg_sys::Datum) -> &'a [u8; LEN] {
    unsafe { &*d.cast_mut_ptr::<[u8; LEN]>() }
}

#[inline(always)]
unsafe fn compare(fcinfo: pg_sys::FunctionCallInfo) -> Ordering {
    unsafe { bytes(arg(fcinfo, 0)).cmp(bytes(arg(fcinfo, 1))) }
}

pg_function_info_v1!(
    pg_finfo_scru160_eq,
    pg_finfo_scru160_ne,
    pg_finfo_scru160_lt,
    pg_finfo_scru160_le,
    pg_finfo_scru160_gt,
    pg_finfo_scru160_ge,
    pg_finfo_scru160_cmp,
    pg_finfo_scru160_hash,
    pg_finfo_scru160_hash_extended,
    pg_finfo_scru160_sortsupport,
    pg_finfo_scru160_smaller,
    pg_finfo_scru160_larger,
);

/// For min(): one of the two input datums, which outlive the call.
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_smaller(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe {
        if compare(fcinfo).is_le() {
            arg(fcinfo, 0)
        } else {
            arg(fcinfo, 1)
        }
    }
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_larger(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe {
        if compare(fcinfo).is_ge() {
            arg(fcinfo, 0)
        } else {
            arg(fcinfo, 1)
        }
    }
}

#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_eq(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe { compare(fcinfo).is_eq() }.into()
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_ne(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe { compare(fcinfo).is_ne() }.into()
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_lt(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe { compare(fcinfo).is_lt() }.into()
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_le(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe { compare(fcinfo).is_le() }.into()
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_gt(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe { compare(fcinfo).is_gt() }.into()
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_ge(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe { compare(fcinfo).is_ge() }.into()
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_cmp(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    (unsafe { compare(fcinfo) } as i32).into()
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_hash(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    unsafe { fmgr::hash_bytes(bytes(arg(fcinfo, 0)).as_ptr(), LEN as i32) }.into()
}
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_hash_extended(
    fcinfo: pg_sys::FunctionCallInfo,
) -> pg_sys::Datum {
    unsafe {
        let seed = arg(fcinfo, 1).value() as u64;
        fmgr::hash_bytes_extended(bytes(arg(fcinfo, 0)).as_ptr(), LEN as i32, seed)
    }
    .into()
}

// The per-row functions here and in fmgr.rs (comparisons, hashes, the
// abbreviation converter) are called by PostgreSQL without a pg_guard, so
// that sorts and index builds pay nothing for one: each only reads its
// arguments' 20 bytes, compares or hashes them with functions that cannot
// raise an ERROR (hash_bytes*, addHyperLogLog), allocates nothing, and has no
// operation that can panic. What can fail (the sortsupport set-up, which
// allocates; the abort check, which may log) is guarded.

unsafe extern "C-unwind" fn fast_cmp(
    a: pg_sys::Datum,
    b: pg_sys::Datum,
    _: pg_sys::SortSupport,
) -> i32 {
    unsafe { bytes(a).cmp(bytes(b)) as i32 }
}

/// The abbreviated key: timestamp and counter, which tell almost every pair
/// of time-ordered IDs apart without touching the other 12 bytes.
unsafe extern "C-unwind" fn abbrev_convert(
    d: pg_sys::Datum,
    ssup: pg_sys::SortSupport,
) -> pg_sys::Datum {
    let key = Scru160::from_bytes(*unsafe { bytes(d) }).prefix_u64();
    unsafe { fmgr::note_abbreviation(ssup, key) };
    pg_sys::Datum::from(key)
}

/// Guarded: it allocates the abbreviation state in the sort's memory
/// context, which can raise an ERROR (out of memory).
#[pgrx::pg_guard]
#[unsafe(no_mangle)]
pub unsafe extern "C-unwind" fn scru160_sortsupport(
    fcinfo: pg_sys::FunctionCallInfo,
) -> pg_sys::Datum {
    unsafe {
        let ssup = arg(fcinfo, 0).cast_mut_ptr::<pg_sys::SortSupportData>();
        (*ssup).comparator = Some(fast_cmp);
        if (*ssup).abbreviate {
            fmgr::install_abbreviation(ssup, abbrev_convert, fast_cmp);
        }
    }
    pg_sys::Datum::null()
}
