//! chronoid's configuration parameters.
//!
//! The values generators read on every call live in plain statics that
//! PostgreSQL's GUC machinery writes, so reading one costs a load.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::atomic::{AtomicI64, Ordering};

use pgrx::pg_sys;

use crate::core::clock::Clock;

use crate::core::codokey::{
    Context, ContextError, DEFAULT_CONTEXT, DEFAULT_PRECISION, MAX_PRECISION, MAX_YEAR, MIN_YEAR,
};
use crate::core::nanoflake::{DEFAULT_EPOCH_UNIX_MS, MAX_GENERATOR};
use crate::core::time::parse_utc_instant;

/// `chronoid.node_id`: the nanoflake generator id of this server.
static mut NODE_ID: c_int = 0;

/// `chronoid.nanoflake_epoch` as the user wrote it, and its value. Fixed at
/// server start (PGC_POSTMASTER): the shared ticker's (ms, sequence) pairs
/// are unique server-wide, and only one epoch turns them into unique IDs.
static mut NANOFLAKE_EPOCH_TEXT: *mut c_char = std::ptr::null_mut();
static NANOFLAKE_EPOCH_UNIX_MS: AtomicI64 = AtomicI64::new(DEFAULT_EPOCH_UNIX_MS);

/// The codokey context and precision of this session.
static mut CODOKEY_YEAR_ZERO: c_int = DEFAULT_CONTEXT.year_zero();
static mut CODOKEY_MAX_YEAR: c_int = DEFAULT_CONTEXT.max_year();
static mut CODOKEY_FRACTION_MAX: c_int = DEFAULT_CONTEXT.fraction_max() as c_int;
static mut CODOKEY_PRECISION: c_int = DEFAULT_PRECISION as c_int;

/// The session's codokey context, or why its settings do not make one (with
/// the year settings, for the message).
pub fn codokey_context() -> Result<Context, (ContextError, i32, i32)> {
    // SAFETY: GUC statics, written by the GUC machinery in this thread only.
    let (year_zero, max_year, fraction_max) =
        unsafe { (CODOKEY_YEAR_ZERO, CODOKEY_MAX_YEAR, CODOKEY_FRACTION_MAX) };
    Context::new(year_zero, max_year, fraction_max as u32).map_err(|e| (e, year_zero, max_year))
}

pub fn codokey_precision() -> u8 {
    // SAFETY: as above; the range 0..=6 is enforced by DefineCustomIntVariable.
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

/// Every setting chronoid defines.
const SETTINGS: [&CStr; 6] = [
    c"chronoid.node_id",
    c"chronoid.nanoflake_epoch",
    c"chronoid.codokey_year_zero",
    c"chronoid.codokey_max_year",
    c"chronoid.codokey_fraction_max",
    c"chronoid.codokey_precision",
];

pub fn define() {
    // In the postmaster (shared_preload_libraries), what the server's
    // configuration says for our settings is still a placeholder string;
    // remember it before defining them replaces it.
    let at_server_start = unsafe { pg_sys::process_shared_preload_libraries_in_progress };
    let configured: Vec<(&CStr, CString)> = if at_server_start {
        SETTINGS
            .iter()
            .filter_map(|&name| {
                // SAFETY: a read of the GUC table; NULL when nothing set it.
                let value = unsafe { pg_sys::GetConfigOption(name.as_ptr(), true, false) };
                (!value.is_null()).then(|| (name, unsafe { CStr::from_ptr(value) }.to_owned()))
            })
            .collect()
    } else {
        Vec::new()
    };

    // PostgreSQL lets only a preloaded library define a PGC_POSTMASTER
    // setting (elsewhere it is FATAL). Without preload no generator mints
    // nanoflakes (they need shared memory); the epoch then only reads IDs,
    // and still comes from the server's configuration alone (PGC_SIGHUP).
    let epoch_context = if at_server_start {
        pg_sys::GucContext::PGC_POSTMASTER
    } else {
        pg_sys::GucContext::PGC_SIGHUP
    };
    unsafe {
        // A superuser (or the configuration) names the server: whoever can
        // change the node id can make this server repeat another server's
        // IDs. Within one server no node id can cause a repeat: the shared
        // ticker never hands out one (ms, sequence) twice.
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
            c"The instant nanoflake timestamps count from; fixed at server start.".as_ptr(),
            c"An absolute instant such as '2020-01-01 00:00:00+00', '2020-01-01T00:00:00Z' or \
              '2020-01-01 00:00:00 UTC' (UTC unless an offset is given); not in the future."
                .as_ptr(),
            &raw mut NANOFLAKE_EPOCH_TEXT,
            c"2020-01-01 00:00:00+00".as_ptr(),
            epoch_context,
            0,
            Some(check_nanoflake_epoch),
            Some(assign_nanoflake_epoch),
            None,
        );
        // The codokey context is the application's: any user may set it for
        // a session, a role or a database. Each setting is checked alone;
        // the pair (year zero <= max year) where a key is made or read.
        pg_sys::DefineCustomIntVariable(
            c"chronoid.codokey_year_zero".as_ptr(),
            c"First year codokeys can represent.".as_ptr(),
            c"Part of the codokey context; changing it changes every key.".as_ptr(),
            &raw mut CODOKEY_YEAR_ZERO,
            DEFAULT_CONTEXT.year_zero(),
            MIN_YEAR,
            MAX_YEAR,
            pg_sys::GucContext::PGC_USERSET,
            0,
            None,
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
            MIN_YEAR,
            MAX_YEAR,
            pg_sys::GucContext::PGC_USERSET,
            0,
            None,
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
    }

    if at_server_start {
        refuse_bad_configuration(&configured);
    }
    // SAFETY: plain GUC API call.
    unsafe { pg_sys::MarkGUCPrefixReserved(c"chronoid".as_ptr()) };
}

/// Stops the server over a bad chronoid setting in its configuration, as
/// PostgreSQL does over its own settings. Defining a custom setting only
/// warns about a bad configured value and falls back to the default, which
/// would mint IDs as node 0 or under the wrong epoch; and a misspelt name
/// would be dropped with a warning.
fn refuse_bad_configuration(configured: &[(&CStr, CString)]) {
    for (name, value) in configured {
        // Validation only (changeVal = false), at FATAL: PostgreSQL's own
        // message ("... is outside the valid range for parameter ...",
        // "invalid value for parameter ...") ends the postmaster.
        // SAFETY: both strings are NUL-terminated and outlive the call.
        unsafe {
            pg_sys::set_config_option(
                name.as_ptr(),
                value.as_ptr(),
                pg_sys::GucContext::PGC_POSTMASTER,
                pg_sys::GucSource::PGC_S_FILE,
                pg_sys::GucAction::GUC_ACTION_SET,
                false,
                pg_sys::FATAL as c_int,
                false,
            );
        }
    }
    for (name, file, line) in unknown_chronoid_placeholders() {
        let place = match file {
            Some(file) => format!(" in file \"{file}\" line {line}"),
            None => String::new(),
        };
        pgrx::pg_sys::panic::ErrorReport::new(
            pgrx::PgSqlErrorCode::ERRCODE_UNDEFINED_OBJECT,
            format!("unrecognized configuration parameter \"{name}\"{place}"),
            "chronoid",
        )
        .set_hint(&format!(
            "chronoid's settings are {}.",
            SETTINGS.map(|s| s.to_string_lossy().into_owned()).join(", ")
        ))
        .report(pgrx::PgLogLevel::FATAL);
    }
}

/// Settings named `chronoid.*` that chronoid does not define: PostgreSQL
/// keeps them as placeholders until the prefix is reserved.
fn unknown_chronoid_placeholders() -> Vec<(String, Option<String>, i32)> {
    // SAFETY: the GUC table is only read, in the postmaster's one thread,
    // during startup; its entries and their strings live for the process.
    unsafe {
        #[cfg(feature = "pg15")]
        let (vars, count) = (pg_sys::get_guc_variables(), pg_sys::GetNumConfigOptions());
        #[cfg(not(feature = "pg15"))]
        let (vars, count) = {
            let mut count: c_int = 0;
            (pg_sys::get_guc_variables(&mut count), count)
        };
        (0..count as usize)
            .map(|i| &**vars.add(i))
            .filter(|var| var.flags & pg_sys::GUC_CUSTOM_PLACEHOLDER as c_int != 0)
            .filter_map(|var| {
                let name = CStr::from_ptr(var.name).to_string_lossy().into_owned();
                let prefixed = name.len() > 9 && name[..9].eq_ignore_ascii_case("chronoid.");
                prefixed.then(|| {
                    let file = (!var.sourcefile.is_null())
                        .then(|| CStr::from_ptr(var.sourcefile).to_string_lossy().into_owned());
                    (name, file, var.sourceline)
                })
            })
            .collect()
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
            set_check_detail(
                "Expected an absolute instant such as \"2020-01-01 00:00:00+00\", \"2020-01-01T00:00:00Z\" or \"2020-01-01 00:00:00 UTC\".",
            )
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

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn check_codokey_fraction_max(
    newval: *mut c_int,
    _extra: *mut *mut c_void,
    _source: pg_sys::GucSource::Type,
) -> bool {
    if Context::new(MIN_YEAR, MIN_YEAR, unsafe { *newval } as u32) == Err(ContextError::FractionMax) {
        unsafe {
            set_check_detail("The fraction maximum must be 10^d - 1 for d = 1..6: 9, 99, 999, 9999, 99999 or 999999.")
        };
        return false;
    }
    true
}
