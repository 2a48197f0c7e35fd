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
//! use chronoid_formats::ticker::TickRange;
//!
//! let ticker = NanoflakeTicker::new();
//! let mark = HighWaterMark::new();
//! let mut durable = 0; // a database would flush the new mark here
//! let tick = next_covered(&ticker, &mark, &mut SystemClock, 1000, TickRange::ALL, |unix_ms| {
//!     if let Some(to) = mark.needed_for(unix_ms) {
//!         durable = to;
//!         mark.raise(to);
//!     }
//!     true // the pair stands (no operator gave it up meanwhile)
//! })?;
//! assert!(tick.unix_ms < mark.get() && mark.get() == durable);
//! assert_eq!(durable, tick.unix_ms + RESERVATION_WINDOW_MS);
//! # Ok::<(), chronoid_formats::ticker::TickError>(())
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

use crate::clock::Clock;
use crate::counter_id::TickSource;
use crate::ticker::{Tick, TickError, TickRange, MAX_TICK_MS};

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
/// `chronoid_set_high_water_mark`) would wrap around rather than hold. It
/// covers the last millisecond a ticker hands out ([`MAX_TICK_MS`]).
pub const MAX_MARK_MS: u64 = MAX_TICK_MS + 1;

/// The mark of a generator whose marks were lost: a server that started
/// without `chronoid.marks`, on a cluster that had run (a backup restored
/// without it, a file deleted), and whose WAL replayed no mark. It covers
/// no pair, no reservation ever makes it (they lie a window above a
/// clock), an operator cannot set it, and a replayed mark replaces it: the
/// generator refuses until an operator sets its mark, or a record brings
/// one. Kept in the file and the records as any mark is, so that a restart
/// or a standby is as lost as the server was.
pub const LOST_MARK_MS: u64 = 1;

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
        // SeqCst: read after a ticker's swap ([`next_covered`]).
        self.mark_ms.load(Ordering::SeqCst)
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
        self.mark_ms.store(mark_ms, Ordering::SeqCst);
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
/// `None` too when no mark could lie further ahead (the clock at the end of
/// what a ticker holds): there is nothing to write, and nothing to wait for.
pub fn keep_ahead(mark: &HighWaterMark, base_ms: u64) -> Option<u64> {
    let to = ahead_of(base_ms);
    (mark.due(base_ms) && to > mark.get()).then_some(to)
}

/// How far a wall clock may run ahead of the monotonic clock, between two
/// readings, before the keeper of the marks stops believing it: a step
/// forward larger than this is a fault until callers hand out pairs there.
pub const CLOCK_STEP_TOLERANCE_MS: u64 = 250;

/// The wall clock as the keeper of one generator's mark believes it. A
/// mark reserved on a wall clock that jumped forward for a moment (with no
/// calls) would stay in the future after the clock is put right, and a
/// restart would refuse until the clock got there; so the wall clock is
/// judged against the monotonic one, which no one steps. It is believed
/// while it agrees with the last reading believed (within
/// [`CLOCK_STEP_TOLERANCE_MS`], at the monotonic clock's pace), or when the
/// generator's own callers handed out (or asked for) a pair at it: IDs then
/// exist at that time, and the mark must cover them. Otherwise the time
/// believed runs on from the last reading believed. Each generator has a
/// judge of its own: a pair another generator handed out during a glitch
/// is no reason to move this one's mark. A wall clock stepped back is
/// believed at once: reserving less is never unsafe, the ticker's last
/// pair still lies below the mark. After a lasting step forward, the first
/// call at the new time waits for one reservation, and the judge believes
/// the new time from then on.
#[derive(Debug, Clone, Default)]
pub struct ClockJudge {
    /// The last (wall, monotonic) reading that was believed.
    believed: Option<(u64, u64)>,
}

impl ClockJudge {
    pub fn new() -> Self {
        ClockJudge { believed: None }
    }

    /// The time to reserve from, given the wall clock, the monotonic clock
    /// and the generator's latest pair, handed out or asked for (0 if none).
    pub fn believed(&mut self, wall_ms: u64, monotonic_ms: u64, own_pair_ms: u64) -> u64 {
        if let Some((wall0, mono0)) = self.believed {
            let expected = wall0.saturating_add(monotonic_ms.saturating_sub(mono0));
            let ahead = wall_ms > expected.saturating_add(CLOCK_STEP_TOLERANCE_MS);
            let callers_there = own_pair_ms.saturating_add(CLOCK_STEP_TOLERANCE_MS) >= wall_ms;
            if ahead && !callers_there {
                return expected;
            }
        }
        self.believed = Some((wall_ms, monotonic_ms));
        wall_ms
    }
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

/// How many times a call takes a new pair after the one it waited for was
/// given up, before it reports [`TickError::Abandoned`].
pub const MAX_ABANDONED: u32 = 8;

/// The first line of `chronoid.marks` as 0.5.0 wrote it (marks only).
pub const MARKS_HEADER_V1: &str = "chronoid high-water marks 1";
/// The first line from 0.6.0 on: marks, the epoch each generator's IDs were
/// made under, and a checksum.
pub const MARKS_HEADER_V2: &str = "chronoid high-water marks 2";

/// What `chronoid.marks` says: a mark per generator and, from version 2,
/// the epoch (unix ms) each generator's IDs were made under, which the
/// marks mean nothing without: a nanoflake mark made under one epoch covers
/// other IDs under another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarksFile {
    pub marks: Vec<u64>,
    /// `None` for a version 1 file (0.5.0): made under this server's epochs.
    pub epochs: Option<Vec<i64>>,
}

/// The text of a version 2 `chronoid.marks`: the header, a line
/// `<name> <unix ms>` per generator, a line `epoch <name> <unix ms>` per
/// generator, and `checksum <crc32c>` of all before it, as 8 hex digits.
/// Its length changes only when a mark gains a digit, so it is nearly
/// always rewritten in place with one write of the same length.
pub fn format_marks_file(names: &[&str], marks: &[u64], epochs: &[i64]) -> String {
    let mut text = format_marks(MARKS_HEADER_V2, names, marks);
    for (name, epoch) in names.iter().zip(epochs) {
        text.push_str(&format!("epoch {name} {epoch}\n"));
    }
    let sum = crc32c(text.as_bytes());
    text.push_str(&format!("checksum {sum:08x}\n"));
    text
}

/// Reads `chronoid.marks` strictly, either version: anything chronoid never
/// wrote (a flipped digit, a missing or repeated line, a bad checksum) is
/// an error, since starting from it could repeat IDs.
pub fn parse_marks_file(text: &str, names: &[&str]) -> Result<MarksFile, String> {
    if text.starts_with(&format!("{MARKS_HEADER_V1}\n")) {
        return parse_marks(text, MARKS_HEADER_V1, names).map(|marks| MarksFile {
            marks,
            epochs: None,
        });
    }
    if !text.ends_with('\n') {
        return Err("the file is cut short (its last line has no newline)".to_owned());
    }
    let body_end = text[..text.len() - 1].rfind('\n').map_or(0, |i| i + 1);
    let (body, last) = text.split_at(body_end);
    let sum = last
        .strip_prefix("checksum ")
        .and_then(|hex| hex.strip_suffix('\n'))
        .filter(|hex| hex.len() == 8)
        .and_then(|hex| u32::from_str_radix(hex, 16).ok())
        .ok_or("the last line is not \"checksum <8 hex digits>\"")?;
    if sum != crc32c(body.as_bytes()) {
        return Err("its checksum does not match its contents".to_owned());
    }
    let (mark_lines, epoch_lines): (Vec<&str>, Vec<&str>) = body
        .lines()
        .skip(1)
        .partition(|line| !line.starts_with("epoch "));
    let mut marks_text = format!("{MARKS_HEADER_V2}\n");
    for line in mark_lines {
        marks_text.push_str(line);
        marks_text.push('\n');
    }
    if !body.starts_with(&format!("{MARKS_HEADER_V2}\n")) {
        return Err(format!("the first line is not \"{MARKS_HEADER_V2}\""));
    }
    let marks = parse_marks(&marks_text, MARKS_HEADER_V2, names)?;
    let mut epochs: Vec<Option<i64>> = vec![None; names.len()];
    for line in epoch_lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let ["epoch", name, value] = words[..] else {
            return Err(format!(
                "line \"{line}\" is not \"epoch <generator> <unix ms>\""
            ));
        };
        let i = names
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| format!("unknown generator \"{name}\""))?;
        let ms = value
            .parse::<i64>()
            .map_err(|_| format!("\"{value}\" is not an epoch in milliseconds"))?;
        if epochs[i].replace(ms).is_some() {
            return Err(format!("two epoch lines for {name}"));
        }
    }
    let epochs = names
        .iter()
        .zip(epochs)
        .map(|(name, e)| e.ok_or_else(|| format!("no epoch line for {name}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(MarksFile {
        marks,
        epochs: Some(epochs),
    })
}

/// A mark made under epoch `made_under`, for a server whose IDs count from
/// `now_under`: the unix millisecond from which this server's IDs lie above
/// every ID the mark covers. An ID is its milliseconds since its epoch, so a
/// server whose epoch is later by d makes, at unix ms T, the ID the other
/// made at T - d: its mark is d later. (0, no mark, stays 0.)
pub fn mark_under_epoch(mark_ms: u64, made_under: i64, now_under: i64) -> u64 {
    if mark_ms <= LOST_MARK_MS {
        return mark_ms;
    }
    let moved = i128::from(mark_ms) + i128::from(now_under) - i128::from(made_under);
    moved.clamp(i128::from(LOST_MARK_MS) + 1, i128::from(MAX_MARK_MS)) as u64
}

/// CRC-32C (Castagnoli), as PostgreSQL checksums its own control file.
pub fn crc32c(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0x82F6_3B78
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The ticker's next pair, covered by the mark. A pair the mark does not
/// cover is not taken: `reserve` is called with its millisecond, returns
/// once a mark above it is durable and raised in `mark` (`true`), or gives
/// it up (`false`: an operator moved the generator meanwhile), and the call
/// looks again, at the clock as it then reads. So a call that fails or is
/// cancelled while it waits leaves the ticker where it was: a pair no
/// caller received covers nothing, and moves nothing ahead (issue 40).
///
/// The mark can come down between its reading and the compare-and-swap that
/// takes a pair (an operator's move, or the keeper taking back a mark that
/// no pair needs, [`trim_to`]): the pair is then taken but not covered, and
/// `reserve` is called for it as taken; `true` then means covered. The
/// ticker's swap and the mark's reading after it are sequentially
/// consistent, as are the keeper's lowering and its reading of the ticker
/// after it: of the two, at least one sees the other.
///
/// Callers serialize `reserve` with a lock and ask
/// [`HighWaterMark::needed_for`] again under it, since a concurrent caller
/// may have moved the mark meanwhile.
pub fn next_covered<S: TickSource + ?Sized>(
    ticker: &S,
    mark: &HighWaterMark,
    clock: &mut impl Clock,
    max_wait_ms: u64,
    range: TickRange,
    reserve: impl FnMut(u64) -> bool,
) -> Result<Tick, TickError> {
    next_covered_below(ticker, mark, clock, max_wait_ms, range, u64::MAX, reserve)
}

/// As [`next_covered`], for a pair below `below_ms` only
/// ([`TickSource::next_tick_below`]).
pub fn next_covered_below<S: TickSource + ?Sized>(
    ticker: &S,
    mark: &HighWaterMark,
    clock: &mut impl Clock,
    max_wait_ms: u64,
    range: TickRange,
    below_ms: u64,
    mut reserve: impl FnMut(u64) -> bool,
) -> Result<Tick, TickError> {
    let mut given_up = 0;
    loop {
        let limit = mark.get().min(below_ms);
        match ticker.next_tick_below(clock, max_wait_ms, range, limit) {
            Ok(tick) => {
                if mark.covers(tick.unix_ms) || reserve(tick.unix_ms) {
                    debug_assert!(mark.covers(tick.unix_ms), "reserve left the pair uncovered");
                    return Ok(tick);
                }
            }
            Err(TickError::Uncovered { unix_ms }) if unix_ms < below_ms => {
                if reserve(unix_ms) {
                    continue;
                }
            }
            Err(e) => return Err(e),
        }
        given_up += 1;
        if given_up > MAX_ABANDONED {
            return Err(TickError::Abandoned);
        }
    }
}

/// The mark the keeper of a generator's mark may bring `mark_ms` down to,
/// if it lies further ahead than anything needs: more than a window above
/// what a mark made now would be, from `needed_ms` (the later of the clock
/// believed, the ticker's last pair, and any pair a caller waits for). A
/// reservation made for a caller that then went away (cancelled, failed)
/// during a forward clock glitch is such a mark; left, a restart or a
/// failover would refuse until the clock reached it.
pub fn trim_to(mark_ms: u64, needed_ms: u64) -> Option<u64> {
    let to = ahead_of(needed_ms);
    (mark_ms > LOST_MARK_MS && mark_ms > to.saturating_add(RESERVATION_WINDOW_MS)).then_some(to)
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

impl<S: TickSource, R: Fn(u64) -> bool, N: Fn(u64)> TickSource for Covered<'_, S, R, N> {
    fn next_tick_below(
        &self,
        clock: &mut impl Clock,
        max_wait_ms: u64,
        range: TickRange,
        below_ms: u64,
    ) -> Result<Tick, TickError> {
        let tick = next_covered_below(
            self.ticker,
            self.mark,
            clock,
            max_wait_ms,
            range,
            below_ms,
            &self.reserve,
        )?;
        if self.mark.due(tick.unix_ms) {
            (self.nudge)(tick.unix_ms);
        }
        Ok(tick)
    }
    fn resume_above(&self, mark_ms: u64) {
        self.ticker.resume_above(mark_ms)
    }
    fn restart_at(&self, mark_ms: u64) -> Option<Tick> {
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

        fn next(&self, clock: &mut FakeClock, store: &mut Store) -> Result<Tick, TickError> {
            next_covered(
                &self.ticker,
                &self.mark,
                clock,
                1000,
                TickRange::ALL,
                |unix_ms| {
                    if let Some(to) = self.mark.needed_for(unix_ms) {
                        store.durable_ms = store.durable_ms.max(to);
                        store.writes += 1;
                        self.mark.raise(to);
                    }
                    true
                },
            )
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

    #[test]
    fn a_pair_given_up_while_it_waited_is_never_handed_out() {
        let ticker = Ticker::<12>::new();
        let mark = HighWaterMark::new();
        let mut c = FakeClock::at(3_600_000);
        // The caller's first pair (an hour ahead of where the operator puts
        // the ticker) is given up while it waits: it takes the next pair,
        // from the moved ticker, instead.
        let mut calls = Vec::new();
        let tick = next_covered(&ticker, &mark, &mut c, 1000, TickRange::ALL, |unix_ms| {
            calls.push(unix_ms);
            if calls.len() == 1 {
                ticker.restart_at(1_000);
                return false;
            }
            mark.raise(ahead_of(unix_ms));
            true
        });
        assert_eq!(calls[0], 3_600_000);
        assert_eq!(
            tick.unwrap().unix_ms,
            3_600_000,
            "the clock still reads an hour ahead"
        );
        // Given up every time: a clear error, not a loop.
        let r = next_covered(
            &ticker,
            &HighWaterMark::new(),
            &mut c,
            1000,
            TickRange::ALL,
            |_| false,
        );
        assert_eq!(r, Err(TickError::Abandoned));
    }

    /// Issue 40: a call that waits for a mark during a forward glitch and
    /// then fails (cancelled, no reserver) took no pair: the ticker is where
    /// it was, and the next call at the true clock is covered at once.
    #[test]
    fn a_call_that_fails_while_it_waits_leaves_the_ticker_where_it_was() {
        for ticker in [
            &Ticker::<12>::new() as &dyn ErasedLast,
            &WrappingTicker::<10>::new(),
        ] {
            let mark = HighWaterMark::new();
            let mut c = FakeClock::at(10_000);
            ticker.take(&mark, &mut c, &mut |ms| {
                mark.raise(ahead_of(ms));
                true
            });
            let before = ticker.last_pair();
            c.now_ms = 10_000 + 3_600_000;
            let mut asked = None;
            let failed = ticker.try_take(&mark, &mut c, &mut |ms| {
                asked = Some(ms);
                false // as if the wait ended in an ERROR
            });
            assert!(failed.is_err());
            assert_eq!(asked, Some(3_610_000));
            assert_eq!(ticker.last_pair(), before, "no pair was taken");
            c.now_ms = 10_100;
            let t = ticker.take(&mark, &mut c, &mut |_| unreachable!("covered"));
            assert_eq!(t.unix_ms, 10_100);
        }
    }

    /// Lets one test run over both tickers.
    trait ErasedLast {
        fn last_pair(&self) -> Option<Tick>;
        fn try_take(
            &self,
            mark: &HighWaterMark,
            c: &mut FakeClock,
            r: &mut dyn FnMut(u64) -> bool,
        ) -> Result<Tick, TickError>;
        fn take(
            &self,
            mark: &HighWaterMark,
            c: &mut FakeClock,
            r: &mut dyn FnMut(u64) -> bool,
        ) -> Tick {
            self.try_take(mark, c, r).unwrap()
        }
    }
    impl<S: TickSource> ErasedLast for S {
        fn last_pair(&self) -> Option<Tick> {
            self.last_tick()
        }
        fn try_take(
            &self,
            mark: &HighWaterMark,
            c: &mut FakeClock,
            r: &mut dyn FnMut(u64) -> bool,
        ) -> Result<Tick, TickError> {
            next_covered(self, mark, c, 1000, TickRange::ALL, r)
        }
    }

    #[test]
    fn a_mark_far_ahead_of_every_need_is_trimmed_back_to_a_window() {
        let now = 1_700_000_000_000;
        assert_eq!(
            trim_to(now + 3_600_000, now),
            Some(now + RESERVATION_WINDOW_MS)
        );
        assert_eq!(
            trim_to(now + 2 * RESERVATION_WINDOW_MS, now),
            None,
            "two windows: not trimmed"
        );
        assert_eq!(
            trim_to(now + 2 * RESERVATION_WINDOW_MS + 1, now),
            Some(now + 1000)
        );
        assert_eq!(trim_to(LOST_MARK_MS, 0), None, "a lost mark stays lost");
        assert_eq!(trim_to(0, now), None);
    }

    #[test]
    fn a_lost_mark_survives_an_epoch_move_and_no_moved_mark_becomes_one() {
        assert_eq!(mark_under_epoch(LOST_MARK_MS, 0, 5_000), LOST_MARK_MS);
        assert_eq!(mark_under_epoch(0, 0, 5_000), 0);
        assert_eq!(mark_under_epoch(3_000, 5_000, 0), LOST_MARK_MS + 1);
    }

    #[test]
    fn nothing_is_reserved_past_the_last_mark() {
        let mark = HighWaterMark::new();
        mark.raise(MAX_MARK_MS);
        assert_eq!(
            keep_ahead(&mark, MAX_MARK_MS),
            None,
            "no mark beyond it: not due"
        );
        assert_eq!(keep_ahead(&mark, u64::MAX), None);
        let mark = HighWaterMark::new();
        mark.raise(MAX_MARK_MS - 100);
        assert_eq!(
            keep_ahead(&mark, MAX_TICK_MS),
            Some(MAX_MARK_MS),
            "up to it"
        );
    }

    #[test]
    fn the_keeper_believes_the_wall_clock_only_while_it_agrees_with_the_monotonic_one() {
        let t = CLOCK_STEP_TOLERANCE_MS;
        let mut j = ClockJudge::new();
        assert_eq!(j.believed(1_000_000, 50, 0), 1_000_000);
        assert_eq!(j.believed(1_000_100, 150, 999_000), 1_000_100, "in step");
        // +1 h for a moment, no calls: not believed.
        assert_eq!(j.believed(4_600_300, 350, 1_000_100), 1_000_300);
        assert_eq!(
            j.believed(4_601_800, 1_850, 1_000_100),
            1_001_800,
            "1.5 s later, still not"
        );
        // Back: believed again.
        assert_eq!(j.believed(1_002_000, 2_050, 1_000_100), 1_002_000);
        // Within the tolerance: believed.
        assert_eq!(j.believed(1_002_100 + t, 2_150, 0), 1_002_100 + t);
        // A lasting step forward (a clock that ran behind, put right): not
        // believed until this generator's callers hand out a pair at the
        // new time; then believed, and from then on in step.
        assert_eq!(j.believed(1_003_300 + t, 2_250, 1_002_000), 1_002_200 + t);
        assert_eq!(
            j.believed(1_003_400 + t, 2_350, 1_003_390 + t),
            1_003_400 + t
        );
        assert_eq!(
            j.believed(1_003_500 + t, 2_450, 1_003_390 + t),
            1_003_500 + t
        );
        // ... so that a glitch after it is not believed either: the pairs
        // handed out at the corrected time are far below the glitch.
        assert_eq!(j.believed(4_603_600, 2_550, 1_003_500 + t), 1_003_600 + t);
        // Stepped back: believed at once.
        assert_eq!(j.believed(1_000_500, 2_650, 1_003_500 + t), 1_000_500);
    }

    #[test]
    fn each_generator_is_judged_by_its_own_pairs() {
        let (mut nanoflake, mut uid60) = (ClockJudge::new(), ClockJudge::new());
        for j in [&mut nanoflake, &mut uid60] {
            j.believed(1_000_000, 0, 999_000);
        }
        // +1 h: uid60's callers hand out a pair there, nanoflake's do not.
        assert_eq!(uid60.believed(4_600_100, 100, 4_600_050), 4_600_100);
        assert_eq!(nanoflake.believed(4_600_100, 100, 999_000), 1_000_100);
    }

    #[test]
    fn the_marks_file_round_trips_with_its_epochs() {
        let text = format_marks_file(
            &NAMES,
            &[1_764_000_000_123, 0, 42],
            &[1_577_836_800_000, 1_483_228_800_000, -5],
        );
        assert!(text.starts_with("chronoid high-water marks 2\nnanoflake 1764000000123\n"));
        assert!(text.contains("epoch nanoflake 1577836800000\n"));
        let file = parse_marks_file(&text, &NAMES).unwrap();
        assert_eq!(file.marks, vec![1_764_000_000_123, 0, 42]);
        assert_eq!(
            file.epochs,
            Some(vec![1_577_836_800_000, 1_483_228_800_000, -5])
        );
        // The same length whatever the checksum: rewritten in place.
        let other = format_marks_file(
            &NAMES,
            &[1_764_000_000_999, 0, 42],
            &[1_577_836_800_000, 1_483_228_800_000, -5],
        );
        assert_eq!(other.len(), text.len());
    }

    #[test]
    fn a_version_1_file_is_read_as_made_under_this_servers_epochs() {
        let v1 = format_marks(MARKS_HEADER_V1, &NAMES, &[5, 6, 7]);
        assert_eq!(
            parse_marks_file(&v1, &NAMES),
            Ok(MarksFile {
                marks: vec![5, 6, 7],
                epochs: None
            })
        );
    }

    #[test]
    fn a_marks_file_chronoid_did_not_write_is_refused() {
        let good = format_marks_file(&NAMES, &[1_764_000_000_123, 2, 3], &[1, 2, 3]);
        // A digit flipped in place: the checksum says so.
        let flipped = good.replacen("1764000000123", "1764000000128", 1);
        assert!(parse_marks_file(&flipped, &NAMES)
            .unwrap_err()
            .contains("checksum"));
        for bad in [
            good.replace("checksum ", "checksun "),
            good[..good.len() - 1].to_owned(),
            good.replace("epoch uid60 3\n", ""),
            good.replace("epoch uid60 3\n", "epoch uid60 3\nepoch uid60 3\n"),
            good.replace("uid60 3\n", "uid60 -3\n"),
            good.replace("chronoid high-water marks 2", "chronoid high-water marks 3"),
        ] {
            assert!(parse_marks_file(&bad, &NAMES).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_later_epoch_moves_the_mark_later_by_as_much() {
        let e = 1_577_836_800_000;
        assert_eq!(mark_under_epoch(2_000_000, e, e), 2_000_000, "same epoch");
        assert_eq!(
            mark_under_epoch(2_000_000, e, e + 5_000),
            2_005_000,
            "5 s later"
        );
        assert_eq!(
            mark_under_epoch(2_000_000, e, e - 5_000),
            1_995_000,
            "5 s earlier"
        );
        assert_eq!(mark_under_epoch(0, e, e + 5_000), 0, "no mark");
        assert_eq!(
            mark_under_epoch(MAX_MARK_MS, 0, 10),
            MAX_MARK_MS,
            "never past the last"
        );
        assert_eq!(
            crc32c(b"123456789"),
            0xE306_9283,
            "the standard check value"
        );
    }
}
