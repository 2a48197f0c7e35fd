//! Server-wide generator state, in shared memory when chronoid is preloaded.

use std::sync::atomic::{AtomicBool, Ordering};

use pgrx::pg_guard;
use pgrx::pg_sys;
use pgrx::{pg_shmem_init, PgAtomic, PgSqlErrorCode};

use crate::core::caloriosa::CaloriosaTicker;
use crate::core::nanoflake::NanoflakeTicker;
use crate::core::uid60::Uid60Ticker;

pub static NANOFLAKE_TICKER: PgAtomic<NanoflakeTicker> =
    unsafe { PgAtomic::new(c"chronoid.nanoflake_ticker") };
pub static CALORIOSA_TICKER: PgAtomic<CaloriosaTicker> =
    unsafe { PgAtomic::new(c"chronoid.caloriosa_ticker") };
pub static UID60_TICKER: PgAtomic<Uid60Ticker> = unsafe { PgAtomic::new(c"chronoid.uid60_ticker") };

/// Set in the postmaster when shared memory was requested; forked backends
/// inherit it.
static PRELOADED: AtomicBool = AtomicBool::new(false);

// SAFETY: each ticker is one AtomicU64 (repr(transparent)), valid in any
// process that maps the segment.
unsafe impl<const N: u32> pgrx::shmem::PGRXSharedMemory for crate::core::ticker::Ticker<N> {}
unsafe impl<const N: u32> pgrx::shmem::PGRXSharedMemory for crate::core::ticker::WrappingTicker<N> {}

pub fn init() {
    if unsafe { pg_sys::process_shared_preload_libraries_in_progress } {
        pg_shmem_init!(NANOFLAKE_TICKER = NanoflakeTicker::new());
        pg_shmem_init!(CALORIOSA_TICKER = CaloriosaTicker::new());
        pg_shmem_init!(UID60_TICKER = Uid60Ticker::new());
        PRELOADED.store(true, Ordering::Relaxed);
    }
}

/// Raises 55000, with a hint, unless the shared state exists: a generator
/// whose uniqueness across backends depends on it must not run without.
pub fn require_preloaded(generator: &str) {
    if !PRELOADED.load(Ordering::Relaxed) {
        super::error_with_hint(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{generator} requires chronoid to be loaded via shared_preload_libraries"),
            "Add chronoid to shared_preload_libraries in postgresql.conf and restart the server; \
             the generator keeps its sequence in shared memory so that no two backends repeat an ID.",
        );
    }
}
