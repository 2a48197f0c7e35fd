//! The clock a generator reads, as an input: the database passes the system
//! clock, tests pass a clock they step by hand.

/// Wall-clock time in unix milliseconds, and a way to let it pass.
pub trait Clock {
    fn now_ms(&mut self) -> u64;
    /// Milliseconds on a clock that nobody steps (CLOCK_MONOTONIC): the
    /// yardstick for how long a generator has waited.
    fn monotonic_ms(&mut self) -> u64;
    /// Called while a generator waits for the clock to reach `until_ms`
    /// (`now_ms` is the last reading). Implementations spin, sleep, or check
    /// for query cancellation; they need not wait the whole time.
    fn wait(&mut self, now_ms: u64, until_ms: u64);
}

/// A borrowed clock is a clock (so a wrapper can run on the caller's).
impl<C: Clock + ?Sized> Clock for &mut C {
    fn now_ms(&mut self) -> u64 {
        (**self).now_ms()
    }
    fn monotonic_ms(&mut self) -> u64 {
        (**self).monotonic_ms()
    }
    fn wait(&mut self, now_ms: u64, until_ms: u64) {
        (**self).wait(now_ms, until_ms)
    }
}

/// The operating system's clock, for applications: CLOCK_REALTIME for the
/// time, a monotonic clock for how long a generator waited, and a wait that
/// spins for the next millisecond and sleeps when the clock is further behind.
/// (The extension uses its own, which also honours query cancellation.)
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&mut self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }

    fn monotonic_ms(&mut self) -> u64 {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_millis() as u64
    }

    fn wait(&mut self, now_ms: u64, until_ms: u64) {
        if until_ms.saturating_sub(now_ms) <= 1 {
            std::hint::spin_loop();
        } else {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

/// A clock that stands still until told otherwise. Waiting on it advances it,
/// as time would pass, unless it is frozen. Test-only: not in release builds.
#[cfg(test)]
#[derive(Debug, Clone)]
pub struct FakeClock {
    pub now_ms: u64,
    /// Waits do not move a frozen clock (a clock stuck behind).
    pub frozen: bool,
    /// How many times a generator waited on it.
    pub waits: u64,
    /// Time that passed while waiting, frozen or not.
    pub monotonic_ms: u64,
}

#[cfg(test)]
impl FakeClock {
    pub fn at(now_ms: u64) -> Self {
        FakeClock {
            now_ms,
            frozen: false,
            waits: 0,
            monotonic_ms: 0,
        }
    }
}

#[cfg(test)]
impl Clock for FakeClock {
    fn now_ms(&mut self) -> u64 {
        self.now_ms
    }
    fn monotonic_ms(&mut self) -> u64 {
        self.monotonic_ms
    }
    fn wait(&mut self, now_ms: u64, until_ms: u64) {
        self.waits += 1;
        self.monotonic_ms += until_ms.saturating_sub(now_ms).max(1);
        if !self.frozen {
            self.now_ms = self.now_ms.max(until_ms);
        }
    }
}
