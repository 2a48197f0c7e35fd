//! The server-wide generators (`gen_nanoflake`, `gen_caloriosa`,
//! `gen_uid60`) as shared memory holds them: each one's ticker, the
//! high-water mark its callers check on every call, without a lock, and its
//! counters for the view. Everything here is read by callers on the hot
//! path; what moves the marks is in `marks.rs`.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgAtomic};

use chronoid_formats::caloriosa::CaloriosaTicker;
use chronoid_formats::clock::Clock;
use chronoid_formats::counter_id::TickSource;
use chronoid_formats::generator_stats::GeneratorStats;
use chronoid_formats::high_water::HighWaterMark;
use chronoid_formats::nanoflake::NanoflakeTicker;
use chronoid_formats::ticker::{Tick, TickRange};
use chronoid_formats::uid60::Uid60Ticker;

use crate::pg::clock::BackendClock;

// SAFETY (all three): each name is unique, and `request_shmem` puts each ticker in
// shared memory before any backend can use it; `get` is only called after
// `require_preloaded`.
pub static NANOFLAKE_TICKER: PgAtomic<InShmem<NanoflakeTicker>> =
    unsafe { PgAtomic::new(c"chronoid.nanoflake_ticker") };
// SAFETY: as above.
pub static CALORIOSA_TICKER: PgAtomic<InShmem<CaloriosaTicker>> =
    unsafe { PgAtomic::new(c"chronoid.caloriosa_ticker") };
// SAFETY: as above.
pub static UID60_TICKER: PgAtomic<InShmem<Uid60Ticker>> =
    unsafe { PgAtomic::new(c"chronoid.uid60_ticker") };

/// The generators' counters for the `chronoid_generators` view, and when
/// shared memory (and so the counters) was last built.
pub struct GeneratorCounters {
    pub since_unix_ms: u64,
    pub stats: [GeneratorStats; 3],
}
// SAFETY: as above.
pub static GENERATOR_COUNTERS: PgAtomic<InShmem<GeneratorCounters>> =
    unsafe { PgAtomic::new(c"chronoid.generator_counters") };

/// A formats-crate ticker placed in shared memory (the wrapper lets this
/// crate declare it fit for that).
#[repr(transparent)]
pub struct InShmem<T>(pub T);

impl<T> std::ops::Deref for InShmem<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

// SAFETY: each ticker is one AtomicU64 (repr(transparent)), valid in any
// process that maps the segment.
unsafe impl<const N: u32> pgrx::shmem::PGRXSharedMemory
    for InShmem<chronoid_formats::ticker::Ticker<N>>
{
}
// SAFETY: as above.
unsafe impl<const N: u32> pgrx::shmem::PGRXSharedMemory
    for InShmem<chronoid_formats::ticker::WrappingTicker<N>>
{
}
// SAFETY: atomics and an integer.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<GeneratorCounters> {}

// SAFETY: atomics, valid in any process mapping them.
unsafe impl pgrx::shmem::PGRXSharedMemory for InShmem<Marks> {}

/// The epoch (unix ms) each generator's IDs count from on this server, set
/// once in the postmaster (`set_epochs`, from `_PG_init`) and inherited by
/// every process it starts. The marks are kept in unix milliseconds under
/// these epochs; a mark made under another (a primary's, an earlier
/// configuration's) is moved to them (`marks.rs`).
static EPOCHS: [AtomicI64; 3] = [AtomicI64::new(0), AtomicI64::new(0), AtomicI64::new(0)];

/// From `_PG_init` while preloading, with the epochs the type adapters make
/// IDs under.
pub fn set_epochs(epochs: [i64; 3]) {
    for (slot, epoch) in EPOCHS.iter().zip(epochs) {
        slot.store(epoch, Ordering::Relaxed);
    }
}

/// The generators whose uniqueness rests on a shared ticker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generator {
    Nanoflake = 0,
    Caloriosa = 1,
    Uid60 = 2,
}

impl Generator {
    pub const ALL: [Generator; 3] = [Generator::Nanoflake, Generator::Caloriosa, Generator::Uid60];
    pub const NAMES: [&'static str; 3] = ["nanoflake", "caloriosa", "uid60"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn from_index(index: u32) -> Option<Self> {
        Self::ALL.get(index as usize).copied()
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The unix milliseconds the generator's IDs can hold under this
    /// server's epoch (`None`: none between 1970 and 2248).
    pub fn tick_range(self) -> Option<TickRange> {
        let max_since_epoch = match self {
            Generator::Nanoflake => chronoid_formats::nanoflake::MAX_TIMESTAMP,
            Generator::Caloriosa => chronoid_formats::caloriosa::MAX_TIMESTAMP,
            Generator::Uid60 => chronoid_formats::uid60::MAX_TIMESTAMP,
        };
        TickRange::of_format(self.epoch(), max_since_epoch)
    }

    /// The epoch this server makes the generator's IDs under.
    pub fn epoch(self) -> i64 {
        EPOCHS[self as usize].load(Ordering::Relaxed)
    }

    pub fn epochs() -> [i64; 3] {
        Generator::ALL.map(Generator::epoch)
    }

    pub fn mark(self) -> &'static HighWaterMark {
        &MARKS.get().0.marks[self as usize]
    }

    /// How many times an operator moved this generator's mark and ticker
    /// since start (`marks::move_mark`, under the durable marks' lock): a
    /// pair taken before a move, and not yet handed out, is given up.
    pub fn moves(self) -> u64 {
        MARKS.get().0.moves[self as usize].load(Ordering::Acquire)
    }

    /// The durable mark (what `chronoid.marks` holds), as `marks.rs` last
    /// wrote it: a copy read without the lock, so that the view never
    /// waits behind a reservation's fsync, and the postmaster can read it
    /// as it exits.
    pub fn durable_mark(self) -> u64 {
        MARKS.get().0.durable[self as usize].load(Ordering::Acquire)
    }

    /// Copies the durable marks; only `marks.rs` calls it, under the lock.
    pub fn note_durable(marks: &[u64; 3]) {
        for g in Generator::ALL {
            MARKS.get().0.durable[g as usize].store(marks[g as usize], Ordering::Release);
        }
    }

    /// The count of operators' moves and where the last one put the
    /// ticker, read together: a pair below that position was handed out by
    /// no ticker after the move, and never will be.
    pub fn last_move(self) -> (u64, u64) {
        let m = &MARKS.get().0;
        let i = self as usize;
        loop {
            let moves = m.moves[i].load(Ordering::Acquire);
            let to = m.moved_to[i].load(Ordering::Acquire);
            if m.moves[i].load(Ordering::Acquire) == moves {
                return (moves, to);
            }
        }
    }

    /// Records a move to `mark_ms` (the position first, then the count);
    /// only `marks::move_mark` calls it, under the lock.
    pub fn note_move(self, mark_ms: u64) {
        let m = &MARKS.get().0;
        m.moved_to[self as usize].store(mark_ms, Ordering::Release);
        m.moves[self as usize].fetch_add(1, Ordering::AcqRel);
    }

    pub fn stats(self) -> &'static chronoid_formats::generator_stats::GeneratorStats {
        &GENERATOR_COUNTERS.get().0.stats[self as usize]
    }

    pub fn ticker(self) -> &'static dyn ErasedTicker {
        match self {
            Generator::Nanoflake => &NANOFLAKE_TICKER.get().0,
            Generator::Caloriosa => &CALORIOSA_TICKER.get().0,
            Generator::Uid60 => &UID60_TICKER.get().0,
        }
    }

    /// The last pair this generator's ticker holds.
    pub fn last_tick(self) -> Option<Tick> {
        self.ticker().last()
    }
}

/// The three tickers' types differ; what the marks do to them does not.
pub trait ErasedTicker {
    fn last(&self) -> Option<Tick>;
    fn resume_above(&self, mark_ms: u64);
    fn restart_at(&self, mark_ms: u64) -> Option<Tick>;
}

impl<T: TickSource> ErasedTicker for T {
    fn last(&self) -> Option<Tick> {
        self.last_tick()
    }
    fn resume_above(&self, mark_ms: u64) {
        TickSource::resume_above(self, mark_ms)
    }
    fn restart_at(&self, mark_ms: u64) -> Option<Tick> {
        TickSource::restart_at(self, mark_ms)
    }
}

/// Each counter generator's last pair, as milliseconds since its epoch
/// (0: none): where a server that gives its place (or a Citus group) away
/// stopped, told to the one that takes it, whose epochs may differ.
pub fn last_ticks() -> [u64; 3] {
    Generator::ALL.map(|g| {
        g.last_tick().map_or(0, |t| {
            (i128::from(t.unix_ms) - i128::from(g.epoch())).clamp(0, i128::from(u64::MAX)) as u64
        })
    })
}

/// Told where the generators of the server whose place this one took
/// stopped (`last_ticks` there): every pair handed out here lies above,
/// under this server's epochs (2 ms past the last: a caller there that read
/// its verdict just before it gave way may take one more pair).
pub fn resume_above(last: [u64; 3]) {
    for g in Generator::ALL {
        let since_epoch = last[g as usize];
        if since_epoch != 0 {
            let unix = i128::from(since_epoch) + i128::from(g.epoch()) + 2;
            g.ticker()
                .resume_above(unix.clamp(0, i128::from(u64::MAX)) as u64);
        }
    }
}

/// The marks generators read on every call, without a lock, and the count
/// of operators' moves a waiting caller checks.
#[derive(Default)]
pub struct Marks {
    marks: [HighWaterMark; 3],
    moves: [AtomicU64; 3],
    moved_to: [AtomicU64; 3],
    durable: [AtomicU64; 3],
}

// SAFETY: a unique name; `request_shmem` places it before any backend runs.
static MARKS: PgAtomic<InShmem<Marks>> = unsafe { PgAtomic::new(c"chronoid.high_water_marks") };

/// From `_PG_init` while preloading: the tickers, the counters and the
/// marks callers check.
pub fn request_shmem() {
    pg_shmem_init!(NANOFLAKE_TICKER = InShmem(NanoflakeTicker::new()));
    pg_shmem_init!(CALORIOSA_TICKER = InShmem(CaloriosaTicker::new()));
    pg_shmem_init!(UID60_TICKER = InShmem(Uid60Ticker::new()));
    pg_shmem_init!(
        GENERATOR_COUNTERS = InShmem(GeneratorCounters {
            since_unix_ms: BackendClock.now_ms(),
            stats: Default::default(),
        })
    );
    pg_shmem_init!(MARKS = InShmem(Marks::default()));
}
