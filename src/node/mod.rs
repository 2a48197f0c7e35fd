//! Which node this server is, among the servers that share an ID space: a
//! Citus formation's nodes, a replication mesh's writers. Each concern in a
//! file of its own:
//!
//! - `identity`: the node id in effect (`chronoid.node_id`,
//!   `chronoid.node_id_base`, the formation's number), read by every counter
//!   generator, and where it came from;
//! - `verdict`: whether this server may mint, in shared memory: one verdict
//!   for the server, one more per Citus database, read by every counter
//!   generator with one word;
//! - `callers`: a caller's side of them: mint, refuse with the reason, or
//!   wait for the worker's verdict on what it sees;
//! - `peer_worker`: the one process that asks: it reads what the verdicts
//!   rest on, judges and publishes them, and asks the peers that are due;
//! - `rounds`: the worker's rounds: each scope's facts judged and
//!   published, and the peers due to be asked;
//! - `facts`: what each scope rests on, and which scopes there are;
//! - `judging`: one judging of one scope (its policy is
//!   `chronoid_formats::node_judging`);
//! - `asking`: the network step, questions under way side by side, and
//!   their answers recorded;
//! - `changes`: what every backend is told of a change the verdicts
//!   rest on, told on to the worker at once;
//! - `citus`: what a Citus formation's rows mean;
//! - `ledger`: what this server remembers of its peers (`chronoid.peers`);
//! - `instance`: which instance of its cluster this server is;
//! - `answering`: what it tells a server that asks it;
//! - `handover`: a promoted standby taking the place of the server it
//!   followed before its first ID, and that server giving way;
//! - `release`: a Citus group handed over: the coordinator tells the node
//!   that held it to stop before it confirms the next.
//!
//! A layer between the durable generators and the type adapters: its files
//! import `src/durable/`, `src/pg/` and one another (never in a loop), never
//! `src/types/` or `src/generators.rs` (`scripts/check_layers.py`, run by
//! `make test`, checks it).

pub mod answering;
pub mod asking;
pub mod callers;
pub mod changes;
pub mod citus;
pub mod facts;
pub mod handover;
pub mod identity;
pub mod instance;
pub mod judging;
pub mod ledger;
pub mod peer_worker;
pub mod release;
pub mod rounds;
pub mod verdict;
