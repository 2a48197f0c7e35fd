//! The system clock as a backend reads it, for the formats crate's
//! generators (`chronoid_formats::clock::Clock`).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use pgrx::pg_sys;

use chronoid_formats::clock::Clock;
use chronoid_formats::millisecond_span::{counter_rate, rates_agree, MillisecondSpan};

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

/// The wall clock in unix microseconds, as `BackendClock` reads it.
fn wall_us() -> u64 {
    // SAFETY: reads the system clock; cannot raise an ERROR.
    let pg_usec = unsafe { super::ffi::current_timestamp_unguarded() };
    u64::try_from(pg_usec.saturating_add(chronoid_formats::time::PG_EPOCH_UNIX_MS * 1000))
        .unwrap_or(0)
}

// This backend's span (`chronoid_formats::millisecond_span`): one process
// each, so plain statics read with plain loads (a thread-local in a
// library loaded at run time costs a call per read).
static SPAN_MS: AtomicU64 = AtomicU64::new(0);
static SPAN_FROM: AtomicU64 = AtomicU64::new(0);
static SPAN_UNTIL: AtomicU64 = AtomicU64::new(0);
/// The counter's rate in use (ticks per ms; 0: none), the reading it is
/// measured from (counter, monotonic µs), and readings of the clock since.
static RATE: AtomicU64 = AtomicU64::new(0);
static FROM_COUNTER: AtomicU64 = AtomicU64::new(0);
static FROM_US: AtomicU64 = AtomicU64::new(0);
static READINGS: AtomicU64 = AtomicU64::new(0);
/// Whether the counter may be used: 0 not known yet, 1 no, 2 yes.
static COUNTER_USABLE: AtomicU8 = AtomicU8::new(0);
/// The rate is measured again every this many readings of the clock
/// (about a second of steady generation).
const CHECK_EVERY: u64 = 1024;

/// The time-stamp counter, where the kernel keeps time by it (it found it
/// steady and in step across CPUs: `current_clocksource` reads `tsc`).
#[inline(always)]
fn cycle_counter() -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        if COUNTER_USABLE.load(Ordering::Relaxed) == 2 {
            // SAFETY: an unprivileged instruction on every x86-64.
            return Some(unsafe { core::arch::x86_64::_rdtsc() });
        }
        if COUNTER_USABLE.load(Ordering::Relaxed) == 0 {
            let tsc = std::fs::read_to_string(
                "/sys/devices/system/clocksource/clocksource0/current_clocksource",
            )
            .is_ok_and(|s| s.trim() == "tsc");
            COUNTER_USABLE.store(if tsc { 2 } else { 1 }, Ordering::Relaxed);
        }
        None
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The wall clock's millisecond, read at most about once a millisecond
/// while this backend makes IDs: between readings, the time-stamp counter
/// tells that the millisecond last read has not ended yet. Where the
/// counter is not used, every call reads the clock.
#[inline(always)]
pub fn now_ms_spanned() -> u64 {
    let Some(counter) = cycle_counter() else {
        return now_ms();
    };
    if counter >= SPAN_FROM.load(Ordering::Relaxed) && counter < SPAN_UNTIL.load(Ordering::Relaxed)
    {
        return SPAN_MS.load(Ordering::Relaxed);
    }
    read_and_span(counter)
}

#[cold]
#[inline(never)]
fn read_and_span(counter: u64) -> u64 {
    let wall = wall_us();
    let readings = READINGS.fetch_add(1, Ordering::Relaxed) + 1;
    let rate = RATE.load(Ordering::Relaxed);
    if readings == 1 || rate == 0 || readings.is_multiple_of(CHECK_EVERY) {
        let mono_us = monotonic_us();
        let from = (
            FROM_COUNTER.load(Ordering::Relaxed),
            FROM_US.load(Ordering::Relaxed),
        );
        if readings == 1 {
            FROM_COUNTER.store(counter, Ordering::Relaxed);
            FROM_US.store(mono_us, Ordering::Relaxed);
        } else if let Some(measured) = counter_rate(from, (counter, mono_us)) {
            if rate == 0 || rates_agree(rate, measured) {
                RATE.store(measured, Ordering::Relaxed);
            } else {
                // The counter changed pace: no span until it is measured
                // again, from here.
                RATE.store(0, Ordering::Relaxed);
                FROM_COUNTER.store(counter, Ordering::Relaxed);
                FROM_US.store(mono_us, Ordering::Relaxed);
            }
        } else if counter < from.0 || mono_us < from.1 {
            RATE.store(0, Ordering::Relaxed);
            FROM_COUNTER.store(counter, Ordering::Relaxed);
            FROM_US.store(mono_us, Ordering::Relaxed);
        }
    }
    let span = MillisecondSpan::of_reading(counter, wall, RATE.load(Ordering::Relaxed));
    SPAN_MS.store(span.ms, Ordering::Relaxed);
    SPAN_FROM.store(span.from, Ordering::Relaxed);
    SPAN_UNTIL.store(span.until, Ordering::Relaxed);
    span.ms
}

/// CLOCK_MONOTONIC in microseconds (never stepped).
fn monotonic_us() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    u64::try_from(
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_micros(),
    )
    .unwrap_or(u64::MAX)
}
