//! The network step, as questions the peer worker (`peer_worker.rs`) has
//! under way side by side, each a connection of `crate::pg::libpq` driven
//! without blocking and bounded by `ANSWER_WITHIN`:
//!
//! - `Question::Peer`: a peer (a subscription's publisher, another node of
//!   the Citus formation) for its node id and the servers it knows;
//! - `Question::Holding`: a Citus worker's coordinator, which node it lists
//!   for the worker's group, then that node who it is;
//! - `Question::Successor`: the server a promoted standby followed, over
//!   a replication connection, to take its place (`handover.rs`);
//! - `Question::Formation`: this server itself, one database, whether it
//!   is a Citus node and what its formation's tables say (a Citus
//!   database's facts are that database's: the worker reads them as the
//!   bootstrap superuser over a local connection, which takes no worker
//!   slot and which `superuser_reserved_connections` keeps room for).
//!
//! Only chronoid answers for chronoid: the answer is read from
//! `pg_settings`, where a setting chronoid defines has its own context
//! (`chronoid.node_ids_seen` is `internal`) and a placeholder (a line in a
//! postgresql.conf where chronoid is not loaded) is not listed at all. An
//! answer is at most 256 KiB and every line is checked
//! (`chronoid_formats::node_ledger::read_answer`); anything else is no
//! answer. Answers are recorded in the ledger (`record`, `ledger.rs`).
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

pub use super::citus::Formation;
use super::{citus, identity, ledger};
use crate::pg::libpq::{Connection, Progress, Row, ANSWER_WITHIN};
use chronoid_formats::node_handover::{read_holder, released_line, split_answer};
use chronoid_formats::node_id::{resolve, Node, UNSET};
use chronoid_formats::node_judging::{Holding, Said, Told};
use chronoid_formats::node_ledger::{read_answer, Known, Ledger, Peer, MAX_ANSWER_BYTES};

/// The peer's `chronoid.node_id`, `chronoid.node_id_base` and what it
/// answers (itself first), one byte past the bound at most. Every name is
/// qualified: the asked server's `search_path` is the asked server's.
const ASK: &str = "SELECT s.setting, b.setting, pg_catalog.left(k.setting, 262145) \
    FROM pg_catalog.pg_settings k \
    LEFT JOIN pg_catalog.pg_settings s ON s.name OPERATOR(pg_catalog.=) 'chronoid.node_id' AND s.context OPERATOR(pg_catalog.=) 'sighup' \
    LEFT JOIN pg_catalog.pg_settings b ON b.name OPERATOR(pg_catalog.=) 'chronoid.node_id_base' AND b.context OPERATOR(pg_catalog.=) 'sighup' \
    WHERE k.name OPERATOR(pg_catalog.=) 'chronoid.node_ids_seen' AND k.context OPERATOR(pg_catalog.=) 'internal'";

/// Whether this database is a Citus node.
const IS_CITUS: &str =
    "SELECT pg_catalog.to_regclass('pg_catalog.pg_dist_local_group') IS NOT NULL";

/// This node's group id (NULL: no row), then one row per formation node
/// (NULLs where the formation lists none).
const FORMATION: &str =
    "SELECT (SELECT groupid FROM pg_catalog.pg_dist_local_group LIMIT 1)::text, \
    n.groupid::text, n.nodename, n.nodeport::text, n.isactive::text, \
    'pg_catalog.pg_dist_node'::pg_catalog.regclass::pg_catalog.oid::text, \
    'pg_catalog.pg_dist_local_group'::pg_catalog.regclass::pg_catalog.oid::text, \
    n.noderole::text \
    FROM (SELECT 1) AS one LEFT JOIN pg_catalog.pg_dist_node n ON true ORDER BY n.nodeid";

/// What the server a promoted standby followed answered: itself, then its
/// successor; and where its generators stopped.
pub type SuccessorAnswer = (Vec<Known>, Option<[u64; 3]>);

/// A peer's answer.
pub struct Answer {
    /// Its node id in effect, or (a coordinator asked) who holds a group.
    pub told: Told,
    /// Where its id comes from (a Citus node), or how it names itself.
    pub name: String,
    /// What it said of itself and of the servers it knows.
    pub known: Vec<Known>,
}

enum Stage {
    Asking(Connection),
    /// The holding's second step: the listed node, asked who it is.
    AskingHolder(Connection, String),
    /// The formation's second step: the facts, on the same connection.
    ReadingFormation(Connection),
    /// Between two steps, for a moment.
    Moving,
}

/// One question under way.
pub struct Question {
    kind: Kind,
    stage: Stage,
    sent: bool,
    /// Where the generators of the group's last holder stopped, as the
    /// coordinator said in the holding question's first step.
    stop: Option<[u64; 3]>,
}

#[derive(Clone)]
enum Kind {
    Peer {
        group: Option<i32>,
    },
    Holding {
        group: i32,
        me: (u64, u64),
        dbname: String,
        user: String,
    },
    Formation,
    Successor,
    Release {
        group: i32,
    },
}

/// A question's outcome.
pub enum Outcome {
    Peer(Result<Answer, String>),
    /// What the coordinator says of the group, and where the generators
    /// of the node that held it before stopped, if it said.
    Holding(Result<(Holding, Option<[u64; 3]>), String>),
    Formation(Result<Formation, String>),
    /// What the server said (itself, then its successor), `None` where
    /// chronoid is not loaded there.
    /// and where its generators stopped, if it said.
    Successor(Result<Option<SuccessorAnswer>, String>),
    /// Whether the node told to stop said it has, and where its
    /// generators stopped, if it said.
    Release(Result<(bool, Option<[u64; 3]>), String>),
}

impl Question {
    /// Asks the server `conninfo` names for its node id; `group`: the
    /// peer's Citus group, where it is a node of this server's formation
    /// (its id is then resolved as it resolves it, and its source named).
    pub fn peer(conninfo: &str, appname: &str, group: Option<i32>) -> Question {
        Question::new(Kind::Peer { group }, conninfo, appname)
    }

    /// Asks the formation's coordinator (`conninfo`) which node it counts
    /// as group `group`'s, then that node who it is: whether it is this
    /// server (`me`: its system identifier and rank), a copy of it, or
    /// another.
    pub fn holding(
        conninfo: &str,
        group: i32,
        me: (u64, u64),
        dbname: &str,
        user: &str,
    ) -> Question {
        let kind = Kind::Holding {
            group,
            me,
            dbname: dbname.to_owned(),
            user: user.to_owned(),
        };
        Question::new(kind, conninfo, &format!("chronoid:holding:{group}"))
    }

    /// Tells the node at `conninfo`, which the formation no longer lists
    /// for `group`, to stop minting that group's IDs (`release.rs`).
    pub fn release(conninfo: &str, group: i32) -> Question {
        Question::new(
            Kind::Release { group },
            conninfo,
            &format!("chronoid:release:{group}"),
        )
    }

    /// Reads one database of this server's Citus facts over `conninfo` (a
    /// local connection); a lock held on a catalog it reads ends it by
    /// its `lock_timeout`.
    pub fn formation(conninfo: &str) -> Question {
        Question::new(Kind::Formation, conninfo, "chronoid peer worker")
    }

    /// Asks the server a promoted standby followed (`conninfo`, a
    /// replication connection) to take its place; `appname` says who asks.
    pub fn successor(conninfo: &str, appname: &str) -> Question {
        Question::new(Kind::Successor, conninfo, appname)
    }

    fn new(kind: Kind, conninfo: &str, appname: &str) -> Question {
        Question {
            kind,
            stage: Stage::Asking(Connection::start(conninfo, appname, ANSWER_WITHIN)),
            sent: false,
            stop: None,
        }
    }

    /// The connection under way, for `libpq::wait`.
    pub fn connection(&self) -> Option<&Connection> {
        match &self.stage {
            Stage::Asking(c) | Stage::AskingHolder(c, _) | Stage::ReadingFormation(c) => Some(c),
            Stage::Moving => None,
        }
    }

    /// Drives the question on; its outcome once it has one.
    pub fn step(&mut self, now_ms: u64) -> Option<Outcome> {
        loop {
            let (conn, first_query) = match &mut self.stage {
                Stage::Asking(c) => (c, match self.kind {
                    Kind::Peer { .. } => ASK.to_owned(),
                    // With the holder the coordinator's chronoid confirmed
                    // (`release.rs`), NULL where chronoid is not loaded there.
                    Kind::Holding { group, .. } => format!(
                        "SELECT nodename, nodeport::text, (SELECT setting FROM pg_catalog.pg_settings \
                         WHERE name OPERATOR(pg_catalog.=) 'chronoid.handover' AND context OPERATOR(pg_catalog.=) 'internal') \
                         FROM pg_catalog.pg_dist_node WHERE groupid OPERATOR(pg_catalog.=) {group} AND isactive AND noderole OPERATOR(pg_catalog.=) 'primary' ORDER BY nodeid LIMIT 1"
                    ),
                    Kind::Formation => IS_CITUS.to_owned(),
                    // The replication protocol's SHOW: a walsender runs no SQL.
                    Kind::Successor | Kind::Release { .. } => "SHOW chronoid.handover".to_owned(),
                }),
                Stage::AskingHolder(c, _) => (c, ASK.to_owned()),
                Stage::ReadingFormation(c) => (c, FORMATION.to_owned()),
                Stage::Moving => return Some(self.failed("a question lost its connection".into())),
            };
            match conn.poll() {
                Progress::Pending => return None,
                Progress::Ready if !self.sent => {
                    conn.send(&first_query);
                    self.sent = true;
                }
                Progress::Ready => return None,
                Progress::Failed(why) => return Some(self.failed(why)),
                Progress::Answered(rows) => {
                    if let Some(outcome) = self.answered(rows, now_ms) {
                        return Some(outcome);
                    }
                }
            }
        }
    }

    fn failed(&self, why: String) -> Outcome {
        match (&self.kind, &self.stage) {
            (Kind::Peer { .. }, _) => Outcome::Peer(Err(why)),
            // Not an error of asking the coordinator: what it said stands,
            // and the judging decides what a node it lists and this one
            // cannot ask means.
            (Kind::Holding { group, .. }, Stage::AskingHolder(_, holder)) => {
                pgrx::log!("chronoid: could not ask {holder}, the node the Citus coordinator lists for group {group}, who it is: {why}");
                Outcome::Holding(Ok((
                    Holding::Unconfirmed {
                        holder: holder.clone(),
                    },
                    self.stop,
                )))
            }
            (Kind::Holding { .. }, _) => Outcome::Holding(Err(why)),
            (Kind::Formation, _) => Outcome::Formation(Err(why)),
            // chronoid not loaded there: it mints no counter IDs.
            (Kind::Successor, _)
                if why.contains("unrecognized configuration parameter \"chronoid.handover\"") =>
            {
                Outcome::Successor(Ok(None))
            }
            (Kind::Successor, _) => Outcome::Successor(Err(why)),
            (Kind::Release { .. }, _)
                if why.contains("unrecognized configuration parameter \"chronoid.handover\"") =>
            {
                Outcome::Release(Ok((true, None)))
            }
            (Kind::Release { .. }, _) => Outcome::Release(Err(why)),
        }
    }

    /// A step's rows: the outcome, or `None` where a next step was started.
    fn answered(&mut self, rows: Vec<Row>, now_ms: u64) -> Option<Outcome> {
        let kind = self.kind.clone();
        match (kind, &self.stage) {
            (Kind::Peer { group }, _) => Some(Outcome::Peer(read_peer(rows, group, now_ms))),
            (Kind::Holding { .. }, Stage::Asking(_)) if rows.is_empty() => {
                Some(Outcome::Holding(Ok((Holding::NotListed, None))))
            }
            (
                Kind::Holding {
                    group,
                    dbname,
                    user,
                    ..
                },
                Stage::Asking(_),
            ) => {
                let row = &rows[0];
                let (Some(host), Some(port)) = (
                    row.first().cloned().flatten(),
                    row.get(1).cloned().flatten().and_then(|p| p.parse().ok()),
                ) else {
                    return Some(Outcome::Holding(Err("an answer that is not a node".into())));
                };
                let holder = format!("{host}:{port}");
                // The coordinator's chronoid still telling the group's last
                // holder to stop, or having confirmed another.
                if let Some(said) = row.get(2).cloned().flatten() {
                    let (said, stop) = split_answer(&said);
                    if read_holder(said, group).is_ok_and(|c| c.as_deref() != Some(&holder)) {
                        return Some(Outcome::Holding(Ok((Holding::Pending { holder }, None))));
                    }
                    self.stop = stop;
                }
                let node = citus::ListedNode {
                    group,
                    host,
                    port,
                    active: true,
                    primary: true,
                };
                let conninfo = citus::conninfo_of(&node, &dbname, &user, &citus::options());
                self.stage = Stage::AskingHolder(
                    Connection::start(&conninfo, "chronoid", ANSWER_WITHIN),
                    holder,
                );
                self.sent = false;
                None
            }
            (Kind::Holding { me, .. }, Stage::AskingHolder(_, holder)) => {
                let holder = holder.clone();
                let answer = match read_peer(rows, None, now_ms) {
                    Ok(a) => a,
                    Err(why) => return Some(self.failed(why)),
                };
                let itself = answer.known.first();
                let holding = match itself.map(|k| (k.system, k.since)) {
                    Some(them) if them == me => Holding::Holds { holder },
                    them => Holding::Another {
                        holder,
                        copy: them.is_some_and(|(system, _)| system == me.0),
                    },
                };
                Some(Outcome::Holding(Ok((holding, self.stop))))
            }
            (Kind::Formation, Stage::Asking(_)) => {
                if rows
                    .first()
                    .and_then(|r| r.first().cloned().flatten())
                    .as_deref()
                    != Some("t")
                {
                    return Some(Outcome::Formation(Ok(Formation::NotCitus)));
                }
                if let Stage::Asking(c) = std::mem::replace(&mut self.stage, Stage::Moving) {
                    self.stage = Stage::ReadingFormation(c);
                }
                self.sent = false;
                None
            }
            (Kind::Formation, _) => Some(Outcome::Formation(Ok(citus::read_formation(rows)))),
            (Kind::Release { group }, _) => {
                let text = rows
                    .first()
                    .and_then(|r| r.first().cloned().flatten())
                    .unwrap_or_default();
                let (line, stop) = split_answer(&text);
                Some(Outcome::Release(Ok((line == released_line(group), stop))))
            }
            (Kind::Successor, _) => {
                let text = rows
                    .first()
                    .and_then(|r| r.first().cloned().flatten())
                    .unwrap_or_default();
                let (lines, last) = split_answer(&text);
                Some(Outcome::Successor(
                    read_answer(lines, now_ms).map(|l| Some((l, last))),
                ))
            }
            (Kind::Holding { .. }, _) => None,
        }
    }
}

/// A peer's row: `Ok` with `Said::NoChronoid` where chronoid is not
/// loaded there (no row).
fn read_peer(rows: Vec<Row>, group: Option<i32>, now: u64) -> Result<Answer, String> {
    let Some(row) = rows.into_iter().next() else {
        return Ok(Answer {
            told: Told::Said(Said::NoChronoid),
            name: String::new(),
            known: Vec::new(),
        });
    };
    let text = row.get(2).cloned().flatten().unwrap_or_default();
    if text.len() > MAX_ANSWER_BYTES {
        return Err(format!("an answer over {} KiB", MAX_ANSWER_BYTES / 1024));
    }
    let known = read_answer(&text, now)?;
    let itself = known.first().ok_or("an empty answer")?;
    let int = |i: usize| {
        row.get(i)
            .and_then(|v| v.as_deref())
            .and_then(|t| t.trim().parse::<i32>().ok())
    };
    let (said, name) = match group {
        None => (Said::from_stored(itself.node_id), itself.name.clone()),
        Some(group) => {
            let base = int(1).unwrap_or(0).clamp(0, 1023) as u16;
            match resolve(int(0).unwrap_or(UNSET), Some(group), base) {
                Ok(n @ Node { id: Some(id), .. }) => (Said::Id(id), identity::describe(n.source)),
                _ => (Said::NoId, String::new()),
            }
        }
    };
    Ok(Answer {
        told: Told::Said(said),
        name,
        known,
    })
}

/// Records answers (by the ledger's key of each peer), each asked while
/// this server had the id beside it, what each knows learnt where its flag
/// says (a Citus node's is not: the formation's ids are all asked
/// directly); forgets the peers `keep` says are gone. The ledger as it now
/// is (with the answers, even where the file could not be written).
pub fn record(
    answers: &[(String, i32, Answer, bool)],
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
    ledger::update(identity::node_id_set(), |l| {
        let mut changed = l.keep_peers(&keep);
        for (key, own, answer, learn) in answers {
            let learn = *learn;
            let itself = answer.known.first();
            let (node_id, name) = answer.told.stored(&answer.name);
            changed |= l.note_peer(Peer {
                key: key.clone(),
                system: itself.map_or(0, |k| k.system),
                since: itself.map_or(0, |k| k.since),
                node_id,
                own_id: *own,
                seen_ms: now,
                pass_on: learn,
                name: if name.is_empty() {
                    key.clone()
                } else {
                    name.to_owned()
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
