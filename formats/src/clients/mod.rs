//! Optional integrations with client libraries, each behind a feature of
//! the same name, written once over [`Wire`](crate::wire::Wire) and
//! implemented for every type:
//! - `serde`: the text form (the same strings the database prints) for
//!   human-readable formats such as JSON; the binary form (PostgreSQL's
//!   `send` bytes: 8 big-endian bytes, scru160's 20, a codokey's digit
//!   values) as bytes for the others (bincode, CBOR, ...).
//! - `postgres-types` (tokio-postgres, postgres): `FromSql`/`ToSql` in the
//!   binary form for the chronoid type, matched by name (OIDs differ per
//!   database), and the text form for `text`/`varchar` columns and
//!   parameters; arrays come with postgres-types' `Vec<T>`/`&[T]`.
//! - `sqlx`: `Type`/`Encode`/`Decode` for Postgres, binary form; decoding
//!   also reads `text` results; arrays through `PgHasArrayType`.

#[cfg(feature = "postgres-types")]
mod postgres;
#[cfg(feature = "serde")]
mod serde;
#[cfg(feature = "sqlx")]
mod sqlx;
