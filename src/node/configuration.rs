//! What a verdict rests on, as one number: the server's subscriptions (every
//! database's: `pg_subscription` is shared) and, in a Citus database, the
//! formation as this node's catalog lists it. A judge (`judge.rs`) keeps
//! the number it judged beside its verdict; a caller that has seen a
//! change (a syscache or relcache invalidation of those catalogs, or its
//! first call) compares the number now with the verdict's and asks for a
//! new verdict only if they differ (`verdict.rs`). So a change is judged
//! once, however many processes see it, and whenever they see it.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::cell::Cell;
use std::hash::{Hash, Hasher};

use pgrx::pg_sys;

use super::citus;
use crate::pg::subscriptions;

thread_local! {
    /// This backend has seen a change since it last compared (a new
    /// backend compares at its first call).
    static CHANGED: Cell<bool> = const { Cell::new(true) };
    static REGISTERED: Cell<bool> = const { Cell::new(false) };
}

/// The number of what a verdict on this database rests on, read now.
pub fn fingerprint() -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    // A subscription a superuser does not own is not judged: its owner's
    // changes to it set no judge going.
    for s in subscriptions::all() {
        if subscriptions::owned_by_superuser(s.owner) {
            (s.oid, s.dboid, s.enabled, s.owner, &s.name, &s.conninfo).hash(&mut h);
        }
    }
    if let Some(group) = citus::local_group() {
        group.hash(&mut h);
        for n in citus::other_nodes(group) {
            (n.group, &n.host, n.port).hash(&mut h);
        }
    }
    h.finish()
}

/// Whether this backend has seen a change since it last asked (and
/// registers, at the first call, the callbacks that tell it).
pub fn take_changed() -> bool {
    if !REGISTERED.replace(true) {
        subscriptions::on_change(on_subscription_change);
        // SAFETY: the callback lives as long as the process.
        unsafe { pg_sys::CacheRegisterRelcacheCallback(Some(on_relcache), pg_sys::Datum::from(0)) };
    }
    CHANGED.replace(false)
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn on_subscription_change(_arg: pg_sys::Datum, _cache: i32, _hash: u32) {
    CHANGED.set(true);
}

/// Any relation's: Citus's tables are looked at by the fingerprint, which
/// is cheap, only when a caller next mints.
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn on_relcache(_arg: pg_sys::Datum, relid: pg_sys::Oid) {
    if relid == pg_sys::InvalidOid || citus::is_formation_table(relid) {
        CHANGED.set(true);
    }
}
