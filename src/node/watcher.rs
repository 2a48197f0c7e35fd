//! The peer worker: a background worker on every primary that has each
//! subscription's publisher asked its node id every few seconds and the
//! answer recorded (`peers::watch`), whether or not this server mints. A
//! server between two others (B in A ⇄ B ⇄ C) may never call a generator;
//! without its own asking it would know A and C only while they ask it, and
//! would forget a server cut off from it. With it, B keeps each
//! publisher's last answer for as long as the subscription is there, and
//! passes it on to whoever asks.
//!
//! As PostgreSQL's logical replication launcher, it connects to no
//! database and reads `pg_subscription` (a shared catalog); as its apply
//! workers, the asking runs in a worker of its own in each database that
//! has subscriptions (`libpqwalreceiver` runs a query only from a backend
//! connected to a database), one database after another.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::time::Duration;

use pgrx::bgworkers::{BackgroundWorkerBuilder, BgWorkerStartTime};
use pgrx::pg_sys;

/// How often the publishers are asked: well inside a minute (the longest a
/// backend's verdict stands) and inside `REFRESH_AFTER_MS`.
const ASK_EVERY_MS: u64 = 15_000;

/// From `_PG_init` while preloading.
pub fn register_worker() {
    BackgroundWorkerBuilder::new("chronoid peer worker")
        .set_library("chronoid")
        .set_function("chronoid_peer_worker_main")
        // Shared memory and a connection (to no database).
        .enable_spi_access()
        // A standby mints nothing, and asks nobody.
        .set_start_time(BgWorkerStartTime::RecoveryFinished)
        .set_restart_time(Some(Duration::from_secs(10)))
        .load();
}

/// The worker's entry point (named in `register_worker`).
#[pgrx::pg_guard]
#[no_mangle]
pub extern "C-unwind" fn chronoid_peer_worker_main(_arg: pg_sys::Datum) {
    crate::pg::worker::set_signal_handlers(false);
    // SAFETY: the shared catalogs, with no database.
    unsafe { pg_sys::BackgroundWorkerInitializeConnection(std::ptr::null(), std::ptr::null(), 0) };
    loop {
        // SAFETY: this process's latch.
        unsafe { pg_sys::ResetLatch(pg_sys::MyLatch) };
        pgrx::check_for_interrupts!();
        // SAFETY: a transaction for the catalog scan.
        let databases = unsafe {
            crate::pg::worker::reload_if_asked();
            super::ledger::publish_setting(super::identity::node_id_set());
            pg_sys::StartTransactionCommand();
            let mut databases: Vec<u32> = super::peers::asked_subscriptions()
                .iter()
                .map(|sub| sub.dboid)
                .collect();
            pg_sys::CommitTransactionCommand();
            databases.sort_unstable();
            databases.dedup();
            databases
        };
        for db in databases {
            ask_in(db);
        }
        crate::pg::worker::wait(ASK_EVERY_MS);
    }
}

/// Runs one round of asking in database `db`, in a worker of its own, and
/// waits for it. No free worker slot: the round is left to the next.
fn ask_in(db: u32) {
    let launched = BackgroundWorkerBuilder::new("chronoid peer asker")
        .set_library("chronoid")
        .set_function("chronoid_peer_asker_main")
        .enable_spi_access()
        .set_restart_time(None)
        .set_argument(Some(pg_sys::Datum::from(db)))
        // SAFETY: this process's pid, to be told when the asker ends.
        .set_notify_pid(unsafe { pg_sys::MyProcPid })
        .load_dynamic();
    match launched {
        Ok(asker) => {
            let _ = asker.wait_for_shutdown();
        }
        Err(e) => pgrx::log!("chronoid: could not start a peer asker: {e:?}"),
    }
}

/// The asker's entry point: one round in the database its argument names.
#[pgrx::pg_guard]
#[no_mangle]
pub extern "C-unwind" fn chronoid_peer_asker_main(arg: pg_sys::Datum) {
    crate::pg::worker::set_signal_handlers(false);
    let db = pg_sys::Oid::from(arg.value() as u32);
    // SAFETY: a database that had a subscription a moment ago (gone: the
    // connection fails, the worker ends, the next round asks again).
    unsafe {
        pg_sys::BackgroundWorkerInitializeConnectionByOid(db, pg_sys::InvalidOid, 0);
        pg_sys::StartTransactionCommand();
    }
    super::peers::watch(u32::from(db));
    // SAFETY: the transaction started above.
    unsafe { pg_sys::CommitTransactionCommand() };
}
