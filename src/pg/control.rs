//! What the cluster's control file (`global/pg_control`) says about the
//! cluster as a whole, read as `pg_controldata` reads it.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use pgrx::pg_sys;

/// Whether the cluster is as initdb left it: no object identifier has been
/// handed out under a running server (the next one is still below
/// `FirstNormalObjectId`, 16384), so no extension, table or role of a user
/// exists yet. A restored backup, a pg_upgrade'd cluster and one that ran
/// `CREATE EXTENSION` all say no. `None` if the file cannot be read whole.
pub fn cluster_is_new() -> Option<bool> {
    let mut crc_ok = false;
    // SAFETY: DataDir is the server's data directory, set before any
    // library loads; the result is palloc'd in the current context.
    let control = unsafe { pg_sys::get_controlfile(pg_sys::DataDir, &mut crc_ok) };
    if control.is_null() || !crc_ok {
        return None;
    }
    // SAFETY: a whole, checked control file.
    let next_oid = unsafe { (*control).checkPointCopy.nextOid };
    Some(u32::from(next_oid) < pg_sys::FirstNormalObjectId)
}
