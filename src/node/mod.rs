//! Which node this server is, among the servers that share an ID space: a
//! Citus formation's nodes, a replication mesh's writers. Each concern in a
//! file of its own:
//!
//! - `identity`: the node id in effect (`chronoid.node_id`,
//!   `chronoid.node_id_base`, the formation's number), read by every counter
//!   generator, and where it came from;
//! - `citus`: the Citus group id of this node, read from the formation's
//!   own catalog and kept until Citus changes it;
//! - `configuration`: what a verdict rests on, as one number;
//! - `verdict`: whether this server may mint, one verdict per database in
//!   shared memory, read by every counter generator with one word;
//! - `watcher`: the peer worker, which keeps the verdicts, starting a
//!   judge per database when the configuration changes and every 10 s;
//! - `judge`: one judging of one database (its policy is
//!   `chronoid_formats::node_judging`);
//! - `asking`: the network step, one question to a peer and its answer
//!   recorded;
//! - `ledger`: what this server remembers of its peers (`chronoid.peers`);
//! - `instance`: which instance of its cluster this server is;
//! - `answering`: what it tells a server that asks it.
//!
//! A layer between the durable generators and the type adapters: its files
//! import `src/durable/`, `src/pg/` and one another (never in a loop), never
//! `src/types/` or `src/generators.rs` (`scripts/check_layers.py`, run by
//! `make test`, checks it).

pub mod answering;
pub mod asking;
pub mod citus;
pub mod configuration;
pub mod identity;
pub mod instance;
pub mod judge;
pub mod ledger;
pub mod verdict;
pub mod watcher;
