//! The high-water mark that makes a server-wide ticker unique across
//! restarts, crashes and failover, as a sequence's WAL-logged values are.
//!
//! A ticker's state lives in memory and starts again from the wall clock
//! whenever that memory is rebuilt; a clock that reads earlier than before
//! would then hand out pairs a previous run already gave. So no pair is
//! handed out unless its millisecond lies below a mark that has been made
//! durable first, and every run resumes its ticker above the last durable
//! mark ([`crate::counter_id::TickSource::resume_above`]).
//!
//! Moving the mark is expensive (the database flushes WAL and writes a
//! file), so it moves ahead by a window, once per window rather than once
//! per ID. The window is also how far ahead of the clock a restarted server
//! may find the mark: a server that comes back within the window waits, or
//! refuses with "clock behind" until its clock passes the mark.
//!
//! Here is only the policy (when the mark must move, and to where); making
//! it durable, and serializing the callers that move it, is the caller's.
//!
//! ```
//! use chronoid_formats::high_water::{next_covered, HighWaterMark, RESERVATION_WINDOW_MS};
//! use chronoid_formats::clock::SystemClock;
//! use chronoid_formats::nanoflake::NanoflakeTicker;
//!
//! let ticker = NanoflakeTicker::new();
//! let mark = HighWaterMark::new();
//! let mut durable = 0; // a database would flush the new mark here
//! let tick = next_covered(&ticker, &mark, &mut SystemClock, 1000, |unix_ms| {
//!     if let Some(to) = mark.needed_for(unix_ms) {
//!         durable = to;
//!         mark.raise(to);
//!     }
//! })?;
//! assert!(tick.unix_ms < mark.get() && mark.get() == durable);
//! assert_eq!(durable, tick.unix_ms + RESERVATION_WINDOW_MS);
//! # Ok::<(), chronoid_formats::ticker::ClockBehind>(())
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

use super::clock::Clock;
use super::counter_id::TickSource;
use super::ticker::{ClockBehind, Tick};

/// How far ahead of a pair's millisecond the mark moves when that pair is
/// not yet covered: one durable write per second of IDs at most, per
/// generator. 1 s is the upper end of what comparable generators reserve
/// (sequences log 32 values ahead; snowflake services reserve 30 ms to 1 s):
/// the write (a WAL flush and a file fsync) then costs well under 1 % of a
/// second of generation, and a server restarted within a second of its last
/// ID waits at most the generators' 1 s for its clock to pass the mark.
pub const RESERVATION_WINDOW_MS: u64 = 1000;

/// Unix milliseconds below which every pair handed out lies; 0 before the
/// first reservation. It only rises.
#[derive(Debug, Default)]
#[repr(transparent)]
pub struct HighWaterMark {
    mark_ms: AtomicU64,
}

impl HighWaterMark {
    pub const fn new() -> Self {
        HighWaterMark {
            mark_ms: AtomicU64::new(0),
        }
    }

    pub fn get(&self) -> u64 {
        self.mark_ms.load(Ordering::Acquire)
    }

    /// Whether a pair of this millisecond may be handed out now.
    pub fn covers(&self, unix_ms: u64) -> bool {
        unix_ms < self.get()
    }

    /// The mark to make durable before a pair of `unix_ms` is handed out,
    /// or `None` if the current one covers it.
    pub fn needed_for(&self, unix_ms: u64) -> Option<u64> {
        (!self.covers(unix_ms)).then(|| unix_ms.saturating_add(RESERVATION_WINDOW_MS))
    }

    /// Raises the mark to `mark_ms` (never lowers it), once that is durable,
    /// or when a durable mark is read back (at start, or replayed).
    pub fn raise(&self, mark_ms: u64) {
        self.mark_ms.fetch_max(mark_ms, Ordering::AcqRel);
    }
}

/// The ticker's next pair, covered by the mark: when it is not, `reserve`
/// is called with the pair's millisecond and must return only once a mark
/// above it is durable and raised in `mark`. Callers serialize `reserve`
/// with a lock and ask [`HighWaterMark::needed_for`] again under it, since a
/// concurrent caller may have moved the mark meanwhile.
pub fn next_covered<S: TickSource + ?Sized>(
    ticker: &S,
    mark: &HighWaterMark,
    clock: &mut impl Clock,
    max_wait_ms: u64,
    reserve: impl FnOnce(u64),
) -> Result<Tick, ClockBehind> {
    let tick = ticker.next_tick(clock, max_wait_ms)?;
    if !mark.covers(tick.unix_ms) {
        reserve(tick.unix_ms);
        debug_assert!(mark.covers(tick.unix_ms), "reserve left the pair uncovered");
    }
    Ok(tick)
}

/// A ticker seen through its mark: a [`TickSource`] whose every pair is
/// covered (`reserve` as for [`next_covered`]), for the format generators.
pub struct Covered<'a, S, R> {
    pub ticker: &'a S,
    pub mark: &'a HighWaterMark,
    pub reserve: R,
}

impl<S: TickSource, R: Fn(u64)> TickSource for Covered<'_, S, R> {
    fn next_tick(&self, clock: &mut impl Clock, max_wait_ms: u64) -> Result<Tick, ClockBehind> {
        next_covered(self.ticker, self.mark, clock, max_wait_ms, &self.reserve)
    }
    fn resume_above(&self, mark_ms: u64) {
        self.ticker.resume_above(mark_ms)
    }
    fn last_tick(&self) -> Option<Tick> {
        self.ticker.last_tick()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FakeClock;
    use crate::ticker::{Ticker, WrappingTicker};

    /// A durable store that a "restart" reads back, counting its writes.
    #[derive(Default)]
    struct Store {
        durable_ms: u64,
        writes: u64,
    }

    /// One run of a server: memory that a crash loses, over a store it keeps.
    struct Run<S: TickSource> {
        ticker: S,
        mark: HighWaterMark,
    }

    impl<S: TickSource> Run<S> {
        fn start(ticker: S, store: &Store) -> Self {
            let mark = HighWaterMark::new();
            mark.raise(store.durable_ms);
            ticker.resume_above(store.durable_ms);
            Run { ticker, mark }
        }

        fn next(&self, clock: &mut FakeClock, store: &mut Store) -> Result<Tick, ClockBehind> {
            next_covered(&self.ticker, &self.mark, clock, 1000, |unix_ms| {
                if let Some(to) = self.mark.needed_for(unix_ms) {
                    store.durable_ms = store.durable_ms.max(to);
                    store.writes += 1;
                    self.mark.raise(to);
                }
            })
        }
    }

    #[test]
    fn the_mark_moves_once_per_window_not_per_id() {
        let mut store = Store::default();
        let run = Run::start(Ticker::<12>::new(), &store);
        let mut c = FakeClock::at(1_000_000);
        for i in 0..10_000u64 {
            c.now_ms = 1_000_000 + i / 4; // 4 IDs a millisecond, 2.5 s in all
            let t = run.next(&mut c, &mut store).unwrap();
            assert!(
                t.unix_ms < store.durable_ms,
                "handed out above the durable mark"
            );
        }
        assert_eq!(store.writes, 3, "2.5 s of IDs: three 1 s windows");
    }

    /// The property the database relies on: whatever the clock does between
    /// runs (a restart with the clock stepped back by any amount, a crash at
    /// any point), every pair a run hands out lies in a later millisecond
    /// than any an earlier run handed out, so none repeats; a run whose
    /// clock is behind the mark refuses rather than repeats.
    fn restarts_never_repeat<S: TickSource>(new_ticker: impl Fn() -> S) {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next_rand = move |bound: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % bound
        };
        let mut store = Store::default();
        let mut clock_ms = 5_000_000u64;
        let mut earlier_max_ms = 0u64;
        let mut seen = std::collections::HashSet::new();
        let (mut issued, mut refused) = (0, 0);
        for _run in 0..200 {
            let run = Run::start(new_ticker(), &store);
            let mut c = FakeClock::at(clock_ms);
            let mut run_max_ms = earlier_max_ms;
            for _ in 0..next_rand(3_000) {
                c.now_ms += next_rand(2);
                match run.next(&mut c, &mut store) {
                    Ok(t) => {
                        assert!(
                            t.unix_ms > earlier_max_ms,
                            "{t:?} not above {earlier_max_ms}"
                        );
                        assert!(seen.insert(t), "repeated {t:?}");
                        run_max_ms = run_max_ms.max(t.unix_ms);
                        issued += 1;
                    }
                    Err(_) => refused += 1,
                }
            }
            earlier_max_ms = run_max_ms;
            // The restart: the clock moves on by up to 4 s, and may have
            // been stepped back by up to 3 s.
            clock_ms = c.now_ms + next_rand(4_000);
            clock_ms -= next_rand(3_000);
        }
        assert!(
            issued > 50_000 && refused > 10_000,
            "{issued} issued, {refused} refused"
        );
    }

    #[test]
    fn restarts_with_the_clock_stepped_back_never_repeat_a_pair() {
        restarts_never_repeat(Ticker::<4>::new);
        restarts_never_repeat(WrappingTicker::<10>::new);
    }
}
