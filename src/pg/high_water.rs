//! Durable, replicated high-water marks for the server-wide generators
//! (`gen_nanoflake`, `gen_caloriosa`, `gen_uid60`), so that no run of the
//! server, and no standby promoted in its place, hands out an ID at or
//! below one handed out before, whatever its clock reads.
//!
//! The policy (when a mark moves, how far) is the formats crate's
//! `high_water`; here the mark is made durable and read back:
//! - before a generator hands out an ID above its mark, the new mark is
//!   WAL-logged through chronoid's own resource manager and flushed (so a
//!   standby replays it, and an ID seen by a `SELECT` that never commits is
//!   covered too), then written to `chronoid.marks` in the data directory,
//!   renamed into place and fsynced, the way replication slots keep theirs;
//! - a standby's redo raises its marks and rewrites its file the same way;
//! - at start (and whenever the postmaster rebuilds shared memory) the file
//!   is read and each ticker resumes above its mark; crash recovery and a
//!   standby's replay raise them further.
//!
//! The file is written at every move rather than only at checkpoints
//! because PostgreSQL gives extensions no checkpoint hook: a mark logged
//! before a checkpoint's redo point is not replayed after a crash, so it
//! must already be in the file. ARCHITECTURE.md says why this route and not
//! a sequence, and what can still go wrong.

use std::ffi::{c_char, CStr};

use pgrx::pg_sys;
use pgrx::{pg_guard, pg_shmem_init, PgAtomic, PgLwLock, PgSqlErrorCode};

use chronoid_formats::high_water::HighWaterMark;
use chronoid_formats::time::format_utc_instant;

use super::shmem::{self, InShmem};
use super::BackendClock;
use chronoid_formats::clock::Clock;

/// chronoid's custom WAL resource manager id. PostgreSQL's wiki
/// (CustomWALResourceManagers) lists the ids extensions have taken: 128 is
/// for development, 129-140 and 241 are taken; 207 is free there.
pub const RMGR_ID: u8 = 207;
/// The one record kind: "generator G's mark is now M" (the high four bits
/// of xl_info are the resource manager's).
const XLOG_MARK: u8 = 0x10;

/// In the data directory, beside postgresql.auto.conf: one line per
/// generator, so an operator can read it, and pg_basebackup copies it.
const MARKS_FILE: &CStr = c"chronoid.marks";
const MARKS_TEMP: &CStr = c"chronoid.marks.tmp";
const FILE_HEADER: &str = "chronoid high-water marks 1";

/// The generators whose uniqueness rests on a shared ticker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    Nanoflake = 0,
    Caloriosa = 1,
    Uid60 = 2,
}

impl Generator {
    pub const ALL: [Generator; 3] = [Generator::Nanoflake, Generator::Caloriosa, Generator::Uid60];

    pub fn name(self) -> &'static str {
        match self {
            Generator::Nanoflake => "nanoflake",
            Generator::Caloriosa => "caloriosa",
            Generator::Uid60 => "uid60",
        }
    }

    fn from_index(index: u32) -> Option<Self> {
        Self::ALL.get(index as usize).copied()
    }

    pub fn mark(self) -> &'static HighWaterMark {
        &MARKS.get().0 .0[self as usize]
    }

    pub fn stats(self) -> &'static chronoid_formats::generator_stats::GeneratorStats {
        &shmem::GENERATOR_COUNTERS.get().0.stats[self as usize]
    }

    fn resume_ticker_above(self, mark_ms: u64) {
        match self {
            Generator::Nanoflake => shmem::NANOFLAKE_TICKER.get().resume_above(mark_ms),
            Generator::Caloriosa => shmem::CALORIOSA_TICKER.get().resume_above(mark_ms),
            Generator::Uid60 => shmem::UID60_TICKER.get().resume_above(mark_ms),
        }
    }
}

/// The marks generators read on every call, without a lock.
pub struct Marks([HighWaterMark; 3]);
/// What `chronoid.marks` holds (the durable marks), under the lock that
/// serializes every move of a mark, in backends and in redo.
#[derive(Default)]
pub struct DurableMarks([u64; 3]);

// SAFETY: atomics and plain integers, valid in any process mapping them.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<Marks> {}
// SAFETY: as above.
unsafe impl pgrx::shmem::PGRXSharedMemory for DurableMarks {}

// SAFETY: unique names; `init` places both before any backend runs.
static MARKS: PgAtomic<InShmem<Marks>> = unsafe { PgAtomic::new(c"chronoid.high_water_marks") };
// SAFETY: as above.
static DURABLE: PgLwLock<DurableMarks> = unsafe { PgLwLock::new(c"chronoid.durable_marks") };

/// The WAL record's payload.
#[repr(C)]
#[derive(Clone, Copy)]
struct MarkRecord {
    generator: u32,
    _pad: u32,
    mark_ms: u64,
}

/// From `_PG_init` while preloading (after the tickers' `pg_shmem_init!`,
/// so that the hook below runs after theirs).
pub fn init() {
    pg_shmem_init!(MARKS = InShmem(Marks(Default::default())));
    pg_shmem_init!(DURABLE);
    // SAFETY: preloading, in the postmaster; both hooks chain to whatever
    // was installed before.
    unsafe {
        PREV_SHMEM_STARTUP_HOOK = pg_sys::shmem_startup_hook;
        pg_sys::shmem_startup_hook = Some(load_marks_at_startup);
        pg_sys::RegisterCustomRmgr(RMGR_ID, std::ptr::addr_of!(RMGR.0).cast_mut());
    }
}

static mut PREV_SHMEM_STARTUP_HOOK: Option<unsafe extern "C-unwind" fn()> = None;

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
    rm_cleanup: Some(log_marks_after_recovery),
    rm_mask: None,
    rm_decode: None,
});

/// Runs in the postmaster each time shared memory is (re)built: at start and
/// after a backend crash, before crash recovery replays WAL.
#[pg_guard]
unsafe extern "C-unwind" fn load_marks_at_startup() {
    // SAFETY: the hook chain as installed in `init`.
    unsafe {
        if let Some(prev) = PREV_SHMEM_STARTUP_HOOK {
            prev();
        }
    }
    // With EXEC_BACKEND every backend runs the hook; only the process that
    // builds shared memory reads the file.
    // SAFETY: a flag PostgreSQL sets before any hook runs.
    if unsafe { pg_sys::IsUnderPostmaster } {
        return;
    }
    let marks = read_marks_file();
    *DURABLE.exclusive() = DurableMarks(marks);
    for g in Generator::ALL {
        g.mark().raise(marks[g as usize]);
        g.resume_ticker_above(marks[g as usize]);
    }
    log_marks("at start");
}

/// The marks in the file, all 0 if there is none (a cluster whose
/// generators never ran). A file that is there but unreadable stops the
/// server: starting without it could repeat IDs.
fn read_marks_file() -> [u64; 3] {
    let name = MARKS_FILE.to_str().expect("ASCII");
    let text = match std::fs::read_to_string(name) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return [0; 3],
        Err(e) => bad_marks_file(format!("could not read file \"{name}\": {e}")),
    };
    parse_marks(&text).unwrap_or_else(|why| {
        bad_marks_file(format!(
            "file \"{name}\" is not a chronoid marks file: {why}"
        ))
    })
}

fn parse_marks(text: &str) -> Result<[u64; 3], String> {
    let mut lines = text.lines();
    if lines.next() != Some(FILE_HEADER) {
        return Err(format!("the first line is not \"{FILE_HEADER}\""));
    }
    let mut marks = [None; 3];
    for line in lines {
        let (name, value) = line
            .split_once(' ')
            .ok_or_else(|| format!("line \"{line}\" is not \"<generator> <unix ms>\""))?;
        let g = Generator::ALL
            .into_iter()
            .find(|g| g.name() == name)
            .ok_or_else(|| format!("unknown generator \"{name}\""))?;
        let ms = value
            .parse::<u64>()
            .map_err(|_| format!("\"{value}\" is not a number of milliseconds"))?;
        marks[g as usize] = Some(ms);
    }
    let mut out = [0; 3];
    for g in Generator::ALL {
        out[g as usize] = marks[g as usize].ok_or_else(|| format!("no line for {}", g.name()))?;
    }
    Ok(out)
}

fn bad_marks_file(message: String) -> ! {
    pgrx::pg_sys::panic::ErrorReport::new(
        PgSqlErrorCode::ERRCODE_DATA_CORRUPTED,
        message,
        "chronoid",
    )
    .set_hint(
        "chronoid keeps the generators' high-water marks there so that no ID repeats \
             after a restart. Restore the file from the data directory's backup; remove it \
             only if no chronoid generator has run on this cluster or its primary.",
    )
    .report(pgrx::PgLogLevel::FATAL);
    unreachable!("FATAL does not return")
}

/// Writes all three durable marks to the file, renamed into place and
/// fsynced (file, then directory) by PostgreSQL's `durable_rename`.
fn write_marks_file(marks: &[u64; 3]) {
    let mut text = format!("{FILE_HEADER}\n");
    for g in Generator::ALL {
        text.push_str(&format!("{} {}\n", g.name(), marks[g as usize]));
    }
    let temp = MARKS_TEMP.to_str().expect("ASCII");
    if let Err(e) = std::fs::write(temp, text) {
        super::error(
            PgSqlErrorCode::ERRCODE_IO_ERROR,
            format!("could not write file \"{temp}\": {e}"),
        );
    }
    // SAFETY: two NUL-terminated paths; ERROR on failure (raised through
    // pgrx's guard).
    unsafe {
        pg_sys::durable_rename(
            MARKS_TEMP.as_ptr(),
            MARKS_FILE.as_ptr(),
            pgrx::PgLogLevel::ERROR as _,
        )
    };
}

/// Called by a generator whose next pair (of `unix_ms`) its mark does not
/// cover: moves the mark past it and makes that durable before returning.
pub fn reserve(g: Generator, unix_ms: u64) {
    let mut durable = DURABLE.exclusive();
    // Another backend may have moved it while this one waited for the lock.
    let Some(to) = g.mark().needed_for(unix_ms) else {
        return;
    };
    let record = MarkRecord {
        generator: g as u32,
        _pad: 0,
        mark_ms: to,
    };
    // SAFETY: the record outlives XLogInsert, which copies it; not in
    // recovery (generators refuse there first).
    unsafe {
        pg_sys::XLogBeginInsert();
        pg_sys::XLogRegisterData(
            std::ptr::addr_of!(record).cast_mut().cast(),
            std::mem::size_of::<MarkRecord>() as _,
        );
        let lsn = pg_sys::XLogInsert(RMGR_ID, XLOG_MARK);
        pg_sys::XLogFlush(lsn);
    }
    durable.0[g as usize] = to;
    write_marks_file(&durable.0);
    g.mark().raise(to);
}

/// Replays a mark: on a standby, and in crash recovery.
#[pg_guard]
unsafe extern "C-unwind" fn redo(record: *mut pg_sys::XLogReaderState) {
    // SAFETY: PostgreSQL passes the decoded record being replayed.
    let (info, data) = unsafe { record_info_and_data(record) };
    let Some((g, mark_ms)) = (info == XLOG_MARK).then(|| decode(data)).flatten() else {
        pgrx::error!(
            "chronoid: unknown WAL record (info {info:#x}, {} bytes)",
            data.len()
        );
    };
    let mut durable = DURABLE.exclusive();
    if mark_ms > durable.0[g as usize] {
        durable.0[g as usize] = mark_ms;
        write_marks_file(&durable.0);
    }
    g.mark().raise(mark_ms);
    g.resume_ticker_above(mark_ms);
}

/// # Safety
/// `record` is the record being replayed or described.
unsafe fn record_info_and_data<'a>(record: *mut pg_sys::XLogReaderState) -> (u8, &'a [u8]) {
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

fn decode(data: &[u8]) -> Option<(Generator, u64)> {
    if data.len() != std::mem::size_of::<MarkRecord>() {
        return None;
    }
    // SAFETY: exactly a MarkRecord's bytes (read unaligned).
    let record = unsafe { data.as_ptr().cast::<MarkRecord>().read_unaligned() };
    Some((Generator::from_index(record.generator)?, record.mark_ms))
}

/// For pg_waldump and pg_walinspect.
#[pg_guard]
unsafe extern "C-unwind" fn desc(buf: pg_sys::StringInfo, record: *mut pg_sys::XLogReaderState) {
    // SAFETY: as in `redo`.
    let (_, data) = unsafe { record_info_and_data(record) };
    let text = match decode(data) {
        Some((g, ms)) => format!("{} mark {ms} ({})", g.name(), format_utc_instant(ms as i64)),
        None => format!("malformed ({} bytes)", data.len()),
    };
    let text = std::ffi::CString::new(text).expect("no NUL");
    // SAFETY: appends a copy of the string to PostgreSQL's buffer.
    unsafe { pg_sys::appendStringInfoString(buf, text.as_ptr()) };
}

#[pg_guard]
unsafe extern "C-unwind" fn identify(info: u8) -> *const c_char {
    match info & !(pg_sys::XLR_INFO_MASK as u8) {
        XLOG_MARK => c"MARK".as_ptr(),
        _ => std::ptr::null(),
    }
}

#[pg_guard]
unsafe extern "C-unwind" fn log_marks_after_recovery() {
    log_marks("after WAL replay");
}

/// One LOG line per generator that has a mark: where it resumes and how far
/// the clock is from it.
fn log_marks(when: &str) {
    let now = BackendClock.now_ms();
    for g in Generator::ALL {
        let mark = g.mark().get();
        if mark == 0 {
            continue;
        }
        let at = format_utc_instant(mark as i64);
        let msg = if now >= mark {
            format!(
                "chronoid: {when}, gen_{}() resumes above its high-water mark {at} ({mark} ms); the clock is {} ms past it",
                g.name(),
                now - mark
            )
        } else {
            format!(
                "chronoid: {when}, gen_{}() resumes above its high-water mark {at} ({mark} ms); the clock is {} ms behind it, \
                 so gen_{}() waits up to 1 s and otherwise fails with SQLSTATE 55000 until the clock passes it",
                g.name(),
                mark - now,
                g.name()
            )
        };
        pgrx::log!("{msg}");
    }
}
