//! What a backend that changes what a verdict rests on tells the peer
//! worker, so that it judges the change at once rather than at its next
//! look: a subscription created, altered, enabled, disabled or dropped (a
//! syscache invalidation of `pg_subscription`), a Citus formation's table
//! changed (a relcache invalidation naming `pg_dist_node` or
//! `pg_dist_local_group`, whose oids the worker published beside the
//! database's verdict, or every relation), or a schema created or dropped
//! where Citus was made or dropped (`CREATE EXTENSION citus` makes one,
//! and the database a Citus node: the worker reads it again before it
//! judges). The transaction that wrote the change moves the configuration
//! epoch on as it commits, once its commit is visible
//! (`verdict::configuration_changed`); callers then wait for the worker's
//! verdict on the new configuration. It sees its own invalidation before
//! it commits because it makes its last command's changes visible to
//! itself first (`CommandCounterIncrement`, as a transaction block does
//! after each statement): a change made alone (`ALTER SUBSCRIPTION …
//! ENABLE` in autocommit) queues its invalidation for the commit, after
//! the last chance to tell. A transaction prepared for two-phase commit
//! (as a Citus coordinator prepares its metadata sync on every node) is
//! committed later by another backend, whose own callbacks know nothing
//! of it: it is noted in shared memory as it prepares, the epoch moves on,
//! and the worker judges nothing until it has ended (`prepared_changes`).
//! Backends that only receive the invalidation (every other one) tell
//! nothing but the worker: a Citus
//! formation's metadata sync, or the worker's own reading of it, sets no
//! storm of epochs going. No catalog is read in a callback.
//!
//! Registered once by the postmaster while preloading (`_PG_init`), so
//! that every backend has them from its start.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::cell::{Cell, RefCell};

use pgrx::pg_sys;

use std::sync::atomic::Ordering;

use super::verdict;

thread_local! {
    /// A Citus formation's table's invalidation seen in this transaction
    /// (only a superuser may write those tables).
    static CHANGE_SEEN: Cell<bool> = const { Cell::new(false) };
    /// The syscache hash values of the subscriptions whose invalidations
    /// were seen in this transaction (more than `MAX_HASHES`: `None`).
    static SUBSCRIPTIONS_SEEN: RefCell<Option<Vec<u32>>> = const { RefCell::new(Some(Vec::new())) };
    /// This transaction wrote and saw one: told as it commits.
    static AT_COMMIT: Cell<bool> = const { Cell::new(false) };
    /// A schema's invalidation seen in this transaction.
    static SCHEMAS_SEEN: Cell<bool> = const { Cell::new(false) };
    /// A superuser's transaction that wrote and saw one: told as it commits.
    static SCHEMAS_AT_COMMIT: Cell<bool> = const { Cell::new(false) };
    /// The slot this transaction holds in `Shared::prepared` while it
    /// prepares.
    static PREPARED_SLOT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// This transaction's invalidations run here before it commits or
/// prepares (a no-op where its last command changed nothing), so that
/// `CHANGE_SEEN` and `SCHEMAS_SEEN` know of its own changes. Returns its
/// xid (`None`: it wrote nothing).
fn own_changes_seen() -> Option<pg_sys::TransactionId> {
    // SAFETY: still in the transaction (a pre-commit or pre-prepare
    // callback), which PostgreSQL's own deferred triggers may still run
    // commands in; parallel mode forbids a new command.
    unsafe {
        let xid = pg_sys::GetTopTransactionIdIfAny();
        if xid == pg_sys::InvalidTransactionId {
            return None;
        }
        if !pg_sys::IsInParallelMode() {
            pg_sys::CommandCounterIncrement();
        }
        Some(xid)
    }
}

fn my_db() -> u32 {
    // SAFETY: this backend's database.
    u32::from(unsafe { pg_sys::MyDatabaseId })
}

/// From `_PG_init`, while preloading.
pub fn register() {
    // SAFETY: callbacks that live as long as every process; PostgreSQL
    // keeps up to MAX_SYSCACHE_CALLBACKS and MAX_RELCACHE_CALLBACKS.
    unsafe {
        pg_sys::CacheRegisterSyscacheCallback(
            pg_sys::SysCacheIdentifier::SUBSCRIPTIONOID as i32,
            Some(on_subscription),
            pg_sys::Datum::from(0),
        );
        pg_sys::CacheRegisterSyscacheCallback(
            // Schemas, not extensions (no syscache before 18): Citus's
            // extension script creates its schema `citus`, and dropping
            // the extension drops it.
            pg_sys::SysCacheIdentifier::NAMESPACEOID as i32,
            Some(on_schema),
            pg_sys::Datum::from(0),
        );
        pg_sys::CacheRegisterRelcacheCallback(Some(on_relcache), pg_sys::Datum::from(0));
        pg_sys::RegisterXactCallback(Some(on_xact), std::ptr::null_mut());
    }
}

/// A Citus formation's table, seen in this transaction: told as it
/// commits, if it wrote (the session that made the change). A backend that
/// only receives the invalidation (every other one, after the commit) has
/// nothing to tell: the writer told it already, once, as its commit became
/// visible.
fn changed() {
    // SAFETY: whether this backend is in a transaction.
    if unsafe { pg_sys::IsTransactionState() } {
        CHANGE_SEEN.set(true);
    }
    // Whoever hears of it first (the worker itself, any backend) has the
    // worker look at once: a change whose writer did not see its own
    // invalidation before it committed is judged within moments.
    request_look();
}

/// Subscriptions told of one by one in a transaction; past it, any.
const MAX_HASHES: usize = 64;

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn on_subscription(_arg: pg_sys::Datum, _cache: i32, hash: u32) {
    // SAFETY: as in `changed`.
    if unsafe { pg_sys::IsTransactionState() } {
        SUBSCRIPTIONS_SEEN.with_borrow_mut(|seen| {
            if let Some(hashes) = seen {
                if hashes.len() < MAX_HASHES && hash != 0 {
                    hashes.push(hash);
                } else {
                    *seen = None;
                }
            }
        });
    }
    request_look();
}

/// Whether the subscriptions changed in this transaction include one a
/// verdict rests on: owned by a superuser once changed (created, altered,
/// given to one). A subscription dropped, or given to a role that is not
/// a superuser, leaves fewer peers to judge: the verdict standing is no
/// less safe. Who commits does not matter (a superuser's function another
/// role calls, or `SET ROLE` before the commit): what changed does.
fn a_verdicts_subscription_changed() -> bool {
    let seen = SUBSCRIPTIONS_SEEN.replace(Some(Vec::new()));
    if seen.as_ref().is_some_and(Vec::is_empty) {
        return false;
    }
    crate::pg::subscriptions::all().iter().any(|sub| {
        crate::pg::subscriptions::owned_by_superuser(sub.owner)
            && seen.as_ref().is_none_or(|hashes| {
                // SAFETY: the catalog cache's hash of a key, no lookup.
                let hash = unsafe {
                    pg_sys::GetSysCacheHashValue(
                        pg_sys::SysCacheIdentifier::SUBSCRIPTIONOID as i32,
                        pg_sys::Datum::from(sub.oid),
                        pg_sys::Datum::from(0),
                        pg_sys::Datum::from(0),
                        pg_sys::Datum::from(0),
                    )
                };
                hashes.contains(&hash)
            })
    })
}

/// Whether this database has Citus, and the worker does not count it a
/// Citus node, or the other way round (`CREATE EXTENSION citus` made a
/// schema, or `DROP EXTENSION` dropped one): only then do schemas matter,
/// so no role churning schemas of its own holds callers up.
fn citus_here_changed() -> bool {
    // SAFETY: a catalog lookup, in this transaction.
    let has = unsafe { pg_sys::get_extension_oid(c"citus".as_ptr(), true) } != pg_sys::InvalidOid;
    has != verdict::lists_citus(my_db())
}

/// A schema created, altered or dropped (`CREATE EXTENSION citus` makes
/// one): whether this database is a Citus node may have changed. Told as
/// the transaction commits only where Citus's presence here disagrees with
/// what the worker last read (`citus_here_changed`): no role can make
/// callers wait by creating and dropping schemas or extensions.
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn on_schema(_arg: pg_sys::Datum, _cache: i32, _hash: u32) {
    // SAFETY: as in `changed`.
    if unsafe { pg_sys::IsTransactionState() } {
        SCHEMAS_SEEN.set(true);
    }
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn on_relcache(_arg: pg_sys::Datum, relid: pg_sys::Oid) {
    if relid == pg_sys::InvalidOid || verdict::is_formation_table(my_db(), u32::from(relid)) {
        changed();
    }
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn on_xact(event: pg_sys::XactEvent::Type, _arg: *mut std::ffi::c_void) {
    match event {
        // Still in the transaction: the catalog may be read.
        // Only a change a verdict rests on counts (a superuser's
        // subscription, a Citus formation's tables, Citus itself): no
        // other role's, however it churns its own subscriptions and
        // schemas, or prepares and leaves them, moves the epoch or holds a
        // verdict.
        pg_sys::XactEvent::XACT_EVENT_PRE_COMMIT => {
            let (change, schemas) = own_change_counts().map_or((false, false), |(_, c, s)| (c, s));
            AT_COMMIT.set(change);
            SCHEMAS_AT_COMMIT.set(schemas);
        }
        pg_sys::XactEvent::XACT_EVENT_PRE_PREPARE => {
            if let Some((xid, true, _) | (xid, _, true)) = own_change_counts() {
                PREPARED_SLOT.set(Some(note_prepared(xid, my_db())));
            }
        }
        pg_sys::XactEvent::XACT_EVENT_PREPARE if PREPARED_SLOT.take().is_some() => {
            verdict::configuration_changed();
        }
        pg_sys::XactEvent::XACT_EVENT_COMMIT => {
            if SCHEMAS_AT_COMMIT.replace(false) {
                schemas_changed(my_db());
            }
            if AT_COMMIT.replace(false) {
                verdict::configuration_changed();
            }
        }
        pg_sys::XactEvent::XACT_EVENT_ABORT => {
            // A transaction that failed to prepare after it was noted.
            if let Some(i) = PREPARED_SLOT.take() {
                let (xid, db) = xid_and_db(verdict::shared().prepared[i].swap(0, Ordering::AcqRel));
                let _ = std::fs::remove_file(prepared_path(xid, db));
            }
            forget_seen();
            AT_COMMIT.set(false);
            SCHEMAS_AT_COMMIT.set(false);
        }
        _ => {}
    }
}

/// A backend that received an invalidation of what a verdict rests on:
/// the worker looks at once, without moving the epoch (the writer moved
/// it as it committed; callers are not held up by every backend that hears
/// of it, as a Citus formation's metadata sync makes many hear).
pub fn request_look() {
    if !verdict::is_preloaded() {
        return;
    }
    verdict::shared().look_requested.store(1, Ordering::Release);
    verdict::wake_worker();
}

/// The worker: whether a look was asked for since it last asked.
pub fn take_look_request() -> bool {
    verdict::shared().look_requested.swap(0, Ordering::AcqRel) != 0
}

/// A backend: the schemas of database `db` changed (the worker looks
/// at whether it is a Citus node again, before it judges the epoch this
/// moves on to).
pub fn schemas_changed(db: u32) {
    if !verdict::is_preloaded() || db == 0 {
        return;
    }
    let s = verdict::shared();
    let noted = s.schemas_changed.iter().any(|e| {
        e.load(Ordering::Acquire) == db
            || e.compare_exchange(0, db, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
    });
    if !noted {
        s.rescan_all.store(1, Ordering::Release);
    }
    verdict::configuration_changed();
}

/// The worker: the databases whose schemas changed since it last
/// asked (`None`: every database).
pub fn take_schemas_changed() -> Option<Vec<u32>> {
    let s = verdict::shared();
    let all = s.rescan_all.swap(0, Ordering::AcqRel) != 0;
    let dbs: Vec<u32> = s
        .schemas_changed
        .iter()
        .map(|e| e.swap(0, Ordering::AcqRel))
        .filter(|db| *db != 0)
        .collect();
    (!all).then_some(dbs)
}

/// At pre-commit or pre-prepare: where this transaction wrote, its xid,
/// whether it changed what a verdict rests on, and whether it made or
/// dropped Citus here.
fn own_change_counts() -> Option<(pg_sys::TransactionId, bool, bool)> {
    let Some(xid) = own_changes_seen() else {
        forget_seen();
        return None;
    };
    let (change, schemas) = counts_seen();
    Some((xid, change, schemas))
}

/// What the invalidations seen in this transaction come to (and forgets
/// them): a change a verdict rests on, Citus made or dropped here.
fn counts_seen() -> (bool, bool) {
    let formation = CHANGE_SEEN.replace(false);
    let change = a_verdicts_subscription_changed() || formation;
    let schemas = SCHEMAS_SEEN.replace(false) && citus_here_changed();
    (change, schemas)
}

fn forget_seen() {
    CHANGE_SEEN.set(false);
    SCHEMAS_SEEN.set(false);
    SUBSCRIPTIONS_SEEN.set(Some(Vec::new()));
}

/// Where a prepared change is noted so that a restart or a crash keeps
/// it (shared memory does not): one empty file per transaction, named
/// `XID.DB`, in the data directory, fsynced before the transaction is
/// prepared and removed once it has ended.
const PREPARED_DIR: &str = "chronoid.prepared";

fn prepared_path(xid: u32, db: u32) -> std::path::PathBuf {
    std::path::Path::new(PREPARED_DIR).join(format!("{xid}.{db}"))
}

fn write_prepared(xid: u32, db: u32) -> std::io::Result<()> {
    std::fs::create_dir_all(PREPARED_DIR)?;
    std::fs::File::create(prepared_path(xid, db))?.sync_all()?;
    std::fs::File::open(PREPARED_DIR)?.sync_all()
}

/// Notes a transaction that prepares a change (its xid and database) for
/// the worker, in shared memory and on disk, before it is prepared;
/// raises where every slot is taken or the note cannot be written, which
/// aborts it.
fn note_prepared(xid: pg_sys::TransactionId, db: u32) -> usize {
    let xid = u32::from(xid);
    let Some(slot) = claim_prepared(xid, db) else {
        crate::pg::error::error_with_hint(
            pgrx::PgSqlErrorCode::ERRCODE_PROGRAM_LIMIT_EXCEEDED,
            format!(
                "cannot prepare a transaction that changes what chronoid's verdicts rest on while {} others are prepared",
                verdict::shared().prepared.len()
            ),
            "Commit or roll back the prepared transactions that change subscriptions or a Citus formation (pg_prepared_xacts), then prepare this one again.",
        )
    };
    if let Err(e) = write_prepared(xid, db) {
        verdict::shared().prepared[slot].store(0, Ordering::Release);
        crate::pg::error::error(
            pgrx::PgSqlErrorCode::ERRCODE_IO_ERROR,
            format!("could not note the prepared transaction {xid} in \"{PREPARED_DIR}\": {e}"),
        )
    }
    slot
}

/// A prepared change's entry in `Shared::prepared`: its database above its
/// xid (0: a free slot).
fn entry_of(xid: u32, db: u32) -> u64 {
    (u64::from(db) << 32) | u64::from(xid)
}

fn xid_and_db(entry: u64) -> (u32, u32) {
    (entry as u32, (entry >> 32) as u32)
}

fn claim_prepared(xid: u32, db: u32) -> Option<usize> {
    let entry = entry_of(xid, db);
    verdict::shared().prepared.iter().position(|e| {
        e.compare_exchange(0, entry, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    })
}

fn xid_in_progress(xid: u32) -> bool {
    // SAFETY: the proc array, under its lock; a prepared transaction is in
    // progress until COMMIT PREPARED or ROLLBACK PREPARED (after a restart
    // too, once recovery has restored it).
    unsafe { pg_sys::TransactionIdIsInProgress(pg_sys::TransactionId::from(xid)) }
}

/// The worker, as it starts: the prepared changes noted on disk that are
/// still prepared are noted in shared memory again (a restart or crash
/// emptied it); the others' notes are removed.
pub fn reload_prepared() {
    let Ok(dir) = std::fs::read_dir(PREPARED_DIR) else {
        return;
    };
    let noted: Vec<u64> = verdict::shared()
        .prepared
        .iter()
        .map(|e| e.load(Ordering::Acquire))
        .collect();
    for name in dir.flatten().map(|e| e.file_name()) {
        let Some((xid, db)) = name
            .to_str()
            .and_then(|n| n.split_once('.'))
            .and_then(|(x, d)| Some((x.parse::<u32>().ok()?, d.parse::<u32>().ok()?)))
        else {
            continue;
        };
        let entry = entry_of(xid, db);
        if !xid_in_progress(xid) {
            let _ = std::fs::remove_file(prepared_path(xid, db));
        } else if !noted.contains(&entry) && claim_prepared(xid, db).is_none() {
            pgrx::log!("chronoid: no room to note prepared transaction {xid} again; its change is judged when it ends");
        }
    }
}

/// The worker: the transactions prepared with a change that are still
/// prepared (or still preparing), and the databases of those that ended
/// (committed or rolled back) since it last asked, their slots freed.
pub fn prepared_changes() -> (Vec<u32>, Vec<u32>) {
    let mut pending = Vec::new();
    let mut ended = Vec::new();
    for e in &verdict::shared().prepared {
        let entry = e.load(Ordering::Acquire);
        if entry == 0 {
            continue;
        }
        let (xid, db) = xid_and_db(entry);
        if xid_in_progress(xid) {
            pending.push(xid);
        } else if e
            .compare_exchange(entry, 0, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            let _ = std::fs::remove_file(prepared_path(xid, db));
            ended.push(db);
        }
    }
    (pending, ended)
}
