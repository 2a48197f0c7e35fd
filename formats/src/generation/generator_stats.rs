//! What a server-wide generator has done since its ticker was created, for
//! operators (the database's `chronoid_generators` view): how many IDs it
//! handed out, how often it waited for the next millisecond because the
//! sequence of the current one was used up, how often (and how far) it
//! found the clock behind its last ID or its high-water mark, and how often
//! it gave up on such a clock.
//!
//! The counters are plain atomics that callers share (the database puts them
//! in shared memory next to the ticker); [`Observed`] wraps the clock a
//! generator runs on, to tell the two kinds of waits apart.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::clock::Clock;
use crate::ticker::ClockBehind;

#[derive(Debug, Default)]
pub struct GeneratorStats {
    minted: AtomicU64,
    sequence_waits: AtomicU64,
    clock_behind_events: AtomicU64,
    max_clock_lag_ms: AtomicU64,
    clock_behind_errors: AtomicU64,
}

/// The counters at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatsSnapshot {
    /// IDs handed out.
    pub minted: u64,
    /// Calls that waited for the next millisecond (the sequence of the
    /// current one used up).
    pub sequence_waits: u64,
    /// Calls that found the clock more than a millisecond behind the last ID
    /// or the high-water mark (whether they then waited or gave up).
    pub clock_behind_events: u64,
    /// The furthest behind the clock was found, in milliseconds.
    pub max_clock_lag_ms: u64,
    /// Calls that gave up on a clock behind (SQLSTATE 55000 in the database).
    pub clock_behind_errors: u64,
}

impl GeneratorStats {
    pub const fn new() -> Self {
        GeneratorStats {
            minted: AtomicU64::new(0),
            sequence_waits: AtomicU64::new(0),
            clock_behind_events: AtomicU64::new(0),
            max_clock_lag_ms: AtomicU64::new(0),
            clock_behind_errors: AtomicU64::new(0),
        }
    }

    /// Counts what one call of a generator that ran on `clock` met: a wait
    /// for the next millisecond, a clock behind, giving up on it. IDs handed
    /// out are counted apart ([`GeneratorStats::add_minted`]), so that the
    /// common call (nothing met) writes no shared memory at all.
    #[inline]
    pub fn record<C>(&self, clock: &Observed<C>, outcome: Result<(), ClockBehind>) {
        if outcome.is_ok() && !clock.waited_for_next_ms && clock.behind_ms == 0 {
            return;
        }
        let mut lag_ms = clock.behind_ms;
        if let Err(behind) = outcome {
            self.clock_behind_errors.fetch_add(1, Ordering::Relaxed);
            lag_ms = lag_ms.max(behind.needed_ms.saturating_sub(behind.clock_ms));
        }
        if clock.waited_for_next_ms {
            self.sequence_waits.fetch_add(1, Ordering::Relaxed);
        }
        // A lag of one millisecond is the wait for the next one, above.
        if lag_ms > 1 {
            self.clock_behind_events.fetch_add(1, Ordering::Relaxed);
            self.max_clock_lag_ms.fetch_max(lag_ms, Ordering::Relaxed);
        }
    }

    /// Adds `n` IDs handed out (callers count their own and add them in
    /// batches, as PostgreSQL's statistics are flushed).
    pub fn add_minted(&self, n: u64) {
        self.minted.fetch_add(n, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            minted: self.minted.load(Ordering::Relaxed),
            sequence_waits: self.sequence_waits.load(Ordering::Relaxed),
            clock_behind_events: self.clock_behind_events.load(Ordering::Relaxed),
            max_clock_lag_ms: self.max_clock_lag_ms.load(Ordering::Relaxed),
            clock_behind_errors: self.clock_behind_errors.load(Ordering::Relaxed),
        }
    }
}

/// A clock that remembers what a generator waited for during one call: the
/// next millisecond (its sequence used up), or a clock further behind.
pub struct Observed<C> {
    pub clock: C,
    waited_for_next_ms: bool,
    behind_ms: u64,
}

impl<C> Observed<C> {
    pub fn new(clock: C) -> Self {
        Observed {
            clock,
            waited_for_next_ms: false,
            behind_ms: 0,
        }
    }
}

impl<C: Clock> Clock for Observed<C> {
    fn now_ms(&mut self) -> u64 {
        self.clock.now_ms()
    }
    fn monotonic_ms(&mut self) -> u64 {
        self.clock.monotonic_ms()
    }
    fn wait(&mut self, now_ms: u64, until_ms: u64) {
        let lag = until_ms.saturating_sub(now_ms);
        if lag <= 1 {
            self.waited_for_next_ms = true;
        } else {
            self.behind_ms = self.behind_ms.max(lag);
        }
        self.clock.wait(now_ms, until_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FakeClock;
    use crate::ticker::{TickError, Ticker};

    fn run(
        stats: &GeneratorStats,
        t: &Ticker<2>,
        clock: &mut FakeClock,
        n: usize,
    ) -> Result<(), TickError> {
        for _ in 0..n {
            let mut observed = Observed::new(&mut *clock);
            let outcome = t.next(&mut observed, 1000).map(|_| ());
            stats.record(
                &observed,
                outcome.map_err(|e| match e {
                    TickError::ClockBehind(behind) => behind,
                    other => panic!("{other:?}"),
                }),
            );
            if outcome.is_ok() {
                stats.add_minted(1);
            }
            outcome?;
        }
        Ok(())
    }

    #[test]
    fn each_figure_moves_when_it_should() {
        let stats = GeneratorStats::new();
        let t = Ticker::<2>::new(); // 4 IDs a millisecond
        let mut c = FakeClock::at(10_000);
        run(&stats, &t, &mut c, 4).unwrap();
        assert_eq!(
            stats.snapshot(),
            StatsSnapshot {
                minted: 4,
                ..Default::default()
            }
        );

        // The fifth in the same millisecond waits for the next one.
        run(&stats, &t, &mut c, 1).unwrap();
        let s = stats.snapshot();
        assert_eq!(
            (s.minted, s.sequence_waits, s.clock_behind_events),
            (5, 1, 0)
        );

        // 500 ms behind: counts on in its millisecond, then waits it out.
        c.now_ms -= 500;
        run(&stats, &t, &mut c, 4).unwrap();
        let s = stats.snapshot();
        assert_eq!(
            (s.minted, s.clock_behind_events, s.clock_behind_errors),
            (9, 1, 0)
        );
        assert!((499..=501).contains(&s.max_clock_lag_ms), "{s:?}");

        // 3 s behind: gives up at once.
        c.now_ms -= 3_000;
        let mut tries = 0;
        while run(&stats, &t, &mut c, 1).is_ok() {
            tries += 1;
            assert!(tries < 4);
        }
        let s = stats.snapshot();
        assert_eq!((s.clock_behind_events, s.clock_behind_errors), (2, 1));
        assert!(s.max_clock_lag_ms >= 3_000, "{s:?}");
    }
}
