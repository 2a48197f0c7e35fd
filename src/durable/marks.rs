//! Durable, replicated high-water marks for the server-wide generators
//! (`gen_nanoflake`, `gen_caloriosa`, `gen_uid60`), so that no run of the
//! server, and no standby promoted in its place, hands out an ID at or
//! below one handed out before, whatever its clock reads.
//!
//! The policy (when a mark moves, how far) is the formats crate's
//! `high_water`; here the mark is made durable and read back:
//! - a mark moves only in the reserver (`reserver.rs`), ahead of the
//!   generators that use it: written to `chronoid.marks` in the data
//!   directory and fsynced, then WAL-logged through chronoid's own resource
//!   manager, flushed and acknowledged by the synchronous standbys, the way
//!   a commit is, before it is raised in shared memory;
//! - a standby's redo raises its marks and writes its file in place without
//!   a flush; its reserver flushes the file just after, and the end of
//!   recovery flushes it before the first ID;
//! - at start (and whenever the postmaster rebuilds shared memory) the file
//!   is read and each ticker resumes above its mark; crash recovery and a
//!   standby's replay raise them further.
//!
//! The file comes first: a mark in the file but not in the WAL (a crash in
//! between) is only higher than needed, while a mark in the WAL but not in
//! the file could be skipped by a checkpoint or a base backup whose redo
//! point passed it. ARCHITECTURE.md says why this route and not a
//! sequence, and what can still go wrong.

use std::ffi::{c_char, CStr};
use std::os::unix::fs::FileExt;
use std::os::unix::io::FromRawFd;

use pgrx::datum::TimestampWithTimeZone;
use pgrx::pg_sys;
use pgrx::{pg_guard, pg_shmem_init, PgAtomic, PgLwLock, PgSqlErrorCode};

use chronoid_formats::counter_id::TickSource;
use chronoid_formats::high_water::{format_marks, parse_marks, HighWaterMark, MAX_MARK_MS};
use chronoid_formats::ticker::Tick;
use chronoid_formats::time::format_utc_instant;

use super::reserver;
use super::shmem::{self, InShmem};
use super::BackendClock;
use chronoid_formats::clock::Clock;

/// chronoid's custom WAL resource manager id. PostgreSQL's wiki
/// (CustomWALResourceManagers) lists the ids extensions have taken: 128 is
/// for development, 129-140 and 241 are taken; 207 is free there.
pub const RMGR_ID: u8 = 207;
/// 0.5.0's record, "generator G's mark is now M", still replayed (the high
/// four bits of xl_info are the resource manager's).
const XLOG_MARK: u8 = 0x10;
/// "The marks are now M0, M1, M2": every generator's, so that any one
/// record replayed carries all that came before it.
const XLOG_MARKS: u8 = 0x20;
/// "An operator moved generator G's mark to M", down as well as up.
const XLOG_SET_MARK: u8 = 0x30;

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
    const NAMES: [&'static str; 3] = ["nanoflake", "caloriosa", "uid60"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    fn from_index(index: u32) -> Option<Self> {
        Self::ALL.get(index as usize).copied()
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.name() == name)
    }

    pub fn mark(self) -> &'static HighWaterMark {
        &MARKS.get().0 .0[self as usize]
    }

    pub fn stats(self) -> &'static chronoid_formats::generator_stats::GeneratorStats {
        &shmem::GENERATOR_COUNTERS.get().0.stats[self as usize]
    }

    fn ticker(self) -> &'static dyn ErasedTicker {
        match self {
            Generator::Nanoflake => &shmem::NANOFLAKE_TICKER.get().0,
            Generator::Caloriosa => &shmem::CALORIOSA_TICKER.get().0,
            Generator::Uid60 => &shmem::UID60_TICKER.get().0,
        }
    }

    /// The last pair this generator's ticker holds.
    pub fn last_tick(self) -> Option<Tick> {
        self.ticker().last()
    }
}

/// The three tickers' types differ; what the marks do to them does not.
trait ErasedTicker {
    fn last(&self) -> Option<Tick>;
    fn resume_above(&self, mark_ms: u64);
    fn restart_at(&self, mark_ms: u64);
}

impl<T: TickSource> ErasedTicker for T {
    fn last(&self) -> Option<Tick> {
        self.last_tick()
    }
    fn resume_above(&self, mark_ms: u64) {
        TickSource::resume_above(self, mark_ms)
    }
    fn restart_at(&self, mark_ms: u64) {
        TickSource::restart_at(self, mark_ms)
    }
}

/// The marks generators read on every call, without a lock.
pub struct Marks([HighWaterMark; 3]);
/// What `chronoid.marks` holds (the durable marks), under the lock that
/// serializes every write of the file and every mark record: the
/// reserver's, an operator's, redo's.
#[derive(Default)]
pub struct DurableMarks {
    pub marks: [u64; 3],
    /// How many times an operator moved each mark since start: a
    /// reservation whose generator's mark was moved while it waited for the
    /// standbys does not raise that mark.
    sets: [u64; 3],
}

// SAFETY: atomics and plain integers, valid in any process mapping them.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<Marks> {}
// SAFETY: as above.
unsafe impl pgrx::shmem::PGRXSharedMemory for DurableMarks {}

// SAFETY: unique names; `init` places both before any backend runs.
static MARKS: PgAtomic<InShmem<Marks>> = unsafe { PgAtomic::new(c"chronoid.high_water_marks") };
// SAFETY: as above.
pub static DURABLE: PgLwLock<DurableMarks> = unsafe { PgLwLock::new(c"chronoid.durable_marks") };

/// From `_PG_init` while preloading (after the tickers' `pg_shmem_init!`,
/// so that the hook below runs after theirs).
pub fn init() {
    pg_shmem_init!(MARKS = InShmem(Marks(Default::default())));
    pg_shmem_init!(DURABLE);
    reserver::init();
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
    rm_cleanup: Some(flush_marks_after_recovery),
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
    reserver::init_shared();
    let marks = read_marks_file();
    *DURABLE.exclusive() = DurableMarks {
        marks,
        sets: [0; 3],
    };
    // What was read is what generators resume above: make sure it is on
    // disk (a standby's redo may have left it to the reserver's flush).
    if marks != [0; 3] {
        if let Err(e) = flush_marks_file() {
            bad_marks_file(format!("could not flush file \"chronoid.marks\": {e}"));
        }
    }
    for g in Generator::ALL {
        g.mark().raise(marks[g as usize]);
        g.ticker().resume_above(marks[g as usize]);
    }
    log_marks("at start");
}

/// The marks in the file, all 0 if there is none (a cluster whose
/// generators never ran). A file that is there but unreadable, or says
/// anything chronoid never writes, stops the server: starting without it
/// could repeat IDs.
fn read_marks_file() -> [u64; 3] {
    let name = MARKS_FILE.to_str().expect("ASCII");
    let text = match read_file(MARKS_FILE) {
        Ok(Some(bytes)) => String::from_utf8(bytes).unwrap_or_default(),
        Ok(None) => return [0; 3],
        Err(e) => bad_marks_file(format!("could not read file \"{name}\": {e}")),
    };
    parse_marks(&text, FILE_HEADER, &Generator::NAMES)
        .and_then(|marks| marks.try_into().map_err(|_| "three marks".to_owned()))
        .unwrap_or_else(|why| {
            bad_marks_file(format!(
                "file \"{name}\" is not a chronoid marks file: {why}"
            ))
        })
}

/// A whole small file through PostgreSQL's file API; `None` if it is absent.
fn read_file(path: &CStr) -> std::io::Result<Option<Vec<u8>>> {
    // SAFETY: a NUL-terminated path; the descriptor is PostgreSQL's
    // transient file, closed below and never closed by `File` (ManuallyDrop).
    let fd = unsafe { pg_sys::OpenTransientFile(path.as_ptr(), (libc_flags::O_RDONLY) as _) };
    if fd < 0 {
        let e = std::io::Error::last_os_error();
        return if e.kind() == std::io::ErrorKind::NotFound {
            Ok(None)
        } else {
            Err(e)
        };
    }
    // SAFETY: as above.
    let file = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
    let mut bytes = Vec::new();
    let result = std::io::Read::read_to_end(&mut &*file, &mut bytes);
    // SAFETY: the transient file opened above.
    unsafe { pg_sys::CloseTransientFile(fd) };
    result.map(|_| Some(bytes))
}

/// The open(2) flags PostgreSQL's file API takes (Linux values; PG_BINARY
/// is 0 there).
mod libc_flags {
    pub const O_RDONLY: i32 = 0;
    pub const O_RDWR: i32 = 2;
    pub const O_CREAT: i32 = 0o100;
    pub const O_TRUNC: i32 = 0o1000;
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

/// How a write of the marks file ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flush {
    /// fsynced (and the directory, if the file is new): before a mark is
    /// logged, and at the end of recovery.
    Now,
    /// Left to the OS, flushed soon by the reserver: in redo, so that replay
    /// runs at the speed of the WAL.
    Later,
}

/// Writes all three marks to the file. Nearly always in place: one write
/// of the file's own length, which the OS does not tear, as PostgreSQL
/// writes pg_control. When the length changes (a mark gains a digit), a
/// new file is written beside and renamed over it.
fn write_marks_file(marks: &[u64; 3], flush: Flush) -> std::io::Result<()> {
    let text = format_marks(FILE_HEADER, &Generator::NAMES, marks);
    let name = MARKS_FILE.to_str().expect("ASCII");
    let in_place = std::fs::metadata(name).is_ok_and(|m| m.len() == text.len() as u64);
    let target = if in_place { MARKS_FILE } else { MARKS_TEMP };
    let flags =
        libc_flags::O_RDWR | libc_flags::O_CREAT | if in_place { 0 } else { libc_flags::O_TRUNC };
    // SAFETY: as in `read_file`.
    let fd = unsafe { pg_sys::OpenTransientFilePerm(target.as_ptr(), flags as _, 0o600) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: as in `read_file`.
    let file = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
    let mut result = file.write_all_at(text.as_bytes(), 0);
    // SAFETY: the descriptor opened above.
    if result.is_ok() && flush == Flush::Now && unsafe { pg_sys::pg_fsync(fd) } != 0 {
        result = Err(std::io::Error::last_os_error());
    }
    // SAFETY: the transient file opened above.
    unsafe { pg_sys::CloseTransientFile(fd) };
    if result.is_ok() && !in_place {
        result = std::fs::rename(MARKS_TEMP.to_str().expect("ASCII"), name);
        if result.is_ok() && flush == Flush::Now {
            result = fsync_data_directory();
        }
    }
    result
}

/// Makes the file durable as it now is, and the directory (a standby's
/// redo may have renamed a new file into place): what redo's
/// `Flush::Later` left to the reserver, and what start-up read.
pub fn flush_marks_file() -> std::io::Result<()> {
    // SAFETY: as in `read_file`.
    let fd = unsafe { pg_sys::OpenTransientFile(MARKS_FILE.as_ptr(), libc_flags::O_RDWR as _) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the descriptor opened above.
    let mut result = if unsafe { pg_sys::pg_fsync(fd) } != 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    };
    // SAFETY: the transient file opened above.
    unsafe { pg_sys::CloseTransientFile(fd) };
    if result.is_ok() {
        result = fsync_data_directory();
    }
    result
}

/// Writes the durable marks again and flushes them: after a failed fsync
/// the OS may have dropped the pages, and a second fsync would not say so.
pub fn rewrite_marks_file() -> std::io::Result<()> {
    // Under the lock: redo must not write newer marks between this
    // process's read of them and its write.
    let durable = DURABLE.share();
    write_marks_file(&durable.marks, Flush::Now)?;
    fsync_data_directory()
}

/// The durable marks, for the view.
pub fn durable_marks() -> [u64; 3] {
    DURABLE.share().marks
}

fn fsync_data_directory() -> std::io::Result<()> {
    // SAFETY: "." is the data directory; LOG (not ERROR) level, so a
    // failure comes back as -1 and is raised by the caller.
    let rc = unsafe { pg_sys::fsync_fname_ext(c".".as_ptr(), true, false, pg_sys::LOG as _) };
    if rc != 0 {
        return Err(std::io::Error::other("could not fsync the data directory"));
    }
    Ok(())
}

fn raise_file_error(e: std::io::Error) -> ! {
    super::error(
        PgSqlErrorCode::ERRCODE_IO_ERROR,
        format!(
            "could not write file \"{}\": {e}",
            MARKS_FILE.to_str().expect("ASCII")
        ),
    )
}

/// Writes `file_marks` to the file and fsyncs it, then logs the record and
/// flushes the WAL, under the lock held by the caller; returns the
/// record's LSN, for `acknowledged`.
fn log_marks_record(info: u8, payload: &[u8], file_marks: &[u64; 3]) -> pg_sys::XLogRecPtr {
    write_marks_file(file_marks, Flush::Now).unwrap_or_else(|e| raise_file_error(e));
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

/// Waits, as a commit does, until the synchronous standbys have the record
/// at `lsn`: an ID a SELECT saw must survive a failover to a synchronous
/// standby as a committed row does. Called without the lock, so that an
/// operator's move is not stuck behind a standby that does not answer.
/// Returns whether they acknowledged it, for the reserver: its wait ends
/// early only when it must exit (it ignores cancels), leaving
/// ProcDiePending set. (In a backend a cancel ends it too, with a WARNING;
/// an operator's move does not depend on it, see below.)
fn acknowledged(lsn: pg_sys::XLogRecPtr) -> bool {
    // SAFETY: PostgreSQL's own wait, and a flag its handler sets.
    unsafe {
        pg_sys::SyncRepWaitForLSN(lsn, false);
        pg_sys::ProcDiePending == 0
    }
}

/// Moves the marks of the generators up to the `targets` (computed under
/// the lock, so from tickers no operator is moving meanwhile), as one
/// record; returns which moved. Only the reserver calls it.
pub fn reserve(targets: impl FnOnce() -> [Option<u64>; 3]) -> [bool; 3] {
    let mut durable = DURABLE.exclusive();
    let targets = targets();
    let mut next = durable.marks;
    let mut moved = [false; 3];
    for g in Generator::ALL {
        if let Some(to) = targets[g as usize] {
            if to > next[g as usize] {
                next[g as usize] = to;
                moved[g as usize] = true;
            }
        }
    }
    if !moved.contains(&true) {
        return moved;
    }
    let payload: Vec<u8> = next.iter().flat_map(|m| m.to_le_bytes()).collect();
    let lsn = log_marks_record(XLOG_MARKS, &payload, &next);
    // The file holds them now: anyone who writes it next keeps them.
    durable.marks = next;
    let sets = durable.sets;
    drop(durable);
    if !acknowledged(lsn) {
        return [false; 3];
    }
    let durable = DURABLE.exclusive();
    for g in Generator::ALL {
        // An operator moved it meanwhile: that move stands.
        if moved[g as usize] && durable.sets[g as usize] == sets[g as usize] {
            g.mark().raise(next[g as usize]);
        } else {
            moved[g as usize] = false;
        }
    }
    moved
}

/// `chronoid_set_high_water_mark(generator, mark)`: as `setval()` is for a
/// sequence, the way out of a mark a forward clock jump left in the future.
#[pgrx::pg_extern(sql = false)]
fn chronoid_set_high_water_mark(generator: &str, mark: TimestampWithTimeZone) {
    const FUNCTION: &str = "chronoid_set_high_water_mark()";
    shmem::require_preloaded(FUNCTION);
    // SAFETY: reads the session's user.
    if !unsafe { pg_sys::superuser() } {
        super::error_with_hint(
            PgSqlErrorCode::ERRCODE_INSUFFICIENT_PRIVILEGE,
            "permission denied to set a chronoid high-water mark".into(),
            "Only a superuser may: a mark moved back lets the generator issue IDs again.",
        );
    }
    super::counter_id::refuse_during_recovery(FUNCTION);
    super::counter_id::refuse_in_read_only_transaction(FUNCTION);
    let Some(g) = Generator::from_name(generator) else {
        super::error_with_hint(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("unknown chronoid generator \"{generator}\""),
            "The generators with a high-water mark are nanoflake, caloriosa and uid60.",
        );
    };
    let ms = super::timestamptz_unix_ms(mark, "a high-water mark");
    let Some(ms) = u64::try_from(ms)
        .ok()
        .filter(|ms| (1..=MAX_MARK_MS).contains(ms))
    else {
        super::error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!(
                "a high-water mark must lie after 1970-01-01 00:00:00 UTC and no later than {}",
                format_utc_instant(MAX_MARK_MS as i64)
            ),
        );
    };
    let mut durable = DURABLE.exclusive();
    let old = durable.marks[g as usize];
    let mut next = durable.marks;
    next[g as usize] = ms;
    let payload: Vec<u8> = (g as u32)
        .to_le_bytes()
        .into_iter()
        .chain(0u32.to_le_bytes())
        .chain(ms.to_le_bytes())
        .collect();
    let lsn = log_marks_record(XLOG_SET_MARK, &payload, &next);
    durable.marks = next;
    durable.sets[g as usize] += 1;
    // The ticker moves to the new mark at once, and the mark callers check
    // only comes down to it: pairs above it wait for the reserver, whose
    // marks the synchronous standbys acknowledge. So this move can never
    // cover a pair the standbys do not know of, acknowledged or not.
    g.ticker().restart_at(ms);
    if ms < g.mark().get() {
        g.mark().set(ms);
    }
    drop(durable);
    reserver::marks_moved();
    // As a commit: a cancel while the standbys have not answered leaves
    // the move made here, with PostgreSQL's warning.
    acknowledged(lsn);
    if ms < old {
        pgrx::pg_sys::panic::ErrorReport::new(
            PgSqlErrorCode::ERRCODE_WARNING,
            format!(
                "the high-water mark of {} moved back from {} to {}",
                g.name(),
                format_utc_instant(old as i64),
                format_utc_instant(ms as i64)
            ),
            "chronoid",
        )
        .set_detail(format!(
            "gen_{}() may now issue IDs at or above {} again: any such ID issued before can repeat.",
            g.name(),
            format_utc_instant(ms as i64)
        ))
        .report(pgrx::PgLogLevel::WARNING);
    }
}

/// What redo does to the marks: raise them (a reservation) or set one (an
/// operator's move).
enum Replayed {
    Raise([u64; 3]),
    Set(Generator, u64),
}

/// Replays marks: on a standby, and in crash recovery. The file is written
/// but not flushed here; the reserver flushes it (`flush_marks_file`).
#[pg_guard]
unsafe extern "C-unwind" fn redo(record: *mut pg_sys::XLogReaderState) {
    // SAFETY: PostgreSQL passes the decoded record being replayed.
    let (info, data) = unsafe { record_info_and_data(record) };
    let Some(replayed) = decode(info, data) else {
        pgrx::error!(
            "chronoid: unknown WAL record (info {info:#x}, {} bytes)",
            data.len()
        );
    };
    let mut durable = DURABLE.exclusive();
    let before = durable.marks;
    match replayed {
        Replayed::Raise(marks) => {
            for g in Generator::ALL {
                let m = marks[g as usize];
                durable.marks[g as usize] = durable.marks[g as usize].max(m);
                g.mark().raise(m);
                g.ticker().resume_above(m);
            }
        }
        Replayed::Set(g, m) => {
            durable.marks[g as usize] = m;
            g.mark().set(m);
            g.ticker().restart_at(m);
        }
    }
    if durable.marks != before {
        // With no reserver to flush it (none started yet, or no worker
        // slot), redo flushes it itself.
        let flush = if reserver::running() {
            Flush::Later
        } else {
            Flush::Now
        };
        write_marks_file(&durable.marks, flush).unwrap_or_else(|e| raise_file_error(e));
        if flush == Flush::Later {
            reserver::replayed_marks_written();
        }
    }
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

fn u64_at(data: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(data[at..at + 8].try_into().expect("8 bytes"))
}

/// The records' payloads are little-endian integers: a generator index
/// (u32) and 4 bytes of padding before a mark, or three marks.
fn decode(info: u8, data: &[u8]) -> Option<Replayed> {
    let one = || {
        (data.len() == 16).then_some(())?;
        let g = Generator::from_index(u32::from_le_bytes(data[..4].try_into().ok()?))?;
        Some((g, u64_at(data, 8)))
    };
    match info {
        XLOG_MARK => one().map(|(g, m)| {
            let mut marks = [0; 3];
            marks[g as usize] = m;
            Replayed::Raise(marks)
        }),
        XLOG_MARKS if data.len() == 24 => Some(Replayed::Raise([
            u64_at(data, 0),
            u64_at(data, 8),
            u64_at(data, 16),
        ])),
        XLOG_SET_MARK => one().map(|(g, m)| Replayed::Set(g, m)),
        _ => None,
    }
}

/// For pg_waldump and pg_walinspect.
#[pg_guard]
unsafe extern "C-unwind" fn desc(buf: pg_sys::StringInfo, record: *mut pg_sys::XLogReaderState) {
    // SAFETY: as in `redo`.
    let (info, data) = unsafe { record_info_and_data(record) };
    let mark = |g: Generator, ms: u64| {
        format!("{} mark {ms} ({})", g.name(), format_utc_instant(ms as i64))
    };
    let text = match decode(info, data) {
        Some(Replayed::Raise(marks)) => Generator::ALL
            .into_iter()
            .filter(|g| marks[*g as usize] > 0)
            .map(|g| mark(g, marks[g as usize]))
            .collect::<Vec<_>>()
            .join(", "),
        Some(Replayed::Set(g, ms)) => format!("set {}", mark(g, ms)),
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
        XLOG_MARKS => c"MARKS".as_ptr(),
        XLOG_SET_MARK => c"SET_MARK".as_ptr(),
        _ => std::ptr::null(),
    }
}

/// At the end of recovery (crash recovery, or a standby promoted), before
/// the first ID: the replayed marks, written without a flush, are flushed.
#[pg_guard]
unsafe extern "C-unwind" fn flush_marks_after_recovery() {
    let marks = DURABLE.share().marks;
    if marks != [0; 3] {
        write_marks_file(&marks, Flush::Now).unwrap_or_else(|e| raise_file_error(e));
    }
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
