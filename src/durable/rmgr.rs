//! chronoid's custom WAL resource manager (id 207), as PostgreSQL's
//! `RmgrData` sees it: the method table and its callbacks. Each callback
//! only crosses the C boundary: the records are `wal_records.rs`'s, what
//! replay does to the marks is `marks.rs`'s.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use std::ffi::c_char;

use pgrx::pg_guard;
use pgrx::pg_sys;

use super::marks;
use super::wal_records::{self, record_info_and_data, RMGR_ID};

/// The method table PostgreSQL copies at registration.
struct Rmgr(pg_sys::RmgrData);
// SAFETY: never written; PostgreSQL only reads (and copies) it.
unsafe impl Sync for Rmgr {}

static RMGR: Rmgr = Rmgr(pg_sys::RmgrData {
    rm_name: c"chronoid".as_ptr(),
    rm_redo: Some(redo),
    rm_desc: Some(desc),
    rm_identify: Some(identify),
    rm_startup: None,
    rm_cleanup: Some(flush_marks_after_recovery),
    rm_mask: None,
    rm_decode: None,
});

/// From `_PG_init` while preloading.
pub fn register() {
    // SAFETY: preloading, in the postmaster; PostgreSQL copies the table.
    unsafe { pg_sys::RegisterCustomRmgr(RMGR_ID, std::ptr::addr_of!(RMGR.0).cast_mut()) };
}

/// Replays marks: on a standby, and in crash recovery.
#[pg_guard]
unsafe extern "C-unwind" fn redo(record: *mut pg_sys::XLogReaderState) {
    // SAFETY: PostgreSQL passes the decoded record being replayed.
    let (info, data) = unsafe { record_info_and_data(record) };
    let Some(replayed) = wal_records::decode(info, data) else {
        pgrx::error!(
            "chronoid: unknown WAL record (info {info:#x}, {} bytes)",
            data.len()
        );
    };
    marks::replay(replayed);
}

/// For pg_waldump and pg_walinspect.
#[pg_guard]
unsafe extern "C-unwind" fn desc(buf: pg_sys::StringInfo, record: *mut pg_sys::XLogReaderState) {
    // SAFETY: as in `redo`.
    let (info, data) = unsafe { record_info_and_data(record) };
    let text = std::ffi::CString::new(wal_records::describe(info, data)).expect("no NUL");
    // SAFETY: appends a copy of the string to PostgreSQL's buffer.
    unsafe { pg_sys::appendStringInfoString(buf, text.as_ptr()) };
}

#[pg_guard]
unsafe extern "C-unwind" fn identify(info: u8) -> *const c_char {
    wal_records::kind_name(info).map_or(std::ptr::null(), |name| name.as_ptr())
}

/// At the end of recovery (crash recovery, or a standby promoted), before
/// the first ID.
#[pg_guard]
unsafe extern "C-unwind" fn flush_marks_after_recovery() {
    marks::flush_after_recovery();
}
