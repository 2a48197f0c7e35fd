//! Which node this server is, among the servers that share an ID space: a
//! Citus formation's nodes, a replication mesh's writers. Each concern in a
//! file of its own:
//!
//! - `identity`: the node id in effect (`chronoid.node_id`,
//!   `chronoid.node_id_base`, the formation's number), read by every counter
//!   generator, and where it came from;
//! - `citus`: the Citus group id of this node, read from the formation's
//!   own catalog and kept until Citus changes it;
//! - `peers`: the servers this one replicates from, asked their node ids
//!   before this server mints;
//! - `formation`: the other nodes of its Citus formation, asked likewise;
//! - `answers`: a peer's answer, as both read and record it;
//! - `ledger`: what this server remembers of them (`chronoid.peers`), and
//!   what it tells a server that asks it;
//! - `watcher`: the peer worker, which asks the publishers every few
//!   seconds whether or not this server mints.
//!
//! A layer between the durable generators and the type adapters: its files
//! import `src/durable/`, `src/pg/` and one another (never in a loop), never
//! `src/types/` or `src/generators.rs` (`scripts/check_layers.py`, run by
//! `make test`, checks it).

pub mod answers;
pub mod citus;
pub mod formation;
pub mod identity;
pub mod ledger;
pub mod peers;
pub mod watcher;
