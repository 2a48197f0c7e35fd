//! The shape nanoflake, caloriosa and uid60 share: a 64-bit ID made of
//! milliseconds since an epoch, a sequence handed out by a (millisecond,
//! sequence) ticker that every generator of the format shares, and one more
//! field that is either a node id (nanoflake) or random bits (caloriosa,
//! uid60). Each format says how its fields are laid out; generating IDs and
//! finding the IDs of one millisecond are written once, here.
//!
//! ```
//! use chronoid_formats::caloriosa::{Caloriosa, CaloriosaTicker, EPOCH_UNIX_MS};
//! use chronoid_formats::clock::SystemClock;
//! use chronoid_formats::counter_id::CounterId;
//!
//! // One ticker per set of generators that must not repeat each other.
//! let ticker = CaloriosaTicker::new();
//! let name = Caloriosa::generate(&ticker, &mut SystemClock, EPOCH_UNIX_MS, 0x2a)?;
//! let (first, last) = Caloriosa::bounds_of_unix_ms(name.unix_ms(), EPOCH_UNIX_MS).unwrap();
//! assert!(first <= name && name <= last);
//! # Ok::<(), chronoid_formats::counter_id::GenerateError>(())
//! ```

use crate::clock::Clock;
use crate::ticker::{ClockBehind, Tick, TickError, TickRange, Ticker, WrappingTicker, MAX_TICK_MS};

/// How long a generator waits for a clock that was stepped back behind the
/// ticker's last millisecond before it gives up. It covers a reservation
/// window (`high_water::RESERVATION_WINDOW_MS`, 1 s) with room to spare: a
/// server restarted after a crash, or a standby promoted, finds its marks at
/// most a window ahead of a correct clock, and waits rather than refuses.
pub const MAX_CLOCK_WAIT_MS: u64 = 1500;

/// A source of (millisecond, sequence) pairs that never hands out the same
/// pair twice.
pub trait TickSource {
    /// The next pair within `range`, waiting at most `max_wait_ms` for a
    /// clock behind the last one.
    fn next_tick(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
    ) -> Result<Tick, TickError> {
        self.next_tick_below(clock, max_wait_ms, range, u64::MAX)
    }
    /// As `next_tick`, taking the pair only if its millisecond lies below
    /// `below_ms`; otherwise [`TickError::Uncovered`], and nothing moved.
    fn next_tick_below(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
        below_ms: u64,
    ) -> Result<Tick, TickError>;
    /// From now on hand out only pairs at or above `mark_ms`.
    fn resume_above(&self, mark_ms: u64);
    /// From now on hand out pairs from `mark_ms` on, even below the last;
    /// returns the last pair before (it may have been handed out).
    fn restart_at(&self, mark_ms: u64) -> Option<Tick>;
    /// The last pair handed out, if any.
    fn last_tick(&self) -> Option<Tick>;
}

impl<const SEQ_BITS: u32> TickSource for Ticker<SEQ_BITS> {
    fn next_tick_below(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
        below_ms: u64,
    ) -> Result<Tick, TickError> {
        self.next_below(clock, max_wait_ms, range, below_ms)
    }
    fn resume_above(&self, mark_ms: u64) {
        Ticker::resume_above(self, mark_ms)
    }
    fn restart_at(&self, mark_ms: u64) -> Option<Tick> {
        Ticker::restart_at(self, mark_ms)
    }
    fn last_tick(&self) -> Option<Tick> {
        self.last()
    }
}

impl<const BITS: u32> TickSource for WrappingTicker<BITS> {
    fn next_tick_below(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
        below_ms: u64,
    ) -> Result<Tick, TickError> {
        self.next_below(clock, max_wait_ms, range, below_ms)
    }
    fn resume_above(&self, mark_ms: u64) {
        WrappingTicker::resume_above(self, mark_ms)
    }
    fn restart_at(&self, mark_ms: u64) -> Option<Tick> {
        WrappingTicker::restart_at(self, mark_ms)
    }
    fn last_tick(&self) -> Option<Tick> {
        self.last()
    }
}

/// Why a generator made no ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenerateError {
    /// The clock reads earlier than the epoch (or the epoch lies in the future).
    BeforeEpoch {
        epoch_unix_ms: i64,
        now_unix_ms: u64,
    },
    /// More milliseconds since the epoch than the timestamp field holds.
    TimestampOverflow { ms_since_epoch: u64 },
    /// The node-id or random field was given a value above its maximum.
    FieldOutOfRange { value: u16, max: u16 },
    /// The clock stayed behind the ticker's last millisecond too long.
    ClockBehind(ClockBehind),
    /// The pair this call waited for was given up (an operator moved the
    /// generator's ticker meanwhile), again and again.
    Abandoned,
    /// The clock reads past the last millisecond any ticker counts
    /// (`last_unix_ms`, 2248-09-26), though the format's field, under a late
    /// epoch, would still hold it.
    PastTickerRange { unix_ms: u64, last_unix_ms: u64 },
}

/// A format of the shape above. Implementors give the layout; the provided
/// methods generate and bound.
pub trait CounterId: Copy + Ord {
    /// The ticker every generator of this format shares.
    type Ticker: TickSource;
    /// The largest number of milliseconds since the epoch.
    const MAX_TIMESTAMP: u64;
    /// The largest sequence the ticker hands out.
    const MAX_SEQUENCE: u16;
    /// The largest value of the node-id or random field.
    const MAX_NODE_OR_RANDOM: u16;

    /// The ID with these fields, `None` if one is out of range.
    fn from_fields(ms_since_epoch: u64, sequence: u16, node_or_random: u16) -> Option<Self>;

    /// The next ID: the next pair of `ticker` (the format's ticker, or one
    /// covered by a [`crate::high_water::HighWaterMark`]) under `epoch_unix_ms`, with
    /// `node_or_random` (a node id, or random bits the caller drew) in the third field.
    /// IDs from one ticker never repeat a (millisecond, sequence) pair; across
    /// tickers, uniqueness rests on `node_or_random` (distinct node ids per ticker).
    fn generate(
        ticker: &impl TickSource,
        clock: &mut impl Clock,
        epoch_unix_ms: i64,
        node_or_random: u16,
    ) -> Result<Self, GenerateError> {
        if node_or_random > Self::MAX_NODE_OR_RANDOM {
            return Err(GenerateError::FieldOutOfRange {
                value: node_or_random,
                max: Self::MAX_NODE_OR_RANDOM,
            });
        }
        // The ticker hands out only pairs the format can hold under this
        // epoch, and does not move for one it cannot: a clock before the
        // epoch or past the format's range is refused, never wrapped.
        // (Lazily: the clock is read once per ID, by the ticker.)
        let range = TickRange::of_format(epoch_unix_ms, Self::MAX_TIMESTAMP).ok_or_else(|| {
            GenerateError::BeforeEpoch {
                epoch_unix_ms,
                now_unix_ms: clock.now_ms(),
            }
        })?;
        let tick = ticker
            .next_tick(clock, MAX_CLOCK_WAIT_MS, range)
            .map_err(|e| match e {
                TickError::ClockBehind(behind) => GenerateError::ClockBehind(behind),
                TickError::BeforeRange { clock_ms } => GenerateError::BeforeEpoch {
                    epoch_unix_ms,
                    now_unix_ms: clock_ms,
                },
                // The range was cut short by what a ticker holds, not by the
                // format (an epoch late enough that its bits reach past 2248).
                TickError::PastRange { unix_ms }
                    if range.last_ms == MAX_TICK_MS
                        && i128::from(epoch_unix_ms) + i128::from(Self::MAX_TIMESTAMP)
                            > i128::from(MAX_TICK_MS) =>
                {
                    GenerateError::PastTickerRange {
                        unix_ms,
                        last_unix_ms: MAX_TICK_MS,
                    }
                }
                TickError::PastRange { unix_ms } => GenerateError::TimestampOverflow {
                    ms_since_epoch: (i128::from(unix_ms) - i128::from(epoch_unix_ms)) as u64,
                },
                // (A covered source takes no pair it cannot cover: it waits.)
                TickError::Abandoned | TickError::Uncovered { .. } => GenerateError::Abandoned,
            })?;
        // In range, so at or after the epoch.
        let since = (i128::from(tick.unix_ms) - i128::from(epoch_unix_ms)) as u64;
        Self::from_fields(since, tick.sequence as u16, node_or_random).ok_or(
            GenerateError::TimestampOverflow {
                ms_since_epoch: since,
            },
        )
    }

    /// The smallest and largest IDs of one unix millisecond under an epoch;
    /// `None` outside the format's range.
    fn bounds_of_unix_ms(unix_ms: i64, epoch_unix_ms: i64) -> Option<(Self, Self)> {
        let ms = u64::try_from(unix_ms.checked_sub(epoch_unix_ms)?).ok()?;
        Some((
            Self::from_fields(ms, 0, 0)?,
            Self::from_fields(ms, Self::MAX_SEQUENCE, Self::MAX_NODE_OR_RANDOM)?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caloriosa::{self, Caloriosa, CaloriosaTicker};
    use crate::clock::FakeClock;
    use crate::nanoflake::{Nanoflake, NanoflakeTicker};
    use crate::uid60::{self, Uid60, Uid60Ticker};

    /// Issue 40: under an epoch whose bits reach past 2248, the limit met is
    /// the ticker's, and the error says so (not "does not fit").
    #[test]
    fn past_the_tickers_range_under_a_late_epoch_says_so() {
        use crate::ticker::MAX_TICK_MS;
        let epoch = 7_258_118_400_000; // 2200-01-01
        let t = NanoflakeTicker::new();
        let mut c = FakeClock::at(MAX_TICK_MS);
        assert!(Nanoflake::generate(&t, &mut c, epoch, 1).is_ok());
        c.now_ms = MAX_TICK_MS + 1;
        let last = t.last_tick();
        assert_eq!(
            Nanoflake::generate(&t, &mut c, epoch, 1),
            Err(GenerateError::PastTickerRange {
                unix_ms: MAX_TICK_MS + 1,
                last_unix_ms: MAX_TICK_MS
            })
        );
        assert_eq!(t.last_tick(), last);
    }

    /// At, one past, and far past the last millisecond a format holds: the
    /// last is made, the others refused, and the ticker does not move for
    /// them (a refused call leaves nothing for a mark to cover).
    #[test]
    fn the_end_of_each_format_is_refused_not_wrapped() {
        let last_caloriosa = (caloriosa::EPOCH_UNIX_MS as u64) + caloriosa::MAX_TIMESTAMP;
        let t = CaloriosaTicker::new();
        let mut c = FakeClock::at(last_caloriosa);
        let id = Caloriosa::generate(&t, &mut c, caloriosa::EPOCH_UNIX_MS, 1).unwrap();
        assert_eq!(id.unix_ms() as u64, last_caloriosa);
        let held = t.last();
        // 2305-08-22, where 0.6.0's ticker wrapped.
        for clock in [last_caloriosa + 1, 10_556_726_400_000, u64::MAX] {
            c.now_ms = clock;
            assert!(matches!(
                Caloriosa::generate(&t, &mut c, caloriosa::EPOCH_UNIX_MS, 1),
                Err(GenerateError::TimestampOverflow { .. })
            ));
            assert_eq!(t.last(), held);
        }

        let last_uid60 = (uid60::EPOCH_UNIX_MS as u64) + uid60::MAX_TIMESTAMP;
        let t = Uid60Ticker::new();
        c.now_ms = last_uid60 + 1;
        assert!(matches!(
            Uid60::generate(&t, &mut c, uid60::EPOCH_UNIX_MS, 1),
            Err(GenerateError::TimestampOverflow { .. })
        ));
        assert_eq!(t.last(), None);

        let epoch = 1_577_836_800_000; // 2020
        let t = NanoflakeTicker::new();
        c.now_ms = epoch as u64 + Nanoflake::MAX_TIMESTAMP + 1;
        assert!(matches!(
            Nanoflake::generate(&t, &mut c, epoch, 1),
            Err(GenerateError::TimestampOverflow { .. })
        ));
        assert_eq!(t.last(), None, "the failed call did not move the ticker");
    }

    #[test]
    fn a_clock_before_the_epoch_is_refused_and_moves_nothing() {
        let epoch = 1_577_836_800_000; // 2020-01-01
        let t = NanoflakeTicker::new();
        let mut c = FakeClock::at(epoch as u64 - 86_400_000); // 2019-12-31
        assert_eq!(
            Nanoflake::generate(&t, &mut c, epoch, 1),
            Err(GenerateError::BeforeEpoch {
                epoch_unix_ms: epoch,
                now_unix_ms: epoch as u64 - 86_400_000
            })
        );
        assert_eq!(t.last(), None);
        c.now_ms = epoch as u64;
        let first = Nanoflake::generate(&t, &mut c, epoch, 1).unwrap();
        assert_eq!(first.unix_ms(epoch), epoch, "at the epoch itself");
    }

    /// The clock is read once per ID (it costs as much as the rest of the
    /// call): 0.6.0's edge checks once read it twice.
    #[test]
    fn an_id_reads_the_clock_once() {
        struct Counting(FakeClock, u32);
        impl Clock for Counting {
            fn now_ms(&mut self) -> u64 {
                self.1 += 1;
                self.0.now_ms()
            }
            fn monotonic_ms(&mut self) -> u64 {
                self.0.monotonic_ms()
            }
            fn wait(&mut self, now_ms: u64, until_ms: u64) {
                self.0.wait(now_ms, until_ms)
            }
        }
        let epoch = 1_577_836_800_000;
        let t = NanoflakeTicker::new();
        let mut c = Counting(FakeClock::at(epoch as u64 + 1_000), 0);
        Nanoflake::generate(&t, &mut c, epoch, 1).unwrap();
        assert_eq!(c.1, 1);
    }
}
