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

use super::clock::Clock;
use super::ticker::{ClockBehind, Tick, Ticker, WrappingTicker};

/// How long a generator waits for a clock that was stepped back behind the
/// ticker's last millisecond before it gives up.
pub const MAX_CLOCK_WAIT_MS: u64 = 1000;

/// A source of (millisecond, sequence) pairs that never hands out the same
/// pair twice.
pub trait TickSource {
    /// The next pair, waiting at most `max_wait_ms` for a clock behind the
    /// last one.
    fn next_tick(&self, clock: &mut impl Clock, max_wait_ms: u64) -> Result<Tick, ClockBehind>;
    /// From now on hand out only pairs at or above `mark_ms`.
    fn resume_above(&self, mark_ms: u64);
    /// From now on hand out pairs from `mark_ms` on, even below the last.
    fn restart_at(&self, mark_ms: u64);
    /// The last pair handed out, if any.
    fn last_tick(&self) -> Option<Tick>;
}

impl<const SEQ_BITS: u32> TickSource for Ticker<SEQ_BITS> {
    fn next_tick(&self, clock: &mut impl Clock, max_wait_ms: u64) -> Result<Tick, ClockBehind> {
        self.next(clock, max_wait_ms)
    }
    fn resume_above(&self, mark_ms: u64) {
        Ticker::resume_above(self, mark_ms)
    }
    fn restart_at(&self, mark_ms: u64) {
        Ticker::restart_at(self, mark_ms)
    }
    fn last_tick(&self) -> Option<Tick> {
        self.last()
    }
}

impl<const BITS: u32> TickSource for WrappingTicker<BITS> {
    fn next_tick(&self, clock: &mut impl Clock, max_wait_ms: u64) -> Result<Tick, ClockBehind> {
        self.next(clock, max_wait_ms)
    }
    fn resume_above(&self, mark_ms: u64) {
        WrappingTicker::resume_above(self, mark_ms)
    }
    fn restart_at(&self, mark_ms: u64) {
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
        let tick = ticker
            .next_tick(clock, MAX_CLOCK_WAIT_MS)
            .map_err(GenerateError::ClockBehind)?;
        let since =
            u64::try_from(i128::from(tick.unix_ms) - i128::from(epoch_unix_ms)).map_err(|_| {
                GenerateError::BeforeEpoch {
                    epoch_unix_ms,
                    now_unix_ms: tick.unix_ms,
                }
            })?;
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
