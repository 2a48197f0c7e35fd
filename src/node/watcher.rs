//! The peer worker: a background worker on every primary that keeps a
//! verdict per database (`verdict.rs`) on whether this server may mint,
//! so that no caller ever asks another server. It connects to no database
//! (as PostgreSQL's logical replication launcher) and, for each database
//! where IDs are minted or that has subscriptions, starts a judge connected
//! to it (`judge.rs`; `libpqwalreceiver` runs a query only from a backend
//! connected to a database, and a Citus node's id and formation are a
//! database's): at once when the configuration moves on, and every
//! `ASK_EVERY_MS` to ask every peer again, whether or not this server
//! mints. A server between two others (B in A ⇄ B ⇄ C) may never call a
//! generator; its own asking keeps each publisher's last answer for as
//! long as the subscription is there, and passes it on to whoever asks.
//!
//! Judges run side by side, one per database at a time; the worker never
//! waits on one, so a peer that never answers delays only its own judge.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use pgrx::bgworkers::{BackgroundWorkerBuilder, BgWorkerStartTime, DynamicBackgroundWorker};
use pgrx::pg_sys;

use super::{identity, judge, verdict};
use chronoid_formats::node_verdict::{State, Verdict};

/// How often every peer is asked again: a peer's own change of node id is
/// seen here within it.
const ASK_EVERY: Duration = Duration::from_secs(10);

/// How soon a refusal (or a peer still unheard) is asked again.
const ASK_AGAIN_AFTER_REFUSAL: Duration = Duration::from_secs(5);

/// How long a judge behind the epoch may go on before it is stopped (one
/// that is about to finish is left to).
const STOP_JUDGE_BEHIND_AFTER: Duration = Duration::from_millis(200);

/// How often the worker looks, when nothing wakes it.
const LOOK_EVERY_MS: u64 = 1_000;

/// From `_PG_init` while preloading.
pub fn register_worker() {
    // SAFETY: GUC variables, read from the configuration before preloading.
    let (slots, parallel) = unsafe { (pg_sys::max_worker_processes, pg_sys::max_parallel_workers) };
    let logical = crate::pg::guc::config_text(c"max_logical_replication_workers")
        .and_then(|v| v.to_str().ok()?.parse::<i32>().ok())
        .unwrap_or(0);
    // The reserver and this worker, and one judge at a time: parallel
    // query and logical replication may take every other slot, and a
    // caller that needs a verdict (after a start, after a change) waits for
    // a judge. Logged, not refused: a server runs with it, and most of the
    // time its verdicts stand.
    if slots < parallel + logical + 3 {
        pgrx::log!(
            "chronoid: max_worker_processes ({slots}) leaves chronoid no worker slot once parallel query (max_parallel_workers, {parallel}) and logical replication (max_logical_replication_workers, {logical}) take theirs; set it to at least {} (docs/across-servers.md, \"Trust and limits\"), or callers that need a verdict may wait 12 s and refuse",
            parallel + logical + 3
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
    // SAFETY: this process's latch and pid, for callers to wake it.
    unsafe { verdict::publish_worker(pg_sys::MyLatch, pg_sys::MyProcPid) };
    let mut settings = identity::settings();
    // Each running judge, with the epoch it was started under.
    let mut judges: HashMap<u32, (DynamicBackgroundWorker, u32, Instant)> = HashMap::new();
    let mut last_full: HashMap<u32, Instant> = HashMap::new();
    let mut warned: HashSet<u32> = HashSet::new();
    loop {
        // SAFETY: this process's latch.
        unsafe { pg_sys::ResetLatch(pg_sys::MyLatch) };
        pgrx::check_for_interrupts!();
        crate::pg::worker::reload_if_asked();
        if identity::settings() != settings {
            settings = identity::settings();
            verdict::worker_saw_change();
        }
        look(&mut warned);
        judges.retain(|_, (j, _, _)| {
            matches!(
                j.pid(),
                Ok(_) | Err(pgrx::bgworkers::BackgroundWorkerStatus::NotYetStarted)
            )
        });
        // A judge still asking a peer under an epoch that has moved on is
        // stopped, so that callers waiting on the new configuration wait
        // for a new judge, never for a peer the old one waits on.
        let now_epoch = Verdict::epoch_of(verdict::epoch());
        let behind: Vec<u32> = judges
            .iter()
            .filter(|(_, (_, e, started))| {
                *e != now_epoch && started.elapsed() > STOP_JUDGE_BEHIND_AFTER
            })
            .map(|(db, _)| *db)
            .collect();
        for db in behind {
            if let Some((j, _, _)) = judges.remove(&db) {
                // It ends at its next interrupt check (its wait on the
                // peer's socket checks at once; a name lookup may not).
                // Not waited for: a judge that does not end (a resolver
                // that ignores signals) must not hold up every other
                // database's; what it may still publish is for an epoch
                // gone, which never replaces a newer verdict
                // (`verdict::publish`) and lets no caller mint.
                let _ = j.terminate();
            }
        }
        let epoch = Verdict::epoch_of(verdict::epoch());
        for db in verdict::databases() {
            if judges.contains_key(&db) {
                continue;
            }
            let word = verdict::word_of(db);
            // A refusal is asked again sooner: a peer back in reach, or one
            // given another id, is seen within it.
            let every = match word.map(|v| v.state) {
                Some(State::Allowed) => ASK_EVERY,
                _ => ASK_AGAIN_AFTER_REFUSAL,
            };
            let full = last_full.get(&db).is_none_or(|t| t.elapsed() >= every);
            let stale = word.is_none_or(|v| v.epoch != epoch);
            if !(full || stale) {
                continue;
            }
            if let Some(j) = start_judge(db, full) {
                judges.insert(db, (j, epoch, Instant::now()));
                if full {
                    last_full.insert(db, Instant::now());
                }
            }
        }
        crate::pg::worker::wait(LOOK_EVERY_MS);
    }
}

/// Wants a verdict for each database with subscriptions (a relay's peers
/// are asked whether or not it mints), forgets databases dropped, and logs
/// once each subscription a superuser does not own.
fn look(warned: &mut HashSet<u32>) {
    // SAFETY: a transaction for the catalog scans.
    unsafe { pg_sys::StartTransactionCommand() };
    let subscriptions = crate::pg::subscriptions::all();
    for sub in &subscriptions {
        if !crate::pg::subscriptions::owned_by_superuser(sub.owner) {
            if warned.insert(sub.oid) {
                pgrx::warning!(
                    "chronoid: subscription \"{}\" is not owned by a superuser: its publisher is not asked for its node id, and cannot stop this server minting",
                    sub.name
                );
            }
        } else if sub.enabled {
            verdict::want(sub.dboid);
        }
    }
    warned.retain(|oid| subscriptions.iter().any(|s| s.oid == *oid));
    // The slots before the catalog: a database a backend claimed a slot
    // for was created before it connected, so before this scan.
    let wanted = verdict::databases();
    // SAFETY: a fresh catalog snapshot for the scan below, taken after the
    // slots were read.
    unsafe { pg_sys::InvalidateCatalogSnapshot() };
    let databases = crate::pg::catalog::database_oids();
    for db in wanted {
        if !databases.contains(&db) {
            verdict::forget(db);
        }
    }
    // SAFETY: the transaction started above.
    unsafe { pg_sys::CommitTransactionCommand() };
}

/// Starts a judge in database `db`; `None` where no worker slot is free
/// (logged; the next look tries again).
fn start_judge(db: u32, full: bool) -> Option<DynamicBackgroundWorker> {
    let arg = u64::from(db) | (u64::from(full) << 32);
    BackgroundWorkerBuilder::new("chronoid peer judge")
        .set_library("chronoid")
        .set_function("chronoid_peer_judge_main")
        .enable_spi_access()
        .set_restart_time(None)
        .set_argument(Some(pg_sys::Datum::from(arg)))
        // SAFETY: this process's pid, to be told when the judge ends.
        .set_notify_pid(unsafe { pg_sys::MyProcPid })
        .load_dynamic()
        .inspect(|_| verdict::note_starved(false))
        .inspect_err(|e| {
            verdict::note_starved(true);
            // Once a minute at most: with every slot taken, every look of
            // every database fails alike.
            thread_local! {
                static LAST: std::cell::Cell<Option<(Instant, u64)>> = const { std::cell::Cell::new(None) };
            }
            match LAST.get() {
                Some((at, n)) if at.elapsed() < Duration::from_secs(60) => LAST.set(Some((at, n + 1))),
                last => {
                    let since = last.map_or(String::new(), |(_, n)| {
                        format!(" ({n} more times in the last minute)")
                    });
                    pgrx::log!("chronoid: could not start a peer judge: {e:?}{since}; callers that need a verdict wait for one (see max_worker_processes)");
                    LAST.set(Some((Instant::now(), 0)));
                }
            }
        })
        .ok()
}

/// A judge's entry point: one judging of the database its argument names.
#[pgrx::pg_guard]
#[no_mangle]
pub extern "C-unwind" fn chronoid_peer_judge_main(arg: pg_sys::Datum) {
    crate::pg::worker::set_signal_handlers(false);
    let db = arg.value() as u32;
    let full = (arg.value() >> 32) & 1 == 1;
    // SAFETY: a database that wanted a verdict a moment ago (gone: the
    // connection fails, the judge ends, the worker forgets it).
    unsafe {
        pg_sys::BackgroundWorkerInitializeConnectionByOid(
            pg_sys::Oid::from(db),
            pg_sys::InvalidOid,
            0,
        )
    };
    judge::judge_database(db, full);
    verdict::wake_worker();
}
