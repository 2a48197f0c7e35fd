//! The one way chronoid raises an ERROR: a SQLSTATE, a message and, where
//! it helps, a hint, reported through pgrx as PostgreSQL's `ereport` does.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};

/// Raises an ERROR with this SQLSTATE, message and (if any) hint: the one
/// way chronoid raises, for `error`, `error_with_hint` and `InputError`.
pub fn raise(code: PgSqlErrorCode, message: String, hint: Option<&str>) -> ! {
    let mut report = ErrorReport::new(code, message, "chronoid");
    if let Some(hint) = hint {
        report = report.set_hint(hint);
    }
    report.report(PgLogLevel::ERROR);
    unreachable!("ERROR does not return")
}

pub fn error(code: PgSqlErrorCode, message: String) -> ! {
    raise(code, message, None)
}

pub fn error_with_hint(code: PgSqlErrorCode, message: String, hint: &str) -> ! {
    raise(code, message, Some(hint))
}
