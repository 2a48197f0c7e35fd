//! A server-wide (millisecond, sequence) counter for the formats whose
//! uniqueness rests on a sequence rather than on random bits.
//!
//! The whole state is one `u64`, `unix_ms << SEQ_BITS | sequence`, the last
//! pair handed out. Every caller moves it forward with a compare-and-swap, so
//! the pairs are strictly increasing across all callers that share it: the
//! database puts it in shared memory, and no two backends ever get the same
//! pair. Lock-free: a backend killed mid-call cannot leave it locked.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::clock::Clock;

/// One (millisecond, sequence) pair handed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tick {
    pub unix_ms: u64,
    pub sequence: u32,
}

/// What the state machine says to do next, given the last pair and the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Hand out this packed pair.
    Issue(u64),
    /// The sequence of the last millisecond is used up (or the clock is
    /// behind it): wait until the clock reads this millisecond.
    WaitUntil(u64),
}

/// The clock stayed behind the last issued millisecond for longer than the
/// generator may wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockBehind {
    /// The millisecond the generator needed the clock to reach.
    pub needed_ms: u64,
    /// What the clock read when the generator gave up.
    pub clock_ms: u64,
}

/// The latest millisecond any ticker hands out a pair in (2248-09-26): the
/// wrapping ticker packs its millisecond into the top 43 bits of a `u64`,
/// and a high-water mark one above it must still be representable
/// ([`crate::high_water::MAX_MARK_MS`]).
pub const MAX_TICK_MS: u64 = (1 << 43) - 2;

/// The unix milliseconds a ticker may hand out pairs in: a format's range
/// under its epoch. A pair outside is never handed out, and the ticker does
/// not move for it: a clock before the epoch, or past what the format (or
/// the ticker's packing) holds, is refused rather than wrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickRange {
    pub first_ms: u64,
    pub last_ms: u64,
}

impl TickRange {
    /// Every millisecond a ticker can hold.
    pub const ALL: TickRange = TickRange {
        first_ms: 0,
        last_ms: MAX_TICK_MS,
    };

    /// The range of a format whose timestamp counts `0..=max_since_epoch`
    /// milliseconds from `epoch_unix_ms`, cut to what a ticker holds; `None`
    /// if none of it lies between 1970 and [`MAX_TICK_MS`].
    pub fn of_format(epoch_unix_ms: i64, max_since_epoch: u64) -> Option<TickRange> {
        let first = i128::from(epoch_unix_ms).max(0);
        let last =
            (i128::from(epoch_unix_ms) + i128::from(max_since_epoch)).min(i128::from(MAX_TICK_MS));
        (last >= first).then_some(TickRange {
            first_ms: first as u64,
            last_ms: last as u64,
        })
    }
}

/// Why a ticker handed out no pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TickError {
    /// The clock stayed behind the last pair longer than the wait bound.
    ClockBehind(ClockBehind),
    /// The clock reads before the range, and the ticker holds no pair in it
    /// to count on from.
    BeforeRange { clock_ms: u64 },
    /// The next pair would lie past the range (the clock reads past it, or
    /// its last millisecond is used up).
    PastRange { unix_ms: u64 },
    /// A source that covers pairs with a high-water mark
    /// ([`crate::high_water::Covered`]) had the pair it waited for given up,
    /// again and again.
    Abandoned,
    /// The next pair lies at or above the limit it was asked to stay below
    /// (a high-water mark): it was not taken, and the ticker did not move.
    Uncovered { unix_ms: u64 },
}

/// The pure transition: a new millisecond starts at sequence 0; within the
/// same millisecond, or while the clock reads earlier than the last pair
/// (it was stepped back), count on from the last pair; never go below it.
pub const fn step<const SEQ_BITS: u32>(last: u64, now_ms: u64) -> Step {
    let fresh = now_ms << SEQ_BITS;
    if fresh > last {
        return Step::Issue(fresh);
    }
    let next = last + 1;
    if next >> SEQ_BITS == last >> SEQ_BITS {
        Step::Issue(next)
    } else {
        Step::WaitUntil(next >> SEQ_BITS)
    }
}

#[derive(Debug, Default)]
#[repr(transparent)]
pub struct Ticker<const SEQ_BITS: u32> {
    last: AtomicU64,
}

impl<const SEQ_BITS: u32> Ticker<SEQ_BITS> {
    pub const SEQ_MASK: u64 = (1 << SEQ_BITS) - 1;

    pub const fn new() -> Self {
        Ticker {
            last: AtomicU64::new(0),
        }
    }

    /// The last pair handed out, if any.
    pub fn last(&self) -> Option<Tick> {
        match self.last.load(Ordering::Acquire) {
            0 => None,
            packed => Some(Self::unpack(packed)),
        }
    }

    fn unpack(packed: u64) -> Tick {
        Tick {
            unix_ms: packed >> SEQ_BITS,
            sequence: (packed & Self::SEQ_MASK) as u32,
        }
    }

    /// Makes every pair handed out from now on lie at or above `mark_ms`
    /// (the state only moves forward: a ticker already past it is left as
    /// it is). A restarted server calls it with its durable high-water mark,
    /// so that it never hands out a pair that a run before it may have.
    pub fn resume_above(&self, mark_ms: u64) {
        if mark_ms > 0 {
            // The last pair of the millisecond before the mark: the next is
            // (mark_ms, 0), or a later millisecond.
            self.last
                .fetch_max((mark_ms << SEQ_BITS) - 1, Ordering::AcqRel);
        }
    }

    /// Makes the next pair lie at or above `mark_ms` and no lower, even if
    /// the ticker was past it: an operator moved the generator's mark back.
    /// Returns the last pair it held before, which may have been handed out.
    pub fn restart_at(&self, mark_ms: u64) -> Option<Tick> {
        let before = self
            .last
            .swap((mark_ms << SEQ_BITS).saturating_sub(1), Ordering::AcqRel);
        (before != 0).then(|| Self::unpack(before))
    }

    /// Hands out the next pair. Waits while the current millisecond's
    /// sequence is used up or the clock is behind the last pair, for at most
    /// `max_wait_ms` of monotonic time; a clock that is further behind than
    /// that is reported at once rather than waited for.
    pub fn next(&self, clock: &mut impl Clock, max_wait_ms: u64) -> Result<Tick, TickError> {
        self.next_in(clock, max_wait_ms, TickRange::ALL)
    }

    /// As [`Ticker::next`], handing out pairs only within `range`.
    pub fn next_in(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
    ) -> Result<Tick, TickError> {
        self.next_below(clock, max_wait_ms, range, u64::MAX)
    }

    /// As [`Ticker::next_in`], taking the pair only if its millisecond lies
    /// below `below_ms` ([`TickError::Uncovered`] otherwise, the ticker left
    /// as it was).
    pub fn next_below(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
        below_ms: u64,
    ) -> Result<Tick, TickError> {
        advance(
            &self.last,
            clock,
            max_wait_ms,
            (range, below_ms),
            SEQ_BITS,
            step::<SEQ_BITS>,
        )
        .map(Self::unpack)
    }
}

/// Moves a packed state (its millisecond in the bits from `ms_shift` up)
/// forward by `step` with compare-and-swap, waiting (boundedly) when `step`
/// says so; returns the state it installed. A pair outside `range`, or at
/// or above `below_ms`, is refused before the state moves: a pair no
/// caller receives must leave nothing behind for a mark to cover.
fn advance(
    state: &AtomicU64,
    clock: &mut impl Clock,
    max_wait_ms: u64,
    (range, below_ms): (TickRange, u64),
    ms_shift: u32,
    step: impl Fn(u64, u64) -> Step,
) -> Result<u64, TickError> {
    let mut waited_since: Option<u64> = None;
    let mut last = state.load(Ordering::Acquire);
    loop {
        let clock_ms = clock.now_ms();
        // Past the range the step would pack a millisecond that wraps: it
        // sees the first millisecond past it instead, which packs whole.
        let now = clock_ms.min(range.last_ms + 1);
        match step(last, now) {
            Step::Issue(packed) => {
                let ms = packed >> ms_shift;
                if ms < range.first_ms {
                    return Err(TickError::BeforeRange { clock_ms });
                }
                if ms > range.last_ms {
                    return Err(TickError::PastRange {
                        unix_ms: ms.max(clock_ms),
                    });
                }
                if ms >= below_ms {
                    return Err(TickError::Uncovered { unix_ms: ms });
                }
                // SeqCst: whoever lowers a high-water mark reads the ticker
                // after it (`high_water::next_covered` says why).
                match state.compare_exchange_weak(last, packed, Ordering::SeqCst, Ordering::Acquire)
                {
                    Ok(_) => return Ok(packed),
                    Err(current) => last = current,
                }
            }
            Step::WaitUntil(needed_ms) => {
                if needed_ms > range.last_ms {
                    return Err(TickError::PastRange { unix_ms: needed_ms });
                }
                let started = *waited_since.get_or_insert_with(|| clock.monotonic_ms());
                let waited = clock.monotonic_ms().saturating_sub(started);
                if needed_ms - now > max_wait_ms || waited > max_wait_ms {
                    return Err(TickError::ClockBehind(ClockBehind {
                        needed_ms,
                        clock_ms: now,
                    }));
                }
                clock.wait(now, needed_ms);
                last = state.load(Ordering::Acquire);
            }
        }
    }
}

/// A server-wide counter of `BITS` bits that runs on across milliseconds and
/// wraps (1023 -> 0 for 10 bits), rather than restarting at 0 each
/// millisecond; at most 2^BITS values are handed out per millisecond, so no
/// (millisecond, counter) pair repeats. Packed state: `unix_ms << 21 |
/// used_in_ms << 10 | counter` for up to 10 bits.
#[derive(Debug)]
#[repr(transparent)]
pub struct WrappingTicker<const BITS: u32> {
    state: AtomicU64,
}

impl<const BITS: u32> Default for WrappingTicker<BITS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const BITS: u32> WrappingTicker<BITS> {
    const MASK: u64 = (1 << BITS) - 1;
    const USED_SHIFT: u32 = 10;
    const MS_SHIFT: u32 = 21;

    pub const fn new() -> Self {
        assert!(BITS <= 10);
        // The counter "before" the first is the largest, so the first is 0.
        WrappingTicker {
            state: AtomicU64::new(Self::MASK),
        }
    }

    fn unpack(packed: u64) -> (u64, u64, u64) {
        (
            packed >> Self::MS_SHIFT,
            (packed >> Self::USED_SHIFT) & 0x7ff,
            packed & Self::MASK,
        )
    }

    fn pack(ms: u64, used: u64, counter: u64) -> u64 {
        ms << Self::MS_SHIFT | used << Self::USED_SHIFT | counter
    }

    /// A new millisecond takes the next counter value; within the same
    /// millisecond (or while the clock is behind) the counter runs on until
    /// 2^BITS have been used, then the clock must reach the next one.
    pub fn step(last: u64, now_ms: u64) -> Step {
        let (ms, used, counter) = Self::unpack(last);
        let next = (counter + 1) & Self::MASK;
        if now_ms > ms {
            Step::Issue(Self::pack(now_ms, 1, next))
        } else if used < 1 << BITS {
            Step::Issue(Self::pack(ms, used + 1, next))
        } else {
            Step::WaitUntil(ms + 1)
        }
    }

    /// The last (millisecond, counter) handed out, if any; a ticker resumed
    /// above a mark reports the millisecond before it until it hands one out.
    pub fn last(&self) -> Option<Tick> {
        Self::handed_out(self.state.load(Ordering::Acquire))
    }

    /// As [`Ticker::resume_above`]: the millisecond before the mark, with
    /// its counter values used up, so the next pair is in `mark_ms` or later.
    pub fn resume_above(&self, mark_ms: u64) {
        if mark_ms > 0 {
            self.state.fetch_max(
                Self::pack(mark_ms - 1, 1 << BITS, Self::MASK),
                Ordering::AcqRel,
            );
        }
    }

    /// As [`Ticker::restart_at`].
    pub fn restart_at(&self, mark_ms: u64) -> Option<Tick> {
        let state = if mark_ms > 0 {
            Self::pack(mark_ms - 1, 1 << BITS, Self::MASK)
        } else {
            Self::MASK
        };
        Self::handed_out(self.state.swap(state, Ordering::AcqRel))
    }

    /// The pair a state holds, if it was handed out (a fresh ticker's, or
    /// one resumed above a mark, holds none).
    fn handed_out(packed: u64) -> Option<Tick> {
        let (ms, used, counter) = Self::unpack(packed);
        (ms > 0 && used > 0).then_some(Tick {
            unix_ms: ms,
            sequence: counter as u32,
        })
    }

    pub fn next(&self, clock: &mut impl Clock, max_wait_ms: u64) -> Result<Tick, TickError> {
        self.next_in(clock, max_wait_ms, TickRange::ALL)
    }

    /// As [`Ticker::next_in`].
    pub fn next_in(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
    ) -> Result<Tick, TickError> {
        self.next_below(clock, max_wait_ms, range, u64::MAX)
    }

    /// As [`Ticker::next_below`].
    pub fn next_below(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
        below_ms: u64,
    ) -> Result<Tick, TickError> {
        let packed = advance(
            &self.state,
            clock,
            max_wait_ms,
            (range, below_ms),
            Self::MS_SHIFT,
            Self::step,
        )?;
        let (ms, _, counter) = Self::unpack(packed);
        Ok(Tick {
            unix_ms: ms,
            sequence: counter as u32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FakeClock;

    type T12 = Ticker<12>;

    fn tick(unix_ms: u64, sequence: u32) -> Tick {
        Tick { unix_ms, sequence }
    }

    #[test]
    fn new_millisecond_starts_at_zero_and_counts_up() {
        let t = T12::new();
        let mut c = FakeClock::at(1000);
        assert_eq!(t.next(&mut c, 1000), Ok(tick(1000, 0)));
        assert_eq!(t.next(&mut c, 1000), Ok(tick(1000, 1)));
        c.now_ms = 1001;
        assert_eq!(t.next(&mut c, 1000), Ok(tick(1001, 0)));
    }

    #[test]
    fn exhausted_sequence_waits_for_next_millisecond() {
        let t = T12::new();
        let mut c = FakeClock::at(5000);
        for seq in 0..4096 {
            assert_eq!(
                t.next(&mut c, 1000).unwrap(),
                Tick {
                    unix_ms: 5000,
                    sequence: seq
                }
            );
        }
        assert_eq!(c.waits, 0);
        assert_eq!(t.next(&mut c, 1000), Ok(tick(5001, 0)));
        assert_eq!(
            c.waits, 1,
            "the 4097th ID of a millisecond waits for the next"
        );
    }

    #[test]
    fn clock_stepped_back_counts_on_then_waits_then_errors() {
        let t = T12::new();
        let mut c = FakeClock::at(10_000);
        let first = t.next(&mut c, 1000).unwrap();
        c.now_ms = 9_500; // stepped back 500 ms
        let mut prev = first;
        for _ in 0..4095 {
            let next = t.next(&mut c, 1000).unwrap();
            assert!(next > prev);
            assert_eq!(
                next.unix_ms, 10_000,
                "counts on within the last millisecond"
            );
            prev = next;
        }
        assert_eq!(c.waits, 0);
        // Used up: waits (500 ms, within the bound) for the clock to pass 10_000.
        assert_eq!(t.next(&mut c, 1000), Ok(tick(10_001, 0)));
        assert!(c.waits >= 1);

        // Now step back further than the bound: the error comes at once.
        for _ in 0..4095 {
            t.next(&mut c, 1000).unwrap();
        }
        c.now_ms = 5_000;
        let waits = c.waits;
        assert_eq!(
            t.next(&mut c, 1000),
            Err(TickError::ClockBehind(ClockBehind {
                needed_ms: 10_002,
                clock_ms: 5_000
            }))
        );
        assert_eq!(c.waits, waits, "no point waiting 5 s for a 1 s bound");
        // ... and the state did not move backwards: recovery when the clock returns.
        c.now_ms = 10_002;
        assert_eq!(t.next(&mut c, 1000), Ok(tick(10_002, 0)));
    }

    #[test]
    fn frozen_clock_gives_up_after_the_bound() {
        let t = T12::new();
        let mut c = FakeClock::at(20_000);
        for _ in 0..4096 {
            t.next(&mut c, 1000).unwrap();
        }
        c.frozen = true;
        assert_eq!(
            t.next(&mut c, 1000),
            Err(TickError::ClockBehind(ClockBehind {
                needed_ms: 20_001,
                clock_ms: 20_000
            }))
        );
        assert!(
            c.monotonic_ms > 1000 && c.monotonic_ms < 1010,
            "waited {} ms",
            c.monotonic_ms
        );
    }

    #[test]
    fn threads_sharing_a_ticker_never_share_a_pair() {
        use std::sync::Arc;
        struct SystemClock;
        impl Clock for SystemClock {
            fn now_ms(&mut self) -> u64 {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_millis() as u64
            }
            fn monotonic_ms(&mut self) -> u64 {
                self.now_ms()
            }
            fn wait(&mut self, _: u64, _: u64) {
                std::hint::spin_loop();
            }
        }
        let t = Arc::new(T12::new());
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let t = Arc::clone(&t);
                std::thread::spawn(move || {
                    let mut c = SystemClock;
                    let ticks: Vec<Tick> =
                        (0..50_000).map(|_| t.next(&mut c, 1000).unwrap()).collect();
                    assert!(
                        ticks.windows(2).all(|w| w[0] < w[1]),
                        "per-thread strictly increasing"
                    );
                    ticks
                })
            })
            .collect();
        let mut all: Vec<Tick> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn wrapping_counter_runs_on_across_milliseconds_and_wraps() {
        let t = WrappingTicker::<10>::new();
        let mut c = FakeClock::at(1000);
        assert_eq!(t.next(&mut c, 1000), Ok(tick(1000, 0)));
        assert_eq!(t.next(&mut c, 1000), Ok(tick(1000, 1)));
        c.now_ms = 1001;
        assert_eq!(t.next(&mut c, 1000), Ok(tick(1001, 2)), "runs on, no reset");
        // 1024 in one millisecond: the counter wraps 1023 -> 0 on the way,
        // and the 1025th waits for the next millisecond.
        c.now_ms = 2000;
        let ticks: Vec<Tick> = (0..1024).map(|_| t.next(&mut c, 1000).unwrap()).collect();
        assert!(ticks.iter().all(|t| t.unix_ms == 2000));
        let mut seqs: Vec<u32> = ticks.iter().map(|t| t.sequence).collect();
        assert_eq!(seqs[0], 3);
        assert!(ticks
            .windows(2)
            .any(|w| w[0].sequence == 1023 && w[1].sequence == 0));
        seqs.sort();
        seqs.dedup();
        assert_eq!(seqs.len(), 1024, "no (ms, counter) pair repeats");
        assert_eq!(c.waits, 0);
        assert_eq!(t.next(&mut c, 1000).unwrap().unix_ms, 2001);
        assert_eq!(c.waits, 1);
    }

    #[test]
    fn resumed_ticker_starts_at_the_mark_and_waits_or_refuses_below_it() {
        let t = T12::new();
        t.resume_above(10_000);
        // The clock 300 ms behind the mark: wait for it (within the bound).
        let mut c = FakeClock::at(9_700);
        assert_eq!(t.next(&mut c, 1000), Ok(tick(10_000, 0)));
        assert!(c.waits >= 1);
        // A mark below the last pair changes nothing.
        t.resume_above(5_000);
        assert_eq!(t.next(&mut c, 1000), Ok(tick(10_000, 1)));

        // 30 s behind: refused at once, and still refused until the clock
        // passes the mark; then the first pair is at the mark.
        let t = T12::new();
        t.resume_above(40_000);
        let mut c = FakeClock::at(10_000);
        assert_eq!(
            t.next(&mut c, 1000),
            Err(TickError::ClockBehind(ClockBehind {
                needed_ms: 40_000,
                clock_ms: 10_000
            }))
        );
        c.now_ms = 39_999;
        c.frozen = true;
        assert!(t.next(&mut c, 1000).is_err());
        c.now_ms = 40_000;
        assert_eq!(t.next(&mut c, 1000), Ok(tick(40_000, 0)));
    }

    #[test]
    fn resumed_wrapping_ticker_starts_at_the_mark() {
        let t = WrappingTicker::<10>::new();
        let mut c = FakeClock::at(2_000);
        t.next(&mut c, 1000).unwrap();
        t.resume_above(3_000);
        c.frozen = true;
        assert_eq!(
            t.next(&mut c, 500),
            Err(TickError::ClockBehind(ClockBehind {
                needed_ms: 3_000,
                clock_ms: 2_000
            }))
        );
        c.now_ms = 3_000;
        assert_eq!(t.next(&mut c, 1000).unwrap().unix_ms, 3_000);
        c.now_ms = 3_500;
        assert_eq!(t.next(&mut c, 1000).unwrap().unix_ms, 3_500);
    }

    #[test]
    fn restart_at_moves_a_ticker_back_as_well_as_forward() {
        let t = T12::new();
        let mut c = FakeClock::at(50_000);
        t.next(&mut c, 1000).unwrap();
        t.restart_at(20_000);
        c.now_ms = 20_000;
        assert_eq!(t.next(&mut c, 1000), Ok(tick(20_000, 0)));
        let w = WrappingTicker::<10>::new();
        c.now_ms = 50_000;
        w.next(&mut c, 1000).unwrap();
        w.restart_at(20_000);
        c.now_ms = 20_000;
        assert_eq!(w.next(&mut c, 1000).unwrap().unix_ms, 20_000);
        w.restart_at(60_000);
        assert!(
            w.next(&mut c, 1000).is_err(),
            "a mark ahead of the clock refuses"
        );
    }

    #[test]
    fn wrapping_counter_counts_on_when_the_clock_steps_back() {
        let t = WrappingTicker::<10>::new();
        let mut c = FakeClock::at(5000);
        t.next(&mut c, 1000).unwrap();
        c.now_ms = 4000;
        assert_eq!(t.next(&mut c, 1000).unwrap().unix_ms, 5000);
        for _ in 0..1022 {
            t.next(&mut c, 1000).unwrap();
        }
        assert_eq!(
            t.next(&mut c, 1000),
            Err(TickError::ClockBehind(ClockBehind {
                needed_ms: 5001,
                clock_ms: 4000
            }))
        );
    }

    #[test]
    fn a_clock_past_the_range_is_refused_and_moves_nothing() {
        let range = TickRange {
            first_ms: 1_000,
            last_ms: 2_000,
        };
        let t = T12::new();
        let mut c = FakeClock::at(2_000);
        assert_eq!(
            t.next_in(&mut c, 1000, range),
            Ok(tick(2_000, 0)),
            "at the limit"
        );
        c.now_ms = 2_001;
        let before = t.last();
        assert_eq!(
            t.next_in(&mut c, 1000, range),
            Err(TickError::PastRange { unix_ms: 2_001 }),
            "past it"
        );
        assert_eq!(
            t.last(),
            before,
            "a refused pair leaves the ticker where it was"
        );
        // Far past, where the packed millisecond would wrap a u64.
        c.now_ms = u64::MAX / 2;
        assert!(matches!(
            t.next_in(&mut c, 1000, range),
            Err(TickError::PastRange { .. })
        ));
        assert_eq!(t.last(), before);
        // The last millisecond used up: refused at once, no wait for a
        // millisecond the range does not have.
        c.now_ms = 2_000;
        for _ in 1..4096 {
            t.next_in(&mut c, 1000, range).unwrap();
        }
        let waits = c.waits;
        assert_eq!(
            t.next_in(&mut c, 1000, range),
            Err(TickError::PastRange { unix_ms: 2_001 })
        );
        assert_eq!(c.waits, waits);
    }

    #[test]
    fn a_clock_before_the_range_is_refused_and_moves_nothing() {
        let range = TickRange {
            first_ms: 1_000,
            last_ms: 2_000,
        };
        let t = T12::new();
        let mut c = FakeClock::at(999);
        assert_eq!(
            t.next_in(&mut c, 1000, range),
            Err(TickError::BeforeRange { clock_ms: 999 })
        );
        assert_eq!(t.last(), None);
        c.now_ms = 1_000;
        assert_eq!(
            t.next_in(&mut c, 1000, range),
            Ok(tick(1_000, 0)),
            "at the limit"
        );
        // Stepped back before the range, the ticker counts on from its pair
        // in the range rather than refusing.
        c.now_ms = 500;
        assert_eq!(t.next_in(&mut c, 1000, range), Ok(tick(1_000, 1)));
    }

    #[test]
    fn the_wrapping_ticker_never_wraps_past_its_43_bits() {
        let t = WrappingTicker::<10>::new();
        let mut c = FakeClock::at(MAX_TICK_MS);
        assert_eq!(
            t.next(&mut c, 1000).unwrap().unix_ms,
            MAX_TICK_MS,
            "at the limit"
        );
        for clock in [MAX_TICK_MS + 1, MAX_TICK_MS + 2, 1 << 44, u64::MAX] {
            c.now_ms = clock;
            assert!(
                matches!(t.next(&mut c, 1000), Err(TickError::PastRange { .. })),
                "{clock}"
            );
        }
        assert_eq!(
            t.last().unwrap().unix_ms,
            MAX_TICK_MS,
            "no pair wrapped below"
        );
    }

    #[test]
    fn restart_at_says_what_it_replaced() {
        let t = T12::new();
        assert_eq!(t.restart_at(5_000), None, "nothing handed out yet");
        let mut c = FakeClock::at(9_000);
        let last = t.next(&mut c, 1000).unwrap();
        assert_eq!(t.restart_at(5_000), Some(last));
        let w = WrappingTicker::<10>::new();
        assert_eq!(w.restart_at(5_000), None);
        let last = w.next(&mut c, 1000).unwrap();
        assert_eq!(w.restart_at(5_000), Some(last));
    }

    #[test]
    fn ranges_of_formats() {
        assert_eq!(
            TickRange::of_format(1_000, 500),
            Some(TickRange {
                first_ms: 1_000,
                last_ms: 1_500
            })
        );
        assert_eq!(
            TickRange::of_format(-1_000, 500),
            None,
            "wholly before 1970"
        );
        assert_eq!(
            TickRange::of_format(0, u64::MAX).unwrap().last_ms,
            MAX_TICK_MS
        );
    }
}
