//! The machinery of chronoid's configuration parameters, as `guc.c` is
//! PostgreSQL's: setting variables, the calls that define them, check and
//! assign hooks, and `define`, which defines a table of settings and stops
//! the server over a bad configured value. The settings themselves belong
//! to the files that use them (`chronoid.node_id` and
//! `chronoid.nanoflake_epoch` in `src/types/nanoflake.rs`,
//! `chronoid.codokey_*` in `src/types/codokey.rs`,
//! `chronoid.reserve_keep_warm` in `src/durable/reserver.rs`); the table of
//! them all is composed in `src/lib.rs`, as `guc_tables.c` is apart.
//!
//! The values generators read on every call live in statics that
//! PostgreSQL's GUC machinery writes, so reading one costs a load.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use std::cell::UnsafeCell;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::atomic::{AtomicI64, Ordering};

use pgrx::pg_sys;
use pgrx::pg_sys::panic::pgrx_extern_c_guard;

/// One owner's settings: their names, and the function that defines them.
pub struct Settings {
    pub names: &'static [&'static CStr],
    pub define: fn(Startup),
}

/// Whether the settings are defined while the server starts (the library is
/// preloaded) or later, when a session first loads it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Startup {
    Preloaded,
    Session,
}

/// An integer setting's variable; the default is given once, here.
pub struct IntSetting {
    value: UnsafeCell<c_int>,
    /// GUC_UNIT_* flags: the unit the value is written in, if any.
    unit: c_int,
}

// SAFETY: written only by PostgreSQL's GUC machinery, and read, in a
// backend's one thread.
unsafe impl Sync for IntSetting {}

impl IntSetting {
    pub const fn new(default: i32) -> Self {
        IntSetting {
            value: UnsafeCell::new(default),
            unit: 0,
        }
    }

    /// A number of seconds, written `90`, `90s` or `2min`.
    pub const fn seconds(default: i32) -> Self {
        IntSetting {
            value: UnsafeCell::new(default),
            unit: pg_sys::GUC_UNIT_S as c_int,
        }
    }

    pub fn get(&self) -> i32 {
        // SAFETY: see `Sync` above; the GUC machinery writes whole ints.
        unsafe { *self.value.get() }
    }
}

/// A string setting that holds an `i64` parsed from its text (the nanoflake
/// epoch): PostgreSQL keeps the text, the assign hook the parsed value.
pub struct ParsedSetting {
    text: UnsafeCell<*mut c_char>,
    value: AtomicI64,
}

// SAFETY: as for IntSetting; the parsed value is atomic.
unsafe impl Sync for ParsedSetting {}

impl ParsedSetting {
    pub const fn new(default: i64) -> Self {
        ParsedSetting {
            text: UnsafeCell::new(std::ptr::null_mut()),
            value: AtomicI64::new(default),
        }
    }

    pub fn get(&self) -> i64 {
        self.value.load(Ordering::Relaxed)
    }
}

/// A rule a setting's value must follow, checked by PostgreSQL before it is
/// set: `Err` carries the DETAIL of the error.
pub trait Check<T: ?Sized> {
    fn check(value: &T) -> Result<(), &'static str>;
}

/// A `ParsedSetting` and how it reads its text (`Err` carries the DETAIL).
pub trait Parsed {
    fn setting() -> &'static ParsedSetting;
    fn parse(text: &str) -> Result<i64, &'static str>;
}

/// A text setting's variable, written only by PostgreSQL's GUC machinery.
pub struct TextVariable(UnsafeCell<*mut c_char>);
// SAFETY: written only by PostgreSQL's GUC machinery in a backend's one thread.
unsafe impl Sync for TextVariable {}

impl TextVariable {
    pub const fn new() -> Self {
        TextVariable(UnsafeCell::new(std::ptr::null_mut()))
    }
}

impl Default for TextVariable {
    fn default() -> Self {
        Self::new()
    }
}

/// Defines a read-only text setting (`internal`, refused in
/// `postgresql.conf`) whose value is what `show` says when it is read.
pub fn define_shown(
    name: &'static CStr,
    short: &'static CStr,
    long: &'static CStr,
    variable: &'static TextVariable,
    show: unsafe extern "C-unwind" fn() -> *const c_char,
) {
    // SAFETY: the strings and the variable live for the process.
    unsafe {
        pg_sys::DefineCustomStringVariable(
            name.as_ptr(),
            short.as_ptr(),
            long.as_ptr(),
            variable.0.get(),
            c"".as_ptr(),
            pg_sys::GucContext::PGC_INTERNAL,
            (pg_sys::GUC_NOT_IN_SAMPLE | pg_sys::GUC_DISALLOW_IN_FILE) as i32,
            None,
            None,
            Some(show),
        );
    }
}

/// A show hook's value: `answer`'s text, in the caller's memory context,
/// or an ERROR (58030, `what: why`) where it says why it cannot answer
/// (an answer that records the asker, and cannot).
pub fn shown(answer: fn() -> Result<String, String>, what: &str) -> *const c_char {
    let text = pgrx::PgTryBuilder::new(answer)
        .catch_others(|_| Ok(String::new()))
        .execute()
        .unwrap_or_else(|why| {
            super::error::error(
                pgrx::PgSqlErrorCode::ERRCODE_IO_ERROR,
                format!("{what}: {why}"),
            )
        });
    let text = CString::new(text).unwrap_or_default();
    // SAFETY: a copy in the caller's memory context, as guc.c's own hooks' strings live.
    unsafe { pg_sys::pstrdup(text.as_ptr()) }
}

/// Defines an integer setting whose default is the variable's initial value.
#[allow(clippy::too_many_arguments)]
pub fn define_int(
    name: &'static CStr,
    short: &'static CStr,
    long: Option<&'static CStr>,
    variable: &'static IntSetting,
    min: i32,
    max: i32,
    context: pg_sys::GucContext::Type,
    check: pg_sys::GucIntCheckHook,
) {
    // SAFETY: the strings and the variable live for the process, as
    // PostgreSQL requires of a custom setting's.
    unsafe {
        pg_sys::DefineCustomIntVariable(
            name.as_ptr(),
            short.as_ptr(),
            long.map_or(std::ptr::null(), CStr::as_ptr),
            variable.value.get(),
            variable.get(),
            min,
            max,
            context,
            variable.unit,
            check,
            None,
            None,
        );
    }
}

/// Defines the string setting of `P`; its default is `default`, spelt as
/// the configuration would.
pub fn define_parsed<P: Parsed>(
    name: &'static CStr,
    short: &'static CStr,
    long: &'static CStr,
    default: String,
    context: pg_sys::GucContext::Type,
) {
    let variable = P::setting();
    // PostgreSQL keeps the boot value's pointer (for RESET): it must live
    // as long as the process, so it is leaked, once.
    let default = CString::new(default).expect("no NUL").into_raw();
    // SAFETY: as for define_int; the hooks are instantiated for `P`.
    unsafe {
        pg_sys::DefineCustomStringVariable(
            name.as_ptr(),
            short.as_ptr(),
            long.as_ptr(),
            variable.text.get(),
            default,
            context,
            0,
            Some(check_parsed::<P>),
            Some(assign_parsed::<P>),
            None,
        );
    }
}

/// The check hook of an integer setting that follows `C`.
pub fn int_check<C: Check<i32>>() -> pg_sys::GucIntCheckHook {
    Some(check_int::<C>)
}

unsafe extern "C-unwind" fn check_int<C: Check<i32>>(
    newval: *mut c_int,
    _extra: *mut *mut c_void,
    _source: pg_sys::GucSource::Type,
) -> bool {
    // SAFETY: PostgreSQL passes the proposed value; the guard turns an
    // ERROR raised by pstrdup into a longjmp PostgreSQL expects.
    unsafe { pgrx_extern_c_guard(|| report(C::check(&*newval))) }
}

unsafe extern "C-unwind" fn check_parsed<P: Parsed>(
    newval: *mut *mut c_char,
    _extra: *mut *mut c_void,
    _source: pg_sys::GucSource::Type,
) -> bool {
    // SAFETY: PostgreSQL passes the proposed value, a NUL-terminated string.
    unsafe {
        pgrx_extern_c_guard(|| {
            let text = CStr::from_ptr(*newval).to_string_lossy();
            report(P::parse(&text).map(|_| ()))
        })
    }
}

unsafe extern "C-unwind" fn assign_parsed<P: Parsed>(newval: *const c_char, _extra: *mut c_void) {
    // SAFETY: PostgreSQL passes the value it checked, a NUL-terminated string.
    unsafe {
        pgrx_extern_c_guard(|| {
            let text = CStr::from_ptr(newval).to_string_lossy();
            if let Ok(value) = P::parse(&text) {
                P::setting().value.store(value, Ordering::Relaxed);
            }
        })
    }
}

/// `true` for Ok; for Err, sets the DETAIL PostgreSQL reports with its
/// "invalid value for parameter" message.
fn report(result: Result<(), &'static str>) -> bool {
    match result {
        Ok(()) => true,
        Err(detail) => {
            let detail = CString::new(detail).unwrap_or_default();
            // SAFETY: GUC_check_errdetail_string is read by PostgreSQL right
            // after the hook returns; pstrdup copies into the current memory
            // context as it expects.
            unsafe { pg_sys::GUC_check_errdetail_string = pg_sys::pstrdup(detail.as_ptr()) };
            false
        }
    }
}

/// A setting's value as text, as SHOW gives it (`None`: no such setting).
pub fn config_text(name: &CStr) -> Option<CString> {
    // SAFETY: a read of the GUC table; NULL when nothing set it.
    let value = unsafe { pg_sys::GetConfigOption(name.as_ptr(), true, false) };
    // SAFETY: a non-NULL value is a NUL-terminated string.
    (!value.is_null()).then(|| unsafe { CStr::from_ptr(value) }.to_owned())
}

/// Defines every setting of `table`. In the postmaster
/// (shared_preload_libraries), a bad configured value or an unknown
/// `chronoid.*` name stops the server.
pub fn define(table: &[Settings]) {
    // SAFETY: a flag PostgreSQL sets while it loads preloaded libraries.
    let preloaded = unsafe { pg_sys::process_shared_preload_libraries_in_progress };
    let names = table
        .iter()
        .flat_map(|settings| settings.names.iter().copied());
    // What the server's configuration says for our settings is still a
    // placeholder string; remember it before defining them replaces it.
    let configured: Vec<(&CStr, CString)> = if preloaded {
        names
            .clone()
            .filter_map(|name| config_text(name).map(|value| (name, value)))
            .collect()
    } else {
        Vec::new()
    };
    let startup = if preloaded {
        Startup::Preloaded
    } else {
        Startup::Session
    };
    for settings in table {
        (settings.define)(startup);
    }
    if preloaded {
        refuse_bad_configuration(&configured, &names.collect::<Vec<_>>());
    }
    // SAFETY: plain GUC API call.
    unsafe { pg_sys::MarkGUCPrefixReserved(c"chronoid".as_ptr()) };
}

/// Stops the server over a bad chronoid setting in its configuration, as
/// PostgreSQL does over its own settings. Defining a custom setting only
/// warns about a bad configured value and falls back to the default, which
/// would mint IDs as node 0 or under the wrong epoch; and a misspelt name
/// would be dropped with a warning.
fn refuse_bad_configuration(configured: &[(&CStr, CString)], names: &[&CStr]) {
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
        let known: Vec<_> = names.iter().map(|s| s.to_string_lossy()).collect();
        pgrx::pg_sys::panic::ErrorReport::new(
            pgrx::PgSqlErrorCode::ERRCODE_UNDEFINED_OBJECT,
            format!("unrecognized configuration parameter \"{name}\"{place}"),
            "chronoid",
        )
        .set_hint(format!("chronoid's settings are {}.", known.join(", ")))
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
                    let file = (!var.sourcefile.is_null()).then(|| {
                        CStr::from_ptr(var.sourcefile)
                            .to_string_lossy()
                            .into_owned()
                    });
                    (name, file, var.sourceline)
                })
            })
            .collect()
    }
}
