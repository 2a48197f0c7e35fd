//! A Citus formation as chronoid sees it: each node's group id (the number
//! the coordinator gives each node once: 0 the coordinator, 1, 2, … the
//! workers as they are added, never reused; Citus numbers each worker's
//! sequences from it, `group_id << 48`), which chronoid takes as the node
//! id where the operator sets none (`src/node/identity.rs`), and the nodes
//! `pg_dist_node` lists.
//!
//! A Citus database's facts live in that database: the peer worker reads
//! them over a local connection (`asking::Question::formation`), never a
//! caller; what it found is published beside the database's verdict
//! (`verdict.rs`). This file reads nothing itself: it says what the rows
//! mean.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use crate::pg::libpq::{quote, Row};

/// A node of the formation, as `pg_dist_node` lists it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ListedNode {
    pub group: i32,
    pub host: String,
    pub port: i32,
    pub active: bool,
    /// Its role is `primary` (a secondary shares its group, and mints
    /// nothing).
    pub primary: bool,
}

/// `citus.node_conninfo`, as this process reads it.
pub fn options() -> String {
    crate::pg::guc::config_text(c"citus.node_conninfo")
        .map(|t| t.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The active nodes outside `my_group` (a group's secondaries share its id).
pub fn other_nodes(nodes: &[ListedNode], my_group: i32) -> Vec<ListedNode> {
    nodes
        .iter()
        .filter(|n| n.group != my_group && n.active)
        .cloned()
        .collect()
}

/// The node the formation lists for `group`: its first active primary, as
/// the coordinator answers a node that asks (`asking.rs`).
pub fn listed_holder(nodes: &[ListedNode], group: i32) -> Option<&ListedNode> {
    nodes
        .iter()
        .find(|n| n.group == group && n.active && n.primary)
}

/// The coordinator (group 0), where this node is a worker that lists it.
pub fn coordinator(nodes: &[ListedNode], my_group: i32) -> Option<ListedNode> {
    if my_group == 0 {
        return None;
    }
    other_nodes(nodes, my_group)
        .into_iter()
        .find(|n| n.group == 0)
}

/// Why this node's group id cannot be taken as its node id, if it cannot:
/// no row (a `pg_upgrade` before `citus_finish_pg_upgrade()`), or group 0
/// (the coordinator's, and what a worker reads until the coordinator adds
/// it) where the formation lists no node in group 0.
pub fn unusable_group(group: Option<i32>, nodes: &[ListedNode]) -> Option<(String, String)> {
    match group {
        None => Some((
            chronoid_formats::reason!("this node's Citus group id, which chronoid takes as its node id, cannot be read: pg_catalog.pg_dist_local_group has no row (a pg_upgrade before citus_finish_pg_upgrade())"),
            "Finish Citus's set-up (after a pg_upgrade: SELECT citus_finish_pg_upgrade()), or set chronoid.node_id for this server in postgresql.conf.".into(),
        )),
        Some(0) if !nodes.iter().any(|n| n.group == 0) => Some((
            chronoid_formats::reason!("this Citus node is in no formation yet (its group id reads 0, the coordinator's, but pg_dist_node lists no node in group 0), so chronoid cannot take its node id from it"),
            "On the coordinator: SELECT citus_set_coordinator_host(...); on a worker: add it with citus_add_node() from the coordinator first. Or set chronoid.node_id for this server in postgresql.conf.".into(),
        )),
        Some(_) => None,
    }
}

/// How to connect to another node as Citus does: its host and port, the
/// database, the user, and `citus.node_conninfo`'s options.
pub fn conninfo_of(node: &ListedNode, dbname: &str, user: &str, options: &str) -> String {
    format!(
        "host={} port={} dbname={} user={} {options}",
        quote(&node.host),
        node.port,
        quote(dbname),
        quote(user)
    )
}

/// What one database of this server says of its Citus formation.
pub enum Formation {
    /// Not a Citus node (no extension).
    NotCitus,
    /// A Citus node: its group id (`None`: the table has no row), the
    /// formation's nodes, and the two tables' oids.
    Citus {
        group: Option<i32>,
        nodes: Vec<ListedNode>,
        tables: [u32; 2],
    },
}

/// The rows of the question that reads a database's formation (`asking.rs`).
pub fn read_formation(rows: Vec<Row>) -> Formation {
    let group = rows
        .first()
        .and_then(|r| r.first().cloned().flatten())
        .and_then(|g| g.parse().ok());
    let nodes = rows
        .iter()
        .filter_map(|r| {
            Some(ListedNode {
                group: r.get(1)?.as_deref()?.parse().ok()?,
                host: r.get(2)?.clone()?,
                port: r.get(3)?.as_deref()?.parse().ok()?,
                active: r.get(4)?.as_deref()? == "true",
                primary: r
                    .get(7)
                    .cloned()
                    .flatten()
                    .is_none_or(|role| role == "primary"),
            })
        })
        .collect();
    let oid = |i: usize| {
        rows.first()
            .and_then(|r| r.get(i).cloned().flatten())
            .and_then(|o| o.parse().ok())
            .unwrap_or(0)
    };
    Formation::Citus {
        group,
        tables: [oid(5), oid(6)],
        nodes,
    }
}
