//! chronoid's configuration parameters.
//!
//! The values generators read on every call live in plain statics that
//! PostgreSQL's GUC machinery writes, so reading one costs a load.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicI64, Ordering};

use pgrx::pg_sys;

use crate::core::clock::Clock;

use crate::core::codokey::{
    Context, ContextError, DEFAULT_CONTEXT, DEFAULT_PRECISION, MAX_PRECISION,
};
use crate::core::nanoflake::{DEFAULT_EPOCH_UNIX_MS, MAX_GENERATOR};
use crate::core::time::parse_utc_instant;

/// `chronoid.node_id`: the nanoflake generator id of this server.
static mut NODE_ID: c_int = 0;

/// `chronoid.nanoflake_epoch` as the user wrote it; `EPOCH_UNIX_MS` is its value.
static mut NANOFLAKE_EPOCH_TEXT: *mut c_char = std::ptr::null_mut();
static NANOFLAKE_EPOCH_UNIX_MS: AtomicI64 = AtomicI64::new(DEFAULT_EPOCH_UNIX_MS);

/// The codokey context and precision of this session.
static mut CODOKEY_YEAR_ZERO: c_int = 1970;
static mut CODOKEY_MAX_YEAR: c_int = 3265;
static mut CODOKEY_FRACTION_MAX: c_int = 9;
static mut CODOKEY_PRECISION: c_int = DEFAULT_PRECISION as c_int;

pub fn codokey_context() -> Result<Context, ContextError> {
    // SAFETY: GUC statics, written by the GUC machinery in this thread only.
    unsafe {
        Context::new(
            CODOKEY_YEAR_ZERO,
            CODOKEY_MAX_YEAR,
            CODOKEY_FRACTION_MAX as u32,
        )
    }
}

pub fn codokey_precision() -> u8 {
    unsafe { CODOKEY_PRECISION as u8 }
}

pub fn node_id() -> u16 {
    // SAFETY: written only by the GUC machinery, in this backend's one thread;
    // the range 0..=1023 is enforced by DefineCustomIntVariable.
    unsafe { NODE_ID as u16 }
}

pub fn nanoflake_epoch_unix_ms() -> i64 {
    NANOFLAKE_EPOCH_UNIX_MS.load(Ordering::Relaxed)
}

pub fn define() {
    unsafe {
        // Both are PGC_SUSET: whoever can change the node id or the epoch can
        // make this server repeat another server's IDs.
        pg_sys::DefineCustomIntVariable(
            c"chronoid.node_id".as_ptr(),
            c"Generator id (0..1023) that gen_nanoflake() puts in every ID.".as_ptr(),
            c"Give every server that generates nanoflakes for one application its own id.".as_ptr(),
            &raw mut NODE_ID,
            0,
            0,
            c_int::from(MAX_GENERATOR),
            pg_sys::GucContext::PGC_SUSET,
            0,
            None,
            None,
            None,
        );
        pg_sys::DefineCustomStringVariable(
            c"chronoid.nanoflake_epoch".as_ptr(),
            c"The instant nanoflake timestamps count from.".as_ptr(),
            c"An ISO 8601 instant, UTC unless an offset is given; it must not lie in the future."
                .as_ptr(),
            &raw mut NANOFLAKE_EPOCH_TEXT,
            c"2020-01-01 00:00:00+00".as_ptr(),
            pg_sys::GucContext::PGC_SUSET,
            0,
            Some(check_nanoflake_epoch),
            Some(assign_nanoflake_epoch),
            None,
        );
        // The codokey context is the application's: any user may set it for
        // a session, a role or a database.
        pg_sys::DefineCustomIntVariable(
            c"chronoid.codokey_year_zero".as_ptr(),
            c"First year codokeys can represent.".as_ptr(),
            c"Part of the codokey context; changing it changes every key.".as_ptr(),
            &raw mut CODOKEY_YEAR_ZERO,
            DEFAULT_CONTEXT.year_zero(),
            1,
            294_276,
            pg_sys::GucContext::PGC_USERSET,
            0,
            Some(check_codokey_year_zero),
            None,
            None,
        );
        pg_sys::DefineCustomIntVariable(
            c"chronoid.codokey_max_year".as_ptr(),
            c"Last year codokeys can represent; its countdown from year zero sets the year width."
                .as_ptr(),
            c"Part of the codokey context; changing it changes every key.".as_ptr(),
            &raw mut CODOKEY_MAX_YEAR,
            DEFAULT_CONTEXT.max_year(),
            1,
            294_276,
            pg_sys::GucContext::PGC_USERSET,
            0,
            Some(check_codokey_max_year),
            None,
            None,
        );
        pg_sys::DefineCustomIntVariable(
            c"chronoid.codokey_fraction_max".as_ptr(),
            c"Largest codokey fraction of a second: 9 (tenths), 99, 999, 9999, 99999 or 999999 (microseconds).".as_ptr(),
            c"Part of the codokey context; changing it changes every key.".as_ptr(),
            &raw mut CODOKEY_FRACTION_MAX,
            DEFAULT_CONTEXT.fraction_max() as c_int,
            9,
            999_999,
            pg_sys::GucContext::PGC_USERSET,
            0,
            Some(check_codokey_fraction_max),
            None,
            None,
        );
        pg_sys::DefineCustomIntVariable(
            c"chronoid.codokey_precision".as_ptr(),
            c"Default codokey precision: 0 year, 1 month, 2 day, 3 hour, 4 minute, 5 second, 6 fraction.".as_ptr(),
            std::ptr::null(),
            &raw mut CODOKEY_PRECISION,
            c_int::from(DEFAULT_PRECISION),
            0,
            c_int::from(MAX_PRECISION),
            pg_sys::GucContext::PGC_USERSET,
            0,
            None,
            None,
            None,
        );
        #[cfg(not(any(feature = "pg13", feature = "pg14")))]
        pg_sys::MarkGUCPrefixReserved(c"chronoid".as_ptr());
        #[cfg(any(feature = "pg13", feature = "pg14"))]
        pg_sys::EmitWarningsOnPlaceholders(c"chronoid".as_ptr());
    }
}

unsafe fn set_check_detail(detail: &str) {
    let detail = std::ffi::CString::new(detail).unwrap_or_default();
    unsafe { pg_sys::GUC_check_errdetail_string = pg_sys::pstrdup(detail.as_ptr()) };
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn check_nanoflake_epoch(
    newval: *mut *mut c_char,
    _extra: *mut *mut c_void,
    _source: pg_sys::GucSource::Type,
) -> bool {
    let text = unsafe { CStr::from_ptr(*newval) }.to_string_lossy();
    let Some(epoch) = parse_utc_instant(&text) else {
        unsafe {
            set_check_detail("Expected an ISO 8601 instant such as \"2020-01-01 00:00:00+00\".")
        };
        return false;
    };
    if epoch > super::SystemClock.now_ms() as i64 {
        unsafe { set_check_detail("The nanoflake epoch must not lie in the future.") };
        return false;
    }
    true
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn assign_nanoflake_epoch(newval: *const c_char, _extra: *mut c_void) {
    let text = unsafe { CStr::from_ptr(newval) }.to_string_lossy();
    if let Some(epoch) = parse_utc_instant(&text) {
        NANOFLAKE_EPOCH_UNIX_MS.store(epoch, Ordering::Relaxed);
    }
}

/// Values from postgresql.conf and the defaults arrive one by one, so the
/// pair (year zero, max year) is only compared for values set by a session,
/// role or database; a bad pair from the file is reported when a key is made.
fn cross_checked(source: pg_sys::GucSource::Type) -> bool {
    source > pg_sys::GucSource::PGC_S_FILE
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn check_codokey_year_zero(
    newval: *mut c_int,
    _extra: *mut *mut c_void,
    source: pg_sys::GucSource::Type,
) -> bool {
    let (year_zero, max_year) = unsafe { (*newval, CODOKEY_MAX_YEAR) };
    if cross_checked(source) && year_zero > max_year {
        unsafe {
            set_check_detail(&format!(
                "chronoid.codokey_year_zero must not exceed chronoid.codokey_max_year ({max_year})."
            ))
        };
        return false;
    }
    true
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn check_codokey_max_year(
    newval: *mut c_int,
    _extra: *mut *mut c_void,
    source: pg_sys::GucSource::Type,
) -> bool {
    let (max_year, year_zero) = unsafe { (*newval, CODOKEY_YEAR_ZERO) };
    if cross_checked(source) && max_year < year_zero {
        unsafe {
            set_check_detail(&format!(
                "chronoid.codokey_max_year must not be below chronoid.codokey_year_zero ({year_zero})."
            ))
        };
        return false;
    }
    true
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn check_codokey_fraction_max(
    newval: *mut c_int,
    _extra: *mut *mut c_void,
    _source: pg_sys::GucSource::Type,
) -> bool {
    if Context::new(1970, 1970, unsafe { *newval } as u32) == Err(ContextError::FractionMax) {
        unsafe {
            set_check_detail("The fraction maximum must be 10^d - 1 for d = 1..6: 9, 99, 999, 9999, 99999 or 999999.")
        };
        return false;
    }
    true
}
