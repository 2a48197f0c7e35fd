//! This node's Citus group id, where Citus runs: the number the formation's
//! coordinator gives each node once (0 the coordinator, 1, 2, … the workers
//! as they are added, never reused), kept in the one row of
//! `pg_catalog.pg_dist_local_group`. Citus itself numbers each worker's
//! sequences from it (`AlterSequenceMinMax`: `group_id << 48`); chronoid
//! takes it as the node id where the operator sets none
//! (`src/node/identity.rs`).
//!
//! Read as Citus reads it (`GetLocalGroupId`: a catalog scan of that table)
//! and kept per backend until a relcache invalidation names the table: Citus
//! sends one whenever the row changes (its trigger
//! `citus_dist_local_group_cache_invalidate`), e.g. when the coordinator adds
//! this node and syncs its metadata. A server that does not preload Citus
//! never looks (Citus cannot run without preloading); a database without the
//! extension is looked at again in each transaction, so a `CREATE EXTENSION
//! citus` is seen at once.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::cell::Cell;

use pgrx::pg_sys;
use pgrx::PgSqlErrorCode;

use crate::pg::catalog;
use crate::pg::error::error_with_hint;

/// What this backend knows of its node's group id.
struct Known {
    /// Whether the server preloads Citus (asked once).
    preloaded: Cell<Option<bool>>,
    /// `pg_dist_local_group`'s oid where the extension exists, else invalid.
    table: Cell<pg_sys::Oid>,
    /// The group id read, while no invalidation has named the table.
    group: Cell<Option<i32>>,
    /// Looked and found no extension, in the transaction that started then.
    absent_in: Cell<Option<pg_sys::TimestampTz>>,
    callback_registered: Cell<bool>,
    /// `pg_dist_node`'s oid, once looked up.
    nodes_table: Cell<pg_sys::Oid>,
}

// SAFETY: only ever touched by a backend's one thread.
unsafe impl Sync for Known {}

static KNOWN: Known = Known {
    preloaded: Cell::new(None),
    table: Cell::new(pg_sys::InvalidOid),
    group: Cell::new(None),
    absent_in: Cell::new(None),
    callback_registered: Cell::new(false),
    nodes_table: Cell::new(pg_sys::InvalidOid),
};

/// This node's Citus group id, `None` where this database is no Citus
/// node. Refuses (55000) while the group id cannot be known: the table's
/// row missing, as during a `pg_upgrade` before `citus_finish_pg_upgrade()`.
pub fn local_group() -> Option<i32> {
    if !citus_preloaded() {
        return None;
    }
    if let Some(group) = KNOWN.group.get() {
        return Some(group);
    }
    // SAFETY: in a transaction (a generator is a SQL function).
    let xact_start = unsafe { pg_sys::GetCurrentTransactionStartTimestamp() };
    if KNOWN.absent_in.get() == Some(xact_start) {
        return None;
    }
    register_callback();
    let group = read_local_group();
    if group.is_none() {
        KNOWN.absent_in.set(Some(xact_start));
    }
    KNOWN.group.set(group);
    group
}

/// Whether `shared_preload_libraries` names Citus.
fn citus_preloaded() -> bool {
    if let Some(known) = KNOWN.preloaded.get() {
        return known;
    }
    let text = crate::pg::guc::config_text(c"shared_preload_libraries")
        .map(|t| t.to_string_lossy().into_owned())
        .unwrap_or_default();
    let preloaded = chronoid_formats::node_id::preloads(&text, "citus");
    KNOWN.preloaded.set(Some(preloaded));
    preloaded
}

fn register_callback() {
    if KNOWN.callback_registered.replace(true) {
        return;
    }
    // SAFETY: the callback lives as long as the process; PostgreSQL keeps
    // up to MAX_RELCACHE_CALLBACKS of them.
    unsafe { pg_sys::CacheRegisterRelcacheCallback(Some(on_relcache), pg_sys::Datum::from(0)) };
}

/// A relcache invalidation: forget the group id if it names either table
/// (or every relation). Raises nothing, as a callback must not.
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn on_relcache(_arg: pg_sys::Datum, relid: pg_sys::Oid) {
    if relid == pg_sys::InvalidOid || relid == KNOWN.table.get() || relid == KNOWN.nodes_table.get()
    {
        KNOWN.group.set(None);
    }
}

/// The group id in `pg_dist_local_group`, or `None` without the extension.
fn read_local_group() -> Option<i32> {
    // SAFETY: a catalog lookup by name.
    if unsafe { pg_sys::get_extension_oid(c"citus".as_ptr(), true) } == pg_sys::InvalidOid {
        KNOWN.table.set(pg_sys::InvalidOid);
        return None;
    }
    let Some(table) = catalog::pg_catalog_table(c"pg_dist_local_group") else {
        unknown_group(
            "the extension citus exists, but not its table pg_catalog.pg_dist_local_group",
        );
    };
    KNOWN.table.set(table);
    let group = match catalog::scan(table, |row| row.int4(1)).first() {
        Some(group) => *group,
        None => unknown_group(
            "pg_catalog.pg_dist_local_group has no row (a pg_upgrade before citus_finish_pg_upgrade())",
        ),
    };
    // Group 0 is the coordinator's, and also what a worker reads until the
    // coordinator adds it: only a node the formation lists in group 0 is
    // the coordinator.
    if group == 0 && !formation_lists_group(0) {
        error_with_hint(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            "this Citus node is in no formation yet (its group id reads 0, the coordinator's, but pg_dist_node lists no node in group 0), so chronoid cannot take its node id from it".into(),
            "On the coordinator: SELECT citus_set_coordinator_host(...); on a worker: add it with citus_add_node() from the coordinator first. Or set chronoid.node_id for this server in postgresql.conf.",
        );
    }
    Some(group)
}

/// Whether `pg_dist_node` lists a node in `group`.
fn formation_lists_group(group: i32) -> bool {
    let Some(table) = catalog::pg_catalog_table(c"pg_dist_node") else {
        return false;
    };
    KNOWN.nodes_table.set(table);
    !catalog::scan(table, |row| (row.int4(2)? == group).then_some(())).is_empty()
}

fn unknown_group(why: &str) -> ! {
    error_with_hint(
        PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        format!("this node's Citus group id, which chronoid takes as its node id, cannot be read: {why}"),
        "Finish Citus's set-up (after a pg_upgrade: SELECT citus_finish_pg_upgrade()), or set chronoid.node_id for this server in postgresql.conf.",
    )
}

/// Whether `relid` is one of the formation's tables this backend read.
pub fn is_formation_table(relid: pg_sys::Oid) -> bool {
    relid == KNOWN.table.get() || relid == KNOWN.nodes_table.get()
}

/// Another node of the formation, as `pg_dist_node` lists it.
pub struct OtherNode {
    pub group: i32,
    pub host: String,
    pub port: i32,
}

/// The active nodes of the formation outside this node's group (a group's
/// secondaries share its id), from `pg_dist_node`, which Citus syncs to
/// every node that takes writes.
pub fn other_nodes(my_group: i32) -> Vec<OtherNode> {
    let Some(table) = catalog::pg_catalog_table(c"pg_dist_node") else {
        return Vec::new();
    };
    KNOWN.nodes_table.set(table);
    // Citus's column numbers (pg_dist_node.h): groupid 2, nodename 3,
    // nodeport 4, isactive 7.
    catalog::scan(table, |row| {
        let group = row.int4(2)?;
        if group == my_group || !row.bool(7)? {
            return None;
        }
        Some(OtherNode {
            group,
            host: row.text(3)?,
            port: row.int4(4)?,
        })
    })
}

/// The formation's coordinator as this node's `pg_dist_node` lists it
/// (group 0), where this node is a worker that knows it.
pub fn coordinator(my_group: i32) -> Option<OtherNode> {
    if my_group == 0 {
        return None;
    }
    other_nodes(my_group).into_iter().find(|n| n.group == 0)
}

/// How this backend would connect to another node as Citus does: its host
/// and port, this database, this user, and `citus.node_conninfo`'s options.
pub fn conninfo_of(node: &OtherNode) -> String {
    use crate::pg::remote::quote;
    // SAFETY: names of this backend's database and user, copied before
    // anything else runs.
    let (dbname, user) = unsafe {
        let db = pg_sys::get_database_name(pg_sys::MyDatabaseId);
        let user = pg_sys::GetUserNameFromId(pg_sys::GetUserId(), false);
        let text = |p: *const std::ffi::c_char| {
            if p.is_null() {
                String::new()
            } else {
                std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        };
        (text(db), text(user))
    };
    let options = crate::pg::guc::config_text(c"citus.node_conninfo")
        .map(|t| t.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(
        "host={} port={} dbname={} user={} {options}",
        quote(&node.host),
        node.port,
        quote(&dbname),
        quote(&user)
    )
}
