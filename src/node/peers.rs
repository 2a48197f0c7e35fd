//! The servers whose IDs meet this one's: those it replicates from (its
//! logical-replication subscriptions, in every database), and the other
//! nodes of its Citus formation (`formation.rs`). No two of them may mint
//! with one node id. Before this backend's first counter ID, again after
//! any subscription or this server's node id changes, and at most a minute
//! after the last judging (a peer may have changed its own id meanwhile),
//! each enabled subscription's publisher is judged by its `chronoid.node_id`:
//! as the peer worker (`watcher.rs`) heard it within 90 s, else asked over
//! one short connection (`src/pg/remote.rs`). A publisher with the same id,
//! either side with none, or two publishers with one id (fan-in) make every
//! counter generator here refuse (55000), naming the subscription and the
//! publisher; a refusal is made only on answers asked for then. In a
//! two-writer mesh each side subscribes to the other, so both refuse before
//! either's IDs reach the other.
//!
//! Each answer also says which servers the peer knows to mint near it, and
//! each question tells the peer who asks (`ledger.rs`): a server that
//! another server one hop further away shares an id with refuses too (a
//! chain, A ⇄ B ⇄ C with A and C on one id), and so does the older of two
//! instances of one cluster (a copy made by pg_basebackup) on one id.
//!
//! A peer that cannot be asked is judged by its last answer, if it gave one
//! while this server had the id it has now (a WARNING says so); otherwise
//! this server refuses until it can ask: two servers cut apart and given
//! one id must not both mint. A refusal is judged again after 5 s.
//! Subscriptions Citus makes for its own shard moves (`citus_…`) are
//! between the nodes of one formation, whose ids `identity.rs` keeps apart.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::cell::{Cell, RefCell};

use pgrx::pg_sys;
use pgrx::PgSqlErrorCode;

use super::answers::{self, answered_or_remembered, int_column, record, Asked, NO_CHRONOID};
use super::{citus, formation, identity, ledger};
use crate::pg::error::error_with_hint;
use crate::pg::{remote, subscriptions};
use chronoid_formats::clock::Clock;
use chronoid_formats::node_id::{Node, Source, UNSET};
use chronoid_formats::node_ledger::Ledger;

struct Checked {
    /// The node id (and source) the verdict was reached for.
    node: Cell<Option<Node>>,
    /// Set by a subscription's change, in this backend.
    stale: Cell<bool>,
    /// The Citus formation's generation the verdict was reached for.
    formation: Cell<u64>,
    /// When (unix ms) the peers were last asked.
    asked_at: Cell<u64>,
    /// When (unix ms) the ledger was last looked at between judgings.
    looked_at: Cell<u64>,
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
    looked_at: Cell::new(0),
    callback_registered: Cell::new(false),
    refusal: RefCell::new(None),
};

/// Refuses (55000) if a server this one replicates from mints with this
/// server's node id, or either has none.
pub fn refuse_shared_node_id(function: &str, node: Node) {
    // A backend reads the configuration only between statements: one that
    // runs on (a batch, a procedure) would mint with an id the server has
    // given up, and a peer may have taken.
    let mine = identity::node_id_set();
    // SAFETY: a flag this backend's SIGHUP handler sets: a reload this
    // statement has not read (a backend that read it is not behind the
    // worker, which may not have read it yet). Read first: nearly every
    // call has none, and then needs no shared read.
    let reload_unread = unsafe { pg_sys::ConfigReloadPending } != 0;
    if let Some(now_set) = reload_unread
        .then(|| ledger::setting_changed_from(mine))
        .flatten()
    {
        error_with_hint(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!(
                "{function} refuses: chronoid.node_id was changed from {mine} to {now_set} by a reload while this statement ran, and a statement keeps the configuration it began with"
            ),
            "Run the statement again: a new statement takes the new node id.",
        );
    }
    let now = crate::pg::clock::BackendClock.now_ms();
    // Between judgings, what the peer worker learnt (a copy of this server
    // promoted elsewhere, a server two hops away) is looked at every
    // second: a clash found sends the backend to judge at once.
    if CHECKED.refusal.borrow().is_none()
        && now.abs_diff(CHECKED.looked_at.get()) > LOOK_AGAIN_AFTER_MS
    {
        CHECKED.looked_at.set(now);
        if clash_known(node).is_some() {
            CHECKED.stale.set(true);
        }
    }
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
        let judge = |trust_heard: bool| {
            ask_publishers(node, trust_heard)
                .or_else(|| formation::ask_formation(node))
                .or_else(|| clash_known(node))
        };
        // What the peer worker heard lately may be up to a round old: a
        // refusal is made only on answers asked for now.
        let refusal = judge(true).and_then(|_| judge(false));
        if refusal.is_some() {
            // Asked again soon: the peer may be back, or given another id.
            CHECKED
                .asked_at
                .set(now.saturating_sub(ASK_AGAIN_AFTER_MS - ASK_AGAIN_AFTER_REFUSAL_MS));
        }
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

/// How long a publisher's answer the peer worker recorded stands for a
/// backend without asking again: the worker asks every 15 s, and writes
/// an unchanged answer's time at most once a minute.
const TRUST_HEARD_FOR_MS: u64 = 90_000;

/// How long a verdict stands without a change seen here: a peer's own
/// change of node id is seen by this backend within it.
const ASK_AGAIN_AFTER_MS: u64 = 60_000;

const ASK: &str = "SELECT current_setting('chronoid.node_id', true), \
    coalesce(nullif(current_setting('cluster_name'), ''), coalesce(inet_server_addr()::text, 'a local socket') || ' port ' || current_setting('port')), \
    current_setting('chronoid.node_ids_seen', true)";

const HINT: &str = "Give every server whose IDs meet its own chronoid.node_id (0..1023) in postgresql.conf and reload; docs/across-servers.md, \"Replication meshes\".";

const HINT_UNREACHABLE: &str = "Bring the publisher up (this server asks again within seconds). If this server's node id was changed while the publisher is out of reach, change it back until the publisher can be asked; a publisher that has never answered may have its subscription disabled meanwhile (ALTER SUBSCRIPTION ... DISABLE). docs/across-servers.md, \"Partitions\".";

const HINT_DISABLED: &str = "Enable the subscription once its publisher is in reach (this server asks it then), change this server's node id back, or drop the subscription if its rows are not wanted; docs/across-servers.md, \"Partitions\".";

/// How often, between judgings, the ledger is looked at for a clash.
const LOOK_AGAIN_AFTER_MS: u64 = 1_000;

/// How long a refusal stands before the peers are asked again: a peer
/// back in reach, or one given another id, is seen within it.
const ASK_AGAIN_AFTER_REFUSAL_MS: u64 = 5_000;

/// This server's node id as the ledger keeps it (-1: none).
fn own_id(node: Node) -> i32 {
    match (node.source, node.id) {
        (Source::Unset, _) | (_, None) => UNSET,
        (_, Some(id)) => i32::from(id),
    }
}

/// The enabled subscriptions of every database, Citus's own aside.
pub fn asked_subscriptions() -> Vec<subscriptions::Subscription> {
    mesh_subscriptions()
        .into_iter()
        .filter(|sub| sub.enabled)
        .collect()
}

/// Every subscription of every database, enabled or not, Citus's own aside.
fn mesh_subscriptions() -> Vec<subscriptions::Subscription> {
    subscriptions::all()
        .into_iter()
        .filter(|sub| !sub.name.starts_with("citus_"))
        .collect()
}

/// The ledger's key for a subscription's publisher.
fn key_of(sub: &subscriptions::Subscription) -> String {
    format!("subscription {}", sub.oid)
}

/// Asks the publisher of each enabled subscription (of database `only_db`,
/// where given) that `trusted` does not pass, and records the answers,
/// forgetting the publishers of subscriptions gone (a disabled one's is
/// kept: its rows arrive when it is enabled): every subscription (Citus's
/// own aside, enabled or not), the answers, and the ledger as it now is.
fn ask_and_record_publishers(
    own: i32,
    appname: &str,
    now: u64,
    only_db: Option<u32>,
    trusted: impl Fn(&str) -> bool,
) -> (Vec<subscriptions::Subscription>, Asked, Ledger) {
    let all = mesh_subscriptions();
    let asked: Asked = all
        .iter()
        .filter(|sub| sub.enabled && only_db.is_none_or(|db| db == sub.dboid))
        .map(|sub| (key_of(sub), sub))
        .filter(|(key, _)| !trusted(key))
        .map(|(key, sub)| (key, remote::first_row(&sub.conninfo, appname, ASK, 3)))
        .collect();
    let ledger = record(&asked, own, true, now, |p| {
        !p.key.starts_with("subscription ") || all.iter().any(|sub| key_of(sub) == p.key)
    });
    (all, asked, ledger)
}

/// One round of this server's peer worker (`src/node/watcher.rs`), in
/// database `db`: asks the publishers of its subscriptions and records
/// what they say, so that a server that mints nothing itself (a relay
/// between two that do) still knows, and tells, the ids of the servers it
/// receives rows from.
pub fn watch(db: u32) {
    // Only the setting: a worker reads no database's Citus catalog.
    let own = identity::node_id_set();
    let appname = if own == UNSET {
        // Nothing to tell: a backend of this server tells its id when it mints.
        "chronoid".to_owned()
    } else {
        ledger::appname(own)
    };
    let (all, asked, _) =
        ask_and_record_publishers(own, &appname, ledger::now_ms(), Some(db), |_| false);
    for (key, answer) in &asked {
        if let Err(why) = answer {
            let sub = all.iter().find(|sub| key_of(sub) == *key);
            // As an apply worker logs a publisher it cannot reach.
            pgrx::log!(
                "chronoid: could not ask the publisher of subscription \"{}\" for its node id: {why}",
                sub.map_or("?", |sub| sub.name.as_str())
            );
        }
    }
}

fn ask_publishers(node: Node, trust_heard: bool) -> Option<(String, String)> {
    let own = own_id(node);
    let now = ledger::now_ms();
    // What the peer worker heard lately stands without asking again (where
    // `trust_heard`, and only to let this server mint): the worker asks
    // every publisher every few seconds, so a backend asks only a
    // publisher the worker has not heard (a new subscription, a worker
    // behind), and a server whose id is not its setting's (the worker
    // knows only the setting, and tells only that). A peer that changed
    // its id since the worker asked checked this server as it did.
    let heard = ledger::read();
    let trusted = |key: &str| {
        trust_heard
            && node.source == Source::Setting
            && heard
                .remembered(key, own)
                .is_some_and(|p| now.saturating_sub(p.seen_ms) < TRUST_HEARD_FOR_MS)
    };
    let (all, asked, ledger) =
        ask_and_record_publishers(own, &ledger::appname(own), now, None, trusted);
    let mut seen: Vec<(i32, String)> = Vec::new();
    for sub in all.iter().filter(|sub| sub.enabled) {
        let key = key_of(sub);
        let peer = format!("the publisher of subscription \"{}\"", sub.name);
        let answer = asked.iter().find(|(k, _)| *k == key).map(|(_, a)| a);
        let (theirs, publisher) = match answer {
            // Heard lately by the peer worker (above).
            None => match heard.remembered(&key, own).expect("trusted") {
                p if p.node_id == NO_CHRONOID => continue,
                p => (p.node_id, format!("{peer} ({})", p.name)),
            },
            Some(answer) => match answered_or_remembered(
                &ledger,
                &key,
                answer,
                &peer,
                own,
                now,
                HINT_UNREACHABLE,
            ) {
                Err(refusal) => return Some(refusal),
                // NULL: chronoid is not loaded there, so it mints no counter IDs.
                Ok(Some(row)) => match int_column(&row, 0) {
                    Some(theirs) => (
                        theirs,
                        format!("{peer} ({})", row[1].as_deref().unwrap_or("?")),
                    ),
                    None => continue,
                },
                Ok(None) => match ledger.remembered(&key, own).expect("remembered") {
                    p if p.node_id == NO_CHRONOID => continue,
                    p => (
                        p.node_id,
                        format!("{peer} (out of reach; as it last answered)"),
                    ),
                },
            },
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
        let refusal = match (own, theirs) {
            (UNSET, _) => format!(
                "this server has no node id (chronoid.node_id is not set), and it receives rows from {publisher}"
            ),
            (_, UNSET) => format!(
                "{publisher} has no node id (chronoid.node_id is not set there), and this server receives its rows"
            ),
            (id, theirs) if id == theirs => format!(
                "this server's node id {id} is also the node id of {publisher}, whose rows it receives"
            ),
            _ => continue,
        };
        return Some((refusal, HINT.into()));
    }
    // A disabled subscription is not asked (its publisher may be out of
    // reach: that is why it was disabled), but its slot keeps the
    // publisher's rows for when it is enabled: what the publisher last
    // answered still stands against this server's id, and an id changed
    // since cannot be checked.
    for sub in all.iter().filter(|sub| !sub.enabled) {
        let key = key_of(sub);
        let Some(p) = ledger.peers.iter().find(|p| p.key == key) else {
            continue;
        };
        if p.node_id == NO_CHRONOID {
            continue;
        }
        let publisher = format!(
            "the publisher of the disabled subscription \"{}\" ({})",
            sub.name, p.name
        );
        if p.own_id != own {
            return Some((
                format!(
                    "{publisher} last answered while this server had {}; its rows arrive when the subscription is enabled, and it cannot be asked whether it has taken this server's {} since",
                    answers::as_own(p.own_id),
                    answers::as_own(own)
                ),
                HINT_DISABLED.into(),
            ));
        }
        if own != UNSET && p.node_id == own {
            return Some((
                format!("this server's node id {own} is also the node id of {publisher}"),
                HINT.into(),
            ));
        }
    }
    None
}

/// Another server known (from the peers' answers, or because it asked
/// this one) to mint with this server's id: a clash one or two servers
/// away, which neither direct question sees; or a copy of this server
/// (pg_basebackup, a standby promoted on its own) started after it.
fn clash_known(node: Node) -> Option<(String, String)> {
    let own = ledger::own(own_id(node));
    let now = ledger::now_ms();
    let k = ledger::read().clash(&own, now)?;
    let heard = now.saturating_sub(k.seen_ms) / 1000;
    let message = if k.system == own.system {
        format!(
            "a copy of this server (its system identifier {}, made active after this one) mints with this server's node id {}: \"{}\", which replicates with this server or with a server it replicates with (last heard of {heard} s ago)",
            k.system, own.node_id, k.name
        )
    } else {
        format!(
            "this server's node id {} is also the node id of the server \"{}\" (system identifier {}), which replicates with this server or with a server it replicates with (last heard of {heard} s ago)",
            own.node_id, k.name, k.system
        )
    };
    Some((message, HINT.into()))
}
