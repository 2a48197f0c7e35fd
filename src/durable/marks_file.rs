//! `chronoid.marks`, the file in the data directory that holds the
//! generators' durable high-water marks: read strictly at start, written in
//! place (one write of its own length, as PostgreSQL writes pg_control) or
//! beside and renamed, fsynced through PostgreSQL's file API, with the
//! data directory's file mode (0640 under `initdb -g`, so that a backup run
//! by the group reads it). The text itself is the formats crate's
//! (`format_marks_file`, `parse_marks_file`: the marks, the epochs they were
//! made under, a checksum); when it is written, and under which lock, is
//! `marks.rs`'s.
//!
//! Durable generators: may import `src/pg/` and the files of
//! `src/durable/` it names, never a type adapter (`src/types/`) or
//! `src/generators.rs`.

use std::ffi::CStr;
use std::os::unix::fs::FileExt;
use std::os::unix::io::FromRawFd;

use pgrx::pg_sys;
use pgrx::PgSqlErrorCode;

use chronoid_formats::high_water::{format_marks_file, parse_marks_file, MarksFile};

use super::generator::Generator;

/// In the data directory, beside postgresql.auto.conf: one line per
/// generator, so an operator can read it, and pg_basebackup copies it.
pub const MARKS_FILE: &CStr = c"chronoid.marks";
const MARKS_TEMP: &CStr = c"chronoid.marks.tmp";

/// What the file says, `None` if there is none. A file that is there but
/// unreadable, or says anything chronoid never writes, stops the server:
/// starting without it could repeat IDs.
pub fn read_marks_file() -> Option<MarksFile> {
    let name = MARKS_FILE.to_str().expect("ASCII");
    let text = match read_file(MARKS_FILE) {
        Ok(Some(bytes)) => String::from_utf8(bytes).unwrap_or_default(),
        Ok(None) => return None,
        Err(e) => bad_marks_file(format!("could not read file \"{name}\": {e}")),
    };
    let file = parse_marks_file(&text, &Generator::NAMES).unwrap_or_else(|why| {
        bad_marks_file(format!(
            "file \"{name}\" is not a chronoid marks file: {why}"
        ))
    });
    if file.marks.len() != Generator::ALL.len() {
        bad_marks_file(format!("file \"{name}\" does not hold three marks"));
    }
    Some(file)
}

/// Gives the file the data directory's file mode, if it has another (made
/// by a release that created it 0600, or copied in by hand).
pub fn give_data_directory_mode() -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let name = MARKS_FILE.to_str().expect("ASCII");
    // SAFETY: a global PostgreSQL sets from the data directory's mode at start.
    let mode = unsafe { crate::pg::ffi::pg_file_create_mode } as u32;
    let permissions = std::fs::metadata(name)?.permissions();
    if permissions.mode() & 0o777 != mode {
        std::fs::set_permissions(name, std::fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

/// A whole small file through PostgreSQL's file API; `None` if it is absent.
fn read_file(path: &CStr) -> std::io::Result<Option<Vec<u8>>> {
    // SAFETY: a NUL-terminated path; the descriptor is PostgreSQL's
    // transient file, closed below and never closed by `File` (ManuallyDrop).
    let fd = unsafe { pg_sys::OpenTransientFile(path.as_ptr(), (libc_flags::O_RDONLY) as _) };
    if fd < 0 {
        let e = std::io::Error::last_os_error();
        return if e.kind() == std::io::ErrorKind::NotFound {
            Ok(None)
        } else {
            Err(e)
        };
    }
    // SAFETY: as above.
    let file = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
    let mut bytes = Vec::new();
    let result = std::io::Read::read_to_end(&mut &*file, &mut bytes);
    // SAFETY: the transient file opened above.
    unsafe { pg_sys::CloseTransientFile(fd) };
    result.map(|_| Some(bytes))
}

/// The open(2) flags PostgreSQL's file API takes (Linux values; PG_BINARY
/// is 0 there).
mod libc_flags {
    pub const O_RDONLY: i32 = 0;
    pub const O_RDWR: i32 = 2;
    pub const O_CREAT: i32 = 0o100;
    pub const O_TRUNC: i32 = 0o1000;
}

pub fn bad_marks_file(message: String) -> ! {
    pgrx::pg_sys::panic::ErrorReport::new(
        PgSqlErrorCode::ERRCODE_DATA_CORRUPTED,
        message,
        "chronoid",
    )
    .set_hint(
        "chronoid keeps the generators' high-water marks there so that no ID repeats \
             after a restart. Restore the file from the data directory's backup; remove it \
             only if no chronoid generator has run on this cluster or its primary.",
    )
    .report(pgrx::PgLogLevel::FATAL);
    unreachable!("FATAL does not return")
}

/// How a write of the marks file ends.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flush {
    /// fsynced (and the directory, if the file is new): before a mark is
    /// logged, and at the end of recovery.
    Now,
    /// Left to the OS, flushed soon by the reserver: in redo, so that replay
    /// runs at the speed of the WAL.
    Later,
}

/// Writes all three marks to the file. Nearly always in place: one write
/// of the file's own length, which the OS does not tear, as PostgreSQL
/// writes pg_control. When the length changes (a mark gains a digit), a
/// new file is written beside and renamed over it.
pub fn write_marks_file(marks: &[u64; 3], flush: Flush) -> std::io::Result<()> {
    write_marks_file_as_is(marks, flush).map_err(|(path, e)| {
        std::io::Error::new(e.kind(), format!("could not write file \"{path}\": {e}"))
    })
}

fn write_marks_file_as_is(
    marks: &[u64; 3],
    flush: Flush,
) -> Result<(), (&'static str, std::io::Error)> {
    let text = format_marks_file(&Generator::NAMES, marks, &Generator::epochs());
    let name = MARKS_FILE.to_str().expect("ASCII");
    let in_place = std::fs::metadata(name).is_ok_and(|m| m.len() == text.len() as u64);
    let target = if in_place { MARKS_FILE } else { MARKS_TEMP };
    let flags =
        libc_flags::O_RDWR | libc_flags::O_CREAT | if in_place { 0 } else { libc_flags::O_TRUNC };
    // SAFETY: as in `read_file`. OpenTransientFile creates the file with
    // the data directory's mode (pg_file_create_mode), as PostgreSQL's own.
    let fd = unsafe { pg_sys::OpenTransientFile(target.as_ptr(), flags as _) };
    let target = target.to_str().expect("ASCII");
    if fd < 0 {
        return Err((target, std::io::Error::last_os_error()));
    }
    // SAFETY: as in `read_file`.
    let file = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
    let mut result = file.write_all_at(text.as_bytes(), 0);
    // SAFETY: the descriptor opened above.
    if result.is_ok() && flush == Flush::Now && unsafe { pg_sys::pg_fsync(fd) } != 0 {
        result = Err(std::io::Error::last_os_error());
    }
    // SAFETY: the transient file opened above.
    unsafe { pg_sys::CloseTransientFile(fd) };
    result.map_err(|e| (target, e))?;
    if !in_place {
        std::fs::rename(target, name).map_err(|e| (name, e))?;
        if flush == Flush::Now {
            fsync_data_directory().map_err(|e| (".", e))?;
        }
    }
    Ok(())
}

/// Makes the file durable as it now is, and the directory (a standby's
/// redo may have renamed a new file into place): what redo's
/// `Flush::Later` left to the reserver, and what start-up read.
pub fn flush_marks_file() -> std::io::Result<()> {
    // SAFETY: as in `read_file`.
    let fd = unsafe { pg_sys::OpenTransientFile(MARKS_FILE.as_ptr(), libc_flags::O_RDWR as _) };
    if fd < 0 {
        let e = std::io::Error::last_os_error();
        return Err(std::io::Error::new(
            e.kind(),
            format!("could not open file \"chronoid.marks\" for writing: {e}"),
        ));
    }
    // SAFETY: the descriptor opened above.
    let mut result = if unsafe { pg_sys::pg_fsync(fd) } != 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    };
    // SAFETY: the transient file opened above.
    unsafe { pg_sys::CloseTransientFile(fd) };
    if result.is_ok() {
        result = fsync_data_directory();
    }
    result
}

pub fn fsync_data_directory() -> std::io::Result<()> {
    // SAFETY: "." is the data directory; LOG (not ERROR) level, so a
    // failure comes back as -1 and is raised by the caller.
    let rc = unsafe { pg_sys::fsync_fname_ext(c".".as_ptr(), true, false, pg_sys::LOG as _) };
    if rc != 0 {
        return Err(std::io::Error::other("could not fsync the data directory"));
    }
    Ok(())
}

/// `e` names the file (`write_marks_file`).
pub fn raise_file_error(e: std::io::Error) -> ! {
    crate::pg::error::error(PgSqlErrorCode::ERRCODE_IO_ERROR, e.to_string())
}
