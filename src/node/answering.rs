//! What this server answers a peer that asks it (`chronoid.node_ids_seen`,
//! a read-only setting, read through `pg_settings` by the asking side,
//! `asking.rs`): itself first, then the servers it knows to mint near it.
//!
//! A server that asks says who it is in its connection's
//! `application_name` (`chronoid:ID:SYSTEM:SINCE:NAME`, the numbers in base
//! 36); the answering backend records it if the role it logged in as may
//! replicate (a superuser or a REPLICATION role, as a subscription's is;
//! `SET ROLE` does not count, as it does not for replication), so that no
//! mere user can make a server refuse by claiming an id. An asker that
//! cannot be recorded (the file cannot be written) gets an ERROR, not an
//! answer: its question is as good as unanswered.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use std::ffi::{c_char, CStr};

use pgrx::{pg_guard, pg_sys};

use super::instance::own;
use super::ledger::{read, update};
use crate::pg::guc::{define_shown, shown, Settings, Startup, TextVariable};
use chronoid_formats::node_ledger::Known;

/// Who asks, from an `application_name` of `appname`'s.
pub(crate) fn asker(appname: &str, now: u64) -> Option<Known> {
    let mut fields = appname.strip_prefix("chronoid:")?.splitn(4, ':');
    let node_id = fields.next()?.parse().ok()?;
    let system = u64::from_str_radix(fields.next()?, 36).ok()?;
    let since = u64::from_str_radix(fields.next()?, 36).ok()?;
    let name = fields.next().unwrap_or("");
    Some(Known {
        system,
        since,
        node_id,
        seen_ms: now,
        name: if name.is_empty() {
            format!("system {system}")
        } else {
            name.to_owned()
        },
    })
}

static NODE_IDS_SEEN: TextVariable = TextVariable::new();

pub const SETTINGS: Settings = Settings {
    names: &[c"chronoid.node_ids_seen"],
    define: define_settings,
};

fn define_settings(_startup: Startup) {
    define_shown(
        c"chronoid.node_ids_seen",
        c"This server and the servers it knows to mint near it: system identifier, since, node id, age (ms), name, one per line. Read-only.",
        c"What this server answers a peer that asks before it mints; docs/across-servers.md.",
        &NODE_IDS_SEEN,
        show_node_ids_seen,
    );
}

/// The answer (`SHOW chronoid.node_ids_seen`, or a peer's
/// `current_setting`). Records the asker first, so that of two servers
/// asking at once the second is told of the first. Guarded: it raises an
/// ERROR where the asker cannot be recorded.
#[pg_guard]
unsafe extern "C-unwind" fn show_node_ids_seen() -> *const c_char {
    shown(
        answer,
        "chronoid cannot answer a server whose asking it cannot record",
    )
}

fn answer() -> Result<String, String> {
    let now = crate::pg::clock::now_ms();
    // SAFETY: whether catalog lookups may run (a walsender's SHOW, say, may
    // have no transaction).
    let in_transaction = unsafe { pg_sys::IsTransactionState() };
    let own = own(super::identity::node_id_answered());
    // SAFETY: a GUC variable; the role checks read the syscache, in a
    // transaction. The role logged in as, as for a replication connection.
    let asked_by = unsafe {
        let name = pg_sys::application_name;
        (!name.is_null() && in_transaction)
            .then(|| asker(&CStr::from_ptr(name).to_string_lossy(), now))
            .flatten()
            .filter(|_| {
                let role = pg_sys::GetSessionUserId();
                pg_sys::superuser_arg(role) || pg_sys::has_rolreplication(role)
            })
    };
    let ledger = match asked_by {
        Some(k) if (k.system, k.since) != (own.system, own.since) => {
            // A server that asks with this server's id: this server's
            // peer worker judges again at once, rather than at its next
            // round (two servers given one id at once both refuse now).
            // Only news: a known clash asked again must not set two
            // servers asking each other in a loop.
            let mut news = false;
            let clash = own.node_id >= 0 && k.node_id == own.node_id;
            let (ledger, written) = update(super::identity::node_id_set(), |l| {
                news = !l
                    .known
                    .iter()
                    .any(|o| (o.system, o.since, o.node_id) == (k.system, k.since, k.node_id));
                l.note_known(k)
            });
            written?;
            if clash && news {
                super::verdict::configuration_changed();
            }
            ledger
        }
        _ => read(),
    };
    Ok(ledger.answer(&own, now))
}
