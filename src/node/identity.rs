//! The node id every counter generator of this server puts in its IDs, and
//! where it comes from: `chronoid.node_id` where the operator sets one,
//! else a Citus formation's number for this node (`chronoid.node_id_base`
//! plus its group id, `src/node/citus.rs`), else none (a server on its
//! own). How each format carries it is `chronoid_formats::node_id`.
//!
//! Both settings are the server's (`postgresql.conf`, `ALTER SYSTEM`, read
//! again on reload): a server is one node, so no role, database or session
//! may give it another id. Per-role settings are what Citus propagates to
//! every node, and sessions with different ids on one server would let two
//! servers mint with one id unseen; PostgreSQL refuses both (55P02).
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use pgrx::pg_sys::GucContext;
use pgrx::PgSqlErrorCode;

use crate::pg::error::error_with_hint;
use crate::pg::guc::{self, IntSetting, Settings, Startup};
use chronoid_formats::node_id::{resolve, Node, ResolveError, Source, MAX_NODE_ID, UNSET};

/// `chronoid.node_id`: -1 (not set) or 0..1023.
static NODE_ID: IntSetting = IntSetting::new(UNSET);
/// `chronoid.node_id_base`: added to a Citus group id.
static NODE_ID_BASE: IntSetting = IntSetting::new(0);

pub const SETTINGS: Settings = Settings {
    names: &[c"chronoid.node_id", c"chronoid.node_id_base"],
    define: define_settings,
};

fn define_settings(_startup: Startup) {
    // Server-wide (PGC_SIGHUP): whoever could give a session or a role its
    // own id could make this server mint with another server's.
    guc::define_int(
        c"chronoid.node_id",
        c"This server's node id (0..1023) in the IDs of gen_nanoflake(), gen_caloriosa() and gen_uid60(); -1: from the Citus formation, else none.",
        Some(c"Give every server that mints IDs for one application its own id, in postgresql.conf; a Citus node takes chronoid.node_id_base plus its group id unless set."),
        &NODE_ID,
        UNSET,
        i32::from(MAX_NODE_ID),
        GucContext::PGC_SIGHUP,
        None,
    );
    guc::define_int(
        c"chronoid.node_id_base",
        c"Added to a Citus node's group id to make its node id, where chronoid.node_id is not set.",
        Some(c"Give each Citus formation (or other servers) whose IDs meet a range of node ids of its own."),
        &NODE_ID_BASE,
        0,
        i32::from(MAX_NODE_ID),
        GucContext::PGC_SIGHUP,
        None,
    );
}

/// The node id in effect here, from the settings and the Citus group id
/// the peer worker read for this database (a caller reads no catalog).
#[inline(always)]
fn resolve_here() -> Result<Node, ResolveError> {
    let setting = NODE_ID.get();
    let group = if setting == UNSET {
        super::verdict::citus_group_here()
    } else {
        None
    };
    // The settings' ranges keep the base in 0..=1023.
    let base = NODE_ID_BASE.get().clamp(0, i32::from(MAX_NODE_ID)) as u16;
    resolve(setting, group, base)
}

/// The node id in effect for this call, and where it came from.
pub fn node_in_effect(function: &str) -> Node {
    match resolve_here() {
        Ok(node) => node,
        Err(ResolveError::GroupOutOfRange { group, base }) => error_with_hint(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!(
                "{function} cannot take its node id from the Citus formation: chronoid.node_id_base ({base}) plus this node's group id ({group}) is past {MAX_NODE_ID}"
            ),
            "Lower chronoid.node_id_base, or set chronoid.node_id for this server in postgresql.conf.",
        ),
        // The setting's range is -1..=1023: PostgreSQL refuses the rest.
        Err(ResolveError::SettingOutOfRange(value)) => error_with_hint(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("chronoid.node_id {value} is outside -1 .. {MAX_NODE_ID}"),
            "Set chronoid.node_id in postgresql.conf.",
        ),
    }
}

/// The node id in effect for the unguarded path of a generator, where it
/// resolves without an error (`None`: the guarded path resolves it, and
/// raises).
#[inline(always)]
pub fn node_unguarded() -> Option<Option<u16>> {
    resolve_here().ok().map(|n| n.id)
}

/// Where a node id comes from, in words, for `chronoid_generators`.
pub fn describe(source: Source) -> String {
    match source {
        Source::Setting => "chronoid.node_id".into(),
        Source::Citus { group, base: 0 } => format!("citus group {group}"),
        Source::Citus { group, base } => {
            format!("citus group {group} + chronoid.node_id_base {base}")
        }
        Source::Unset => "none".into(),
    }
}

/// Both settings as this process last read them: the peer worker judges
/// again when either changes.
pub fn settings() -> (i32, i32) {
    (NODE_ID.get(), NODE_ID_BASE.get())
}

/// `chronoid.node_id` as set (-1: not set).
pub fn node_id_set() -> i32 {
    NODE_ID.get()
}

/// The node id in effect as told to a peer that asks (-1: none, or none
/// to be had), without raising an error.
pub fn node_id_answered() -> i32 {
    match resolve_here() {
        Ok(Node { id: Some(id), .. }) => i32::from(id),
        _ => UNSET,
    }
}
