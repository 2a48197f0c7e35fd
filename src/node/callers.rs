//! A caller's side of the verdicts (`verdict.rs`): mint where the word
//! lets this server mint with its node id, refuse (55000) with the
//! verdict's reason, or wake the peer worker and wait for a verdict on
//! what the caller sees, never for a peer.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use pgrx::{pg_sys, PgSqlErrorCode};

use super::verdict::{epoch, here, shared, split_reason, wake_worker, Slot};
use crate::pg::error::error_with_hint;
use chronoid_formats::node_verdict::{Reading, State, Verdict};

/// How long a caller waits for a verdict on what it sees: the worker
/// judges from what it remembers at once, and a peer never heard is asked
/// within 5 s.
const WAIT_FOR_VERDICT_MS: u64 = 12_000;

/// Refuses (55000) unless the worker's verdict lets this server mint with
/// `node` now: one read of the word and one of the epoch when it does.
/// Returns the node id to mint with: `node`, or, where this database's
/// Citus group changed while the call waited, the one `node_now` (the node
/// id in effect, read again) gives for the new group.
pub fn require_mint(
    function: &str,
    node: Option<u16>,
    node_now: impl Fn() -> Option<Option<u16>>,
) -> Option<u16> {
    let (sl, _) = here();
    let word = sl.word.load(Ordering::Acquire);
    match Verdict::reading(word, epoch(), node) {
        Reading::Mint => node,
        Reading::Refuse => refuse(function, sl),
        Reading::Wait => wait_for_verdict(function, node, node_now),
    }
}

fn refuse(function: &str, sl: &Slot) -> ! {
    let (message, hint) = split_reason(sl.reason.get());
    error_with_hint(
        PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        format!("{function} refuses: {message}"),
        &hint,
    )
}

fn wait_for_verdict(
    function: &str,
    mut node: Option<u16>,
    node_now: impl Fn() -> Option<Option<u16>>,
) -> Option<u16> {
    let s = shared();
    let started = Instant::now();
    wake_worker();
    loop {
        // A server that gave its place away: no worker needed to say so.
        // SAFETY: this backend's database, set at connection.
        let db = u32::from(unsafe { pg_sys::MyDatabaseId });
        if let Some((message, hint)) = super::handover::refusal_in(super::verdict::Scope::Citus(db))
        {
            error_with_hint(
                PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!("{function} refuses: {message}"),
                &hint,
            );
        }
        // The table may change meanwhile (a Citus database found, its
        // group id changed: the call mints, or is refused, under the new
        // one, which the worker judged; a change of the setting is a
        // reload, below).
        let (sl, citus) = here();
        if citus.is_some() {
            if let Some(now) = node_now() {
                node = now;
            }
        }
        let word = sl.word.load(Ordering::Acquire);
        match Verdict::reading(word, epoch(), node) {
            Reading::Mint => return node,
            Reading::Refuse => refuse(function, sl),
            Reading::Wait => {}
        }
        // A verdict on what this backend sees, for another node id: this
        // backend has not read a reload the worker read, or read one the
        // worker has yet to. A statement runs on the configuration it
        // began with.
        let v = Verdict::from_word(word);
        // SAFETY: a flag this backend's SIGHUP handler sets.
        if v.epoch == Verdict::epoch_of(epoch())
            && v.state != State::Pending
            && v.node != node
            && unsafe { pg_sys::ConfigReloadPending } != 0
        {
            refuse_reload(function, node, v.node);
        }
        if started.elapsed() > Duration::from_millis(WAIT_FOR_VERDICT_MS) {
            let (waiting_for, _) = split_reason(sl.reason.get());
            let why = if s.worker_pid.load(Ordering::Acquire) == 0 {
                chronoid_formats::reason!("the chronoid peer worker is not running")
            } else if v.state == State::Pending && !waiting_for.is_empty() {
                chronoid_formats::reason!("the chronoid peer worker has not judged this server's peers yet ({waiting_for})")
            } else {
                chronoid_formats::reason!(
                    "the chronoid peer worker has not judged this server's configuration yet"
                )
            };
            error_with_hint(
                PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!("{function} refuses: {why} (waited {} s)", WAIT_FOR_VERDICT_MS / 1000),
                "Call again in a moment. The \"chronoid peer worker\" background worker judges whether this server may mint; see the server log and chronoid_node_verdicts (a prepared transaction that changes a subscription or a Citus formation holds every verdict until COMMIT PREPARED or ROLLBACK PREPARED: pg_prepared_xacts).",
            );
        }
        // SAFETY: this process's latch; an interrupt (a cancel) raises
        // through pgrx's guard at the check below.
        unsafe {
            pg_sys::WaitLatch(
                pg_sys::MyLatch,
                (pg_sys::WL_LATCH_SET | pg_sys::WL_TIMEOUT | pg_sys::WL_EXIT_ON_PM_DEATH) as _,
                5,
                pg_sys::PG_WAIT_EXTENSION,
            );
            pg_sys::ResetLatch(pg_sys::MyLatch);
        }
        pgrx::check_for_interrupts!();
    }
}

/// A statement that runs on across a reload (a backend reads the
/// configuration only between statements) would mint with an id the
/// server has given up, and a peer may have taken.
fn refuse_reload(function: &str, mine: Option<u16>, now: Option<u16>) -> ! {
    let id = |n: Option<u16>| n.map_or(-1, i32::from);
    error_with_hint(
        PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        format!(
            "{function} refuses: chronoid.node_id was changed from {} to {} by a reload while this statement ran, and a statement keeps the configuration it began with",
            id(mine),
            id(now)
        ),
        "Run the statement again: a new statement takes the new node id.",
    )
}
