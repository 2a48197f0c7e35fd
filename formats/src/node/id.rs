//! Which node a server is, and how each counter format carries it: the
//! policy half of keeping several servers' IDs apart (the extension reads
//! the settings and the formation and passes them in).
//!
//! A node id is 0..=1023 and comes, in order, from the operator's setting,
//! from a Citus formation (a base plus the node's group id, which the
//! formation's coordinator hands out once per node), or from nowhere. The
//! formats carry it so:
//!
//! - nanoflake: its 10-bit generator field (0 where no node id is set: one
//!   server alone needs none, its ticker keeps its IDs apart);
//! - caloriosa: the low 10 bits of its 12-bit salt, which the seed keeps "to
//!   avoid collision"; the other 2 bits stay random (12 random bits where no
//!   node id is set);
//! - uid60: its 9 free bits, which the seed leaves with "no special
//!   requirements": node ids 0..=511 only (9 random bits where none is set).
//!
//! ```
//! use chronoid_formats::node_id::{caloriosa_salt, resolve, uid60_free_bits, Source};
//!
//! // No setting (-1), group 2 of a Citus formation, base 100:
//! let node = resolve(-1, Some(2), 100).unwrap();
//! assert_eq!((node.id, node.source), (Some(102), Source::Citus { group: 2, base: 100 }));
//! assert_eq!(caloriosa_salt(node.id, 0xfff) & 0x3ff, 102);
//! assert_eq!(uid60_free_bits(node.id, 0x1ff), Ok(102));
//! assert!(uid60_free_bits(Some(700), 0).is_err());
//! ```

/// The largest node id (nanoflake's 10-bit generator field).
pub const MAX_NODE_ID: u16 = 1023;
/// The largest node id uid60's 9 free bits carry.
pub const MAX_UID60_NODE_ID: u16 = 511;
/// "Not set": the setting's default, so that a formation may name the node.
pub const UNSET: i32 = -1;

/// Where the node id in effect comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The operator's setting (`chronoid.node_id`).
    Setting,
    /// A Citus formation: `base` plus the node's group id.
    Citus { group: i32, base: u16 },
    /// Nothing: a server on its own.
    Unset,
}

/// The node id in effect and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    pub id: Option<u16>,
    pub source: Source,
}

/// Why no node id can be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResolveError {
    /// base + group id is past [`MAX_NODE_ID`] (or the group id is negative).
    GroupOutOfRange { group: i32, base: u16 },
    /// The setting is outside -1..=1023 (the setting's own range forbids it).
    SettingOutOfRange(i32),
}

/// The node id in effect: the setting where set, else the formation's.
pub fn resolve(setting: i32, citus_group: Option<i32>, base: u16) -> Result<Node, ResolveError> {
    if setting != UNSET {
        return u16::try_from(setting)
            .ok()
            .filter(|id| *id <= MAX_NODE_ID)
            .map(|id| Node {
                id: Some(id),
                source: Source::Setting,
            })
            .ok_or(ResolveError::SettingOutOfRange(setting));
    }
    match citus_group {
        None => Ok(Node {
            id: None,
            source: Source::Unset,
        }),
        Some(group) => i64::from(base)
            .checked_add(i64::from(group))
            .filter(|id| (0..=i64::from(MAX_NODE_ID)).contains(id) && group >= 0)
            .map(|id| Node {
                id: Some(id as u16),
                source: Source::Citus { group, base },
            })
            .ok_or(ResolveError::GroupOutOfRange { group, base }),
    }
}

/// nanoflake's generator field: the node id, 0 where none is set.
pub fn nanoflake_generator(node: Option<u16>) -> u16 {
    node.unwrap_or(0)
}

/// caloriosa's 12-bit salt: 2 random bits above the node id's 10, or 12
/// random bits where no node id is set.
pub fn caloriosa_salt(node: Option<u16>, random: u16) -> u16 {
    match node {
        Some(id) => (random & 0b11) << 10 | (id & MAX_NODE_ID),
        None => random & 0xfff,
    }
}

/// A node id past what uid60's 9 free bits hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uid60NodeTooLarge(pub u16);

/// uid60's 9 free bits: the node id (0..=511), or 9 random bits where none
/// is set.
pub fn uid60_free_bits(node: Option<u16>, random: u16) -> Result<u16, Uid60NodeTooLarge> {
    match node {
        Some(id) if id > MAX_UID60_NODE_ID => Err(Uid60NodeTooLarge(id)),
        Some(id) => Ok(id),
        None => Ok(random & MAX_UID60_NODE_ID),
    }
}

/// Whether a `shared_preload_libraries` value names `library` (as a name,
/// a quoted name, a path, or with its `.so`).
pub fn preloads(list: &str, library: &str) -> bool {
    list.split(',').any(|item| {
        let name = item.trim().trim_matches('"');
        let name = name.rsplit('/').next().unwrap_or(name);
        name == library || name.strip_suffix(".so") == Some(library)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_comes_first_then_the_formation() {
        assert_eq!(
            resolve(7, Some(2), 100),
            Ok(Node {
                id: Some(7),
                source: Source::Setting
            })
        );
        assert_eq!(
            resolve(-1, Some(0), 0),
            Ok(Node {
                id: Some(0),
                source: Source::Citus { group: 0, base: 0 }
            })
        );
        assert_eq!(
            resolve(-1, None, 100),
            Ok(Node {
                id: None,
                source: Source::Unset
            })
        );
        assert_eq!(resolve(0, None, 0).unwrap().id, Some(0));
        assert_eq!(resolve(1023, None, 0).unwrap().id, Some(1023));
    }

    #[test]
    fn the_edges_of_base_plus_group() {
        assert_eq!(resolve(-1, Some(1023), 0).unwrap().id, Some(1023));
        assert_eq!(resolve(-1, Some(23), 1000).unwrap().id, Some(1023));
        assert_eq!(
            resolve(-1, Some(24), 1000),
            Err(ResolveError::GroupOutOfRange {
                group: 24,
                base: 1000
            })
        );
        assert_eq!(
            resolve(-1, Some(-1), 5),
            Err(ResolveError::GroupOutOfRange { group: -1, base: 5 })
        );
        assert_eq!(
            resolve(-1, Some(i32::MAX), 1023),
            Err(ResolveError::GroupOutOfRange {
                group: i32::MAX,
                base: 1023
            })
        );
        assert_eq!(
            resolve(1024, None, 0),
            Err(ResolveError::SettingOutOfRange(1024))
        );
        assert_eq!(
            resolve(-2, None, 0),
            Err(ResolveError::SettingOutOfRange(-2))
        );
    }

    #[test]
    fn every_node_id_is_carried_whole_and_apart() {
        for id in 0..=MAX_NODE_ID {
            for random in [0, 1, 0x3ff, 0x400, 0xfff, 0xffff] {
                let salt = caloriosa_salt(Some(id), random);
                assert!(salt <= 0xfff);
                assert_eq!(salt & 0x3ff, id);
                assert_eq!(salt >> 10, random & 0b11);
                match uid60_free_bits(Some(id), random) {
                    Ok(bits) => {
                        assert!(id <= MAX_UID60_NODE_ID);
                        assert_eq!(bits, id);
                    }
                    Err(e) => {
                        assert!(id > MAX_UID60_NODE_ID);
                        assert_eq!(e, Uid60NodeTooLarge(id));
                    }
                }
            }
        }
        assert_eq!(uid60_free_bits(Some(511), 0), Ok(511));
        assert_eq!(uid60_free_bits(Some(512), 0), Err(Uid60NodeTooLarge(512)));
        assert_eq!(uid60_free_bits(None, 0xffff), Ok(0x1ff));
        assert_eq!(caloriosa_salt(None, 0xffff), 0xfff);
        assert_eq!(nanoflake_generator(None), 0);
        assert_eq!(nanoflake_generator(Some(9)), 9);
    }

    #[test]
    fn a_library_list_names_citus() {
        for yes in [
            "citus",
            "citus,chronoid",
            " citus , chronoid",
            "\"citus\"",
            "$libdir/citus",
            "pg_stat_statements, citus.so",
        ] {
            assert!(preloads(yes, "citus"), "{yes}");
        }
        for no in [
            "",
            "chronoid",
            "citus_columnar",
            "pg_citus",
            "chronoid,citusdata",
        ] {
            assert!(!preloads(no, "citus"), "{no}");
        }
    }
}
