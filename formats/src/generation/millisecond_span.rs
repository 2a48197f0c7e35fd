//! How long a reading of the wall clock still tells the millisecond, by a
//! cycle counter (x86's time-stamp counter) that is cheaper to read than
//! the clock: a generator that makes many IDs a millisecond reads the
//! counter for each and the clock about once a millisecond.
//!
//! A reading at counter value `c` of unix microsecond `us` holds its
//! millisecond while the counter lies in `[c, c + rest)`, where `rest` is
//! what is left of that millisecond at the counter's rate, cut short by
//! `MARGIN_PERCENT`: a rate a little off, or a reading that came late,
//! ends the span early (one more reading of the clock), never late (a
//! millisecond that has ended). Outside the span, before the rate is known,
//! or after the counter went back, the clock is read. A clock stepped
//! meanwhile is seen at the next reading, within the millisecond.
//!
//! The counter's rate is measured against a monotonic clock over at least
//! `CALIBRATION_US`, and measured again now and then: a rate that moved by
//! more than `AGREEMENT_PERCENT` is dropped (no span until it is measured
//! again), as is one no counter runs at.
//!
//! Pure: the counter, the clocks and the memory the state lives in are the
//! caller's.

/// How much of a millisecond's rest a span gives up, in percent.
pub const MARGIN_PERCENT: u64 = 2;
/// How long a rate is measured over, in microseconds.
pub const CALIBRATION_US: u64 = 20_000;
/// How far a rate measured again may lie from the one in use.
pub const AGREEMENT_PERCENT: u64 = 1;
/// Counter ticks per millisecond believed at all: 10 MHz to 20 GHz.
const RATE_BOUNDS: (u64, u64) = (10_000, 20_000_000);

/// The millisecond a reading told, and the counter values it holds for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MillisecondSpan {
    pub ms: u64,
    pub from: u64,
    pub until: u64,
}

impl MillisecondSpan {
    /// The millisecond, where `counter` lies in the span.
    #[inline(always)]
    pub fn holds(&self, counter: u64) -> Option<u64> {
        (counter >= self.from && counter < self.until).then_some(self.ms)
    }

    /// The span of a reading of `wall_us` (unix microseconds) taken with
    /// the counter at `counter` just before, at `per_ms` ticks per
    /// millisecond (0: not known; the span is empty).
    pub fn of_reading(counter: u64, wall_us: u64, per_ms: u64) -> MillisecondSpan {
        let rest_us = 1000 - wall_us % 1000;
        let ticks = rest_us * per_ms / 1000 * (100 - MARGIN_PERCENT) / 100;
        MillisecondSpan {
            ms: wall_us / 1000,
            from: counter,
            until: counter.saturating_add(ticks),
        }
    }
}

/// The counter's rate in ticks per millisecond, from two readings of
/// (counter, monotonic microseconds) at least `CALIBRATION_US` apart;
/// `None` where they are closer, the counter went back, or the rate is
/// beyond any counter's.
pub fn counter_rate(first: (u64, u64), then: (u64, u64)) -> Option<u64> {
    let ticks = then.0.checked_sub(first.0)?;
    let us = then.1.checked_sub(first.1)?;
    if us < CALIBRATION_US {
        return None;
    }
    let per_ms = u64::try_from(u128::from(ticks) * 1000 / u128::from(us)).ok()?;
    (RATE_BOUNDS.0..=RATE_BOUNDS.1)
        .contains(&per_ms)
        .then_some(per_ms)
}

/// Whether a rate measured again agrees with the one in use.
pub fn rates_agree(in_use: u64, measured: u64) -> bool {
    in_use.abs_diff(measured) * 100 <= in_use * AGREEMENT_PERCENT
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter at `per_ms` ticks per real millisecond from real time 0,
    /// and a wall clock `offset_us` ahead of real time.
    fn counter_at(real_us: u64, per_ms: u64) -> u64 {
        real_us * per_ms / 1000
    }

    #[test]
    fn a_span_ends_before_its_millisecond_does() {
        let per_ms = 2_600_000; // 2.6 GHz
        for offset_us in [0, 1, 499, 999, 123_456] {
            for real_us in (1_000_000..1_003_000).step_by(7) {
                let wall_us = real_us + offset_us;
                let span =
                    MillisecondSpan::of_reading(counter_at(real_us, per_ms), wall_us, per_ms);
                assert_eq!(
                    span.holds(counter_at(real_us, per_ms)),
                    Some(wall_us / 1000)
                );
                // The last counter value the span holds is still in its
                // millisecond, by real time.
                let last_real_us = (span.until - 1) * 1000 / per_ms;
                assert_eq!(
                    (last_real_us + offset_us) / 1000,
                    wall_us / 1000,
                    "a span outlived its millisecond (read at {wall_us})"
                );
                // And it is not cut much shorter than the margin.
                let end_us = (wall_us / 1000 + 1) * 1000 - offset_us;
                assert!(end_us - last_real_us <= 1000 * MARGIN_PERCENT / 100 + 2);
            }
        }
    }

    #[test]
    fn a_rate_off_by_less_than_the_margin_still_ends_in_time() {
        let per_ms = 1_000_000;
        // Believed 1.9 % fast: each span is 1.9 % too long in ticks.
        let believed = per_ms * 1019 / 1000;
        for real_us in (5_000_000..5_002_000).step_by(3) {
            let span = MillisecondSpan::of_reading(counter_at(real_us, per_ms), real_us, believed);
            let last_real_us = (span.until - 1) * 1000 / per_ms;
            assert_eq!(last_real_us / 1000, real_us / 1000, "read at {real_us}");
        }
    }

    #[test]
    fn a_reading_taken_late_ends_its_span_early() {
        let per_ms = 3_000_000;
        // The counter read 40 µs before the clock: the span starts early.
        for real_us in (7_000_000..7_001_000).step_by(11) {
            let counter = counter_at(real_us - 40, per_ms);
            let span = MillisecondSpan::of_reading(counter, real_us, per_ms);
            let last_real_us = (span.until - 1) * 1000 / per_ms;
            assert!(last_real_us / 1000 == real_us / 1000);
        }
    }

    #[test]
    fn without_a_rate_or_outside_the_span_the_clock_is_read() {
        let span = MillisecondSpan::of_reading(1000, 42_500, 0);
        assert_eq!(span.holds(1000), None);
        let span = MillisecondSpan::of_reading(1000, 42_500, 10_000);
        assert_eq!(span.holds(999), None, "a counter that went back");
        assert_eq!(span.holds(1000), Some(42));
        assert_eq!(span.holds(span.until), None);
        assert_eq!(MillisecondSpan::default().holds(0), None);
    }

    #[test]
    fn rates_are_measured_over_long_enough_and_believed_within_bounds() {
        assert_eq!(counter_rate((0, 0), (52_000_000, 20_000)), Some(2_600_000));
        assert_eq!(
            counter_rate((0, 0), (52_000_000, 19_999)),
            None,
            "too short"
        );
        assert_eq!(
            counter_rate((100, 0), (50, 30_000)),
            None,
            "the counter went back"
        );
        assert_eq!(
            counter_rate((0, 30_000), (100, 0)),
            None,
            "the clock went back"
        );
        assert_eq!(
            counter_rate((0, 0), (100, 20_000)),
            None,
            "5 kHz: no counter"
        );
        assert_eq!(
            counter_rate((0, 0), (u64::MAX, 20_000)),
            None,
            "beyond any counter"
        );
        assert!(rates_agree(2_600_000, 2_626_000));
        assert!(!rates_agree(2_600_000, 2_627_000));
        assert!(!rates_agree(2_600_000, 1_300_000));
    }
}
