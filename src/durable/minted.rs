//! IDs minted, counted per backend and added to the shared counters at the
//! end of each transaction, as PostgreSQL flushes its own statistics.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use pgrx::prelude::*;

use super::generator::Generator;
use crate::pg::backend_local::BackendLocal;

/// IDs this backend handed out and has not yet added to the shared
/// `minted` counters: one plain increment per ID, added at the end of each
/// transaction (as PostgreSQL flushes its own statistics), so the view is
/// exact once the generating transaction has ended and no ID pays for an
/// atomic read-modify-write on a line every backend writes.
static UNFLUSHED_MINTED: BackendLocal<[u64; 3]> = BackendLocal::new();

/// Whether this process counts its IDs already (its first ID registers the
/// callback that flushes them, which the unguarded path may not).
#[inline(always)]
pub fn ready() -> bool {
    UNFLUSHED_MINTED.try_with(|_| ()).is_some()
}

#[inline]
pub fn count_minted(g: Generator) {
    UNFLUSHED_MINTED.with(
        || {
            // The first ID of this process: flush at every transaction end.
            // SAFETY: registers a callback that lives as long as the process.
            unsafe { pg_sys::RegisterXactCallback(Some(flush_minted), std::ptr::null_mut()) };
            [0; 3]
        },
        |counts| counts[g as usize] += 1,
    );
}

/// At every transaction event (commit, abort, their parallel-worker forms):
/// IDs handed out count whether or not their transaction commits.
#[pg_guard]
unsafe extern "C-unwind" fn flush_minted(
    _event: pg_sys::XactEvent::Type,
    _arg: *mut std::ffi::c_void,
) {
    let counts = UNFLUSHED_MINTED
        .try_with(std::mem::take)
        .unwrap_or_default();
    for g in Generator::ALL {
        if counts[g as usize] > 0 {
            g.stats().add_minted(counts[g as usize]);
        }
    }
}
