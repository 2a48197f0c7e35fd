//! Guards a SQL function calls before it does anything that writes or
//! needs server-wide state, as PostgreSQL keeps `PreventCommandIfReadOnly`
//! in `tcop/utility.c` rather than in the subsystems that call it: not
//! loaded via `shared_preload_libraries`, in recovery, in a read-only
//! transaction. Each refuses with the SQLSTATE PostgreSQL's own refusals
//! use.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use std::sync::atomic::{AtomicBool, Ordering};

use pgrx::{pg_sys, PgSqlErrorCode};

use super::backend_local::BackendLocal;
use super::error::{error, error_with_hint};

/// Set in the postmaster once shared memory was requested; forked backends
/// inherit it.
static PRELOADED: AtomicBool = AtomicBool::new(false);

/// Whether `shared_preload_libraries` names `library` (Citus cannot run
/// without being preloaded: a server that does not preload it has none).
pub fn preloads(library: &str) -> bool {
    let text = super::guc::config_text(c"shared_preload_libraries")
        .map(|t| t.to_string_lossy().into_owned())
        .unwrap_or_default();
    chronoid_formats::node_id::preloads(&text, library)
}

/// Whether the library is being loaded by `shared_preload_libraries` (in
/// the postmaster, where shared memory, hooks and workers can be set up).
pub fn preloading() -> bool {
    // SAFETY: a flag PostgreSQL sets while it loads preloaded libraries.
    unsafe { pg_sys::process_shared_preload_libraries_in_progress }
}

/// Whether the shared state exists (the library was preloaded).
pub fn is_preloaded() -> bool {
    PRELOADED.load(Ordering::Relaxed)
}

/// From `_PG_init`, once the shared state is requested.
pub fn note_preloaded() {
    PRELOADED.store(true, Ordering::Relaxed);
}

/// Raises 55000, with a hint, unless the shared state exists: a generator
/// whose uniqueness across backends depends on it must not run without.
pub fn require_preloaded(generator: &str) {
    if !PRELOADED.load(Ordering::Relaxed) {
        error_with_hint(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{generator} requires chronoid to be loaded via shared_preload_libraries"),
            "Add chronoid to shared_preload_libraries in postgresql.conf and restart the server; \
             the generator keeps its sequence in shared memory so that no two backends repeat an ID.",
        );
    }
}

/// A read-only transaction writes nothing, and an ID from a counter
/// generator may need a reservation (WAL): refused as `nextval()` is, which
/// also keeps a primary fenced with `default_transaction_read_only` from
/// minting. `gen_scru160()` needs no mark and keeps working.
pub fn refuse_in_read_only_transaction(function: &str) {
    // SAFETY: a process-local flag PostgreSQL sets per transaction.
    if unsafe { pg_sys::XactReadOnly } {
        error(
            PgSqlErrorCode::ERRCODE_READ_ONLY_SQL_TRANSACTION,
            format!("cannot execute {function} in a read-only transaction"),
        );
    }
}

/// Whether a counter generator may write here, for its unguarded path:
/// preloaded, not in a read-only transaction, and recovery seen to have
/// ended in this process (else the guarded path asks, and raises).
#[inline(always)]
pub fn may_write_unguarded() -> bool {
    // SAFETY: process-local flags PostgreSQL sets.
    is_preloaded() && !unsafe { pg_sys::XactReadOnly } && RECOVERY_ENDED.try_with(|_| ()).is_some()
}

/// Recovery never starts again in a process that saw it end: once it has,
/// the value exists and the check is one load.
static RECOVERY_ENDED: BackendLocal<()> = BackendLocal::new();

/// A standby shares its primary's node id and replays, rather than makes,
/// high-water marks: an ID minted there could equal one the primary mints.
/// Refused as `nextval()` is during recovery.
pub fn refuse_during_recovery(function: &str) {
    if RECOVERY_ENDED.try_with(|_| ()).is_some() {
        return;
    }
    // SAFETY: reads process-local and shared recovery state; cannot raise.
    if !unsafe { super::ffi::recovery_in_progress_unguarded() } {
        RECOVERY_ENDED.with(|| (), |_| ());
    } else {
        error_with_hint(
            PgSqlErrorCode::ERRCODE_READ_ONLY_SQL_TRANSACTION,
            format!("cannot execute {function} during recovery"),
            "Generate on the primary; a promoted standby generates above every high-water mark it replayed.",
        );
    }
}
