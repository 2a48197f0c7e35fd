//! The logical-replication subscriptions of this server (every database's:
//! `pg_subscription` is a shared catalog), read from the catalog directly,
//! so that any user's backend may (their connection strings are hidden
//! from all but superusers in SQL).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use std::ffi::CStr;
use std::num::NonZeroUsize;

use pgrx::pg_sys;

/// `pg_subscription`'s oid (`SubscriptionRelationId`), fixed since 10.
const SUBSCRIPTION_RELATION_ID: u32 = 6100;

/// One subscription: its name, connection string, whether enabled.
pub struct Subscription {
    pub name: String,
    pub conninfo: String,
    pub enabled: bool,
}

/// Every subscription of the server.
pub fn all() -> Vec<Subscription> {
    let relid = pg_sys::Oid::from(SUBSCRIPTION_RELATION_ID);
    let mut out = Vec::new();
    // SAFETY: a catalog scan in a transaction; each column is read by the
    // number its name has in this major, the scan ended before the close.
    unsafe {
        let attnum =
            |name: &CStr| NonZeroUsize::new(pg_sys::get_attnum(relid, name.as_ptr()) as usize);
        let (Some(name_at), Some(enabled_at), Some(conninfo_at)) = (
            attnum(c"subname"),
            attnum(c"subenabled"),
            attnum(c"subconninfo"),
        ) else {
            return out;
        };
        let rel = pg_sys::table_open(relid, pg_sys::AccessShareLock as pg_sys::LOCKMODE);
        let desc = (*rel).rd_att;
        let scan = pg_sys::systable_beginscan(
            rel,
            pg_sys::InvalidOid,
            false,
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
        );
        loop {
            let tuple = pg_sys::systable_getnext(scan);
            if tuple.is_null() {
                break;
            }
            let get = |at| pgrx::heap_getattr_raw(tuple, at, desc);
            let (Some(name), Some(enabled), Some(conninfo)) =
                (get(name_at), get(enabled_at), get(conninfo_at))
            else {
                continue;
            };
            out.push(Subscription {
                name: CStr::from_ptr((*name.cast_mut_ptr::<pg_sys::NameData>()).data.as_ptr())
                    .to_string_lossy()
                    .into_owned(),
                conninfo: CStr::from_ptr(pg_sys::text_to_cstring(conninfo.cast_mut_ptr()))
                    .to_string_lossy()
                    .into_owned(),
                enabled: enabled.value() != 0,
            });
        }
        pg_sys::systable_endscan(scan);
        pg_sys::table_close(rel, pg_sys::AccessShareLock as pg_sys::LOCKMODE);
    }
    out
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
