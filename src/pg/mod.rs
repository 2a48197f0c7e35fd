//! PostgreSQL plumbing: what any extension written with pgrx would need and
//! that knows no chronoid type or generator. Datums (`datum`), errors
//! (`error`, `input_error`), `timestamptz` and unix milliseconds (`time`),
//! queries to other servers, many at once (`libpq`), catalog scans (`catalog`) and
//! the subscriptions they find (`subscriptions`),
//! the backend's clock (`clock`), the control file (`control`), per-backend
//! state (`backend_local`), a small file replaced durably (`files`), the per-backend CSPRNG (`random`), settings
//! machinery (`guc`), the guards before a write (`guards`), what a
//! background worker does as PostgreSQL's own (`worker`), C declarations
//! (`ffi`) and unguarded fmgr functions (`fmgr`).
//!
//! The lowest layer: its files import one another and pgrx, never
//! `src/types/`, `src/durable/` or `src/generators.rs`
//! (`scripts/check_layers.py`, run by `make test`, checks it).

pub mod backend_local;
pub mod catalog;
pub mod clock;
pub mod control;
pub mod datum;
pub mod error;
pub mod ffi;
pub mod files;
pub mod fmgr;
pub mod guards;
pub mod guc;
pub mod input_error;
pub mod libpq;
pub mod random;
pub mod shared_text;
pub mod subscriptions;
pub mod time;
pub mod worker;
