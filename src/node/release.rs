//! A Citus group handed over before its new node's first ID (the policy is
//! `chronoid_formats::node_handover::next_holder`):
//!
//! - **the coordinator** remembers, per Citus database and group, the node
//!   it confirmed as the group's holder (`chronoid.peers`, so a restart
//!   keeps it). When its peer worker reads a formation that lists another
//!   node for a group, or none (`citus_update_node`, `citus_remove_node`,
//!   `citus_add_node(…, groupid => …)`), it tells the confirmed holder to
//!   stop at once, asking again every second. Once that node has stopped,
//!   or cannot be reached (taken for down), the listed node is confirmed;
//! - **a node the coordinator tells** (a superuser's connection to the
//!   database, `SHOW chronoid.handover`) records it as the coordinator's
//!   word on its group (`chronoid.peers`), marks its database in shared
//!   memory and moves the epoch on, so that every caller there refuses
//!   before it answers; only a later answer of the coordinator that it
//!   holds the group lifts it;
//! - **a node asking its coordinator** who holds its group reads the
//!   confirmed holder beside the listed one (`asking.rs`): while they
//!   differ it waits (`Holding::Pending`).
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::citus::{self, ListedNode};
use super::{identity, instance, judging, ledger, verdict};
use crate::durable::generator;
use chronoid_formats::node_handover::{self as policy, NextHolder};
use chronoid_formats::node_judging::Holding;
use chronoid_formats::node_ledger::Peer;

/// How soon a node told to stop that answered with an error is told again.
const TELL_AGAIN: Duration = Duration::from_secs(1);

fn key(db: u32, group: i32) -> String {
    format!("citus group {group} of database {db} held by")
}

fn of_key(key: &str) -> Option<(u32, i32)> {
    let rest = key.strip_prefix("citus group ")?.strip_suffix(" held by")?;
    let (group, db) = rest.split_once(" of database ")?;
    Some((db.parse().ok()?, group.parse().ok()?))
}

/// A node being told to stop, the holder to confirm once it has, and when
/// it was last told.
type Telling = (ListedNode, Option<String>, Option<Instant>);

/// A coordinator's confirmed holders, and those it is telling to stop.
#[derive(Default)]
pub struct Releases {
    loaded: bool,
    confirmed: HashMap<(u32, i32), String>,
    /// Where the generators of each confirmed holder's predecessor stopped,
    /// as it answered when told to stop: said to the holder when it asks.
    stops: HashMap<(u32, i32), [u64; 3]>,
    pending: HashMap<(u32, i32), Telling>,
}

impl Releases {
    fn load(&mut self) {
        if !std::mem::replace(&mut self.loaded, true) {
            for p in ledger::read().peers {
                if let Some(at) = of_key(&p.key) {
                    let (holder, stop) = policy::read_stop(&p.name);
                    if !holder.is_empty() {
                        self.confirmed.insert(at, holder.to_owned());
                    }
                    if let Some(stop) = stop {
                        self.stops.insert(at, stop);
                    }
                }
            }
        }
    }

    /// The coordinator's database `db` read, its formation listing `nodes`.
    pub fn formation_read(&mut self, db: u32, nodes: &[ListedNode]) {
        self.load();
        let mut groups: Vec<i32> = nodes.iter().map(|n| n.group).filter(|g| *g > 0).collect();
        groups.extend(self.confirmed.keys().filter(|(d, _)| *d == db).map(|k| k.1));
        groups.sort_unstable();
        groups.dedup();
        let mut confirm = Vec::new();
        for group in groups {
            let listed =
                citus::listed_holder(nodes, group).map(|n| format!("{}:{}", n.host, n.port));
            let held = self.confirmed.get(&(db, group)).cloned();
            match policy::next_holder(held.as_deref(), listed.as_deref()) {
                NextHolder::Same => {
                    self.pending.remove(&(db, group));
                }
                NextHolder::Confirm => confirm.push((group, listed)),
                NextHolder::Release => {
                    let Some(node) = held.as_deref().and_then(|h| node_at(h, group)) else {
                        confirm.push((group, listed));
                        continue;
                    };
                    let entry = self
                        .pending
                        .entry((db, group))
                        .or_insert((node, None, None));
                    entry.1 = listed;
                }
            }
        }
        self.confirm(db, confirm, None);
    }

    /// Confirms each group's holder (`None`: the group has none); `stop`:
    /// where the generators of the node that held it stopped, kept for the
    /// group until a later holder stops (a group removed now is given to a
    /// node added later, which must resume above it too). Every holder and
    /// stop of this database's formation is written: the nodes' questions
    /// read the file (`answer_holder`), and a file lost while the server
    /// runs is written again whole.
    fn confirm(&mut self, db: u32, holders: Vec<(i32, Option<String>)>, stop: Option<[u64; 3]>) {
        for (group, holder) in &holders {
            self.pending.remove(&(db, *group));
            match holder {
                Some(h) => self.confirmed.insert((db, *group), h.clone()),
                None => self.confirmed.remove(&(db, *group)),
            };
            if let Some(stop) = stop {
                self.stops.insert((db, *group), stop);
            }
        }
        let now = crate::pg::clock::now_ms();
        let mut groups: Vec<i32> = self
            .confirmed
            .keys()
            .chain(self.stops.keys())
            .filter(|at| at.0 == db)
            .map(|at| at.1)
            .collect();
        groups.sort_unstable();
        groups.dedup();
        // A group with a stop and no holder is written with an empty name:
        // a node that asks meanwhile is told no holder, and waits.
        let entries: Vec<Peer> = groups
            .into_iter()
            .map(|g| Peer {
                key: key(db, g),
                system: 0,
                since: 0,
                node_id: g,
                own_id: -1,
                seen_ms: now,
                pass_on: false,
                name: policy::with_stop(
                    self.confirmed.get(&(db, g)).map_or("", String::as_str),
                    self.stops.get(&(db, g)).copied(),
                ),
            })
            .collect();
        let on_file = ledger::read();
        let lost = entries.iter().any(|e| {
            !on_file
                .peers
                .iter()
                .any(|p| p.key == e.key && p.name == e.name)
        });
        if holders.is_empty() && !lost {
            return;
        }
        // Not written: the next change writes it (reported by `update`).
        let _ = ledger::update(identity::node_id_set(), |l| {
            let mut changed = false;
            for (group, _) in &holders {
                let k = key(db, *group);
                if !entries.iter().any(|e| e.key == k) {
                    changed |= l.keep_peers(|p| p.key != k);
                }
            }
            for e in entries {
                changed |= l.note_peer(e);
            }
            changed
        });
    }

    /// The nodes due to be told to stop: (database, group, node).
    pub fn due(&mut self, busy: impl Fn(u32, i32) -> bool) -> Vec<(u32, i32, ListedNode)> {
        let mut out = Vec::new();
        for ((db, group), (node, _, told)) in self.pending.iter_mut() {
            if !busy(*db, *group) && told.is_none_or(|t| t.elapsed() >= TELL_AGAIN) {
                *told = Some(Instant::now());
                out.push((*db, *group, node.clone()));
            }
        }
        out
    }

    /// What the node told to stop for `group` of `db` answered, and where
    /// its generators stopped, if it said.
    pub fn told(&mut self, db: u32, group: i32, answer: Result<(bool, Option<[u64; 3]>), String>) {
        let Some((node, listed, _)) = self.pending.get(&(db, group)) else {
            return;
        };
        let (stopped, stop) = match &answer {
            Ok(said) => *said,
            // Down, or out of reach: taken for down, as a failover's old
            // primary is (docs/across-servers.md, "Handover").
            Err(why) if policy::taken_for_down(why) => {
                pgrx::log!("chronoid: could not tell {}:{}, which held Citus group {group}, to stop: {why}; taken for down", node.host, node.port);
                (true, None)
            }
            Err(_) => (false, None),
        };
        if stopped {
            let listed = listed.clone();
            self.confirm(db, vec![(group, listed)], stop);
        }
    }
}

/// A node at `host:port`, as a confirmed holder is kept.
fn node_at(holder: &str, group: i32) -> Option<ListedNode> {
    let (host, port) = holder.rsplit_once(':')?;
    Some(ListedNode {
        group,
        host: host.to_owned(),
        port: port.parse().ok()?,
        active: true,
        primary: true,
    })
}

fn my_db() -> u32 {
    // SAFETY: this backend's database, set at connection.
    u32::from(unsafe { pgrx::pg_sys::MyDatabaseId })
}

/// A node's answer to its coordinator, which told it `group` is no longer
/// its: where this database reads that group, recorded as the
/// coordinator's word and marked, so that every caller here refuses, before
/// the answer.
pub fn answer_release(group: i32) -> Result<String, String> {
    if verdict::citus_group_here() == Some(group) {
        let now = crate::pg::clock::now_ms();
        let own = identity::node_id_answered();
        let me = instance::own(own);
        let (_, written) = ledger::update(identity::node_id_set(), |l| {
            l.note_peer(Peer {
                key: judging::holding_key(my_db(), group),
                system: me.system,
                since: me.since,
                node_id: Holding::NotListed.code(),
                own_id: own,
                seen_ms: now,
                pass_on: false,
                name: String::new(),
            })
        });
        written?;
        if verdict::mark_released(my_db(), group, now) {
            pgrx::log!("chronoid: the Citus coordinator says group {group} is no longer this node's: its counter generators refuse in this database from now on");
        }
    }
    // Where its generators stopped: the node given the group resumes above.
    Ok(policy::released_line(group) + &policy::last_line(generator::last_ticks()))
}

/// A coordinator's answer to a node that asks who holds `group`: the
/// holder it confirmed in this database, with where the generators of the
/// node that held the group before stopped; empty where it keeps none (a
/// group never held: the listed node stands). Without its file (never
/// written, or lost while the server runs) it names no holder, so that the
/// node waits until the peer worker has written what it confirmed.
pub fn answer_holder(group: i32) -> String {
    if !ledger::exists() {
        return policy::holder_line(group, None);
    }
    let k = key(my_db(), group);
    ledger::read()
        .peers
        .iter()
        .find(|p| p.key == k)
        .map(|p| {
            let (holder, stop) = policy::read_stop(&p.name);
            policy::holder_line(group, Some(holder))
                + &stop.map(policy::last_line).unwrap_or_default()
        })
        .unwrap_or_default()
}

/// This node, given `group` of database `db` by its coordinator, which said
/// where the generators of the node that held it stopped (`stop`): every
/// pair handed out here lies above them, and the figure is kept for this
/// instance (`chronoid.peers`), so that a restart before the first ID
/// resumes above them too (`handover::resume_as_recorded`).
pub fn resume_above(db: u32, group: i32, own: i32, stop: Option<[u64; 3]>) {
    let Some(stop) = stop else { return };
    generator::resume_above(stop);
    let me = instance::own(own);
    let now = crate::pg::clock::now_ms();
    let _ = ledger::update(identity::node_id_set(), |l| {
        l.note_peer(Peer {
            key: format!("{} stopped at", judging::holding_key(db, group)),
            system: me.system,
            since: me.since,
            node_id: 0,
            own_id: own,
            seen_ms: now,
            pass_on: false,
            name: policy::with_stop("the node that held it before", Some(stop)),
        })
    });
}

/// Whether the answer of database `db`'s coordinator on `group` to a
/// question started at `started_ms` stands: not one asked before the
/// coordinator told this node the group is no longer its (it would undo
/// that). An answer that this node holds the group lifts that database's
/// mark, and no other's: another database is another formation.
pub fn holding_stands(db: u32, group: i32, started_ms: u64, holding: &Holding) -> bool {
    let told_after = verdict::released_in(db).is_some_and(|(g, ms)| g == group && ms >= started_ms);
    if !told_after && matches!(holding, Holding::Holds { .. }) {
        verdict::clear_released(db, group);
    }
    !told_after
}

/// The refusal of database `db`, told by its coordinator that the group it
/// reads is no longer its: message and hint.
pub fn refusal(db: u32) -> Option<(String, String)> {
    let (group, _) = verdict::released_in(db)?;
    Some((
        chronoid_formats::reason!("the formation's coordinator told this node that Citus group {group} is no longer its (the node was removed, or the group given to another node)"),
        chronoid_formats::node_judging::HINT_CITUS_HOLDER.to_owned(),
    ))
}
