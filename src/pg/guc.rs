//! chronoid's configuration parameters.
//!
//! The values generators read on every call live in plain statics that
//! PostgreSQL's GUC machinery writes, so reading one costs a load.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicI64, Ordering};

use pgrx::pg_sys;

use crate::core::nanoflake::{DEFAULT_EPOCH_UNIX_MS, MAX_GENERATOR};
use crate::core::time::parse_utc_instant;

/// `chronoid.node_id`: the nanoflake generator id of this server.
static mut NODE_ID: c_int = 0;

/// `chronoid.nanoflake_epoch` as the user wrote it; `EPOCH_UNIX_MS` is its value.
static mut NANOFLAKE_EPOCH_TEXT: *mut c_char = std::ptr::null_mut();
static NANOFLAKE_EPOCH_UNIX_MS: AtomicI64 = AtomicI64::new(DEFAULT_EPOCH_UNIX_MS);

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
        unsafe { set_check_detail("Expected an ISO 8601 instant such as \"2020-01-01 00:00:00+00\".") };
        return false;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    if epoch > now {
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
