//! What runs whenever the postmaster (re)builds shared memory, at start and
//! after a backend crash, before crash recovery replays WAL: the reserver's
//! condition variable is initialized, and the marks are read from
//! `chronoid.marks` and each ticker resumes above its mark; and what runs
//! when the postmaster exits after a clean shutdown: the marks come down to
//! the last pairs handed out.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use pgrx::pg_guard;
use pgrx::pg_sys;

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
    marks::load_at_startup();
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
