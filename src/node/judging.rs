//! One judging of one scope (the server, or a Citus database): what it
//! rests on (`Facts`, gathered by the peer worker), judged by the policy in
//! `chronoid_formats::node_judging` against what the ledger remembers and
//! the questions that failed, and the verdict word made of it.
//!
//! A subscription owned by a role that is not a superuser is not judged
//! (nor its publisher asked): only what a superuser configured can stop
//! minting. The peer worker logs it once.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::collections::HashMap;

use super::identity;
use crate::pg::subscriptions::Subscription;
use chronoid_formats::node_id::Node;
use chronoid_formats::node_judging::{
    self as policy, FormationNode, Holding, Judgement, Publisher,
};
use chronoid_formats::node_ledger::Ledger;
use chronoid_formats::node_verdict::{State, Verdict};

/// What one judging looks at.
pub struct Facts {
    pub node: Node,
    pub own: i32,
    /// The superuser-owned subscriptions of the server (every database's).
    pub subscriptions: Vec<Subscription>,
    /// This node's Citus group and the formation's other nodes, where this
    /// node's id is its own.
    pub formation: Option<(i32, Vec<FormationPeer>)>,
    /// A Citus worker's group, its coordinator's conninfo and address: the
    /// coordinator is asked which node holds the group.
    pub holding: Option<HoldingFacts>,
    /// Why this scope refuses whatever its peers say (a Citus group id
    /// that cannot be read): message and hint.
    pub unusable: Option<(String, String)>,
}

/// What a Citus worker asks its coordinator.
pub struct HoldingFacts {
    /// The database whose formation gives the group: each Citus database
    /// of a node is its own formation, and its coordinator says only of it.
    pub db: u32,
    pub group: i32,
    pub conninfo: String,
    pub coordinator: String,
    pub dbname: String,
    pub user: String,
}

/// Another node of the formation, as it is asked.
pub struct FormationPeer {
    pub key: String,
    pub conninfo: String,
    pub group: i32,
    pub name: String,
}

impl Facts {
    /// What the facts are, as one text: a judging whose summary differs
    /// from the last is a change (judged at once, and a refusal made on
    /// it confirmed by asking).
    pub fn summary(&self) -> String {
        let mut s = format!("{:?} {}", self.node.id, self.own);
        for sub in &self.subscriptions {
            s += &format!("|{} {} {} {}", sub.oid, sub.enabled, sub.name, key_of(sub));
        }
        if let Some((group, nodes)) = &self.formation {
            s += &format!("|group {group}");
            for n in nodes {
                s += &format!(" {} {}", n.key, n.group);
            }
        }
        if let Some(h) = &self.holding {
            s += &format!("|holding {} {}", h.group, h.coordinator);
        }
        if let Some((m, _)) = &self.unusable {
            s += &format!("|{m}");
        }
        s
    }
}

/// FNV-1a: stable across builds and Rust versions (the keys outlive the
/// library in `chronoid.peers`).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The ledger's key for a subscription's publisher: its oid and its
/// connection string, so that a subscription pointed at another server
/// (`ALTER SUBSCRIPTION ... CONNECTION`) has a publisher never heard.
pub fn key_of(sub: &Subscription) -> String {
    format!("subscription {} {:016x}", sub.oid, fnv1a(&sub.conninfo))
}

/// The ledger's key for what a worker's coordinator says of its group in
/// database `db` (the same node may read that group in another database,
/// of another formation, and hold it there).
pub fn holding_key(db: u32, group: i32) -> String {
    format!("citus holder of group {group} in database {db}")
}

/// The judgement of `facts` by what `ledger` remembers, `failed` saying
/// why each peer that could not be asked could not.
pub fn judge(facts: &Facts, ledger: &Ledger, failed: &HashMap<String, String>) -> Judgement {
    if let Some((message, hint)) = &facts.unusable {
        return Judgement::Refuse {
            message: message.clone(),
            hint: hint.clone(),
        };
    }
    let own = facts.own;
    let answer = |p: &chronoid_formats::node_ledger::Peer| policy::Answer {
        said: policy::Said::from_stored(p.node_id),
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
    if let Some(h) = &facts.holding {
        let said = said_to_me(ledger, h.db, h.group, own);
        found.push(policy::judge_holding(
            h.group,
            &h.coordinator,
            said.as_ref(),
            failed.get(&holding_key(h.db, h.group)).map(String::as_str),
        ));
    }
    if let Some(clash) = clash_known(own, ledger) {
        found.push(clash);
    }
    policy::strongest(&found)
}

/// Another server known to mint with this server's id (a clash one or two
/// servers away, which neither direct question sees; or a copy of this
/// server made active after it).
fn clash_known(own_id: i32, ledger: &Ledger) -> Option<Judgement> {
    let own = super::instance::own(own_id);
    let now = crate::pg::clock::now_ms();
    let k = ledger.clash(&own, now)?;
    let heard = now.saturating_sub(k.seen_ms) / 1000;
    Some(policy::known_clash(
        own.node_id,
        own.system,
        k.system,
        &k.name,
        heard,
    ))
}

/// What the coordinator last said of `group` to this very instance while
/// it had `own`: a copy (a standby promoted) carries its primary's ledger,
/// and must ask for itself.
pub fn said_to_me(ledger: &Ledger, db: u32, group: i32, own: i32) -> Option<Holding> {
    let me = me();
    ledger
        .remembered(&holding_key(db, group), own)
        .filter(|p| (p.system, p.since) == me)
        .and_then(|p| Holding::from_code(p.node_id, &p.name))
}

/// This instance: its system identifier and rank.
pub fn me() -> (u64, u64) {
    (super::instance::own_system(), super::instance::own_since())
}

/// The word and reason a judgement is published as, for `epoch`.
pub fn verdict_of(epoch: u64, facts: &Facts, judgement: &Judgement) -> (Verdict, String) {
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
    (v, reason)
}
