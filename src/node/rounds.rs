//! The peer worker's rounds: what each scope (the server; each Citus
//! database) rests on (`Facts`), judged and published, and which of its
//! peers are due to be asked: those never heard under this server's id at
//! once, every peer every `ASK_EVERY` (`ASK_AGAIN_AFTER_REFUSAL` while the
//! scope does not mint). A refusal found on what is remembered is
//! published only once its peers were asked again (a remembered answer may
//! be a round old): callers wait meanwhile.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use super::asking::Question;
use super::citus::ListedNode;
use super::judging::{self, Facts};
use super::verdict::{self, Scope};
use super::{handover, instance, ledger};
use crate::pg::subscriptions::Subscription;
use chronoid_formats::node_id::UNSET;
use chronoid_formats::node_judging::{self as policy, Holding, Judgement};
use chronoid_formats::node_ledger::Ledger;
use chronoid_formats::node_verdict::{State, Verdict};

/// How often every peer is asked again: a peer's own change of node id is
/// seen within it.
const ASK_EVERY: Duration = Duration::from_secs(10);
/// How soon every peer is asked again while a scope does not mint.
const ASK_AGAIN_AFTER_REFUSAL: Duration = Duration::from_secs(5);
/// A peer never heard under this server's id is asked at most this often.
const ASK_UNHEARD_EVERY: Duration = Duration::from_secs(2);
/// A coordinator that is handing a group over to this node is asked again
/// this often.
const ASK_AGAIN_PENDING: Duration = Duration::from_millis(200);

/// What a question under way is for.
pub(super) enum Target {
    /// A peer, by its ledger key, asked while this server had `own`;
    /// `learn`: what it knows is learnt (a publisher, not a Citus node).
    Peer {
        key: String,
        own: i32,
        learn: bool,
        name: String,
        log: bool,
    },
    Holding {
        own: i32,
        db: u32,
        group: i32,
        coordinator: String,
        started_ms: u64,
    },
    /// One database's formation, read by a question started then.
    Formation { db: u32, started: Instant },
    /// The server this one was a standby of, asked to give way.
    Predecessor { key: String },
    /// The node that held a Citus group of a database, told to stop.
    Release { db: u32, group: i32 },
}

/// A Citus database's group id (`None`: no row), its formation's nodes,
/// and its two tables' oids.
pub(super) type CitusFacts = (Option<i32>, Vec<ListedNode>, [u32; 2]);

/// A database of a server that preloads Citus, as last looked at.
#[derive(Default)]
pub(super) struct Database {
    pub(super) name: String,
    pub(super) looked: Option<Instant>,
    /// `None`: never read; `Some(None)`: not a Citus node.
    pub(super) citus: Option<Option<CitusFacts>>,
    /// Why its formation could not be read at its last look.
    pub(super) unreadable: Option<String>,
    /// Since when a change (a superuser's schema change, `CREATE
    /// EXTENSION citus`; a Citus table's) waits to be read: the server's
    /// verdict on the new epoch, and the database's own, wait for it (a
    /// database becoming a Citus node must not read the server's
    /// meanwhile).
    pub(super) stale_since: Option<Instant>,
}

pub(super) struct ScopeState {
    pub(super) summary: String,
    pub(super) epoch: u64,
    /// A refusal found on what was remembered, waiting for its peers'
    /// answers to be confirmed.
    pub(super) confirming: bool,
    pub(super) last_full: Option<Instant>,
}

#[derive(Default)]
pub(super) struct Worker {
    pub(super) citus_preloaded: bool,
    pub(super) settings: (i32, i32),
    pub(super) subscriptions: Vec<Subscription>,
    pub(super) warned: HashSet<u32>,
    pub(super) superuser: String,
    pub(super) databases: HashMap<u32, Database>,
    pub(super) questions: Vec<(Target, Question)>,
    pub(super) failed: HashMap<String, String>,
    pub(super) last_asked: HashMap<(String, i32), Instant>,
    pub(super) scopes: HashMap<Scope, ScopeState>,
    pub(super) looked: Option<Instant>,
    pub(super) judged_epoch: u64,
    /// What the last look could not read.
    pub(super) note: String,
    pub(super) predecessor: Option<handover::Predecessor>,
    pub(super) releases: super::release::Releases,
}

impl Worker {
    /// Judges every scope and publishes its verdict; the round it judged
    /// (what `start_due_questions` asks on).
    pub(super) fn judge_all(&mut self, epoch: u64) -> Round {
        self.judged_epoch = epoch;
        let ledger = ledger::read();
        let now = crate::pg::clock::now_ms();
        let (scopes, overflow) = self.scopes();
        self.scopes.retain(|s, _| scopes.contains(s));
        let scoped: Vec<(Scope, Facts)> = scopes
            .iter()
            .map(|s| {
                let mut facts = self.facts(*s, &overflow);
                // A server that gave its place away refuses whatever it
                // sees, and asks nobody.
                if let Some(refusal) = handover::refusal() {
                    facts.unusable = Some(refusal);
                }
                (*s, facts)
            })
            .collect();
        // What the worker could not read, for the view: the catalogs, and
        // each database's formation (its last one stands, or, never read,
        // the database refuses where chronoid.node_id is unset).
        let mut notes: Vec<String> = (!self.note.is_empty())
            .then(|| self.note.clone())
            .into_iter()
            .collect();
        let mut unread: Vec<String> = self
            .databases
            .values()
            .filter_map(|d| {
                let why = d.unreadable.as_ref()?;
                Some(chronoid_formats::reason!(
                    "the Citus formation of database \"{}\" could not be read ({why})",
                    d.name
                ))
            })
            .collect();
        unread.sort();
        notes.extend(unread.into_iter().take(3));
        verdict::set_note(&notes.join("; "));
        // The server this one was a standby of, judged once for every scope.
        let predecessor = handover::judge(self.predecessor.as_ref(), &ledger, &self.failed);
        for (scope, facts) in &scoped {
            let scope = *scope;
            // A formation being read again: its callers wait for it.
            if let Scope::Citus(db) = scope {
                if self
                    .databases
                    .get(&db)
                    .is_some_and(|d| d.stale_since.is_some())
                {
                    continue;
                }
            }
            let mut judgement = judging::judge(facts, &ledger, &self.failed);
            if let Some(j) = &predecessor {
                judgement = policy::strongest(&[judgement, j.clone()]);
            }
            // A database told its group is no longer its refuses, and asks
            // its coordinator on: only its word that the group is this
            // node's again lifts it.
            if let Some((message, hint)) =
                handover::refusal_in(scope).filter(|_| facts.unusable.is_none())
            {
                judgement = policy::strongest(&[Judgement::Refuse { message, hint }, judgement]);
            }
            let summary = facts.summary();
            let in_flight = self.in_flight_for(facts);
            let st = self.scopes.entry(scope).or_insert(ScopeState {
                summary: String::new(),
                epoch: 0,
                confirming: false,
                last_full: None,
            });
            let first = st.summary != summary || st.epoch != epoch;
            let refused_now = verdict::standing(scope).is_some_and(|(v, _)| {
                v.state == State::Refused && v.epoch == Verdict::epoch_of(epoch)
            });
            let publish = |j: &Judgement| {
                let (v, reason) = judging::verdict_of(epoch, facts, j);
                verdict::publish(scope, v, &reason, now);
            };
            if first {
                st.summary = summary;
                st.epoch = epoch;
                match &judgement {
                    // A refusal is made only on answers asked for now (a
                    // remembered answer may be a round old): callers wait
                    // while every peer is asked again, unless the same
                    // refusal stands for this epoch.
                    Judgement::Refuse { message, .. } if facts.unusable.is_none() => {
                        let standing = refused_now
                            && verdict::standing(scope)
                                .is_some_and(|(_, r)| r.starts_with(message.as_str()));
                        if !standing {
                            publish(&Judgement::Wait(chronoid_formats::reason!(
                                "asking the peers again, to confirm: {message}"
                            )));
                        }
                        st.confirming = true;
                        st.last_full = None;
                        continue;
                    }
                    // A refusal standing for this epoch is not turned into
                    // a wait before its peers were asked again.
                    Judgement::Wait(_) if refused_now => continue,
                    _ => st.confirming = false,
                }
            } else if st.confirming {
                if in_flight || st.last_full.is_none() {
                    continue;
                }
                st.confirming = false;
            }
            publish(&judgement);
        }
        Round {
            ledger,
            scoped,
            predecessor,
        }
    }

    /// Whether a question for `facts`'s peers is under way.
    fn in_flight_for(&self, facts: &Facts) -> bool {
        let keys = peer_keys(facts);
        self.questions.iter().any(|(t, _)| match t {
            Target::Peer { key, .. } => keys.contains(key),
            Target::Holding { db, group, .. } => facts
                .holding
                .as_ref()
                .is_some_and(|h| (h.db, h.group) == (*db, *group)),
            Target::Formation { .. } | Target::Release { .. } => false,
            Target::Predecessor { .. } => facts.unusable.is_none(),
        })
    }

    /// Asks the peers of `round`'s scopes that are due.
    pub(super) fn start_due_questions(&mut self, round: &Round) {
        let ledger = &round.ledger;
        // A promoted standby claims its node id to its peers only once the
        // server it followed gave way: one that waits, or is refused (a
        // sibling took the place), must not make that one refuse.
        let claims = matches!(round.predecessor, None | Some(Judgement::Mint));
        let appname_of = |own: i32| instance::appname(if claims { own } else { UNSET });
        for (scope, facts) in &round.scoped {
            let scope = *scope;
            if facts.unusable.is_some() {
                continue;
            }
            let allowed = verdict::standing(scope).is_some_and(|(v, _)| v.state == State::Allowed);
            let every = if allowed {
                ASK_EVERY
            } else {
                ASK_AGAIN_AFTER_REFUSAL
            };
            let Some(st) = self.scopes.get_mut(&scope) else {
                continue;
            };
            let full = st.last_full.is_none_or(|t| t.elapsed() >= every);
            if full {
                st.last_full = Some(Instant::now());
            }
            let own = facts.own;
            let mut peers: Vec<(String, String, Option<i32>, String, bool)> = facts
                .subscriptions
                .iter()
                .map(|s| {
                    let name = format!("the publisher of subscription \"{}\"", s.name);
                    // A disabled subscription's publisher may be gone for
                    // good: its failures are not logged.
                    (
                        judging::key_of(s),
                        s.conninfo.clone(),
                        None,
                        name,
                        s.enabled,
                    )
                })
                .collect();
            if let Some((_, nodes)) = &facts.formation {
                peers.extend(nodes.iter().map(|n| {
                    (
                        n.key.clone(),
                        n.conninfo.clone(),
                        Some(n.group),
                        format!("the {}", n.key.replace("citus", "Citus")),
                        true,
                    )
                }));
            }
            for (key, conninfo, group, name, log) in peers {
                let busy = self.questions.iter().any(|(t, _)| matches!(t, Target::Peer { key: k, own: o, .. } if *k == key && *o == own));
                let unheard = ledger.remembered(&key, own).is_none()
                    && !self.failed.contains_key(&key)
                    && self
                        .last_asked
                        .get(&(key.clone(), own))
                        .is_none_or(|t| t.elapsed() >= ASK_UNHEARD_EVERY);
                if busy || !(full || unheard) {
                    continue;
                }
                self.last_asked.insert((key.clone(), own), Instant::now());
                // A formation's nodes are all asked directly, and told
                // nothing of who asks: they learn nothing of one another's
                // ids for the mesh check.
                let appname = if group.is_some() {
                    "chronoid".to_owned()
                } else {
                    appname_of(own)
                };
                let q = Question::peer(&conninfo, &appname, group);
                self.questions.push((
                    Target::Peer {
                        key,
                        own,
                        learn: group.is_none(),
                        name,
                        log,
                    },
                    q,
                ));
            }
            if let Some(h) = &facts.holding {
                let key = judging::holding_key(h.db, h.group);
                let busy = self.questions.iter().any(|(t, _)| {
                    matches!(t, Target::Holding { db, group, .. } if (*db, *group) == (h.db, h.group))
                });
                // Never told, or told the group is being handed over to
                // this node (the coordinator telling the last holder to
                // stop: moments).
                let said = judging::said_to_me(ledger, h.db, h.group, own);
                let every = match said {
                    Some(Holding::Pending { .. }) => ASK_AGAIN_PENDING,
                    _ => ASK_UNHEARD_EVERY,
                };
                let unheard = !self.failed.contains_key(&key)
                    && matches!(said, None | Some(Holding::Pending { .. }))
                    && self
                        .last_asked
                        .get(&(key.clone(), own))
                        .is_none_or(|t| t.elapsed() >= every);
                if !busy && (full || unheard) {
                    self.last_asked.insert((key, own), Instant::now());
                    let q =
                        Question::holding(&h.conninfo, h.group, judging::me(), &h.dbname, &h.user);
                    self.questions.push((
                        Target::Holding {
                            own,
                            db: h.db,
                            group: h.group,
                            coordinator: h.coordinator.clone(),
                            started_ms: crate::pg::clock::now_ms(),
                        },
                        q,
                    ));
                }
            }
        }
        // What was asked for a scope gone, or a peer no longer listed, is
        // forgotten with it.
        let live: HashSet<(String, i32)> = round
            .scoped
            .iter()
            .filter(|(s, _)| self.scopes.contains_key(s))
            .flat_map(|(_, f)| {
                let own = f.own;
                peer_keys(f).into_iter().map(move |k| (k, own))
            })
            .collect();
        self.last_asked
            .retain(|k, _| live.contains(k) || k.0.starts_with("citus holder"));
    }
}

/// One judging of every scope: the ledger it read and each scope's facts.
pub(super) struct Round {
    pub(super) ledger: Ledger,
    scoped: Vec<(Scope, Facts)>,
    /// What the server this one was a standby of said, judged.
    predecessor: Option<Judgement>,
}

/// The ledger keys of a scope's peers.
fn peer_keys(facts: &Facts) -> Vec<String> {
    let mut keys: Vec<String> = facts.subscriptions.iter().map(judging::key_of).collect();
    if let Some((_, nodes)) = &facts.formation {
        keys.extend(nodes.iter().map(|n| n.key.clone()));
    }
    keys
}
