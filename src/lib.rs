//! chronoid: time-ordered identifier types for PostgreSQL.
//!
//! `core` holds the formats as plain Rust (no pgrx); `pg` adapts them to SQL.
//! The SQL objects themselves are written by hand in `sql/`, so that each type
//! is a fixed-length binary type with its own operator classes.

pub mod core;
mod pg;

pgrx::pg_module_magic!(name, version);

pgrx::extension_sql_file!("../sql/nanoflake.sql", name = "nanoflake");
pgrx::extension_sql_file!("../sql/scru160.sql", name = "scru160");
pgrx::extension_sql_file!("../sql/codokey.sql", name = "codokey");
pgrx::extension_sql_file!("../sql/caloriosa.sql", name = "caloriosa");
pgrx::extension_sql_file!("../sql/uid60.sql", name = "uid60");
pgrx::extension_sql_file!(
    "../sql/int8_backed.sql",
    name = "int8_backed",
    requires = ["nanoflake", "caloriosa", "uid60"]
);
pgrx::extension_sql_file!(
    "../sql/operators.sql",
    name = "operators",
    requires = ["int8_backed", "scru160", "codokey"]
);

#[pgrx::pg_guard]
pub extern "C-unwind" fn _PG_init() {
    pg::guc::define();
    pg::shmem::init();
}

// In-database tests live in pgrx-tests/, one file per type. pgrx runs them
// from one inline `tests` module (schema), hence include! and the shared
// imports here.
#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    #[allow(unused_imports)]
    use crate::core::nanoflake::Nanoflake;
    #[allow(unused_imports)]
    use pgrx::prelude::*;

    include!("../pgrx-tests/nanoflake.rs");
    include!("../pgrx-tests/scru160.rs");
    include!("../pgrx-tests/codokey.rs");
    include!("../pgrx-tests/caloriosa_uid60.rs");
}

/// Required by `cargo pgrx test`.
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec!["shared_preload_libraries = 'chronoid'"]
    }
}
