//! A small file in the data directory replaced whole and durably: written
//! beside as `NAME.tmp` (with the data directory's file mode), fsynced,
//! renamed over the old one, and the directory fsynced, so that a crash
//! leaves the old file or the new one, never a part.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`), `src/node/` or the durable generators.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;

/// Replaces `name` (relative to the data directory) with `contents`.
pub fn replace(name: &str, contents: &[u8]) -> std::io::Result<()> {
    let tmp = format!("{name}.tmp");
    // SAFETY: a global PostgreSQL sets from the data directory's mode at start.
    let mode = unsafe { super::ffi::pg_file_create_mode } as u32;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(mode)
        .open(&tmp)?;
    file.write_all(contents)?;
    file.sync_all()?;
    std::fs::rename(&tmp, name)?;
    std::fs::File::open(".")?.sync_all()
}
