//! `BackendLocal<T>`: state private to one backend process, without a lock.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use pgrx::PgSqlErrorCode;

use super::error::error;

/// State private to one backend process: PostgreSQL backends are
/// single-threaded, so a static needs no lock, only a guard against
/// re-entrance: `with` hands its callback a `&mut`, and a second `with` on
/// the same static inside that callback would alias it. That is refused with
/// an ERROR (the flag is cleared again when the outer call ends, also by an
/// ERROR unwinding through it).
pub struct BackendLocal<T> {
    value: std::cell::UnsafeCell<Option<T>>,
    in_use: std::cell::Cell<bool>,
}

// SAFETY: only ever touched by a backend's one thread.
unsafe impl<T> Sync for BackendLocal<T> {}

impl<T> BackendLocal<T> {
    pub const fn new() -> Self {
        BackendLocal {
            value: std::cell::UnsafeCell::new(None),
            in_use: std::cell::Cell::new(false),
        }
    }

    /// `f` on the value if it exists and is not in use, else `None`: for
    /// fast paths that run without a pg_guard, so cannot raise an ERROR
    /// (nor hold anything with a destructor while PostgreSQL might longjmp).
    #[inline(always)]
    pub fn try_with<R>(&self, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        if self.in_use.get() {
            return None;
        }
        // SAFETY: single-threaded, not in use (checked above), and `f` runs
        // to completion before anything else can reach this value: it is
        // given no way to call back into PostgreSQL.
        let slot = unsafe { &mut *self.value.get() };
        slot.as_mut().map(f)
    }

    pub fn with<R>(&self, init: impl FnOnce() -> T, f: impl FnOnce(&mut T) -> R) -> R {
        struct Release<'a>(&'a std::cell::Cell<bool>);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.set(false);
            }
        }
        if self.in_use.replace(true) {
            error(
                PgSqlErrorCode::ERRCODE_INTERNAL_ERROR,
                "chronoid: backend-local state used re-entrantly".into(),
            );
        }
        let _release = Release(&self.in_use);
        // SAFETY: single-threaded, and the flag above makes this the only
        // live reference until `_release` drops.
        let slot = unsafe { &mut *self.value.get() };
        f(slot.get_or_insert_with(init))
    }
}
