//! Server-wide generator state, in shared memory when chronoid is preloaded.

use std::sync::atomic::{AtomicBool, Ordering};

use pgrx::pg_guard;
use pgrx::pg_sys;
use pgrx::{pg_shmem_init, PgAtomic, PgSqlErrorCode};

use chronoid_formats::caloriosa::CaloriosaTicker;
use chronoid_formats::clock::Clock;
use chronoid_formats::generator_stats::GeneratorStats;
use chronoid_formats::nanoflake::NanoflakeTicker;
use chronoid_formats::uid60::Uid60Ticker;

// SAFETY (all three): each name is unique, and `init` puts each ticker in
// shared memory before any backend can use it; `get` is only called after
// `require_preloaded`.
pub static NANOFLAKE_TICKER: PgAtomic<InShmem<NanoflakeTicker>> =
    unsafe { PgAtomic::new(c"chronoid.nanoflake_ticker") };
// SAFETY: as above.
pub static CALORIOSA_TICKER: PgAtomic<InShmem<CaloriosaTicker>> =
    unsafe { PgAtomic::new(c"chronoid.caloriosa_ticker") };
// SAFETY: as above.
pub static UID60_TICKER: PgAtomic<InShmem<Uid60Ticker>> =
    unsafe { PgAtomic::new(c"chronoid.uid60_ticker") };

/// The generators' counters for the `chronoid_generators` view, and when
/// shared memory (and so the counters) was last built.
pub struct GeneratorCounters {
    pub since_unix_ms: u64,
    pub stats: [GeneratorStats; 3],
}
// SAFETY: as above.
pub static GENERATOR_COUNTERS: PgAtomic<InShmem<GeneratorCounters>> =
    unsafe { PgAtomic::new(c"chronoid.generator_counters") };

/// A formats-crate ticker placed in shared memory (the wrapper lets this
/// crate declare it fit for that).
#[repr(transparent)]
pub struct InShmem<T>(pub T);

impl<T> std::ops::Deref for InShmem<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Set in the postmaster when shared memory was requested; forked backends
/// inherit it.
static PRELOADED: AtomicBool = AtomicBool::new(false);

// SAFETY: each ticker is one AtomicU64 (repr(transparent)), valid in any
// process that maps the segment.
unsafe impl<const N: u32> pgrx::shmem::PGRXSharedMemory
    for InShmem<chronoid_formats::ticker::Ticker<N>>
{
}
// SAFETY: as above.
unsafe impl<const N: u32> pgrx::shmem::PGRXSharedMemory
    for InShmem<chronoid_formats::ticker::WrappingTicker<N>>
{
}
// SAFETY: atomics and an integer.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<GeneratorCounters> {}

pub fn init() {
    // SAFETY: a flag PostgreSQL sets while it loads preloaded libraries.
    if unsafe { pg_sys::process_shared_preload_libraries_in_progress } {
        pg_shmem_init!(NANOFLAKE_TICKER = InShmem(NanoflakeTicker::new()));
        pg_shmem_init!(CALORIOSA_TICKER = InShmem(CaloriosaTicker::new()));
        pg_shmem_init!(UID60_TICKER = InShmem(Uid60Ticker::new()));
        pg_shmem_init!(
            GENERATOR_COUNTERS = InShmem(GeneratorCounters {
                since_unix_ms: super::BackendClock.now_ms(),
                stats: Default::default(),
            })
        );
        // After the tickers: its start-up hook resumes them above their marks.
        super::high_water::init();
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
