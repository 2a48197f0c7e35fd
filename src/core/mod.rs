//! The identifier formats as plain Rust: values, codecs and generator state
//! machines. Nothing here imports pgrx, so all of it is unit-tested,
//! property-tested and fuzzed without a database; `crate::pg` adapts it to SQL.

pub mod base36;
pub mod caloriosa;
pub mod clock;
pub mod codokey;
#[cfg(test)]
mod fuzz;
pub mod nanoflake;
pub mod scru160;
pub mod ticker;
pub mod time;
pub mod uid60;
