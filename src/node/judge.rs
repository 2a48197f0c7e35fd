//! One judging of one database, in a judge of the peer worker's
//! (`watcher.rs` starts one per database, connected to it): the node id in
//! effect there, the peers whose IDs meet this server's (the publishers of
//! its superuser-owned subscriptions, the other nodes of its Citus
//! formation where its id is its own), judged by the policy in
//! `chronoid_formats::node_judging`, and the verdict published for callers
//! (`verdict.rs`).
//!
//! First from what the ledger remembers, at once, so that a change a
//! caller waits on is judged without a question to anyone; then, where a
//! peer was never heard under this server's id (or a round is due), by
//! asking (`asking.rs`), and again. A peer that never answers costs this
//! judge 5 s, never a caller.
//!
//! A subscription owned by a role that is not a superuser is not judged
//! (nor its publisher asked): only what a superuser configured can stop
//! minting. The peer worker logs it once (`watcher.rs`).
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::collections::HashMap;

use pgrx::pg_sys;

use super::asking::{self, Answer};
use super::{citus, identity, ledger, verdict};
use crate::pg::subscriptions::{self, Subscription};
use chronoid_formats::node_id::{Node, Source, UNSET};
use chronoid_formats::node_judging::{
    self as policy, FormationNode, Holding, Judgement, Publisher, HINT,
};
use chronoid_formats::node_ledger::Ledger;
use chronoid_formats::node_verdict::{State, Verdict};

/// What one judging looks at, read from the catalogs.
struct Facts {
    node: Node,
    own: i32,
    /// The superuser-owned subscriptions of the server (every database's).
    subscriptions: Vec<Subscription>,
    /// This node's Citus group and the formation's other nodes, where this
    /// node's id is its own.
    formation: Option<(i32, Vec<FormationPeer>)>,
    /// A Citus worker's group, its coordinator's conninfo and address: the
    /// coordinator is asked which node holds the group.
    holding: Option<(i32, String, String)>,
    /// What this judging rests on (`configuration::fingerprint`).
    fingerprint: u64,
}

/// Another node of the formation, as the judge asks it.
struct FormationPeer {
    key: String,
    conninfo: String,
    group: i32,
    name: String,
}

/// The ledger's key for what a worker's coordinator says of its group.
fn holding_key(group: i32) -> String {
    format!("citus holder of group {group}")
}

/// The ledger's key for a subscription's publisher: its oid and its
/// connection string, so that a subscription pointed at another server
/// (`ALTER SUBSCRIPTION ... CONNECTION`) has a publisher never heard.
fn key_of(sub: &Subscription) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    sub.conninfo.hash(&mut h);
    format!("subscription {} {:016x}", sub.oid, h.finish())
}

/// The subscriptions a judge weighs: those a superuser owns.
pub fn judged_subscriptions() -> Vec<Subscription> {
    subscriptions::all()
        .into_iter()
        .filter(|s| subscriptions::owned_by_superuser(s.owner))
        .collect()
}

/// The node id in effect here, or the error a caller would get.
fn node_here() -> Result<Node, String> {
    pgrx::PgTryBuilder::new(|| Ok(identity::node_in_effect("chronoid's peer worker")))
        .catch_others(|e| match e {
            pgrx::pg_sys::panic::CaughtError::PostgresError(r)
            | pgrx::pg_sys::panic::CaughtError::ErrorReport(r) => Err(r.message().to_owned()),
            other => other.rethrow(),
        })
        .execute()
}

fn gather(node: Node) -> Facts {
    let own = node.id.map_or(UNSET, i32::from);
    let own_id_asks = match node.source {
        Source::Setting => true,
        Source::Citus { base, .. } => base != 0,
        Source::Unset => false,
    };
    let formation = match (own_id_asks, citus::local_group()) {
        (true, Some(group)) => Some((
            group,
            citus::other_nodes(group)
                .iter()
                .map(|n| FormationPeer {
                    key: format!("citus node {}:{}", n.host, n.port),
                    conninfo: citus::conninfo_of(n),
                    group: n.group,
                    name: format!("the Citus node {}:{} (group {})", n.host, n.port, n.group),
                })
                .collect(),
        )),
        _ => None,
    };
    let holding = citus::local_group().and_then(|group| {
        let c = citus::coordinator(group)?;
        Some((
            group,
            citus::conninfo_of(&c),
            format!("{}:{}", c.host, c.port),
        ))
    });
    Facts {
        node,
        own,
        subscriptions: judged_subscriptions(),
        formation,
        holding,
        fingerprint: super::configuration::fingerprint(),
    }
}

fn judge(facts: &Facts, ledger: &Ledger, failed: &HashMap<String, String>) -> Judgement {
    let own = facts.own;
    let answer = |p: &chronoid_formats::node_ledger::Peer| policy::Answer {
        node_id: p.node_id,
        name: p.name.clone(),
    };
    let publishers: Vec<Publisher> = facts
        .subscriptions
        .iter()
        .map(|sub| {
            let key = key_of(sub);
            Publisher {
                subscription: sub.name.clone(),
                enabled: sub.enabled,
                remembered: ledger.remembered(&key, own).map(answer),
                last: ledger
                    .peers
                    .iter()
                    .find(|p| p.key == key)
                    .map(|p| (answer(p), p.own_id)),
                failed: failed.get(&key).cloned(),
            }
        })
        .collect();
    let mut found = vec![policy::judge_publishers(own, &publishers)];
    if let Some((group, nodes)) = &facts.formation {
        let nodes: Vec<FormationNode> = nodes
            .iter()
            .map(|n| FormationNode {
                name: n.name.clone(),
                remembered: ledger.remembered(&n.key, own).map(answer),
                failed: failed.get(&n.key).cloned(),
            })
            .collect();
        let me = format!("{}, group {group}", identity::describe(facts.node.source));
        found.push(policy::judge_formation(own, &me, &nodes));
    }
    if let Some((group, _, coordinator)) = &facts.holding {
        let said = said_to_me(ledger, *group, own);
        found.push(policy::judge_holding(
            *group,
            coordinator,
            said.as_ref(),
            failed.get(&holding_key(*group)).map(String::as_str),
        ));
    }
    if let Some(message) = clash_known(own, ledger) {
        found.push(Judgement::Refuse {
            message,
            hint: HINT.into(),
        });
    }
    let refused = found.iter().find(|j| matches!(j, Judgement::Refuse { .. }));
    let waiting = found.iter().find(|j| matches!(j, Judgement::Wait(_)));
    refused.or(waiting).cloned().unwrap_or(Judgement::Mint)
}

/// Another server known (from the peers' answers, or because it asked
/// this one) to mint with this server's id: a clash one or two servers
/// away, which neither direct question sees; or a copy of this server
/// (pg_basebackup, a standby promoted on its own) made active after it.
fn clash_known(own_id: i32, ledger: &Ledger) -> Option<String> {
    let own = super::instance::own(own_id);
    let now = ledger::now_ms();
    let k = ledger.clash(&own, now)?;
    let heard = now.saturating_sub(k.seen_ms) / 1000;
    Some(if k.system == own.system {
        format!(
            "a copy of this server (its system identifier {}, made active after this one) mints with this server's node id {}: \"{}\", which replicates with this server or with a server it replicates with (last heard of {heard} s ago)",
            k.system, own.node_id, k.name
        )
    } else {
        format!(
            "this server's node id {} is also the node id of the server \"{}\" (system identifier {}), which replicates with this server or with a server it replicates with (last heard of {heard} s ago)",
            own.node_id, k.name, k.system
        )
    })
}

fn publish(db: u32, epoch: u64, facts: &Facts, judgement: &Judgement) {
    let (state, reason) = match judgement {
        Judgement::Mint => (State::Allowed, String::new()),
        Judgement::Wait(what) => (State::Pending, what.clone()),
        Judgement::Refuse { message, hint } => (State::Refused, format!("{message}\0{hint}")),
    };
    let v = Verdict {
        epoch: Verdict::epoch_of(epoch),
        state,
        node: facts.node.id,
    };
    verdict::publish(db, v, &reason, ledger::now_ms(), facts.fingerprint);
}

/// Judges database `db` (this process is connected to it) and publishes
/// the verdict; `full`: asks every peer, not only those never heard under
/// this server's id. Runs again while the configuration moves on.
pub fn judge_database(db: u32, mut full: bool) {
    let mut failed: HashMap<String, String> = HashMap::new();
    let mut first = true;
    loop {
        let epoch = verdict::epoch();
        // SAFETY: a transaction per judging, so that each reads the
        // catalogs as they are now.
        unsafe { pg_sys::StartTransactionCommand() };
        let facts = match node_here() {
            Ok(node) => gather(node),
            Err(why) => {
                publish_unreadable(db, epoch, why);
                // SAFETY: the transaction started above, aborted after the error.
                unsafe { pg_sys::AbortCurrentTransaction() };
                return;
            }
        };
        // Past the first judging, every answer was asked for moments ago.
        if first {
            full |= publish_first(db, epoch, &facts, &failed);
        }
        // The ledger with the answers, even where it could not be written.
        let ledger = ask_peers(&facts, full, &mut failed);
        // Published whatever was asked: a refusal waiting to be confirmed
        // by peers that are not asked (a disabled subscription's) stands.
        publish(db, epoch, &facts, &judge(&facts, &ledger, &failed));
        // SAFETY: the transaction started above.
        unsafe { pg_sys::CommitTransactionCommand() };
        if verdict::epoch() == epoch {
            return;
        }
        full = false;
        first = false;
    }
}

/// What a judge publishes first (`publish_first`), from what the server
/// remembers, with no question asked, published by a caller while no
/// judge can start: a verdict to mint only (a refusal is confirmed by
/// asking, which a judge does). Reads the catalogs and `chronoid.peers`;
/// connects nowhere.
pub fn judge_without_asking(db: u32) {
    let epoch = verdict::epoch();
    let Ok(node) = node_here() else { return };
    let facts = gather(node);
    if judge(&facts, &ledger::read(), &HashMap::new()) == Judgement::Mint {
        publish(db, epoch, &facts, &Judgement::Mint);
    }
}

/// The node id in effect cannot be read here: callers raise the same
/// error themselves, before they read a verdict; published only so that
/// the worker does not start a judge again at once.
fn publish_unreadable(db: u32, epoch: u64, why: String) {
    let facts = Facts {
        node: Node {
            id: None,
            source: Source::Unset,
        },
        own: UNSET,
        subscriptions: Vec::new(),
        formation: None,
        holding: None,
        fingerprint: 0,
    };
    let refusal = Judgement::Refuse {
        message: why,
        hint: String::new(),
    };
    publish(db, epoch, &facts, &refusal);
}

/// Publishes what the ledger remembers, so that callers mint at once; a
/// refusal is made only on answers asked for now (a remembered answer may
/// be a round old: the peer may have changed its id since), so callers
/// wait while every peer is asked: `true` then.
fn publish_first(db: u32, epoch: u64, facts: &Facts, failed: &HashMap<String, String>) -> bool {
    match judge(facts, &ledger::read(), failed) {
        Judgement::Refuse { message, .. } => {
            // A refusal already published for this epoch stands while the
            // peers are asked again.
            let standing = refused_for(db, epoch) && verdict::reason_of(db).0 == message;
            if !standing {
                let wait = format!("asking the peers again, to confirm: {message}");
                publish(db, epoch, facts, &Judgement::Wait(wait));
            }
            true
        }
        // A refusal standing for this epoch is not turned into a wait by a
        // judge that has yet to ask again a peer that never answered.
        Judgement::Wait(_) if refused_for(db, epoch) => false,
        judgement => {
            publish(db, epoch, facts, &judgement);
            false
        }
    }
}

/// What the coordinator last said of `group` to this very instance while
/// it had `own`: a copy (a standby promoted) carries its primary's ledger,
/// and must ask for itself.
fn said_to_me(ledger: &Ledger, group: i32, own: i32) -> Option<Holding> {
    let me = (super::instance::own_system(), super::instance::own_since());
    ledger
        .remembered(&holding_key(group), own)
        .filter(|p| (p.system, p.since) == me)
        .and_then(|p| Holding::from_code(p.node_id, &p.name))
}

/// Whether a refusal stands on `db` for `epoch`.
fn refused_for(db: u32, epoch: u64) -> bool {
    verdict::word_of(db)
        .is_some_and(|v| v.state == State::Refused && v.epoch == Verdict::epoch_of(epoch))
}

/// Asks the peers never heard under this server's present id (every peer
/// where `full`), and records their answers; `failed` keeps why each peer
/// that could not be asked could not.
fn ask_peers(facts: &Facts, full: bool, failed: &mut HashMap<String, String>) -> Ledger {
    let ledger = ledger::read();
    // Not a peer this judge could not ask moments ago: it is asked again
    // at the next full round, not at every change.
    let due = |key: &str| {
        full || (ledger.remembered(key, facts.own).is_none() && !failed.contains_key(key))
    };
    // A disabled subscription's publisher too: its slot keeps its rows for
    // when the subscription is enabled, so an id it takes meanwhile is a
    // clash now; out of reach, it is judged by its last answer.
    let mut to_ask: Vec<(String, String, Option<i32>)> = facts
        .subscriptions
        .iter()
        .map(|s| (key_of(s), s.conninfo.clone(), None))
        .collect();
    if let Some((_, nodes)) = &facts.formation {
        to_ask.extend(
            nodes
                .iter()
                .map(|n| (n.key.clone(), n.conninfo.clone(), Some(n.group))),
        );
    }
    to_ask.retain(|(key, _, _)| due(key));
    let holding = facts.holding.as_ref().filter(|(group, _, _)| {
        let me = (super::instance::own_system(), super::instance::own_since());
        full || !failed.contains_key(&holding_key(*group))
            && ledger
                .remembered(&holding_key(*group), facts.own)
                .is_none_or(|p| (p.system, p.since) != me)
    });
    if to_ask.is_empty() && holding.is_none() {
        return ledger;
    }
    let now = ledger::now_ms();
    let appname = super::instance::appname(facts.own);
    let mut answers: Vec<(String, Answer)> = Vec::new();
    let mut formation_answers: Vec<(String, Answer)> = Vec::new();
    for (key, conninfo, group) in &to_ask {
        // A formation's nodes are all asked directly, and told nothing of
        // who asks: they learn nothing of one another's ids for the mesh
        // check.
        let appname = if group.is_some() {
            "chronoid"
        } else {
            appname.as_str()
        };
        match asking::ask(conninfo, appname, *group, now) {
            Ok(a) if group.is_some() => formation_answers.push((key.clone(), a)),
            Ok(a) => answers.push((key.clone(), a)),
            Err(why) => {
                let sub = facts.subscriptions.iter().find(|s| key_of(s) == *key);
                let name = sub.map_or_else(
                    || format!("the {}", key.replace("citus", "Citus")),
                    |s| format!("the publisher of subscription \"{}\"", s.name),
                );
                // As an apply worker logs a publisher it cannot reach (a
                // disabled subscription's may be gone for good: not logged).
                if sub.is_none_or(|s| s.enabled) {
                    pgrx::log!("chronoid: could not ask {name} for its node id: {why}");
                }
                failed.insert(key.clone(), why);
            }
        }
    }
    if let Some((group, conninfo, coordinator)) = holding {
        let key = holding_key(*group);
        let me = (super::instance::own_system(), super::instance::own_since());
        match asking::ask_holding(conninfo, *group, me, now) {
            Ok(h) => {
                let before = said_to_me(&ledger, *group, facts.own);
                let h = h.after(before.as_ref());
                // Recorded as said to this instance (its system identifier
                // and rank in the entry's own columns).
                let answer = Answer {
                    node_id: h.code(),
                    name: h.holder().to_owned(),
                    known: vec![super::instance::own(facts.own)],
                };
                formation_answers.push((key, answer));
            }
            Err(why) => {
                pgrx::log!("chronoid: could not ask the Citus coordinator {coordinator} which node holds group {group}: {why}");
                failed.insert(key, why);
            }
        }
    }
    for (key, _) in answers.iter().chain(&formation_answers) {
        failed.remove(key);
    }
    let subs = &facts.subscriptions;
    let all: Vec<(String, Answer, bool)> = answers
        .into_iter()
        .map(|(k, a)| (k, a, true))
        .chain(formation_answers.into_iter().map(|(k, a)| (k, a, false)))
        .collect();
    asking::record(&all, facts.own, now, |p| {
        !p.key.starts_with("subscription ") || subs.iter().any(|s| key_of(s) == p.key)
    })
}
