//! What each of chronoid's background workers does as PostgreSQL's own do:
//! the standard signal handlers, and a reload of the configuration when
//! SIGHUP asked for one.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use pgrx::pg_sys;

/// SIGTERM ends the worker at its next CHECK_FOR_INTERRUPTS (never inside a
/// critical section), SIGHUP asks for a reload; `ignore_cancel` ignores
/// SIGINT (`pg_cancel_backend`). Then unblocks signals.
pub fn set_signal_handlers(ignore_cancel: bool) {
    // SAFETY: PostgreSQL's own handlers, set before signals are unblocked.
    unsafe {
        super::ffi::set_signal_handler(pg_sys::SIGTERM as _, Some(super::ffi::die_signal_handler));
        super::ffi::set_signal_handler(
            pg_sys::SIGHUP as _,
            Some(super::ffi::config_reload_signal_handler),
        );
        if ignore_cancel {
            // SIG_IGN is the handler value 1, as <signal.h> defines it.
            let sig_ign = std::mem::transmute::<usize, unsafe extern "C-unwind" fn(i32)>(1);
            super::ffi::set_signal_handler(pg_sys::SIGINT as _, Some(sig_ign));
        }
        pg_sys::BackgroundWorkerUnblockSignals();
    }
}

/// Sleeps until the latch is set (a signal, a caller's request) or
/// `timeout_ms` pass; the process exits if the postmaster dies.
pub fn wait(timeout_ms: u64) {
    // SAFETY: this process's latch.
    unsafe {
        pg_sys::WaitLatch(
            pg_sys::MyLatch,
            (pg_sys::WL_LATCH_SET | pg_sys::WL_TIMEOUT | pg_sys::WL_EXIT_ON_PM_DEATH) as _,
            timeout_ms.min(i32::MAX as u64) as _,
            pg_sys::PG_WAIT_EXTENSION,
        );
    }
}

/// Reads the configuration again if SIGHUP asked for it.
pub fn reload_if_asked() {
    // SAFETY: a flag PostgreSQL's handler sets, read in this process.
    unsafe {
        if pg_sys::ConfigReloadPending != 0 {
            pg_sys::ConfigReloadPending = 0;
            pg_sys::ProcessConfigFile(pg_sys::GucContext::PGC_SIGHUP);
        }
    }
}
