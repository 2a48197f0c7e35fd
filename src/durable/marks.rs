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

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgLwLock};

use chronoid_formats::high_water::{mark_under_epoch, LOST_MARK_MS};

use chronoid_formats::clock::Clock;
use chronoid_formats::ticker::Tick;
use chronoid_formats::time::format_utc_instant;

use super::generator::Generator;
use super::marks_file::{fsync_data_directory, raise_file_error, write_marks_file, Flush};
use super::reservation;
use super::wal_records::{self, Record, XLOG_MARKS, XLOG_SET_MARK};
use crate::pg::clock::BackendClock;

/// What `chronoid.marks` holds (the durable marks), under the lock that
/// serializes every write of the file and every mark record: the
/// reserver's, an operator's, redo's.
#[derive(Default)]
pub struct DurableMarks {
    pub marks: [u64; 3],
    /// Where the last record of the marks this server wrote ends (0: none
    /// since start): `log_after_checkpoint` writes one when a checkpoint's
    /// redo point has passed it.
    pub last_record_lsn: u64,
}

// SAFETY: plain integers, valid in any process mapping them.
unsafe impl pgrx::shmem::PGRXSharedMemory for DurableMarks {}

// SAFETY: a unique name; `request_shmem` places it before any backend runs.
pub static DURABLE: PgLwLock<DurableMarks> = unsafe { PgLwLock::new(c"chronoid.durable_marks") };

/// From `_PG_init` while preloading.
pub fn request_shmem() {
    pg_shmem_init!(DURABLE);
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
fn log_marks_record(
    durable: &mut DurableMarks,
    info: u8,
    payload: &[u8],
    file_marks: &[u64; 3],
) -> pg_sys::XLogRecPtr {
    if let Err(e) = write_marks_file(file_marks, Flush::Now) {
        reservation::write_failed(&e);
        raise_file_error(e);
    }
    let lsn = wal_records::insert_and_flush(info, payload);
    durable.last_record_lsn = lsn;
    lsn
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
            // A lost generator gets its mark from an operator, never here.
            if to > next[g as usize] && next[g as usize] != LOST_MARK_MS {
                next[g as usize] = to;
                moved[g as usize] = true;
            }
        }
    }
    if !moved.contains(&true) {
        return moved;
    }
    let payload = wal_records::marks_payload(&next, &Generator::epochs());
    let lsn = log_marks_record(&mut durable, XLOG_MARKS, &payload, &next);
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

/// Brings `g`'s mark down to `to`, the reserver's, when it lies further
/// ahead than anything needs (`high_water::trim_to`: a reservation made for
/// callers that went away during a forward clock glitch): the mark callers
/// check first, then the ticker is read (sequentially consistent with a
/// caller's swap and its reading of the mark, `high_water::next_covered`):
/// a pair taken above `to` meanwhile keeps the mark where it was.
/// Otherwise the file and a SET_MARK record say so. Returns whether it
/// moved.
pub fn trim(g: Generator, to: impl FnOnce() -> Option<u64>) -> bool {
    let mut durable = DURABLE.exclusive();
    let Some(to) = to() else {
        return false;
    };
    let old = durable.marks[g as usize];
    if to >= old {
        return false;
    }
    // The mark callers check comes down first (never up: a mark the
    // standbys have not acknowledged is not raised here).
    let checked = g.mark().get();
    if checked > to {
        g.mark().set(to);
    }
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    if g.last_tick().is_some_and(|t| t.unix_ms >= to) {
        g.mark().raise(checked);
        return false;
    }
    let mut next = durable.marks;
    next[g as usize] = to;
    let payload = wal_records::set_mark_payload(g, to, g.epoch());
    if let Err(e) = write_marks_file(&next, Flush::Now) {
        // The higher mark stays durable: nothing is lost but the trim.
        g.mark().raise(checked);
        reservation::write_failed(&e);
        return false;
    }
    durable.last_record_lsn = wal_records::insert_and_flush(XLOG_SET_MARK, &payload);
    durable.marks = next;
    Generator::note_durable(&next);
    pgrx::log!(
        "chronoid: gen_{}()'s high-water mark comes back from {} to {}: no ID and no caller needs it (a reservation made for a call that did not wait for it)",
        g.name(),
        format_utc_instant(old as i64),
        format_utc_instant(to as i64)
    );
    true
}

/// Once a checkpoint's redo point has passed the last record of the marks,
/// writes one more, carrying the durable marks, as a sequence is logged
/// again after each checkpoint: a base backup's WAL then holds the marks,
/// and a backup restored without `chronoid.marks` replays them instead of
/// starting lost. Unimportant and not flushed: it repeats what the file
/// holds (marks of 0 too: no ID was ever made, and a restore can trust
/// that; a lost mark stays lost in replay). Only the reserver calls it.
pub fn log_after_checkpoint() {
    // SAFETY: reads shared WAL state.
    let redo = unsafe { pg_sys::GetRedoRecPtr() };
    let mut durable = DURABLE.exclusive();
    if durable.last_record_lsn >= redo {
        return;
    }
    let payload = wal_records::marks_payload(&durable.marks, &Generator::epochs());
    durable.last_record_lsn = wal_records::insert_unimportant(XLOG_MARKS, &payload);
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
    let lsn = log_marks_record(&mut durable, XLOG_SET_MARK, &payload, &next);
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
                // A lost mark is replaced by what the record says (0 too: the
                // primary had made no mark, and so no ID, of that generator).
                durable.marks[g as usize] = if durable.marks[g as usize] == LOST_MARK_MS {
                    m
                } else {
                    durable.marks[g as usize].max(m)
                };
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
        match write_marks_file(&durable.marks, flush) {
            Ok(()) if flush == Flush::Later => reservation::replayed_marks_written(),
            Ok(()) => {}
            // Replay goes on: the marks hold in memory (the ticker resumes
            // above them, so no pair below them is handed out), and the
            // first reservation writes them all, or refuses.
            Err(e) => unwritable_in_recovery(e),
        }
    }
}

/// Redo, or the end of recovery, could not write the file: the server goes
/// on (no fault of chronoid's file takes the database down), and says so.
fn unwritable_in_recovery(e: std::io::Error) {
    reservation::write_failed(&e);
    pgrx::warning!(
        "chronoid: {e}; the replayed marks hold in memory, and the generators refuse (58030) when they need a new mark until the file can be written"
    );
}

/// At the end of recovery (crash recovery, or a standby promoted), before
/// the first ID: the replayed marks, written without a flush, are flushed.
pub fn flush_after_recovery() {
    let marks = DURABLE.share().marks;
    if marks != [0; 3] {
        if let Err(e) = write_marks_file(&marks, Flush::Now) {
            unwritable_in_recovery(e);
        }
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
pub fn log_marks(when: &str) {
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
