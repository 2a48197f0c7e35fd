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

/// The largest mark a ticker can resume above: every ticker packs its
/// millisecond into the top bits of a `u64` (the wrapping one shifts it by
/// 21), so a mark above this (a hand-edited file, a mistaken
/// `chronoid_set_high_water_mark`) would wrap around rather than hold.
pub const MAX_MARK_MS: u64 = (1 << 43) - 1;

/// Unix milliseconds below which every pair handed out lies; 0 before the
/// first reservation. It only rises, except when an operator moves it
/// ([`HighWaterMark::set`]).
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
        (!self.covers(unix_ms)).then(|| ahead_of(unix_ms))
    }

    /// Whether the mark should move ahead now, so that callers at `unix_ms`
    /// never find it crossed: it is no more than half a window above them.
    pub fn due(&self, unix_ms: u64) -> bool {
        self.get() <= unix_ms.saturating_add(RESERVATION_WINDOW_MS / 2)
    }

    /// Moves the mark to `mark_ms`, down as well as up: only for an operator
    /// who has checked that no ID at or above it exists (and its replay).
    pub fn set(&self, mark_ms: u64) {
        self.mark_ms.store(mark_ms, Ordering::Release);
    }

    /// Raises the mark to `mark_ms` (never lowers it), once that is durable,
    /// or when a durable mark is read back (at start, or replayed).
    pub fn raise(&self, mark_ms: u64) {
        self.mark_ms.fetch_max(mark_ms, Ordering::AcqRel);
    }
}

/// The mark that covers a window of pairs from `unix_ms` on.
pub fn ahead_of(unix_ms: u64) -> u64 {
    unix_ms
        .saturating_add(RESERVATION_WINDOW_MS)
        .min(MAX_MARK_MS)
}

/// When the mark of a generator in use must move next: half a window before
/// callers reach it.
pub fn due_at(mark_ms: u64) -> u64 {
    mark_ms.saturating_sub(RESERVATION_WINDOW_MS / 2)
}

/// Whether a generator is in use, seen from outside its callers: whoever
/// keeps its mark ahead looks at its ticker now and then, and a generator
/// whose ticker moved within the last `keep_warm_ms` is warm. Its callers
/// then write nothing to say so: the ticker is the one word they write anyway.
#[derive(Debug, Clone, Default)]
pub struct KeepWarm {
    last_seen: Option<Tick>,
    changed_at_ms: Option<u64>,
}

impl KeepWarm {
    /// Starts from the ticker as it is: what it held before (a pair resumed
    /// above a mark at start) is not use.
    pub fn new(last: Option<Tick>) -> Self {
        KeepWarm {
            last_seen: last,
            changed_at_ms: None,
        }
    }

    /// Looks at the ticker's last pair at `now_ms`.
    pub fn observe(&mut self, last: Option<Tick>, now_ms: u64) {
        if last != self.last_seen {
            self.last_seen = last;
            self.changed_at_ms = Some(now_ms);
        }
    }

    /// Counts a caller that asked for a reservation as use.
    pub fn touch(&mut self, now_ms: u64) {
        self.changed_at_ms = Some(now_ms);
    }

    pub fn warm(&self, now_ms: u64, keep_warm_ms: u64) -> bool {
        self.changed_at_ms
            .is_some_and(|at| now_ms.saturating_sub(at) <= keep_warm_ms)
    }
}

/// The mark a warm generator's keeper should make durable now, if any: its
/// callers are at `base_ms` (the later of the clock and its last pair), and
/// once its mark is within half a window of them it moves a window ahead.
pub fn keep_ahead(mark: &HighWaterMark, base_ms: u64) -> Option<u64> {
    mark.due(base_ms).then(|| ahead_of(base_ms))
}

/// The text of `chronoid.marks`: a header, then one line per generator,
/// `<name> <unix ms>`. Its length changes only when a mark gains or loses
/// a digit (from 0 to the first, and 2286 is far off), so the file is
/// nearly always rewritten in place with one write of the same length.
pub fn format_marks(header: &str, names: &[&str], marks: &[u64]) -> String {
    let mut text = format!("{header}\n");
    for (name, mark) in names.iter().zip(marks) {
        text.push_str(&format!("{name} {mark}\n"));
    }
    text
}

/// Reads `chronoid.marks` strictly: the header, then exactly one line per
/// generator, each a name and a plain decimal number of milliseconds (no
/// sign) no larger than [`MAX_MARK_MS`]. A file that says anything else was
/// not written by chronoid, and starting from it could repeat IDs.
pub fn parse_marks(text: &str, header: &str, names: &[&str]) -> Result<Vec<u64>, String> {
    // chronoid writes whole lines; a file cut short (a last line without
    // its newline, perhaps mid-number) is not one it wrote.
    if !text.ends_with('\n') {
        return Err("the file is cut short (its last line has no newline)".to_owned());
    }
    let mut lines = text.lines();
    if lines.next() != Some(header) {
        return Err(format!("the first line is not \"{header}\""));
    }
    let mut marks: Vec<Option<u64>> = vec![None; names.len()];
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [name, value] = words[..] else {
            return Err(format!("line \"{line}\" is not \"<generator> <unix ms>\""));
        };
        let i = names
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| format!("unknown generator \"{name}\""))?;
        if !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("\"{value}\" is not a number of milliseconds"));
        }
        let ms = value
            .parse::<u64>()
            .ok()
            .filter(|ms| *ms <= MAX_MARK_MS)
            .ok_or_else(|| {
                format!("{name}'s mark {value} is beyond the largest ({MAX_MARK_MS})")
            })?;
        if marks[i].replace(ms).is_some() {
            return Err(format!("two lines for {name}"));
        }
    }
    names
        .iter()
        .zip(marks)
        .map(|(name, ms)| ms.ok_or_else(|| format!("no line for {name}")))
        .collect()
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
/// `nudge` is told of a pair that the mark covers by less than half a
/// window: whoever keeps the mark ahead is late, and should move it now.
pub struct Covered<'a, S, R, N> {
    pub ticker: &'a S,
    pub mark: &'a HighWaterMark,
    pub reserve: R,
    pub nudge: N,
}

impl<S: TickSource, R: Fn(u64), N: Fn(u64)> TickSource for Covered<'_, S, R, N> {
    fn next_tick(&self, clock: &mut impl Clock, max_wait_ms: u64) -> Result<Tick, ClockBehind> {
        let tick = next_covered(self.ticker, self.mark, clock, max_wait_ms, &self.reserve)?;
        if self.mark.due(tick.unix_ms) {
            (self.nudge)(tick.unix_ms);
        }
        Ok(tick)
    }
    fn resume_above(&self, mark_ms: u64) {
        self.ticker.resume_above(mark_ms)
    }
    fn restart_at(&self, mark_ms: u64) {
        self.ticker.restart_at(mark_ms)
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
    fn a_warm_generator_is_kept_half_a_window_ahead() {
        let mark = HighWaterMark::new();
        assert_eq!(keep_ahead(&mark, 10_000), Some(11_000), "no mark yet");
        mark.raise(11_000);
        assert_eq!(keep_ahead(&mark, 10_000), None);
        assert_eq!(keep_ahead(&mark, 10_499), None);
        assert_eq!(
            keep_ahead(&mark, 10_500),
            Some(11_500),
            "half a window left"
        );
        assert_eq!(due_at(11_000), 10_500);
        assert_eq!(
            ahead_of(MAX_MARK_MS),
            MAX_MARK_MS,
            "never beyond the largest mark"
        );
    }

    #[test]
    fn keep_warm_counts_ticker_moves_not_what_it_held_at_start() {
        let resumed = Some(Tick {
            unix_ms: 999,
            sequence: 4095,
        });
        let mut w = KeepWarm::new(resumed);
        w.observe(resumed, 5_000);
        assert!(!w.warm(5_000, 10_000), "resumed above a mark is not use");
        w.observe(
            Some(Tick {
                unix_ms: 5_001,
                sequence: 0,
            }),
            5_001,
        );
        assert!(w.warm(15_001, 10_000));
        assert!(
            !w.warm(15_002, 10_000),
            "cold once idle longer than keep-warm"
        );
        w.touch(20_000);
        assert!(w.warm(20_000, 10_000), "a caller that asked is use");
    }

    const HEADER: &str = "chronoid high-water marks 1";
    const NAMES: [&str; 3] = ["nanoflake", "caloriosa", "uid60"];

    #[test]
    fn marks_file_round_trips() {
        let a = format_marks(HEADER, &NAMES, &[0, 1_764_092_173_000, 7]);
        assert_eq!(
            a,
            "chronoid high-water marks 1\nnanoflake 0\ncaloriosa 1764092173000\nuid60 7\n"
        );
        assert_eq!(
            parse_marks(&a, HEADER, &NAMES),
            Ok(vec![0, 1_764_092_173_000, 7])
        );
        let b = format_marks(
            HEADER,
            &NAMES,
            &[1_764_092_173_000, 1_764_092_173_999, 1_999_999_999_999],
        );
        assert_eq!(
            b.len(),
            format_marks(HEADER, &NAMES, &[1_000_000_000_000; 3]).len()
        );
    }

    #[test]
    fn marks_file_rejects_what_chronoid_never_writes() {
        let bad =
            |body: &str| parse_marks(&format!("{HEADER}\n{body}"), HEADER, &NAMES).unwrap_err();
        assert!(bad("nanoflake 5\nnanoflake 9\ncaloriosa 6\nuid60 7\n")
            .contains("two lines for nanoflake"));
        assert!(bad("nanoflake +5\ncaloriosa 6\nuid60 7\n").contains("not a number"));
        assert!(bad("nanoflake -5\ncaloriosa 6\nuid60 7\n").contains("not a number"));
        assert!(
            bad("nanoflake 99999999999999999999999\ncaloriosa 6\nuid60 7\n")
                .contains("beyond the largest")
        );
        assert!(
            bad("nanoflake 8796093022208\ncaloriosa 6\nuid60 7\n").contains("beyond the largest")
        );
        assert!(bad("nanoflake 5 6\ncaloriosa 6\nuid60 7\n").contains("is not"));
        assert!(bad("caloriosa 6\nuid60 7\n").contains("no line for nanoflake"));
        assert!(bad("snowflake 1\n").contains("unknown generator"));
        assert!(parse_marks("x\n", HEADER, &NAMES)
            .unwrap_err()
            .contains("first line"));
        assert!(parse_marks(
            &format!("{HEADER}\nnanoflake 5\ncaloriosa 6\nuid60 179563"),
            HEADER,
            &NAMES
        )
        .unwrap_err()
        .contains("cut short"));
    }

    #[test]
    fn restarts_with_the_clock_stepped_back_never_repeat_a_pair() {
        restarts_never_repeat(Ticker::<4>::new);
        restarts_never_repeat(WrappingTicker::<10>::new);
    }
}
