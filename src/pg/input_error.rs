//! A text input function's rejection, described once and then either raised
//! or, on PostgreSQL 16 and later, saved softly.
//!
//! PostgreSQL 16 lets a caller pass an `ErrorSaveContext` as an input
//! function's `fcinfo->context` (`pg_input_is_valid`, `pg_input_error_info`,
//! 17's `COPY ... (ON_ERROR ignore)`): the function must then record the
//! error there and return instead of raising it, as core types do through
//! `ereturn`. The saved error carries the same SQLSTATE, message and hint as
//! the raised one, so both paths are built from one [`InputError`].
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use pgrx::pg_sys;
use pgrx::PgSqlErrorCode;

pub struct InputError {
    code: PgSqlErrorCode,
    message: String,
    hint: Option<String>,
}

impl InputError {
    /// `invalid input syntax for type T: "..."`, SQLSTATE 22P02, as core
    /// types say it (the input given as bytes in the database's encoding).
    pub fn invalid_text(type_name: &str, input: &[u8]) -> Self {
        InputError {
            code: PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            message: format!(
                "invalid input syntax for type {type_name}: \"{}\"",
                quote_bytes(input)
            ),
            hint: None,
        }
    }

    /// `value "..." is out of range for type T`, SQLSTATE 22003.
    pub fn out_of_range(type_name: &str, input: &[u8]) -> Self {
        InputError {
            code: PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            message: format!(
                "value \"{}\" is out of range for type {type_name}",
                quote_bytes(input)
            ),
            hint: None,
        }
    }

    pub fn with_hint(mut self, hint: String) -> Self {
        self.hint = Some(hint);
        self
    }

    /// Raises it as an ERROR.
    pub fn raise(self) -> ! {
        super::error::raise(self.code, self.message, self.hint.as_deref())
    }

    /// Saves it in `context` when that is an `ErrorSaveContext` (the caller
    /// asked for a soft error) and returns; otherwise raises it.
    ///
    /// # Safety
    /// `context` is the calling input function's `fcinfo->context`. Call it
    /// under pgrx's guard: saving allocates and may raise on out-of-memory.
    pub unsafe fn report(self, context: *mut pg_sys::Node) {
        if unsafe { is_error_save_context(context) } {
            unsafe { self.save(context) }
        } else {
            self.raise()
        }
    }

    /// What `ereturn` leaves in the context (`errsave_start` ..
    /// `errsave_finish`, whose errcode/errmsg steps pgrx does not bind):
    /// the flag, and the error's data when the caller wants it
    /// (`pg_input_error_info`, COPY's `LOG_VERBOSITY verbose`), allocated in
    /// the current memory context as `errsave_finish` copies it there.
    #[cfg(not(feature = "pg15"))]
    unsafe fn save(self, context: *mut pg_sys::Node) {
        let escontext = context.cast::<pg_sys::ErrorSaveContext>();
        unsafe {
            (*escontext).error_occurred = true;
            if !(*escontext).details_wanted {
                return;
            }
            let edata = pg_sys::palloc0(std::mem::size_of::<pg_sys::ErrorData>())
                .cast::<pg_sys::ErrorData>();
            (*edata).elevel = pg_sys::PGERROR as i32; // ERROR (elog.h spells it PGERROR for Windows)
            (*edata).sqlerrcode = self.code as isize as i32;
            (*edata).message = palloc_text(&self.message);
            if let Some(hint) = &self.hint {
                (*edata).hint = palloc_text(hint);
            }
            (*edata).filename = c"input_error.rs".as_ptr();
            (*edata).lineno = line!() as i32;
            (*edata).funcname = c"chronoid input".as_ptr();
            (*edata).assoc_context = pg_sys::CurrentMemoryContext;
            (*escontext).error_data = edata;
        }
    }

    #[cfg(feature = "pg15")]
    unsafe fn save(self, _context: *mut pg_sys::Node) {
        self.raise()
    }
}

/// Whether an input function's `fcinfo->context` asks for soft errors
/// (never on PostgreSQL 15, which has no `ErrorSaveContext`).
unsafe fn is_error_save_context(context: *mut pg_sys::Node) -> bool {
    #[cfg(not(feature = "pg15"))]
    {
        !context.is_null() && unsafe { (*context).type_ } == pg_sys::NodeTag::T_ErrorSaveContext
    }
    #[cfg(feature = "pg15")]
    {
        let _ = context;
        false
    }
}

/// A copy of `text` in palloc'd memory, NUL-terminated (an interior NUL,
/// which no message has, would end it early).
#[cfg(not(feature = "pg15"))]
unsafe fn palloc_text(text: &str) -> *mut std::ffi::c_char {
    unsafe {
        let ptr = pg_sys::palloc(text.len() + 1).cast::<u8>();
        ptr.copy_from_nonoverlapping(text.as_ptr(), text.len());
        *ptr.add(text.len()) = 0;
        ptr.cast()
    }
}

/// `invalid input syntax for type T: "..."`, SQLSTATE 22P02, raised (the
/// functions taking text that are not input functions; input functions
/// report through [`InputError`], softly where asked).
pub fn invalid_text_bytes(type_name: &str, input: &[u8]) -> ! {
    InputError::invalid_text(type_name, input).raise()
}

/// Bad input echoed in a message, which must be valid in the database's
/// encoding: as it is in a UTF8 database (PostgreSQL has checked it), and in
/// any other (LATIN1, SQL_ASCII, ...) with each byte beyond ASCII shown as
/// `\xNN`, since a message in Rust is UTF-8 and every valid input is ASCII.
pub fn quote_bytes(input: &[u8]) -> String {
    // SAFETY: reads the session's fixed database encoding.
    let utf8_database = unsafe { pg_sys::GetDatabaseEncoding() } == pg_sys::pg_enc::PG_UTF8 as i32;
    match std::str::from_utf8(input) {
        Ok(text) if utf8_database || text.is_ascii() => text.to_owned(),
        _ => input
            .iter()
            .map(|&b| {
                if b.is_ascii() {
                    char::from(b).to_string()
                } else {
                    format!("\\x{b:02x}")
                }
            })
            .collect(),
    }
}
