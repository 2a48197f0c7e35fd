//! The mechanism of the durable, replicated high-water marks of the
//! server-wide generators
//! (`gen_nanoflake`, `gen_caloriosa`, `gen_uid60`), so that no run of the
//! server, and no standby promoted in its place, hands out an ID at or
//! below one handed out before, whatever its clock reads.
//!
//! The policy (when a mark moves, how far) is the formats crate's
//! `high_water`; here the mark is made durable and read back, under one
//! lock (`DURABLE`) that serializes every write of the file and every mark
//! record. The file is `marks_file.rs`, the records `wal_records.rs`, the
//! resource manager that replays them `rmgr.rs`:
//! - a mark moves only in the reserver (`reserver.rs`, through `reserve`)
//!   or by an operator (`set_mark.rs`, through `move_mark`), ahead of the
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
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgLwLock, PgSqlErrorCode};

use chronoid_formats::high_water::mark_under_epoch;

use chronoid_formats::clock::Clock;
use chronoid_formats::ticker::Tick;
use chronoid_formats::time::format_utc_instant;

use super::generator::Generator;
use super::marks_file::{
    bad_marks_file, flush_marks_file, fsync_data_directory, give_data_directory_mode,
    raise_file_error, read_marks_file, write_marks_file, Flush, MARKS_FILE,
};
use super::reservation;
use super::wal_records::{self, Record, XLOG_MARKS, XLOG_SET_MARK};
use crate::pg::clock::BackendClock;

/// What `chronoid.marks` holds (the durable marks), under the lock that
/// serializes every write of the file and every mark record: the
/// reserver's, an operator's, redo's.
#[derive(Default)]
pub struct DurableMarks {
    pub marks: [u64; 3],
}

// SAFETY: plain integers, valid in any process mapping them.
unsafe impl pgrx::shmem::PGRXSharedMemory for DurableMarks {}

// SAFETY: a unique name; `request_shmem` places it before any backend runs.
pub static DURABLE: PgLwLock<DurableMarks> = unsafe { PgLwLock::new(c"chronoid.durable_marks") };

/// From `_PG_init` while preloading.
pub fn request_shmem() {
    pg_shmem_init!(DURABLE);
}

/// In the postmaster, each time shared memory is (re)built
/// (`startup.rs`): the marks in the file, moved to this server's epochs,
/// become the durable marks, and each ticker resumes above its mark.
pub fn load_at_startup() {
    let name = MARKS_FILE.to_str().expect("ASCII");
    let (marks, rewrite) = match read_marks_file() {
        Some(file) => {
            let made_under = file
                .epochs
                .clone()
                .unwrap_or_else(|| Generator::epochs().to_vec());
            let marks = Generator::ALL.map(|g| {
                let i = g as usize;
                mark_under_epoch(file.marks[i], made_under[i], g.epoch())
            });
            for g in Generator::ALL {
                let i = g as usize;
                if made_under[i] != g.epoch() && file.marks[i] > 0 {
                    pgrx::log!(
                        "chronoid: file \"{name}\" was written under {} epoch {}; this server's is {}: \
                         its high-water mark moves from {} to {} so that no ID repeats one made under the other",
                        g.name(),
                        format_utc_instant(made_under[i]),
                        format_utc_instant(g.epoch()),
                        format_utc_instant(file.marks[i] as i64),
                        format_utc_instant(marks[i] as i64)
                    );
                }
            }
            // A file of 0.5.0's form, or one whose marks moved, is written
            // anew in this server's terms.
            (
                marks,
                file.epochs.is_none() || marks != file.marks.as_slice(),
            )
        }
        None => {
            if crate::pg::control::cluster_is_new() != Some(true) {
                missing_marks_file_warning(name);
            }
            // From now on a missing file says it was lost.
            ([0; 3], true)
        }
    };
    *DURABLE.exclusive() = DurableMarks { marks };
    Generator::note_durable(&marks);
    // What was read is what generators resume above: make sure it is on
    // disk (a standby's redo may have left it to the reserver's flush).
    let flushed = if rewrite {
        write_marks_file(&marks, Flush::Now)
    } else {
        flush_marks_file()
    };
    if let Err(e) = flushed {
        bad_marks_file(format!("could not write file \"{name}\": {e}"));
    }
    // A file whose mode cannot be changed (another owner) still serves.
    if let Err(e) = give_data_directory_mode() {
        pgrx::warning!(
            "chronoid: could not give file \"{name}\" the data directory's mode: {e}; a backup made by the group may miss it"
        );
    }
    for g in Generator::ALL {
        g.mark().raise(marks[g as usize]);
        g.ticker().resume_above(marks[g as usize]);
    }
    log_marks("at start");
}

/// A cluster that is not new starts without its marks: they were lost (a
/// backup or copy without the file), and the generators start from the
/// clock.
fn missing_marks_file_warning(name: &str) {
    pgrx::pg_sys::panic::ErrorReport::new(
        PgSqlErrorCode::ERRCODE_UNDEFINED_FILE,
        format!(
            "chronoid: file \"{name}\" is missing: the generators' high-water marks start from 0"
        ),
        "chronoid",
    )
    .set_detail(
        "gen_nanoflake(), gen_caloriosa() and gen_uid60() now rely on the clock alone: an ID \
         made before, by this cluster or the primary it was copied from, can repeat if the \
         clock reads earlier than it.",
    )
    .set_hint(
        "Stop the server and restore chronoid.marks from the data directory it was copied \
         from (a backup must include it; pg_upgrade does not copy it), or set each mark \
         above the IDs already made with chronoid_set_high_water_mark(). If no chronoid \
         generator ever ran on this cluster or its primary, nothing was lost.",
    )
    .report(pgrx::PgLogLevel::WARNING);
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

/// The durable marks, for the view: the copy kept without the lock.
pub fn durable_marks() -> [u64; 3] {
    Generator::ALL.map(Generator::durable_mark)
}

/// Writes `file_marks` to the file and fsyncs it, then logs the record and
/// flushes the WAL, under the lock held by the caller; returns the
/// record's LSN, for `acknowledged`.
fn log_marks_record(info: u8, payload: &[u8], file_marks: &[u64; 3]) -> pg_sys::XLogRecPtr {
    write_marks_file(file_marks, Flush::Now).unwrap_or_else(|e| raise_file_error(e));
    wal_records::insert_and_flush(info, payload)
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
    let payload = wal_records::marks_payload(&next, &Generator::epochs());
    let lsn = log_marks_record(XLOG_MARKS, &payload, &next);
    // The file holds them now: anyone who writes it next keeps them.
    durable.marks = next;
    Generator::note_durable(&next);
    // An operator's move of a generator while the standbys are awaited
    // stands: the reservation does not raise that generator's mark.
    let moves = Generator::ALL.map(Generator::moves);
    drop(durable);
    if !acknowledged(lsn) {
        return [false; 3];
    }
    let _durable = DURABLE.exclusive();
    for g in Generator::ALL {
        if moved[g as usize] && g.moves() == moves[g as usize] {
            g.mark().raise(next[g as usize]);
        } else {
            moved[g as usize] = false;
        }
    }
    moved
}

/// What an operator's move replaced: the durable mark, and the ticker's
/// last pair (handed out, or about to be, by a caller in flight).
pub struct Replaced {
    pub durable_mark: u64,
    pub last_pair: Option<Tick>,
}

/// An operator's move of `g`'s mark and ticker to `ms`, down as well as up
/// (`chronoid_set_high_water_mark`); returns what it replaced.
pub fn move_mark(g: Generator, ms: u64) -> Replaced {
    let mut durable = DURABLE.exclusive();
    let old = durable.marks[g as usize];
    let mut next = durable.marks;
    next[g as usize] = ms;
    let payload = wal_records::set_mark_payload(g, ms, g.epoch());
    let lsn = log_marks_record(XLOG_SET_MARK, &payload, &next);
    durable.marks = next;
    Generator::note_durable(&next);
    // Counted before the ticker moves: a caller still waiting for a pair
    // it took before the move, at or above the new position, gives it up
    // (the moved ticker may hand it out again) and takes a new one; one
    // that returned its pair before the count is covered by the WARNING
    // (the pair is at most `last_pair`).
    g.note_move(ms);
    // The ticker moves to the new mark at once, and the mark callers check
    // only comes down to it: pairs above it wait for the reserver, whose
    // marks the synchronous standbys acknowledge. So this move can never
    // cover a pair the standbys do not know of, acknowledged or not.
    let last_pair = g.ticker().restart_at(ms);
    if ms < g.mark().get() {
        g.mark().set(ms);
    }
    // What waiting callers asked for before the move is no longer asked.
    reservation::forget_request(g);
    drop(durable);
    reservation::marks_moved();
    // As a commit: a cancel while the standbys have not answered leaves
    // the move made here, with PostgreSQL's warning.
    acknowledged(lsn);
    Replaced {
        durable_mark: old,
        last_pair,
    }
}

/// Replays a record (`rmgr.rs`): on a standby, and in crash recovery. The
/// file is written but not flushed here; the reserver flushes it
/// (`flush_marks_file`).
pub fn replay(replayed: Record) {
    let mut durable = DURABLE.exclusive();
    let before = durable.marks;
    // Marks made under another epoch (a primary configured differently)
    // are moved to this server's.
    match replayed {
        Record::Raise(marks, epochs) => {
            for g in Generator::ALL {
                let made_under = epochs.map_or(g.epoch(), |e| e[g as usize]);
                let m = mark_under_epoch(marks[g as usize], made_under, g.epoch());
                durable.marks[g as usize] = durable.marks[g as usize].max(m);
                g.mark().raise(m);
                g.ticker().resume_above(m);
            }
        }
        Record::Set(g, m, epoch) => {
            let m = mark_under_epoch(m, epoch.unwrap_or(g.epoch()), g.epoch());
            durable.marks[g as usize] = m;
            g.mark().set(m);
            g.ticker().restart_at(m);
        }
    }
    if durable.marks != before {
        Generator::note_durable(&durable.marks);
        // With no reserver to flush it (none started yet, or no worker
        // slot), redo flushes it itself.
        let flush = if reservation::running() {
            Flush::Later
        } else {
            Flush::Now
        };
        write_marks_file(&durable.marks, flush).unwrap_or_else(|e| raise_file_error(e));
        if flush == Flush::Later {
            reservation::replayed_marks_written();
        }
    }
}

/// At the end of recovery (crash recovery, or a standby promoted), before
/// the first ID: the replayed marks, written without a flush, are flushed.
pub fn flush_after_recovery() {
    let marks = DURABLE.share().marks;
    if marks != [0; 3] {
        write_marks_file(&marks, Flush::Now).unwrap_or_else(|e| raise_file_error(e));
    }
    log_marks("after WAL replay");
}

/// In the postmaster as it exits after a clean shutdown (`startup.rs`), when
/// every process that could hand out a pair has gone: each durable mark
/// comes down to just above the last pair its ticker handed out, so that
/// the next start resumes there at once, rather than up to a window ahead
/// of the clock, waiting for it (or refusing, with the clock a little
/// behind). Never raised. The records in the WAL still carry the reserved
/// marks: a replay of them (a standby, a point-in-time recovery) is only
/// higher than needed. A crash, or shared memory rebuilt after one, writes
/// nothing here.
pub fn record_last_pairs_at_shutdown() {
    let before = Generator::ALL.map(Generator::durable_mark);
    let after = Generator::ALL.map(|g| {
        let i = g as usize;
        g.last_tick()
            .map_or(before[i], |t| before[i].min(t.unix_ms + 1))
    });
    if after == before {
        return;
    }
    match write_marks_file(&after, Flush::Now) {
        Ok(()) => {
            for g in Generator::ALL {
                let i = g as usize;
                if after[i] < before[i] {
                    pgrx::log!(
                        "chronoid: at shutdown, gen_{}()'s high-water mark comes down from {} to {} ({} ms), just above the last ID it handed out",
                        g.name(),
                        format_utc_instant(before[i] as i64),
                        format_utc_instant(after[i] as i64),
                        after[i]
                    );
                }
            }
        }
        Err(e) => pgrx::log!(
            "chronoid: could not write the last IDs to file \"chronoid.marks\" at shutdown: {e}; the next start resumes above the reserved marks"
        ),
    }
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
                 so gen_{}() waits up to 1.5 s and otherwise fails with SQLSTATE 55000 until the clock passes it",
                g.name(),
                mark - now,
                g.name()
            )
        };
        pgrx::log!("{msg}");
    }
}
