//! What runs whenever the postmaster (re)builds shared memory, at start and
//! after a backend crash, before crash recovery replays WAL: the reserver's
//! condition variable is initialized, and the marks are read from
//! `chronoid.marks` and each ticker resumes above its mark; and what runs
//! when the postmaster exits after a clean shutdown: the marks come down to
//! the last pairs handed out. What start-up makes of a missing file (a
//! restored backup's: lost; another's: a warning) is here too.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use pgrx::pg_guard;
use pgrx::pg_sys;

use pgrx::PgSqlErrorCode;

use chronoid_formats::high_water::{mark_under_epoch, LOST_MARK_MS};
use chronoid_formats::time::format_utc_instant;

use super::generator::Generator;
use super::marks_file::{
    flush_marks_file, give_data_directory_mode, read_marks_file, write_marks_file, Flush,
    MARKS_FILE,
};
use super::{marks, reservation};

static mut PREV_SHMEM_STARTUP_HOOK: Option<unsafe extern "C-unwind" fn()> = None;

/// From `_PG_init` while preloading, after every `pg_shmem_init!`: pgrx's
/// hooks place the shared structures, and this one, chained after them,
/// fills them.
pub fn install_hook() {
    // SAFETY: preloading, in the postmaster; the hook chains to whatever
    // was installed before.
    unsafe {
        PREV_SHMEM_STARTUP_HOOK = pg_sys::shmem_startup_hook;
        pg_sys::shmem_startup_hook = Some(load_marks_at_startup);
    }
}

#[pg_guard]
unsafe extern "C-unwind" fn load_marks_at_startup() {
    // SAFETY: the hook chain as installed in `install_hook`.
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
    reservation::init_shared();
    load_at_startup();
    // Registered anew each time shared memory is built: a crash restart
    // runs the list (with code 1) and empties it. Children forked from the
    // postmaster drop the postmaster's list (on_exit_reset).
    // SAFETY: the postmaster's own exit callbacks; shared memory is still
    // mapped when they run (it was registered before this one).
    unsafe { pg_sys::on_shmem_exit(Some(at_postmaster_exit), pg_sys::Datum::from(0)) };
}

/// The postmaster exits: after a clean shutdown (code 0), every child gone,
/// the marks come down to the last pairs handed out.
#[pg_guard]
unsafe extern "C-unwind" fn at_postmaster_exit(code: i32, _arg: pg_sys::Datum) {
    // SAFETY: a flag PostgreSQL sets in every child.
    if code == 0 && !unsafe { pg_sys::IsUnderPostmaster } {
        marks::record_last_pairs_at_shutdown();
    }
}

/// In the postmaster, each time shared memory is (re)built
/// (`startup.rs`): the marks in the file, moved to this server's epochs,
/// become the durable marks, and each ticker resumes above its mark.
fn load_at_startup() {
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
            // A base backup restored without its file (backup_label says
            // the data directory is one): every generator is lost
            // (`LOST_MARK_MS`) until a mark record replayed from the
            // backup's WAL (`log_after_checkpoint` puts one there) or an
            // operator sets its mark; written to a new file, so that a
            // restart stays so. Elsewhere (chronoid preloaded for the first
            // time on a cluster that ran without it, a pg_upgrade) there is
            // no telling a lost file from one never written: a warning.
            if std::path::Path::new("backup_label").exists() {
                lost_marks_file_warning(name);
                ([LOST_MARK_MS; 3], true)
            } else {
                if crate::pg::control::cluster_is_new() != Some(true) {
                    missing_marks_file_warning(name);
                }
                ([0; 3], true)
            }
        }
    };
    *marks::DURABLE.exclusive() = marks::DurableMarks {
        marks,
        last_record_lsn: 0,
    };
    Generator::note_durable(&marks);
    // What was read is what generators resume above: make sure it is on
    // disk (a standby's redo may have left it to the reserver's flush). A
    // file the server cannot write (another owner, a mode, a directory in
    // the way) does not keep the database down: the marks read hold, and
    // the generators refuse, naming the file, once they need a reservation
    // (`reservation::write_failed`).
    let flushed = if rewrite {
        write_marks_file(&marks, Flush::Now)
    } else {
        flush_marks_file()
    };
    if let Err(e) = flushed {
        reservation::write_failed(&e);
        pgrx::pg_sys::panic::ErrorReport::new(PgSqlErrorCode::ERRCODE_IO_ERROR, format!("chronoid: {e}"), "chronoid")
            .set_detail(
                "The marks read at start hold; gen_nanoflake(), gen_caloriosa() and gen_uid60() refuse \
                 (58030) whenever they need a new mark, until the file can be written.",
            )
            .set_hint("Give the file (and the data directory) back to the server's user, with the data directory's mode.")
            .report(pgrx::PgLogLevel::WARNING);
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
    marks::log_marks("at start");
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

/// A base backup restored without the file: the generators refuse until a
/// replayed record or an operator brings their marks back.
fn lost_marks_file_warning(name: &str) {
    pgrx::pg_sys::panic::ErrorReport::new(
        PgSqlErrorCode::ERRCODE_UNDEFINED_FILE,
        format!("chronoid: file \"{name}\" is missing from this restored backup: the generators' high-water marks are lost"),
        "chronoid",
    )
    .set_detail(
        "gen_nanoflake(), gen_caloriosa() and gen_uid60() refuse (55000) until a mark record \
         replayed from the backup's WAL brings each one's mark back, or an operator sets it: \
         from the clock alone they could repeat an ID the backed-up cluster made.",
    )
    .set_hint(
        "Stop the server and restore chronoid.marks from the backup (it must include it), or \
         set each mark above the IDs already made with chronoid_set_high_water_mark().",
    )
    .report(pgrx::PgLogLevel::WARNING);
}
