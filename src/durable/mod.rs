//! The durable generators: what makes `gen_nanoflake()`, `gen_caloriosa()`
//! and `gen_uid60()` never hand out an ID twice, across backends, restarts,
//! crashes and failover. As PostgreSQL keeps a mechanism apart from its WAL
//! routines and its SQL face (`slot.c`, `slotfuncs.c`; `sequence.c`,
//! `sequence_xlog.c`), each concern has its own file:
//!
//! - `generator`: the tickers, the marks callers check, the counters (shared
//!   memory read on every call);
//! - `minted`: IDs counted per backend, flushed at transaction end;
//! - `reservation`: the state callers and the worker share, and the
//!   callers' wait for a reservation;
//! - `reserver`: the background worker that reserves ahead of need;
//! - `marks`: the mechanism that moves the durable marks (reserve, an
//!   operator's move, replay, start-up), under one lock;
//! - `marks_file`: `chronoid.marks`; `wal_records`: the WAL records;
//!   `rmgr`: the resource manager that replays them;
//! - `startup`: the shared-memory start-up hook;
//! - `set_mark`: `chronoid_set_high_water_mark()`, the escape hatch.
//!
//! The middle layer: its files import `src/pg/` and one another (never in a
//! loop), never `src/types/` or `src/generators.rs`
//! (`scripts/check_layers.py`, run by `make test`, checks it). `src/lib.rs`
//! calls each file's set-up in order from `_PG_init`.

pub mod generator;
pub mod marks;
pub mod marks_file;
pub mod minted;
pub mod reservation;
pub mod reserver;
pub mod rmgr;
pub mod set_mark;
pub mod startup;
pub mod wal_records;
