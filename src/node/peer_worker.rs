//! The peer worker: the one process that asks other servers, registered
//! at start (its slot is the server's from then on: no role's parallel
//! query or subscription can take it) and restarted 1 s after it fails.
//! It connects to no database, as PostgreSQL's logical replication
//! launcher, and starts no other process: every question is a connection
//! of its own, under way side by side with the others (`asking.rs` over
//! `crate::pg::libpq`), bounded by 5 s, so a peer that never answers delays
//! only its own question.
//!
//! Every `LOOK_EVERY` (and at once after a reload or a change the
//! answering side saw) it reads what the verdicts rest on: the node id
//! settings; the superuser-owned subscriptions (a shared catalog, read
//! under a bounded `lock_timeout`: a catalog someone holds locked is read
//! at the next look, and the worker goes on by its last verdict, saying so
//! in `chronoid_node_verdicts`); where the server preloads Citus, each
//! database's formation (`asking::Question::formation`, over a local
//! connection as the bootstrap superuser). It judges each scope (the
//! server; each Citus database) by `judging.rs`, publishes the verdict
//! (`verdict.rs`), and asks the peers that are due: those never heard
//! under this server's id at once, every peer every `ASK_EVERY`
//! (`ASK_AGAIN_AFTER_REFUSAL` while a scope does not mint).
//!
//! A server between two others (B in A ⇄ B ⇄ C) may never call a
//! generator; its own asking keeps each publisher's last answer for as
//! long as the subscription is there, and passes it on to whoever asks.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use pgrx::bgworkers::{BackgroundWorkerBuilder, BgWorkerStartTime};
use pgrx::pg_sys;

use super::asking::{self, Formation, Outcome, Question};
use super::judging;
use super::rounds::{Target, Worker};
use super::{changes, citus, handover, release, verdict};
use super::{identity, instance, ledger};
use crate::pg::libpq;
use crate::pg::subscriptions;
use chronoid_formats::node_judging::Told;

/// How often the configuration is read: a change is judged within it.
pub const LOOK_EVERY: Duration = Duration::from_secs(1);
/// A database that is not a Citus node is looked at again this often (a
/// new database at once).
const LOOK_AGAIN_NOT_CITUS: Duration = Duration::from_secs(10);
/// How often a prepared transaction's end is looked for (its COMMIT
/// PREPARED tells no one).
const PREPARED_POLL: Duration = Duration::from_millis(5);
/// How long the worker waits for a lock on a catalog it reads.
const LOCK_TIMEOUT_MS: &std::ffi::CStr = c"200";

/// chronoid's processes: the reserver and this worker, whatever the number
/// of databases, subscriptions or peers.
pub const PROCESSES: i32 = 2;

/// From `_PG_init` while preloading.
pub fn register_worker() {
    // SAFETY: a GUC variable, read from the configuration before preloading.
    let slots = unsafe { pg_sys::max_worker_processes };
    let logical = crate::pg::guc::config_text(c"max_logical_replication_workers")
        .and_then(|v| v.to_str().ok()?.parse::<i32>().ok())
        .unwrap_or(0);
    // Registered workers take their slots at start, before any dynamic
    // one: only a server with fewer slots than registered workers leaves
    // one out. The logical replication launcher is registered too.
    let registered = PROCESSES + i32::from(logical > 0);
    if slots < registered {
        pgrx::log!(
            "chronoid: max_worker_processes ({slots}) is below the {registered} background workers registered at start (chronoid's reserver and peer worker, and the logical replication launcher); set it to at least {registered}"
        );
    }
    BackgroundWorkerBuilder::new("chronoid peer worker")
        .set_library("chronoid")
        .set_function("chronoid_peer_worker_main")
        // Shared memory and a connection (to no database).
        .enable_spi_access()
        // A standby mints nothing, and asks nobody.
        .set_start_time(BgWorkerStartTime::RecoveryFinished)
        .set_restart_time(Some(Duration::from_secs(1)))
        .load();
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn unpublish(_code: i32, _arg: pg_sys::Datum) {
    verdict::publish_worker(std::ptr::null_mut(), 0);
}

/// The worker's entry point (named in `register_worker`).
#[pgrx::pg_guard]
#[no_mangle]
pub extern "C-unwind" fn chronoid_peer_worker_main(_arg: pg_sys::Datum) {
    crate::pg::worker::set_signal_handlers(false);
    // SAFETY: the shared catalogs, with no database.
    unsafe { pg_sys::BackgroundWorkerInitializeConnection(std::ptr::null(), std::ptr::null(), 0) };
    // SAFETY: runs `unpublish` as the process exits, so that a caller
    // waiting meanwhile says the worker is not running.
    unsafe { pg_sys::before_shmem_exit(Some(unpublish), pg_sys::Datum::from(0)) };
    // SAFETY: a setting of this process's own: a lock someone holds on a
    // catalog this worker reads ends its wait, not its work.
    unsafe {
        pg_sys::SetConfigOption(
            c"lock_timeout".as_ptr(),
            LOCK_TIMEOUT_MS.as_ptr(),
            pg_sys::GucContext::PGC_SUSET,
            pg_sys::GucSource::PGC_S_OVERRIDE,
        )
    };
    if let Err(why) = libpq::load() {
        pgrx::log!("chronoid: the peer worker cannot ask other servers: {why}");
    }
    // SAFETY: this process's latch and pid, for callers to wake it.
    unsafe { verdict::publish_worker(pg_sys::MyLatch, pg_sys::MyProcPid) };
    // Prepared changes a restart or crash took out of shared memory.
    changes::reload_prepared();
    // A successor recorded before a restart or crash.
    handover::load();
    let mut w = Worker {
        citus_preloaded: crate::pg::guards::preloads("citus"),
        ..Default::default()
    };
    loop {
        // SAFETY: this process's latch.
        unsafe { pg_sys::ResetLatch(pg_sys::MyLatch) };
        pgrx::check_for_interrupts!();
        // SAFETY: a flag PostgreSQL's handler sets.
        let reload = unsafe { pg_sys::ConfigReloadPending } != 0;
        crate::pg::worker::reload_if_asked();
        let mut judge = false;
        // The epoch before the look: a change told meanwhile (a session
        // that commits it) is looked at again in the next turn.
        let epoch = verdict::epoch();
        // A change prepared for two-phase commit: nothing is judged until
        // it is committed or rolled back (callers wait, the epoch having
        // moved on as it prepared); once it has ended, as if it had been
        // committed now.
        let (prepared, ended) = changes::prepared_changes();
        if !ended.is_empty() {
            for db in ended {
                changes::schemas_changed(db);
            }
            continue;
        }
        if let Some(xid) = prepared.first() {
            w.step_questions();
            verdict::hold_all(
                epoch,
                &chronoid_formats::reason!("waiting for prepared transaction {xid}, which changes what the verdict rests on, to be committed or rolled back"),
            );
            libpq::wait(
                w.questions.iter().filter_map(|(_, q)| q.connection()),
                PREPARED_POLL,
            );
            continue;
        }
        let asked = changes::take_look_request();
        if asked {
            w.read_citus_now();
        }
        if reload
            || asked
            || w.judged_epoch != epoch
            || w.looked.is_none_or(|t| t.elapsed() >= LOOK_EVERY)
        {
            // A change told by a backend (an invalidation of a Citus
            // formation's table among them): every Citus database's
            // formation is read again before its verdict is.
            if w.judged_epoch != epoch {
                w.mark_citus_stale();
            }
            w.look();
            judge = true;
        }
        w.start_formation_questions();
        judge |= w.step_questions();
        if judge {
            let round = w.judge_all(epoch);
            w.start_due_questions(&round);
            w.ask_predecessor(&round.ledger);
            w.tell_releases();
        }
        let next_look = w
            .looked
            .map_or(Duration::ZERO, |t| LOOK_EVERY.saturating_sub(t.elapsed()));
        libpq::wait(
            w.questions.iter().filter_map(|(_, q)| q.connection()),
            next_look,
        );
    }
}

impl Worker {
    /// Reads the settings, the subscriptions and the databases.
    fn look(&mut self) {
        self.looked = Some(Instant::now());
        self.settings = identity::settings();
        self.predecessor = handover::Predecessor::look(self.predecessor.take());
        // SAFETY: a transaction for the catalog scans; aborted if one
        // raises (a lock not had within `lock_timeout`).
        unsafe { pg_sys::StartTransactionCommand() };
        let read = pgrx::PgTryBuilder::new(|| {
            let subs = subscriptions::all();
            let superuser_owned: Vec<bool> = subs
                .iter()
                .map(|s| subscriptions::owned_by_superuser(s.owner))
                .collect();
            let dbs = if self.citus_preloaded {
                crate::pg::catalog::connectable_databases()
            } else {
                Vec::new()
            };
            // SAFETY: the bootstrap superuser's name (oid 10), a syscache
            // lookup in this transaction.
            let superuser = unsafe {
                let p = pg_sys::GetUserNameFromId(pg_sys::Oid::from(10), true);
                (!p.is_null()).then(|| std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned())
            };
            Ok((subs, superuser_owned, dbs, superuser.unwrap_or_default()))
        })
        .catch_others(|e| match e {
            pgrx::pg_sys::panic::CaughtError::PostgresError(r)
            | pgrx::pg_sys::panic::CaughtError::ErrorReport(r) => Err(r.message().to_owned()),
            other => other.rethrow(),
        })
        .execute();
        match read {
            Ok((subs, owned, dbs, superuser)) => {
                // SAFETY: the transaction started above.
                unsafe { pg_sys::CommitTransactionCommand() };
                self.note.clear();
                self.superuser = superuser;
                for (sub, owned) in subs.iter().zip(&owned) {
                    if !owned && self.warned.insert(sub.oid) {
                        pgrx::warning!(
                            "chronoid: subscription \"{}\" is not owned by a superuser: its publisher is not asked for its node id, and cannot stop this server minting",
                            sub.name
                        );
                    }
                }
                self.warned.retain(|oid| subs.iter().any(|s| s.oid == *oid));
                self.subscriptions = subs
                    .into_iter()
                    .zip(owned)
                    .filter_map(|(s, o)| o.then_some(s))
                    .collect();
                self.databases
                    .retain(|db, _| dbs.iter().any(|(d, _)| d == db));
                for (db, name) in dbs {
                    self.databases.entry(db).or_default().name = name;
                }
                let changed = changes::take_schemas_changed();
                for (db, d) in self.databases.iter_mut() {
                    if changed.as_ref().is_none_or(|dbs| dbs.contains(db)) {
                        d.stale_since = Some(Instant::now());
                    }
                }
            }
            Err(why) => {
                // SAFETY: the transaction started above, after its error.
                unsafe { pg_sys::AbortCurrentTransaction() };
                self.note = chronoid_formats::reason!(
                    "minting on the last verdict: the catalogs could not be read ({why})"
                );
            }
        }
    }

    /// Asks the server this one was a standby of to give way, when due.
    fn ask_predecessor(&mut self, ledger: &chronoid_formats::node_ledger::Ledger) {
        let busy = self
            .questions
            .iter()
            .any(|(t, _)| matches!(t, Target::Predecessor { .. }));
        let Some(p) = self.predecessor.as_mut().filter(|_| !busy) else {
            return;
        };
        if let Some((conninfo, appname)) = p.due(ledger) {
            let key = p.key.clone();
            let q = Question::successor(&conninfo, &appname);
            self.questions.push((Target::Predecessor { key }, q));
        }
    }

    /// Tells each node that held a Citus group, and is no longer listed
    /// for it, to stop, when due.
    fn tell_releases(&mut self) {
        let questions = &self.questions;
        let due = self.releases.due(|db, group| {
            questions.iter().any(|(t, _)| matches!(t, Target::Release { db: d, group: g } if (*d, *g) == (db, group)))
        });
        for (db, group, node) in due {
            let Some(d) = self.databases.get(&db) else {
                continue;
            };
            let conninfo = citus::conninfo_of(&node, &d.name, &self.superuser, &citus::options());
            let q = Question::release(&conninfo, group);
            self.questions.push((Target::Release { db, group }, q));
        }
    }

    /// Every Citus database's formation read at the next chance, its
    /// verdict not held back meanwhile.
    fn read_citus_now(&mut self) {
        for d in self.databases.values_mut() {
            if matches!(d.citus, Some(Some(_))) {
                d.looked = None;
            }
        }
    }

    fn mark_citus_stale(&mut self) {
        for d in self.databases.values_mut() {
            if matches!(d.citus, Some(Some(_))) || d.unreadable.is_some() {
                d.stale_since = Some(Instant::now());
            }
        }
    }

    fn start_formation_questions(&mut self) {
        if !self.citus_preloaded || self.superuser.is_empty() {
            return;
        }
        let busy: HashSet<u32> = self
            .questions
            .iter()
            .filter_map(|(t, _)| match t {
                Target::Formation { db, .. } => Some(*db),
                _ => None,
            })
            .collect();
        let due: Vec<(u32, String)> = self
            .databases
            .iter()
            .filter(|(db, d)| {
                let every = match d.citus {
                    Some(None) => LOOK_AGAIN_NOT_CITUS,
                    _ => LOOK_EVERY,
                };
                // One question per database at a time: a change told
                // meanwhile is read by the next, started once it ends.
                !busy.contains(db)
                    && (d.stale_since.is_some() || d.looked.is_none_or(|t| t.elapsed() >= every))
            })
            .map(|(db, d)| (*db, d.name.clone()))
            .collect();
        for (db, name) in due {
            if let Some(d) = self.databases.get_mut(&db) {
                d.looked = Some(Instant::now());
            }
            let q = Question::formation(&libpq::local_conninfo(&name, &self.superuser));
            let started = Instant::now();
            self.questions.push((Target::Formation { db, started }, q));
        }
    }

    /// Drives every question on; whether any finished.
    fn step_questions(&mut self) -> bool {
        let now = crate::pg::clock::now_ms();
        let mut done = Vec::new();
        let mut i = 0;
        while i < self.questions.len() {
            match self.questions[i].1.step(now) {
                Some(outcome) => done.push((self.questions.swap_remove(i).0, outcome)),
                None => i += 1,
            }
        }
        if done.is_empty() {
            return false;
        }
        let mut answers = Vec::new();
        for (target, outcome) in done {
            match (target, outcome) {
                (
                    Target::Peer {
                        key,
                        own,
                        learn,
                        name,
                        log,
                    },
                    Outcome::Peer(r),
                ) => match r {
                    Ok(a) => {
                        self.failed.remove(&key);
                        answers.push((key, own, a, learn));
                    }
                    Err(why) => {
                        // As an apply worker logs a publisher it cannot reach.
                        if log {
                            pgrx::log!("chronoid: could not ask {name} for its node id: {why}");
                        }
                        self.failed.insert(key, why);
                    }
                },
                (
                    Target::Holding {
                        own,
                        db,
                        group,
                        coordinator,
                        started_ms,
                    },
                    Outcome::Holding(r),
                ) => {
                    let key = judging::holding_key(db, group);
                    match r {
                        Ok((h, stop)) => {
                            let before = judging::said_to_me(&ledger::read(), db, group, own);
                            let h = h.after(before.as_ref());
                            if !release::holding_stands(db, group, started_ms, &h) {
                                continue;
                            }
                            release::resume_above(db, group, own, stop);
                            self.failed.remove(&key);
                            // Recorded as said to this instance (its system
                            // identifier and rank in the entry's own columns).
                            let answer = asking::Answer {
                                told: Told::Holding(h),
                                name: String::new(),
                                known: vec![instance::own(own)],
                            };
                            answers.push((key, own, answer, false));
                        }
                        Err(why) => {
                            pgrx::log!("chronoid: could not ask the Citus coordinator {coordinator} which node holds group {group}: {why}");
                            self.failed.insert(key, why);
                        }
                    }
                }
                (Target::Release { db, group }, Outcome::Release(r)) => {
                    self.releases.told(db, group, r);
                }
                (Target::Predecessor { key }, Outcome::Successor(r)) => match r {
                    Ok(said) => {
                        self.failed.remove(&key);
                        let (handover, name) = handover::took_place(said);
                        let answer = asking::Answer {
                            told: Told::Handover(handover),
                            name,
                            known: vec![instance::own(identity::node_id_set())],
                        };
                        answers.push((key, identity::node_id_set(), answer, false));
                    }
                    Err(why) => {
                        if self.failed.get(&key) != Some(&why) {
                            pgrx::log!("chronoid: could not ask the server this one was a standby of (primary_conninfo) to give way: {why}{}", if chronoid_formats::node_handover::taken_for_down(&why) { "; taken for down, as after a failover: minting (docs/across-servers.md, \"Handover\")" } else { "; asking again before minting" });
                        }
                        self.failed.insert(key, why);
                    }
                },
                (Target::Formation { db, started }, Outcome::Formation(r)) => {
                    if let Some(d) = self.databases.get_mut(&db) {
                        // A question started before the change it is to
                        // read leaves the database stale: the next reads it.
                        if d.stale_since.is_some_and(|t| started >= t) {
                            d.stale_since = None;
                        }
                        match r {
                            Ok(Formation::NotCitus) => {
                                d.citus = Some(None);
                                d.unreadable = None;
                            }
                            Ok(Formation::Citus {
                                group,
                                nodes,
                                tables,
                            }) => {
                                // A coordinator: a group's holder replaced
                                // or removed is told to stop at once.
                                if group == Some(0) {
                                    self.releases.formation_read(db, &nodes);
                                }
                                d.citus = Some(Some((group, nodes, tables)));
                                d.unreadable = None;
                            }
                            // A formation read before stands; never read,
                            // the database refuses while it cannot be.
                            Err(why) => d.unreadable = Some(why),
                        }
                    }
                }
                _ => {}
            }
        }
        if !answers.is_empty() {
            let keys: Vec<String> = self.subscriptions.iter().map(judging::key_of).collect();
            asking::record(&answers, crate::pg::clock::now_ms(), |p| {
                !p.key.starts_with("subscription ") || keys.contains(&p.key)
            });
        }
        true
    }
}
