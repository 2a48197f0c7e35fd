//! Which instance of its cluster this server is, as it tells its peers: its
//! system identifier, its name, and its rank among the cluster's copies
//! (`since`), kept in shared memory and, across restarts, in
//! `chronoid.instance` in the data directory. A copy of a server
//! (pg_basebackup, a standby promoted on its own) has the same system
//! identifier and a later rank; of two copies minting with one node id the
//! lower rank refuses (`chronoid_formats::node_ledger`), and a restart
//! keeps the rank it had, so never moves minting back to the older copy.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::ffi::CStr;
use std::sync::atomic::{AtomicU64, Ordering};

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgAtomic};

use chronoid_formats::node_ledger::Known;

/// This cluster's system identifier (`pg_controldata`'s "Database system
/// identifier"): the same on a primary and its standbys, another on every
/// cluster initdb made.
pub fn own_system() -> u64 {
    // SAFETY: reads the control file's copy in shared memory.
    unsafe { pg_sys::GetSystemIdentifier() }
}

/// How this server names itself to others: `cluster_name`, else its port.
pub fn own_name() -> String {
    // SAFETY: GUC variables, NUL-terminated strings PostgreSQL keeps set.
    let cluster = unsafe {
        let name = pg_sys::cluster_name;
        if name.is_null() {
            String::new()
        } else {
            CStr::from_ptr(name).to_string_lossy().into_owned()
        }
    };
    if cluster.is_empty() {
        // SAFETY: as above.
        format!("port {}", unsafe { pg_sys::PostPortNumber })
    } else {
        cluster
    }
}

// SAFETY: unique names; placed by `request_shmem` before any backend runs.
static SINCE: PgAtomic<AtomicU64> = unsafe { PgAtomic::new(c"chronoid.peers_since") };

/// From `_PG_init`, while preloading.
pub fn request_shmem() {
    pg_shmem_init!(SINCE);
}

/// Which instance of its cluster this one is, as an order: its timeline
/// (high bits: a promoted standby is on a later one than the primary it
/// replaced, however often that one restarts), then when it first asked or
/// answered as a primary (unix ms, 42 bits: to the year 2109). 0 on a
/// standby, or where the library was not preloaded. Set on first use,
/// never during recovery, and kept across restarts (`chronoid.instance`):
/// a restart of a server that a copy of it has overtaken never puts it
/// ahead of the copy again.
pub fn own_since() -> u64 {
    // SAFETY: reads shared recovery state.
    if !crate::pg::guards::is_preloaded() || unsafe { pg_sys::RecoveryInProgress() } {
        return 0;
    }
    let since = SINCE.get();
    match since.load(Ordering::Acquire) {
        0 => {
            // SAFETY: reads shared state of the WAL insertion, on a primary.
            let timeline = u64::from(unsafe { pg_sys::GetWALInsertionTimeLine() });
            let here = directory_identity();
            let kept = read_rank(here, timeline);
            let rank = kept.map_or(
                (timeline << 42) | (crate::pg::clock::now_ms().max(1) & ((1 << 42) - 1)),
                |(rank, _)| rank,
            );
            match since.compare_exchange(0, rank, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    if kept.is_none() && std::path::Path::new(RANK_FILE).exists() {
                        pgrx::log!("chronoid: \"{RANK_FILE}\" is not this instance's (a copy of the data directory, another machine or timeline, or a damaged file): this server ranks as a new instance of its cluster");
                    }
                    if kept.is_none_or(|(_, old)| old) {
                        write_rank(here, rank);
                    }
                    rank
                }
                Err(first) => first,
            }
        }
        first => first,
    }
}

/// Where this instance's rank is kept. A copy of the data directory
/// (pg_basebackup, a file-system copy, a restored backup) carries the file
/// but not the directory it names, nor, restored on another machine (a
/// volume snapshot attached elsewhere), the machine: a copy takes a rank of
/// its own. (A whole machine cloned, its machine-id and host name with it,
/// and its volume attached at the same device and inode, reads as the same
/// instance: docs/across-servers.md says so.)
const RANK_FILE: &str = "chronoid.instance";
const RANK_HEADER: &str = "chronoid instance 2";
/// The file as 0.6.0's first builds wrote it, without the machine: read as
/// this machine's, and written anew.
const RANK_HEADER_1: &str = "chronoid instance 1";

/// The data directory's device and inode, and the machine's identity (a
/// hash of /etc/machine-id and the host name): the same directory across
/// restarts, another for every copy of it.
fn directory_identity() -> Option<(u64, u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let machine = [
        "/etc/machine-id",
        "/var/lib/dbus/machine-id",
        "/proc/sys/kernel/hostname",
    ]
    .iter()
    .filter_map(|f| std::fs::read(f).ok())
    .flatten()
    // FNV-1a: stable across builds and Rust versions, unlike
    // DefaultHasher, since the file outlives the library.
    .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    std::fs::metadata(".")
        .ok()
        .map(|m| (m.dev(), m.ino(), machine))
}

/// The rank kept for this very directory on this timeline, if any; and
/// whether the file is to be written anew (an older layout).
fn read_rank(here: Option<(u64, u64, u64)>, timeline: u64) -> Option<(u64, bool)> {
    let (dev, ino, machine) = here?;
    let text = std::fs::read_to_string(RANK_FILE).ok()?;
    let mut lines = text.lines();
    let header = lines.next()?;
    let old = header == RANK_HEADER_1;
    (header == RANK_HEADER || old).then_some(())?;
    let fields: Vec<u64> = lines
        .next()?
        .split(' ')
        .map(|f| f.parse::<u64>().ok())
        .collect::<Option<_>>()?;
    let (d, i, m, rank) = match (old, fields.as_slice()) {
        (true, &[d, i, rank]) => (d, i, machine, rank),
        (false, &[d, i, m, rank]) => (d, i, m, rank),
        _ => return None,
    };
    ((d, i, m) == (dev, ino, machine) && rank >> 42 == timeline && rank != 0).then_some((rank, old))
}

fn write_rank(here: Option<(u64, u64, u64)>, rank: u64) {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let Some((dev, ino, machine)) = here else {
        return;
    };
    let tmp = format!("{RANK_FILE}.tmp");
    // SAFETY: a global PostgreSQL sets from the data directory's mode at start.
    let mode = unsafe { crate::pg::ffi::pg_file_create_mode } as u32;
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(mode)
        .open(&tmp)
        .and_then(|mut f| {
            f.write_all(format!("{RANK_HEADER}\n{dev} {ino} {machine} {rank}\n").as_bytes())?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, RANK_FILE))
        .and_then(|()| std::fs::File::open(".")?.sync_all());
    if let Err(e) = written {
        pgrx::warning!("chronoid: could not write file \"{RANK_FILE}\": {e}; after a restart this server ranks as a new instance of its cluster");
    }
}

/// This server as it tells others.
pub fn own(node_id: i32) -> Known {
    Known {
        system: own_system(),
        since: own_since(),
        node_id,
        seen_ms: crate::pg::clock::now_ms(),
        name: own_name(),
    }
}

pub fn base36(mut n: u64) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(char::from_digit((n % 36) as u32, 36).expect("a digit"));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// The `application_name` an asking connection of this server carries.
pub fn appname(own_id: i32) -> String {
    let name: String = own_name()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut text = format!(
        "chronoid:{own_id}:{}:{}:{name}",
        base36(own_system()),
        base36(own_since())
    );
    // NAMEDATALEN - 1: the server cuts it there anyway.
    text.truncate(63);
    text
}
