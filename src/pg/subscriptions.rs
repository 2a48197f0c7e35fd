//! The logical-replication subscriptions of this server (every database's:
//! `pg_subscription` is a shared catalog), read from the catalog directly,
//! so that any user's backend may (their connection strings are hidden
//! from all but superusers in SQL).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use std::ffi::CStr;

use pgrx::pg_sys;

/// `pg_subscription`'s oid (`SubscriptionRelationId`), fixed since 10.
const SUBSCRIPTION_RELATION_ID: u32 = 6100;

/// One subscription: its oid, name, connection string, whether enabled.
pub struct Subscription {
    pub oid: u32,
    pub name: String,
    pub conninfo: String,
    pub enabled: bool,
}

/// Every subscription of the server.
pub fn all() -> Vec<Subscription> {
    let relid = pg_sys::Oid::from(SUBSCRIPTION_RELATION_ID);
    // Each column by the number its name has in this major.
    // SAFETY: a syscache lookup by name.
    let attnum = |name: &CStr| unsafe { pg_sys::get_attnum(relid, name.as_ptr()) } as usize;
    let (oid, name, enabled, conninfo) = (
        attnum(c"oid"),
        attnum(c"subname"),
        attnum(c"subenabled"),
        attnum(c"subconninfo"),
    );
    super::catalog::scan(relid, |row| {
        Some(Subscription {
            oid: row.int4(oid)? as u32,
            name: row.name(name)?,
            conninfo: row.text(conninfo)?,
            enabled: row.bool(enabled)?,
        })
    })
}

/// Calls `callback` (in every backend) whenever a subscription changes.
pub fn on_change(callback: unsafe extern "C-unwind" fn(pg_sys::Datum, i32, u32)) {
    // SAFETY: the callback lives as long as the process.
    unsafe {
        pg_sys::CacheRegisterSyscacheCallback(
            pg_sys::SysCacheIdentifier::SUBSCRIPTIONOID as i32,
            Some(callback),
            pg_sys::Datum::from(0),
        )
    };
}
