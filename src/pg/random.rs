//! The per-backend CSPRNG. Created on first use inside a backend and
//! re-seeded whenever the process is not the one that seeded it, so a state
//! created before a fork (in the postmaster, with the library preloaded) is
//! never shared by two backends.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use rand::rngs::StdRng;
use rand::SeedableRng;

use pgrx::pg_sys;

use super::backend_local::BackendLocal;

struct Seeded {
    pid: i32,
    rng: StdRng,
}

static RNG: BackendLocal<Seeded> = BackendLocal::new();

fn seed() -> Seeded {
    // ChaCha12 from the OS's getrandom: a userspace CSPRNG, one syscall per
    // backend rather than per ID.
    Seeded {
        // SAFETY: MyProcPid is set before any SQL function runs.
        pid: unsafe { pg_sys::MyProcPid },
        rng: StdRng::from_os_rng(),
    }
}

pub fn with_rng<R>(f: impl FnOnce(&mut StdRng) -> R) -> R {
    RNG.with(seed, |s| {
        // SAFETY: as above.
        if s.pid != unsafe { pg_sys::MyProcPid } {
            *s = seed();
        }
        f(&mut s.rng)
    })
}

/// `f` with the RNG if this process has seeded it already, else `None`
/// (seeding may fail and report: that is for the guarded path).
#[inline(always)]
pub fn try_with_seeded_rng<R>(f: impl FnOnce(&mut StdRng) -> R) -> Option<R> {
    RNG.try_with(|s| {
        // SAFETY: as above.
        (s.pid == unsafe { pg_sys::MyProcPid }).then(|| f(&mut s.rng))
    })
    .flatten()
}

/// Random bits for the salt fields (caloriosa's 12, uid60's 9).
pub fn random_u16() -> u16 {
    with_rng(rand::Rng::random::<u16>)
}
