//! The chronoid identifier formats as plain Rust: values, codecs and
//! generator state machines, with no PostgreSQL and no pgrx. The chronoid
//! extension adapts them to SQL; applications use them to read, check and
//! make the same values.
//!
//! Every value type parses from and prints as the text PostgreSQL prints:
//!
//! ```
//! use chronoid_formats::{caloriosa::Caloriosa, nanoflake::Nanoflake, scru160::Scru160, uid60::Uid60};
//!
//! let id: Nanoflake = "3KGEOQM2H3".parse()?;                // any case in, lower case out
//! assert_eq!(id.to_string(), "3kgeoqm2h3");
//! assert_eq!(id.to_i64(), 362_387_865_620_487);              // the bigint carrier
//!
//! let s: Scru160 = "017c083c130732153679e83c4fc65664e6a964a1".parse()?; // hex in
//! assert_eq!(s.to_string(), "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51");        // base32hex out
//! assert_eq!(s.counter(), 12821);
//!
//! let name: Caloriosa = "b8MpZ6ZrkE9".parse()?;
//! assert_eq!(name.to_u64(), 9_351_161_553_574_119_425);
//! let u: Uid60 = "xinaS8QBh".parse()?;
//! assert_eq!(u.to_i64(), 11_093_174_944_930_914);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Generators take the clock, the random bits and the node id as inputs
//! (see [`counter_id`] and [`scru160::Generator`]); [`clock::SystemClock`] is
//! the operating system's clock.
//!
//! [`wire`] gives each type's binary and text forms as clients see them.
//! Optional features, each off by default: `serde`, `postgres-types`
//! (tokio-postgres), `sqlx` (see the `clients` module's notes in the README).
//!
//! Everything here is unit-, property- and fuzz-tested without a database.

pub mod base36;
pub mod caloriosa;
mod clients;
pub mod clock;
pub mod codokey;
pub mod counter_id;
#[cfg(test)]
mod fuzz;
pub mod generator_stats;
pub mod high_water;
pub mod nanoflake;
pub mod scru160;
pub mod ticker;
pub mod time;
pub mod uid60;
pub mod wire;

/// `FromStr` for a value type from its `parse(&[u8])`, and `Display` and
/// `Error` for that parse error.
macro_rules! text_form {
    ($ty:ty, $err:ty, $name:literal) => {
        impl std::str::FromStr for $ty {
            type Err = $err;
            fn from_str(text: &str) -> Result<Self, $err> {
                Self::parse(text.as_bytes())
            }
        }

        impl std::fmt::Display for $err {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!("invalid ", $name, " text: {:?}"), self)
            }
        }

        impl std::error::Error for $err {}
    };
}
pub(crate) use text_form;
