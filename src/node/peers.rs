//! The servers whose IDs meet this one's: those it replicates from (its
//! logical-replication subscriptions, in every database), and the other
//! nodes of its Citus formation. No two of them may mint with one node id. Before this backend's first
//! counter ID, again after any subscription or this server's node id
//! changes, and at most a minute after the last asking (a peer may have
//! changed its own id meanwhile), each enabled subscription's publisher is
//! asked its
//! `chronoid.node_id` over one short connection (`src/pg/remote.rs`). A
//! publisher with the same id, or either side with none, makes every
//! counter generator here refuse (55000), naming the subscription and the
//! publisher. In a two-writer mesh each side subscribes to the other, so
//! both refuse before either's IDs reach the other.
//!
//! On a Citus node whose id is its own (`chronoid.node_id`, or a base other
//! than 0), every other node of the formation (`pg_dist_node`) is asked
//! too, as Citus connects to it; an id another node has, its own or base +
//! group, is refused, naming both nodes. Nodes that take base 0 + their
//! group id need no asking: the coordinator hands out each group id once.
//!
//! A publisher (or node) that cannot be asked is not checked (a WARNING says so):
//! refusing would stop this server whenever a peer is down. The peer, when
//! it mints, asks this server in turn. Subscriptions Citus makes for its own
//! shard moves (`citus_…`) are between the nodes of one formation, whose
//! ids `src/node/identity.rs` keeps apart.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::cell::{Cell, RefCell};

use pgrx::pg_sys;
use pgrx::PgSqlErrorCode;

use super::{citus, identity};
use crate::pg::error::error_with_hint;
use crate::pg::{remote, subscriptions};
use chronoid_formats::clock::Clock;
use chronoid_formats::node_id::{Node, Source};

struct Checked {
    /// The node id (and source) the verdict was reached for.
    node: Cell<Option<Node>>,
    /// Set by a subscription's change, in this backend.
    stale: Cell<bool>,
    /// The Citus formation's generation the verdict was reached for.
    formation: Cell<u64>,
    /// When (unix ms) the peers were last asked.
    asked_at: Cell<u64>,
    callback_registered: Cell<bool>,
    /// Why this server must not mint, if it must not.
    refusal: RefCell<Option<(String, String)>>,
}

// SAFETY: only ever touched by a backend's one thread.
unsafe impl Sync for Checked {}

static CHECKED: Checked = Checked {
    node: Cell::new(None),
    stale: Cell::new(true),
    formation: Cell::new(0),
    asked_at: Cell::new(0),
    callback_registered: Cell::new(false),
    refusal: RefCell::new(None),
};

/// Refuses (55000) if a server this one replicates from mints with this
/// server's node id, or either has none.
pub fn refuse_shared_node_id(function: &str, node: Node) {
    let now = crate::pg::clock::BackendClock.now_ms();
    if CHECKED.stale.get()
        || CHECKED.node.get() != Some(node)
        || CHECKED.formation.get() != citus::generation()
        || now.abs_diff(CHECKED.asked_at.get()) > ASK_AGAIN_AFTER_MS
    {
        if !CHECKED.callback_registered.replace(true) {
            subscriptions::on_change(on_subscription_change);
        }
        // Marked fresh first: a change while the publishers are asked
        // marks it stale again.
        CHECKED.stale.set(false);
        CHECKED.node.set(Some(node));
        CHECKED.formation.set(citus::generation());
        CHECKED.asked_at.set(now);
        let refusal = ask_publishers(node).or_else(|| ask_formation(node));
        *CHECKED.refusal.borrow_mut() = refusal;
    }
    if let Some((message, hint)) = CHECKED.refusal.borrow().clone() {
        error_with_hint(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{function} refuses: {message}"),
            &hint,
        );
    }
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn on_subscription_change(_arg: pg_sys::Datum, _cache: i32, _hash: u32) {
    CHECKED.stale.set(true);
}

/// How long a verdict stands without a change seen here: a peer's own
/// change of node id is seen by this backend within it.
const ASK_AGAIN_AFTER_MS: u64 = 60_000;

const ASK: &str = "SELECT current_setting('chronoid.node_id', true), \
    coalesce(nullif(current_setting('cluster_name'), ''), coalesce(inet_server_addr()::text, 'a local socket') || ' port ' || current_setting('port'))";

const HINT: &str = "Give every server whose IDs meet its own chronoid.node_id (0..1023) in postgresql.conf and reload; docs/across-servers.md, \"Replication meshes\".";

fn ask_publishers(node: Node) -> Option<(String, String)> {
    let mine = match node.source {
        Source::Unset => None,
        _ => node.id,
    };
    let mut seen: Vec<(i32, String)> = Vec::new();
    for sub in subscriptions::all() {
        if !sub.enabled || sub.name.starts_with("citus_") {
            continue;
        }
        let row = match remote::first_row(&sub.conninfo, ASK, 2) {
            Ok(row) => row,
            Err(why) => {
                pgrx::warning!(
                    "chronoid: could not ask the publisher of subscription \"{}\" for its node id, so it is not checked: {why}",
                    sub.name
                );
                continue;
            }
        };
        let publisher = format!(
            "the publisher of subscription \"{}\" ({})",
            sub.name,
            row[1].as_deref().unwrap_or("?")
        );
        // NULL: chronoid is not loaded there, so it mints no counter IDs.
        let Some(theirs) = int_column(&row, 0) else {
            continue;
        };
        // Two publishers with one id meet here too (fan-in).
        if theirs >= 0 {
            if let Some(other) = seen.iter().find(|(id, _)| *id == theirs) {
                return Some((
                    format!(
                        "{publisher} and {} share node id {theirs}, and this server receives the rows of both",
                        other.1
                    ),
                    HINT.into(),
                ));
            }
            seen.push((theirs, publisher.clone()));
        }
        let refusal = match (mine, theirs) {
            (None, _) => format!(
                "this server has no node id (chronoid.node_id is not set), and it receives rows from {publisher}"
            ),
            (Some(_), -1) => format!(
                "{publisher} has no node id (chronoid.node_id is not set there), and this server receives its rows"
            ),
            (Some(id), theirs) if i32::from(id) == theirs => format!(
                "this server's node id {id} is also the node id of {publisher}, whose rows it receives"
            ),
            _ => continue,
        };
        return Some((refusal, HINT.into()));
    }
    None
}

const ASK_CITUS: &str = "SELECT current_setting('chronoid.node_id', true), current_setting('chronoid.node_id_base', true)";

const HINT_CITUS: &str = "Leave chronoid.node_id unset on every node of a Citus formation (each then takes chronoid.node_id_base plus its group id), or give each node its own; docs/across-servers.md, \"Citus\".";

fn ask_formation(node: Node) -> Option<(String, String)> {
    let asks = match node.source {
        Source::Setting => true,
        Source::Citus { base, .. } => base != 0,
        Source::Unset => false,
    };
    let (true, Some(mine)) = (asks, node.id) else {
        return None;
    };
    let my_group = citus::local_group()?;
    for other in citus::other_nodes(my_group) {
        let name = format!(
            "the Citus node {}:{} (group {})",
            other.host, other.port, other.group
        );
        let row = match remote::first_row(&citus::conninfo_of(&other), ASK_CITUS, 2) {
            Ok(row) => row,
            Err(why) => {
                pgrx::warning!(
                    "chronoid: could not ask {name} for its node id, so it is not checked: {why}"
                );
                continue;
            }
        };
        // NULL: chronoid is not loaded there, so it mints no counter IDs.
        let Some(setting) = int_column(&row, 0) else {
            continue;
        };
        let base = int_column(&row, 1).unwrap_or(0).clamp(0, 1023) as u16;
        let Ok(theirs) = chronoid_formats::node_id::resolve(setting, Some(other.group), base)
        else {
            continue;
        };
        if theirs.id == Some(mine) {
            return Some((
                format!(
                    "this node's node id {mine} ({}, group {my_group}) is also the node id of {name} ({})",
                    identity::describe(node.source),
                    identity::describe(theirs.source)
                ),
                HINT_CITUS.into(),
            ));
        }
    }
    None
}

/// A peer's answer's column as an integer (`None`: NULL, or no number).
fn int_column(row: &[Option<String>], i: usize) -> Option<i32> {
    row.get(i)?.as_deref()?.trim().parse().ok()
}
