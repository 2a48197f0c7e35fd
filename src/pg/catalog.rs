//! Reading a catalog table (or a table an extension keeps in `pg_catalog`)
//! row by row, without SQL: no permission check and no planner in between,
//! as PostgreSQL's own code and Citus read their catalogs (a heap scan
//! through `systable_beginscan`, no index).
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use std::ffi::CStr;
use std::num::NonZeroUsize;

use pgrx::pg_sys;

/// One row of a scan, its columns read by number (1-based).
pub struct Row {
    tuple: pg_sys::HeapTuple,
    desc: pg_sys::TupleDesc,
}

impl Row {
    /// The column's datum, `None` for NULL (or no such column).
    pub fn datum(&self, attno: usize) -> Option<pg_sys::Datum> {
        let attno = NonZeroUsize::new(attno)?;
        // SAFETY: the tuple and its descriptor live for the scan's callback.
        unsafe { pgrx::heap_getattr_raw(self.tuple, attno, self.desc) }
    }
    pub fn int4(&self, attno: usize) -> Option<i32> {
        self.datum(attno).map(|d| d.value() as i32)
    }
    pub fn bool(&self, attno: usize) -> Option<bool> {
        self.datum(attno).map(|d| d.value() != 0)
    }
    /// A `text` column (detoasted).
    pub fn text(&self, attno: usize) -> Option<String> {
        // SAFETY: a text datum of this tuple.
        self.datum(attno)
            .map(|d| unsafe { super::datum::text_to_string(d) })
    }
    /// The number of the column called `name` (0: none), from the scanned
    /// relation's own descriptor: no syscache, so that a worker connected
    /// to no database may read a shared catalog (`pg_subscription`).
    pub fn attnum(&self, name: &str) -> usize {
        // SAFETY: the relation's descriptor, alive for the scan; not freed here.
        let desc = unsafe { pgrx::PgTupleDesc::from_pg_unchecked(self.desc) };
        (0..desc.len())
            .find(|&i| desc.get(i).is_some_and(|a| a.name() == name))
            .map_or(0, |i| i + 1)
    }
    /// A `name` column.
    pub fn name(&self, attno: usize) -> Option<String> {
        // SAFETY: a name datum points at the tuple's NameData.
        self.datum(attno).map(|d| unsafe {
            CStr::from_ptr((*d.cast_mut_ptr::<pg_sys::NameData>()).data.as_ptr())
                .to_string_lossy()
                .into_owned()
        })
    }
}

/// `f` over every row of the table `relid`, collecting what it returns.
pub fn scan<T>(relid: pg_sys::Oid, mut f: impl FnMut(&Row) -> Option<T>) -> Vec<T> {
    let mut out = Vec::new();
    // SAFETY: in a transaction; the relation is opened and closed here and
    // the scan ended before it is closed.
    unsafe {
        let rel = pg_sys::table_open(relid, pg_sys::AccessShareLock as pg_sys::LOCKMODE);
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
            if let Some(item) = f(&Row {
                tuple,
                desc: (*rel).rd_att,
            }) {
                out.push(item);
            }
        }
        pg_sys::systable_endscan(scan);
        pg_sys::table_close(rel, pg_sys::AccessShareLock as pg_sys::LOCKMODE);
    }
    out
}

/// The databases a session may connect to (`datallowconn`, not a
/// template): their oids and names.
pub fn connectable_databases() -> Vec<(u32, String)> {
    scan(pg_sys::DatabaseRelationId, |row| {
        let oid = row.int4(row.attnum("oid"))? as u32;
        let allowed =
            row.bool(row.attnum("datallowconn"))? && !row.bool(row.attnum("datistemplate"))?;
        allowed
            .then(|| Some((oid, row.name(row.attnum("datname"))?)))
            .flatten()
    })
}
