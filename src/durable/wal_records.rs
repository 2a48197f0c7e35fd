//! chronoid's WAL records (resource manager 207): their kinds, their
//! payloads (little-endian integers), their insertion, and how pg_waldump
//! names and describes them. What replay does with them is `rmgr.rs`'s and
//! `marks.rs`'s.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use pgrx::pg_sys;

use chronoid_formats::time::format_utc_instant;

use super::generator::Generator;

/// chronoid's custom WAL resource manager id. PostgreSQL's wiki
/// (CustomWALResourceManagers) lists the ids extensions have taken: 128 is
/// for development, 129-140 and 241 are taken; 207 is free there.
pub const RMGR_ID: u8 = 207;
/// 0.5.0's record, "generator G's mark is now M", still replayed (the high
/// four bits of xl_info are the resource manager's).
pub const XLOG_MARK: u8 = 0x10;
/// "The marks are now M0, M1, M2": every generator's, so that any one
/// record replayed carries all that came before it.
pub const XLOG_MARKS: u8 = 0x20;
/// "An operator moved generator G's mark to M", down as well as up.
pub const XLOG_SET_MARK: u8 = 0x30;

/// What a record says of the marks: raise them (a reservation) or set one
/// (an operator's move).
pub enum Record {
    Raise([u64; 3]),
    Set(Generator, u64),
}

/// A `MARKS` record's payload: the three marks.
pub fn marks_payload(marks: &[u64; 3]) -> Vec<u8> {
    marks.iter().flat_map(|m| m.to_le_bytes()).collect()
}

/// A `SET_MARK` record's payload: the generator's index, 4 bytes of
/// padding, the mark.
pub fn set_mark_payload(g: Generator, ms: u64) -> Vec<u8> {
    (g as u32)
        .to_le_bytes()
        .into_iter()
        .chain(0u32.to_le_bytes())
        .chain(ms.to_le_bytes())
        .collect()
}

/// Inserts a record and flushes the WAL up to it; returns its LSN. Not in
/// recovery (callers refuse there first).
pub fn insert_and_flush(info: u8, payload: &[u8]) -> pg_sys::XLogRecPtr {
    // SAFETY: the payload outlives XLogInsert, which copies it; not in
    // recovery (callers refuse there first).
    unsafe {
        pg_sys::XLogBeginInsert();
        pg_sys::XLogRegisterData(payload.as_ptr().cast_mut().cast(), payload.len() as _);
        let lsn = pg_sys::XLogInsert(RMGR_ID, info);
        pg_sys::XLogFlush(lsn);
        lsn
    }
}

/// # Safety
/// `record` is the record being replayed or described.
pub unsafe fn record_info_and_data<'a>(record: *mut pg_sys::XLogReaderState) -> (u8, &'a [u8]) {
    // SAFETY: a decoded record's header and main data, as XLogRecGetInfo
    // and XLogRecGetData read them.
    unsafe {
        let decoded = (*record).record;
        let info = (*decoded).header.xl_info & !(pg_sys::XLR_INFO_MASK as u8);
        let data = if (*decoded).main_data.is_null() {
            &[][..]
        } else {
            std::slice::from_raw_parts(
                (*decoded).main_data.cast::<u8>(),
                (*decoded).main_data_len as usize,
            )
        };
        (info, data)
    }
}

fn u64_at(data: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(data[at..at + 8].try_into().expect("8 bytes"))
}

/// The records' payloads are little-endian integers: a generator index
/// (u32) and 4 bytes of padding before a mark, or three marks.
pub fn decode(info: u8, data: &[u8]) -> Option<Record> {
    let one = || {
        (data.len() == 16).then_some(())?;
        let g = Generator::from_index(u32::from_le_bytes(data[..4].try_into().ok()?))?;
        Some((g, u64_at(data, 8)))
    };
    match info {
        XLOG_MARK => one().map(|(g, m)| {
            let mut marks = [0; 3];
            marks[g as usize] = m;
            Record::Raise(marks)
        }),
        XLOG_MARKS if data.len() == 24 => Some(Record::Raise([
            u64_at(data, 0),
            u64_at(data, 8),
            u64_at(data, 16),
        ])),
        XLOG_SET_MARK => one().map(|(g, m)| Record::Set(g, m)),
        _ => None,
    }
}

/// What pg_waldump shows of a record.
pub fn describe(info: u8, data: &[u8]) -> String {
    let mark = |g: Generator, ms: u64| {
        format!("{} mark {ms} ({})", g.name(), format_utc_instant(ms as i64))
    };
    match decode(info, data) {
        Some(Record::Raise(marks)) => Generator::ALL
            .into_iter()
            .filter(|g| marks[*g as usize] > 0)
            .map(|g| mark(g, marks[g as usize]))
            .collect::<Vec<_>>()
            .join(", "),
        Some(Record::Set(g, ms)) => format!("set {}", mark(g, ms)),
        None => format!("malformed ({} bytes)", data.len()),
    }
}

/// A record kind's name, for pg_waldump's statistics.
pub fn kind_name(info: u8) -> Option<&'static std::ffi::CStr> {
    match info & !(pg_sys::XLR_INFO_MASK as u8) {
        XLOG_MARK => Some(c"MARK"),
        XLOG_MARKS => Some(c"MARKS"),
        XLOG_SET_MARK => Some(c"SET_MARK"),
        _ => None,
    }
}
