//! The type adapters: one thin file per SQL type, adapting the formats
//! crate (`chronoid_formats`) to SQL (input and output, binary I/O, casts,
//! generators, field accessors, settings of its own), and `counter_id`, the
//! adapter shape nanoflake, caloriosa and uid60 share.
//!
//! The upper layer: its files import `src/durable/` (the generators'
//! shared state), `src/pg/` and one another (never in a loop), never
//! `src/generators.rs` (`scripts/check_layers.py`, run by `make test`,
//! checks it).

pub mod caloriosa;
pub mod codokey;
pub mod counter_id;
pub mod nanoflake;
pub mod scru160;
pub mod uid60;
