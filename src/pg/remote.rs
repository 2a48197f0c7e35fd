//! One query to another PostgreSQL server, from a backend, as PostgreSQL's
//! own logical replication asks a publisher (`CREATE SUBSCRIPTION`,
//! tablesync): through `libpqwalreceiver`, so the extension links no libpq.
//! On PostgreSQL 15 and 16 that module makes only replication connections
//! (`replication=database`, which runs plain queries too): the asked server
//! needs a free walsender (`max_wal_senders`) and the role REPLICATION, as
//! a subscription's has; from 17 on it is a plain connection.
//! The connection lasts one query, and at most `ANSWER_WITHIN_MS`: the
//! module connects without blocking, so libpq's `connect_timeout` does not
//! hold for it (a server that accepts and never answers would be waited for
//! forever); a timer of the backend's own (PostgreSQL's timeout framework)
//! cancels the wait, and the cancel it causes is taken back as "no answer".
//! It honours the caller's cancels too (the module waits on the latch).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use std::ffi::{CStr, CString};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use pgrx::pg_sys;

/// How long one question to another server may take, connecting included.
pub const ANSWER_WITHIN_MS: i32 = 5_000;

// PostgreSQL's timeout framework (utils/timeout.h; pgrx binds none of it).
unsafe extern "C-unwind" {
    fn RegisterTimeout(
        id: std::ffi::c_int,
        handler: Option<unsafe extern "C" fn()>,
    ) -> std::ffi::c_int;
    fn enable_timeout_after(id: std::ffi::c_int, delay_ms: std::ffi::c_int);
    fn disable_timeout(id: std::ffi::c_int, keep_indicator: bool);
}
/// `USER_TIMEOUT` in `TimeoutId` (17 added `TRANSACTION_TIMEOUT` before it).
#[cfg(any(feature = "pg15", feature = "pg16"))]
const USER_TIMEOUT: std::ffi::c_int = 12;
#[cfg(any(feature = "pg17", feature = "pg18"))]
const USER_TIMEOUT: std::ffi::c_int = 13;

static TIMEOUT_ID: AtomicI32 = AtomicI32::new(-1);
static TIMED_OUT: AtomicBool = AtomicBool::new(false);

/// The timer's handler (in signal context, as PostgreSQL's own): what a
/// cancel request does.
unsafe extern "C" fn on_timeout() {
    TIMED_OUT.store(true, Ordering::SeqCst);
    // SAFETY: the flags and latch a signal handler sets.
    unsafe {
        pg_sys::InterruptPending = 1;
        pg_sys::QueryCancelPending = 1;
        if !pg_sys::MyLatch.is_null() {
            pg_sys::SetLatch(pg_sys::MyLatch);
        }
    }
}

/// The first row of `query`'s result on the server `conninfo` names, each
/// column as text (`None` for NULL; `Ok(None)`: no row); `Err` says why
/// there is no answer, including
/// no answer within `ANSWER_WITHIN_MS`. The connection's `application_name`
/// is `appname` (over any the connection string gives): the asked server
/// reads who asks from it.
pub fn first_row(
    conninfo: &str,
    appname: &str,
    query: &str,
    columns: usize,
) -> Result<Option<Vec<Option<String>>>, String> {
    let mut id = TIMEOUT_ID.load(Ordering::Relaxed);
    if id < 0 {
        // SAFETY: registers a handler for the process's life.
        id = unsafe { RegisterTimeout(USER_TIMEOUT, Some(on_timeout)) };
        TIMEOUT_ID.store(id, Ordering::Relaxed);
    }
    TIMED_OUT.store(false, Ordering::SeqCst);
    // SAFETY: the timer registered above.
    unsafe { enable_timeout_after(id, ANSWER_WITHIN_MS) };
    let answer = pgrx::PgTryBuilder::new(|| ask(conninfo, appname, query, columns))
        .catch_others(|e| {
            use pgrx::pg_sys::panic::CaughtError;
            if TIMED_OUT.load(Ordering::SeqCst) {
                return Err(format!("no answer within {} s", ANSWER_WITHIN_MS / 1000));
            }
            match &e {
                // A cancel of the caller's own, or a panic: not ours to take.
                CaughtError::PostgresError(report) | CaughtError::ErrorReport(report)
                    if report.sql_error_code() != pgrx::PgSqlErrorCode::ERRCODE_QUERY_CANCELED =>
                {
                    // Anything else raised while asking (a connection
                    // string libpq refuses, the peer's own ERROR) means no
                    // answer: the caller judges the peer as out of reach.
                    Err(one_line(report.message()))
                }
                _ => e.rethrow(),
            }
        })
        .execute();
    // SAFETY: as above; a cancel the timer asked for and no wait saw yet
    // is taken back, so that it cancels nothing of the caller's.
    unsafe {
        disable_timeout(id, false);
        if TIMED_OUT.swap(false, Ordering::SeqCst) {
            pg_sys::QueryCancelPending = 0;
        }
    }
    answer
}

fn ask(
    conninfo: &str,
    appname: &str,
    query: &str,
    columns: usize,
) -> Result<Option<Vec<Option<String>>>, String> {
    let mut conninfo = with_parameter(conninfo, "connect_timeout", "5", false);
    conninfo = with_parameter(&conninfo, "application_name", appname, true);
    let conninfo =
        CString::new(conninfo).map_err(|_| "a NUL in the connection string".to_string())?;
    let query = CString::new(query).map_err(|_| "a NUL in the query".to_string())?;
    // SAFETY: the module's functions as PostgreSQL calls them; every
    // pointer passed lives across the call, every one returned is palloc'd
    // in the current memory context.
    unsafe {
        pg_sys::load_file(c"libpqwalreceiver".as_ptr(), false);
        let functions = pg_sys::WalReceiverFunctions;
        if functions.is_null() {
            return Err("libpqwalreceiver did not load".into());
        }
        let mut err: *mut std::ffi::c_char = std::ptr::null_mut();
        // The connection string's application_name wins over this one.
        let appname = c"chronoid";
        let connect = (*functions).walrcv_connect.ok_or("no walrcv_connect")?;
        #[cfg(feature = "pg15")]
        let conn = pg_sys::ffi::pg_guard_ffi_boundary(|| {
            connect(conninfo.as_ptr(), true, appname.as_ptr(), &mut err)
        });
        #[cfg(feature = "pg16")]
        let conn = pg_sys::ffi::pg_guard_ffi_boundary(|| {
            connect(conninfo.as_ptr(), true, false, appname.as_ptr(), &mut err)
        });
        // A plain connection (replication = false), as a database user.
        #[cfg(any(feature = "pg17", feature = "pg18"))]
        let conn = pg_sys::ffi::pg_guard_ffi_boundary(|| {
            connect(
                conninfo.as_ptr(),
                false,
                false,
                false,
                appname.as_ptr(),
                &mut err,
            )
        });
        if conn.is_null() {
            return Err(text_of(err));
        }
        let exec = (*functions).walrcv_exec.ok_or("no walrcv_exec")?;
        let disconnect = (*functions).walrcv_disconnect;
        let types = vec![pg_sys::TEXTOID; columns];
        // Disconnected whatever happens (the timer's cancel, the peer's
        // ERROR): a backend that asks every few seconds must not gather
        // open connections.
        pgrx::PgTryBuilder::new(|| {
            let result = pg_sys::ffi::pg_guard_ffi_boundary(|| {
                exec(conn, query.as_ptr(), columns as i32, types.as_ptr())
            });
            read_first_row(result, columns)
        })
        .finally(|| {
            if let Some(disconnect) = disconnect {
                pg_sys::ffi::pg_guard_ffi_boundary(|| disconnect(conn));
            }
        })
        .execute()
    }
}

/// A value for a `keyword=value` connection string: quoted, with `\\` and
/// `'` escaped, as libpq reads it.
pub fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// `conninfo` with `keyword` set to `value`, unless it has one already and
/// `over` is false. libpq keeps the last of a keyword given twice; a URI
/// takes it as a query parameter, percent-encoded.
fn with_parameter(conninfo: &str, keyword: &str, value: &str, over: bool) -> String {
    if !over && conninfo.contains(keyword) {
        conninfo.to_owned()
    } else if conninfo.starts_with("postgres://") || conninfo.starts_with("postgresql://") {
        let sep = if conninfo.contains('?') { '&' } else { '?' };
        let value: String = value
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        format!("{conninfo}{sep}{keyword}={value}")
    } else {
        format!("{conninfo} {keyword}={}", quote(value))
    }
}

unsafe fn read_first_row(
    result: *mut pg_sys::WalRcvExecResult,
    columns: usize,
) -> Result<Option<Vec<Option<String>>>, String> {
    if result.is_null() {
        return Err("no result".into());
    }
    if (*result).status != pg_sys::WalRcvExecStatus::WALRCV_OK_TUPLES {
        return Err(text_of((*result).err));
    }
    let slot = pg_sys::MakeSingleTupleTableSlot((*result).tupledesc, &pg_sys::TTSOpsMinimalTuple);
    if !pg_sys::tuplestore_gettupleslot((*result).tuplestore, true, false, slot) {
        pg_sys::ExecDropSingleTupleTableSlot(slot);
        return Ok(None);
    }
    let mut row = Vec::with_capacity(columns);
    for attno in 1..=columns as i32 {
        let mut isnull = false;
        let datum = pg_sys::slot_getattr(slot, attno, &mut isnull);
        row.push((!isnull).then(|| super::datum::text_to_string(datum)));
    }
    pg_sys::ExecDropSingleTupleTableSlot(slot);
    Ok(Some(row))
}

unsafe fn text_of(err: *mut std::ffi::c_char) -> String {
    if err.is_null() {
        "unknown error".into()
    } else {
        one_line(&CStr::from_ptr(err).to_string_lossy())
    }
}

/// libpq's messages run over lines ("Is the server running ..."): one
/// line, to sit inside a sentence of chronoid's.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
