//! The network step: one question to a peer (a subscription's publisher,
//! another node of the Citus formation) for its node id and the servers it
//! knows, asked only by the peer worker's judges (`judge.rs`), never on a
//! caller's path, and its answer recorded in the ledger (`ledger.rs`).
//!
//! Only chronoid answers for chronoid: the answer is read from
//! `pg_settings`, where a setting chronoid defines has its own context
//! (`chronoid.node_ids_seen` is `internal`) and a placeholder (a line in a
//! postgresql.conf where chronoid is not loaded) is not listed at all. An
//! answer is at most 256 KiB and every line is checked
//! (`chronoid_formats::node_ledger::read_answer`); anything else is no
//! answer.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use super::{citus, identity, ledger};
use crate::pg::remote;
use chronoid_formats::node_id::{resolve, Node, UNSET};
use chronoid_formats::node_judging::{Holding, NO_CHRONOID};
use chronoid_formats::node_ledger::{read_answer, Known, Ledger, Peer, MAX_ANSWER_BYTES};

/// The peer's `chronoid.node_id`, `chronoid.node_id_base` and what it
/// answers (itself first), one byte past the bound at most.
const ASK: &str = "SELECT s.setting, b.setting, left(k.setting, 262145) \
    FROM pg_catalog.pg_settings k \
    LEFT JOIN pg_catalog.pg_settings s ON s.name = 'chronoid.node_id' AND s.context = 'sighup' \
    LEFT JOIN pg_catalog.pg_settings b ON b.name = 'chronoid.node_id_base' AND b.context = 'sighup' \
    WHERE k.name = 'chronoid.node_ids_seen' AND k.context = 'internal'";

/// A peer's answer.
pub struct Answer {
    /// Its node id in effect (-1: none; `NO_CHRONOID`).
    pub node_id: i32,
    /// Where its id comes from (a Citus node), or how it names itself.
    pub name: String,
    /// What it said of itself and of the servers it knows.
    pub known: Vec<Known>,
}

/// Asks the server `conninfo` names. `Ok` with `NO_CHRONOID` where chronoid
/// is not loaded there; `Err` says why there is no answer. `group`: the
/// peer's Citus group, where it is a node of this server's formation (its
/// id is then resolved as it resolves it, and its source named).
pub fn ask(conninfo: &str, appname: &str, group: Option<i32>, now: u64) -> Result<Answer, String> {
    let Some(row) = remote::first_row(conninfo, appname, ASK, 3)? else {
        return Ok(Answer {
            node_id: NO_CHRONOID,
            name: String::new(),
            known: Vec::new(),
        });
    };
    let text = row[2].clone().unwrap_or_default();
    if text.len() > MAX_ANSWER_BYTES {
        return Err(format!("an answer over {} KiB", MAX_ANSWER_BYTES / 1024));
    }
    let known = read_answer(&text, now)?;
    let itself = known.first().ok_or("an empty answer")?;
    let int = |i: usize| row[i].as_deref().and_then(|t| t.trim().parse::<i32>().ok());
    let (node_id, name) = match group {
        None => (itself.node_id, itself.name.clone()),
        Some(group) => {
            let base = int(1).unwrap_or(0).clamp(0, 1023) as u16;
            match resolve(int(0).unwrap_or(UNSET), Some(group), base) {
                Ok(n @ Node { id: Some(id), .. }) => (i32::from(id), identity::describe(n.source)),
                _ => (UNSET, String::new()),
            }
        }
    };
    Ok(Answer {
        node_id,
        name,
        known,
    })
}

/// Asks the formation's coordinator (`conninfo`) which node it counts as
/// group `group`'s, then that node who it is: whether it is this server
/// (`me`: its system identifier and rank), a copy of it, or another.
pub fn ask_holding(
    conninfo: &str,
    group: i32,
    me: (u64, u64),
    now: u64,
) -> Result<Holding, String> {
    let query = format!(
        "SELECT nodename, nodeport::text FROM pg_catalog.pg_dist_node \
         WHERE groupid = {group} AND isactive AND noderole = 'primary' ORDER BY nodeid LIMIT 1"
    );
    let Some(row) = remote::first_row(conninfo, "chronoid", &query, 2)? else {
        return Ok(Holding::NotListed);
    };
    let (Some(host), Some(port)) = (
        row[0].clone(),
        row[1].as_deref().and_then(|p| p.parse().ok()),
    ) else {
        return Err("an answer that is not a node".into());
    };
    let node = citus::OtherNode { group, host, port };
    let holder = format!("{}:{}", node.host, node.port);
    // Not an error of asking the coordinator: what it said stands, and the
    // judge decides what a node it lists and this one cannot ask means.
    let answer = match ask(&citus::conninfo_of(&node), "chronoid", None, now) {
        Ok(answer) => answer,
        Err(why) => {
            pgrx::log!("chronoid: could not ask {holder}, the node the Citus coordinator lists for group {group}, who it is: {why}");
            return Ok(Holding::Unconfirmed { holder });
        }
    };
    let itself = answer.known.first();
    Ok(match itself.map(|k| (k.system, k.since)) {
        Some(them) if them == me => Holding::Holds { holder },
        them => Holding::Another {
            holder,
            copy: them.is_some_and(|(system, _)| system == me.0),
        },
    })
}

/// Records answers (by the ledger's key of each peer) asked while this
/// server had `own`, what each knows learnt where its flag says (a Citus
/// node's is not: the formation's ids are all asked directly); forgets the
/// peers `keep` says are gone. The ledger as it now is (with the answers,
/// even where the file could not be written).
pub fn record(
    answers: &[(String, Answer, bool)],
    own: i32,
    now: u64,
    keep: impl Fn(&Peer) -> bool,
) -> Ledger {
    if answers.is_empty() {
        let ledger = ledger::read();
        if ledger.peers.iter().all(&keep) {
            return ledger;
        }
    }
    // Itself, as its peers pass it on; a copy of it (another since) is kept.
    let me = (super::instance::own_system(), super::instance::own_since());
    ledger::update(|l| {
        let mut changed = l.keep_peers(&keep);
        for (key, answer, learn) in answers {
            let learn = *learn;
            let itself = answer.known.first();
            changed |= l.note_peer(Peer {
                key: key.clone(),
                system: itself.map_or(0, |k| k.system),
                since: itself.map_or(0, |k| k.since),
                node_id: answer.node_id,
                own_id: own,
                seen_ms: now,
                pass_on: learn,
                name: if answer.name.is_empty() {
                    key.clone()
                } else {
                    answer.name.clone()
                },
            });
            // What it knows, not itself: it is its peer entry, passed on
            // while the subscription is there and forgotten with it.
            if learn {
                changed |= l.note_known_all(
                    answer
                        .known
                        .iter()
                        .skip(1)
                        .filter(|k| (k.system, k.since) != me)
                        .cloned(),
                );
            }
        }
        changed
    })
    .0
}
