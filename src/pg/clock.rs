//! The system clock as a backend reads it, for the formats crate's
//! generators (`chronoid_formats::clock::Clock`).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use pgrx::pg_sys;

use chronoid_formats::clock::Clock;

/// The wall clock, unix ms, as `BackendClock` reads it.
pub fn now_ms() -> u64 {
    BackendClock.now_ms()
}

/// The system clock as generators in a backend see it: PostgreSQL's own
/// reading of the wall clock (`GetCurrentTimestamp`), the formats crate's
/// monotonic clock for how long a generator waited, and a wait that spins
/// for the next millisecond but sleeps (and honours query cancel) when the
/// clock is further behind.
pub struct BackendClock;

impl Clock for BackendClock {
    fn now_ms(&mut self) -> u64 {
        // PostgreSQL's own clock reading (one gettimeofday through the vDSO,
        // microseconds since 2000): the same instant as SystemTime, without
        // std's Duration arithmetic, which cost as much again per ID.
        // SAFETY: reads the system clock; cannot raise an ERROR.
        let pg_usec = unsafe { super::ffi::current_timestamp_unguarded() };
        u64::try_from(chronoid_formats::time::pg_usec_to_unix_ms(pg_usec)).unwrap_or(0)
    }

    fn monotonic_ms(&mut self) -> u64 {
        chronoid_formats::clock::SystemClock.monotonic_ms()
    }

    fn wait(&mut self, now_ms: u64, until_ms: u64) {
        pgrx::check_for_interrupts!();
        if until_ms.saturating_sub(now_ms) <= 1 {
            for _ in 0..64 {
                std::hint::spin_loop();
            }
        } else {
            // SAFETY: a plain sleep; cancellation is checked above.
            unsafe { pg_sys::pg_usleep(1000) };
        }
    }
}
