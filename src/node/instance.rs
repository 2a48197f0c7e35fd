//! Which instance of its cluster this server is, as it tells its peers: its
//! system identifier, its name, and its rank among the cluster's copies
//! (`since`), kept in shared memory and, across restarts, in
//! `chronoid.instance` in the data directory. A copy of a server
//! (pg_basebackup, a standby promoted on its own) has the same system
//! identifier and a later rank; of two copies minting with one node id the
//! lower rank refuses (`chronoid_formats::node_ledger`), and a restart
//! keeps the rank it had, so never moves minting back to the older copy.
//! A new rank lies above the rank in the file it finds, whoever wrote it: a
//! copy, a promoted standby, a server upgraded by `pg_upgrade` (into whose
//! new data directory `chronoid.instance` was copied, as the upgrade steps
//! say) come after their original. The upgraded server also tells the old
//! cluster's system identifier (`own_system`): it is a later instance of
//! the same server, and its former data directory, started again, the
//! older one.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::ffi::CStr;
use std::sync::atomic::{AtomicU64, Ordering};

use pgrx::{pg_guard, pg_shmem_init, pg_sys, PgAtomic};

use chronoid_formats::node_ledger::Known;

/// This server's cluster as it tells its peers: the system identifier
/// (`pg_controldata`'s "Database system identifier": the same on a primary
/// and its standbys, another on every cluster initdb made), or, on a
/// cluster made by `pg_upgrade` from one whose `chronoid.instance` was
/// copied in (docs/high-availability.md, "Upgrading"), that cluster's: the
/// upgraded server is a later instance of the same server, not another
/// one with its node id.
pub fn own_system() -> u64 {
    if !crate::pg::guards::is_preloaded() {
        return control_system();
    }
    let lineage = LINEAGE.get();
    match lineage.load(Ordering::Acquire) {
        0 => {
            let control = control_system();
            let found = read_file().map_or(control, |f| f.lineage);
            // First reader wins; all read the same file.
            let _ = lineage.compare_exchange(0, found, Ordering::AcqRel, Ordering::Acquire);
            lineage.load(Ordering::Acquire)
        }
        l => l,
    }
}

fn control_system() -> u64 {
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
// SAFETY: as above.
static LINEAGE: PgAtomic<AtomicU64> = unsafe { PgAtomic::new(c"chronoid.instance_system") };

/// From `_PG_init`, while preloading.
pub fn request_shmem() {
    pg_shmem_init!(SINCE);
    pg_shmem_init!(LINEAGE);
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
            let file = read_file();
            let kept = read_rank(file.as_ref(), here, timeline);
            // A new rank lies above the one in the file: a copy's, a
            // promoted standby's, an upgraded server's file is its
            // original's, which it comes after.
            let rank = kept.map_or_else(
                || {
                    let now =
                        (timeline << 42) | (crate::pg::clock::now_ms().max(1) & ((1 << 42) - 1));
                    file.as_ref()
                        .map_or(now, |f| now.max(f.rank.saturating_add(1)))
                },
                |(rank, _)| rank,
            );
            match since.compare_exchange(0, rank, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => {
                    match &file {
                        Some(f) if f.control != control_system() => pgrx::log!(
                            "chronoid: \"{RANK_FILE}\" was written by the cluster with system identifier {} (this one's is {}): this server continues that server as a later instance of it, as after pg_upgrade",
                            f.control,
                            control_system()
                        ),
                        _ if kept.is_none() && std::path::Path::new(RANK_FILE).exists() => pgrx::log!("chronoid: \"{RANK_FILE}\" is not this instance's (a copy of the data directory, another machine or timeline, or a damaged file): this server ranks as a new instance of its cluster"),
                        _ => {}
                    }
                    if kept.is_none_or(|(_, old)| old) {
                        write_rank(here, rank, timeline);
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
const RANK_HEADER: &str = "chronoid instance 3";
/// Earlier layouts, read as this cluster's: 2 without the timeline and the
/// systems; 1 (0.6.0's first builds) without the machine either.
const RANK_HEADER_2: &str = "chronoid instance 2";
const RANK_HEADER_1: &str = "chronoid instance 1";

/// What `chronoid.instance` says.
struct RankFile {
    /// The directory and machine it was written in (`directory_identity`).
    at: (u64, u64, Option<u64>),
    rank: u64,
    timeline: u64,
    /// The system identifier of the cluster that wrote it, and the one it
    /// tells its peers (another after `pg_upgrade`).
    control: u64,
    lineage: u64,
    /// An earlier layout, to be written anew.
    old: bool,
}

fn read_file() -> Option<RankFile> {
    let text = std::fs::read_to_string(RANK_FILE).ok()?;
    let mut lines = text.lines();
    let header = lines.next()?;
    let f: Vec<u64> = lines
        .next()?
        .split(' ')
        .map(|f| f.parse::<u64>().ok())
        .collect::<Option<_>>()?;
    let own = control_system();
    let file = match (header, f.as_slice()) {
        (RANK_HEADER, &[d, i, m, rank, timeline, control, lineage]) => RankFile {
            at: (d, i, Some(m)),
            rank,
            timeline,
            control,
            lineage,
            old: false,
        },
        (RANK_HEADER_2, &[d, i, m, rank]) => RankFile {
            at: (d, i, Some(m)),
            rank,
            timeline: rank >> 42,
            control: own,
            lineage: own,
            old: true,
        },
        (RANK_HEADER_1, &[d, i, rank]) => RankFile {
            at: (d, i, None),
            rank,
            timeline: rank >> 42,
            control: own,
            lineage: own,
            old: true,
        },
        _ => return None,
    };
    (file.rank != 0 && file.lineage != 0).then_some(file)
}

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

/// The rank kept for this very directory, cluster and timeline, if any;
/// and whether the file is to be written anew (an earlier layout).
fn read_rank(
    file: Option<&RankFile>,
    here: Option<(u64, u64, u64)>,
    timeline: u64,
) -> Option<(u64, bool)> {
    let (dev, ino, machine) = here?;
    let f = file?;
    let same_place = f.at.0 == dev && f.at.1 == ino && f.at.2.is_none_or(|m| m == machine);
    (same_place && f.timeline == timeline && f.control == control_system())
        .then_some((f.rank, f.old))
}

fn write_rank(here: Option<(u64, u64, u64)>, rank: u64, timeline: u64) {
    let Some((dev, ino, machine)) = here else {
        return;
    };
    let (control, lineage) = (control_system(), own_system());
    let text =
        format!("{RANK_HEADER}\n{dev} {ino} {machine} {rank} {timeline} {control} {lineage}\n");
    if let Err(e) = crate::pg::files::replace(RANK_FILE, text.as_bytes()) {
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
