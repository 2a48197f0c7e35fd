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
/// record replayed carries all that came before it; and the epochs the IDs
/// under them were made with, E0, E1, E2 (a standby whose epoch differs
/// moves the marks by as much: `marks::mark_under_epoch`).
pub const XLOG_MARKS: u8 = 0x20;
/// "An operator moved generator G's mark to M" (IDs made with epoch E), down
/// as well as up.
pub const XLOG_SET_MARK: u8 = 0x30;

/// What a record says of the marks: raise them (a reservation) or set one
/// (an operator's move), and the epochs they were made under (`None`: a
/// record written before the epochs were, made under this server's).
pub enum Record {
    Raise([u64; 3], Option<[i64; 3]>),
    Set(Generator, u64, Option<i64>),
}

/// A `MARKS` record's payload: the three marks, then the three epochs.
pub fn marks_payload(marks: &[u64; 3], epochs: &[i64; 3]) -> Vec<u8> {
    marks
        .iter()
        .flat_map(|m| m.to_le_bytes())
        .chain(epochs.iter().flat_map(|e| e.to_le_bytes()))
        .collect()
}

/// A `SET_MARK` record's payload: the generator's index, 4 bytes of
/// padding, the mark, the epoch.
pub fn set_mark_payload(g: Generator, ms: u64, epoch: i64) -> Vec<u8> {
    (g as u32)
        .to_le_bytes()
        .into_iter()
        .chain(0u32.to_le_bytes())
        .chain(ms.to_le_bytes())
        .chain(epoch.to_le_bytes())
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

/// Inserts a record that repeats what is durable already, without a flush
/// and marked unimportant (as PostgreSQL marks its running-xacts records):
/// the first record after a checkpoint (`marks::log_after_checkpoint`),
/// which must not make the next checkpoint (or `archive_timeout`) think
/// the server was busy. Returns its LSN.
pub fn insert_unimportant(info: u8, payload: &[u8]) -> pg_sys::XLogRecPtr {
    // SAFETY: as in `insert_and_flush`.
    unsafe {
        pg_sys::XLogBeginInsert();
        pg_sys::XLogSetRecordFlags(pg_sys::XLOG_MARK_UNIMPORTANT as u8);
        pg_sys::XLogRegisterData(payload.as_ptr().cast_mut().cast(), payload.len() as _);
        pg_sys::XLogInsert(RMGR_ID, info)
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

fn i64_at(data: &[u8], at: usize) -> i64 {
    i64::from_le_bytes(data[at..at + 8].try_into().expect("8 bytes"))
}

/// The records' payloads are little-endian integers: a generator index
/// (u32) and 4 bytes of padding before a mark (and its epoch), or three
/// marks (and their three epochs). The shorter forms, without epochs, are
/// still read.
pub fn decode(info: u8, data: &[u8]) -> Option<Record> {
    let one = || {
        (data.len() == 16 || data.len() == 24).then_some(())?;
        let g = Generator::from_index(u32::from_le_bytes(data[..4].try_into().ok()?))?;
        let epoch = (data.len() == 24).then(|| i64_at(data, 16));
        Some((g, u64_at(data, 8), epoch))
    };
    let three = |at: usize| {
        [
            u64_at(data, at),
            u64_at(data, at + 8),
            u64_at(data, at + 16),
        ]
    };
    match info {
        XLOG_MARK => one().and_then(|(g, m, epoch)| {
            epoch.is_none().then_some(())?;
            let mut marks = [0; 3];
            marks[g as usize] = m;
            Some(Record::Raise(marks, None))
        }),
        XLOG_MARKS if data.len() == 24 => Some(Record::Raise(three(0), None)),
        XLOG_MARKS if data.len() == 48 => {
            Some(Record::Raise(three(0), Some(three(24).map(|e| e as i64))))
        }
        XLOG_SET_MARK => one().map(|(g, m, epoch)| Record::Set(g, m, epoch)),
        _ => None,
    }
}

/// What pg_waldump shows of a record.
pub fn describe(info: u8, data: &[u8]) -> String {
    let mark = |g: Generator, ms: u64| {
        format!("{} mark {ms} ({})", g.name(), format_utc_instant(ms as i64))
    };
    let epoch = |e: Option<i64>| e.map_or(String::new(), |e| format!(" epoch {e}"));
    match decode(info, data) {
        Some(Record::Raise(marks, epochs)) => Generator::ALL
            .into_iter()
            .filter(|g| marks[*g as usize] > 0)
            .map(|g| {
                let e = epochs.map(|e| e[g as usize]);
                format!("{}{}", mark(g, marks[g as usize]), epoch(e))
            })
            .collect::<Vec<_>>()
            .join(", "),
        Some(Record::Set(g, ms, e)) => format!("set {}{}", mark(g, ms), epoch(e)),
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
