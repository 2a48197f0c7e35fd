//! The logical-replication subscriptions of this server (every database's:
//! `pg_subscription` is a shared catalog), read from the catalog directly,
//! so that any user's backend may (their connection strings are hidden
//! from all but superusers in SQL).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use pgrx::pg_sys;

/// `pg_subscription`'s oid (`SubscriptionRelationId`), fixed since 10.
const SUBSCRIPTION_RELATION_ID: u32 = 6100;

/// One subscription: its oid, name, connection string, whether enabled.
#[derive(Clone)]
pub struct Subscription {
    pub oid: u32,
    pub name: String,
    pub conninfo: String,
    pub enabled: bool,
    /// Its owner, whose rights its apply worker has.
    pub owner: u32,
}

/// Every subscription of the server.
pub fn all() -> Vec<Subscription> {
    let relid = pg_sys::Oid::from(SUBSCRIPTION_RELATION_ID);
    super::catalog::scan(relid, |row| {
        // Each column by the number its name has in this major.
        Some(Subscription {
            oid: row.int4(row.attnum("oid"))? as u32,
            name: row.name(row.attnum("subname"))?,
            conninfo: row.text(row.attnum("subconninfo"))?,
            enabled: row.bool(row.attnum("subenabled"))?,
            owner: row.int4(row.attnum("subowner"))? as u32,
        })
    })
}

/// Whether role `owner` is a superuser (a shared catalog: any process may ask).
pub fn owned_by_superuser(owner: u32) -> bool {
    // SAFETY: a syscache lookup of pg_authid, in a transaction.
    unsafe { pg_sys::superuser_arg(pg_sys::Oid::from(owner)) }
}
