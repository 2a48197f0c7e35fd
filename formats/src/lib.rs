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
//! (tokio-postgres), `sqlx`.
//!
//! ## serde
//!
//! Human-readable formats get the text the database prints; the others the
//! binary form.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use chronoid_formats::nanoflake::Nanoflake;
//!
//! let id: Nanoflake = "3kgeoqm2h3".parse().unwrap();
//! assert_eq!(serde_json::to_string(&id).unwrap(), r#""3kgeoqm2h3""#);
//! assert_eq!(serde_json::from_str::<Nanoflake>(r#""3KGEOQM2H3""#).unwrap(), id);
//! # }
//! ```
//!
//! ## tokio-postgres (feature `postgres-types`)
//!
//! Parameters and results in the binary form, matched by type name (an
//! extension's OIDs differ per database); arrays as `Vec<T>`.
//!
//! ```no_run
//! # #[cfg(feature = "postgres-types")]
//! # async fn example() -> Result<(), tokio_postgres::Error> {
//! use chronoid_formats::{nanoflake::Nanoflake, scru160::Scru160};
//!
//! let (client, connection) = tokio_postgres::connect("host=localhost dbname=app", tokio_postgres::NoTls).await?;
//! tokio::spawn(connection);
//! let upload: Scru160 = "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51".parse().unwrap();
//! let row = client
//!     .query_one("INSERT INTO photo (upload) VALUES ($1) RETURNING id", &[&upload])
//!     .await?;
//! let id: Nanoflake = row.get(0);
//! let recent: Vec<Nanoflake> = client
//!     .query_one("SELECT array_agg(id) FROM photo WHERE id >= $1", &[&id])
//!     .await?
//!     .get(0);
//! # let _ = recent;
//! # Ok(())
//! # }
//! ```
//!
//! ## sqlx (feature `sqlx`)
//!
//! ```no_run
//! # #[cfg(feature = "sqlx")]
//! # async fn example() -> Result<(), sqlx::Error> {
//! use chronoid_formats::{caloriosa::Caloriosa, nanoflake::Nanoflake};
//!
//! let pool = sqlx::PgPool::connect("postgres://localhost/app").await?;
//! let id: Nanoflake = sqlx::query_scalar("SELECT gen_nanoflake()").fetch_one(&pool).await?;
//! let devices: Vec<Caloriosa> = sqlx::query_scalar("SELECT array_agg(gen_caloriosa()) FROM generate_series(1, 3)")
//!     .fetch_one(&pool)
//!     .await?;
//! sqlx::query("INSERT INTO event (id) VALUES ($1)").bind(id).execute(&pool).await?;
//! # let _ = devices;
//! # Ok(())
//! # }
//! ```
//!
//! Everything here is unit-, property- and fuzz-tested without a database.

// The files by concept, each folder a module; every module is also named
// at the crate's root, where applications have always found it
// (`chronoid_formats::nanoflake`, `chronoid_formats::node_verdict`).

/// The five formats: bits, text forms, field ranges, conformance.
mod types {
    pub mod caloriosa;
    pub mod codokey;
    pub mod nanoflake;
    pub mod scru160;
    pub mod uid60;
}
/// Making IDs: clocks, the shared counters, the durable high-water mark.
mod generation {
    pub mod clock;
    pub mod counter_id;
    pub mod generator_stats;
    pub mod high_water;
    pub mod millisecond_span;
    pub mod ticker;
}
/// Codecs and the calendar every format shares; the binary/text forms.
mod codecs {
    pub mod base36;
    pub mod time;
    pub mod wire;
}
/// Which node a server is, among servers: the policy across servers.
mod node {
    pub mod handover;
    pub mod id;
    pub mod judging;
    pub mod ledger;
    pub mod verdict;
}
/// Client-library adapters over `wire` (features).
mod clients;
#[cfg(test)]
mod fuzz;

pub use codecs::{base36, time, wire};
pub use generation::{clock, counter_id, generator_stats, high_water, millisecond_span, ticker};
pub use node::{
    handover as node_handover, id as node_id, judging as node_judging, ledger as node_ledger,
    verdict as node_verdict,
};
pub use types::{caloriosa, codokey, nanoflake, scru160, uid60};

/// A reason a node verdict refuses or waits for: `format!`, marked so that
/// `scripts/check_docs.py` finds each one, which docs/across-servers.md's
/// refusal table must then list (a user reads it in `chronoid_node_verdicts`
/// and after a generator's "refuses:").
#[macro_export]
macro_rules! reason {
    ($($arg:tt)*) => {
        ::std::format!($($arg)*)
    };
}

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
