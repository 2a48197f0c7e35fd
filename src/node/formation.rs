//! The other nodes of this server's Citus formation, asked their node ids
//! (`src/node/peers.rs` says when). A node whose id is its own
//! (`chronoid.node_id`, or a base other than 0) asks every other node of
//! the formation (`pg_dist_node`), as Citus connects to it; an id another
//! node has, its own or base + group, is refused, naming both nodes. Nodes
//! that take base 0 + their group id need no asking: the coordinator hands
//! out each group id once. A node out of reach is judged by its last
//! answer (`src/node/ledger.rs`).
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use super::answers::{answered_or_remembered, int_column, record, Asked, NO_CHRONOID, SEEN_COLUMN};
use super::{citus, identity, ledger};
use crate::pg::remote;
use chronoid_formats::node_id::{Node, Source, UNSET};

const ASK_CITUS: &str = "SELECT current_setting('chronoid.node_id', true), current_setting('chronoid.node_id_base', true), current_setting('chronoid.node_ids_seen', true)";

const HINT_CITUS: &str = "Leave chronoid.node_id unset on every node of a Citus formation (each then takes chronoid.node_id_base plus its group id), or give each node its own; docs/across-servers.md, \"Citus\".";

const HINT_CITUS_UNREACHABLE: &str = "Bring the node up (this node asks again within seconds), or leave chronoid.node_id unset and chronoid.node_id_base 0 on every node, so that none needs asking; docs/across-servers.md, \"Partitions\".";

pub fn ask_formation(node: Node) -> Option<(String, String)> {
    let asks = match node.source {
        Source::Setting => true,
        Source::Citus { base, .. } => base != 0,
        Source::Unset => false,
    };
    let (true, Some(mine)) = (asks, node.id) else {
        return None;
    };
    let my_group = citus::local_group()?;
    let own = i32::from(mine);
    let now = ledger::now_ms();
    let others = citus::other_nodes(my_group);
    let asked: Asked = others
        .iter()
        .map(|other| {
            (
                format!("citus node {}:{}", other.host, other.port),
                remote::first_row(&citus::conninfo_of(other), "chronoid", ASK_CITUS, 3),
            )
        })
        .collect();
    // Each answer as the node id it resolves to and where that comes from
    // (NULL: chronoid is not loaded there, so it mints no counter IDs).
    let resolved: Asked = others
        .iter()
        .zip(asked)
        .map(|(other, (key, answer))| {
            let answer = answer.map(|row| {
                let node = int_column(&row, 0).map(|setting| {
                    let base = int_column(&row, 1).unwrap_or(0).clamp(0, 1023) as u16;
                    chronoid_formats::node_id::resolve(setting, Some(other.group), base)
                });
                let id = match node {
                    None => None,
                    Some(Ok(Node { id: Some(id), .. })) => Some(id.to_string()),
                    Some(_) => Some(UNSET.to_string()),
                };
                let source = match node {
                    Some(Ok(n)) => identity::describe(n.source),
                    _ => String::new(),
                };
                vec![id, Some(source), row.get(SEEN_COLUMN).cloned().flatten()]
            });
            (key, answer)
        })
        .collect();
    // The formation's ids are all asked here; its nodes learn nothing of
    // one another's for the mesh check, and are told nothing: a node whose
    // explicit id is another's group id refuses, the other mints.
    let ledger = record(&resolved, own, false, now, |_| true);
    for (other, (key, answer)) in others.iter().zip(&resolved) {
        let name = format!(
            "the Citus node {}:{} (group {})",
            other.host, other.port, other.group
        );
        let (theirs, source) = match answered_or_remembered(
            &ledger,
            key,
            answer,
            &name,
            own,
            now,
            HINT_CITUS_UNREACHABLE,
        ) {
            Err(refusal) => return Some(refusal),
            Ok(Some(row)) => match int_column(&row, 0) {
                Some(theirs) => (theirs, row[1].clone().unwrap_or_default()),
                None => continue,
            },
            Ok(None) => match ledger.remembered(key, own).expect("remembered").node_id {
                NO_CHRONOID => continue,
                theirs => (theirs, "as it last answered".into()),
            },
        };
        if theirs == own {
            return Some((
                format!(
                    "this node's node id {mine} ({}, group {my_group}) is also the node id of {name} ({source})",
                    identity::describe(node.source),
                ),
                HINT_CITUS.into(),
            ));
        }
    }
    None
}
