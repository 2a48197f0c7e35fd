//! A peer's answer, as every kind of asking reads it (`peers.rs` for
//! publishers, `formation.rs` for Citus nodes): its columns, what is
//! recorded of it in the ledger (`ledger.rs`), and, for a peer out of
//! reach, the last answer that stands for it.
//!
//! The node layer: may import `src/pg/` and `src/durable/`, never
//! `src/types/` or `src/generators.rs`.

use super::ledger;
use chronoid_formats::node_id::UNSET;
use chronoid_formats::node_ledger::{read_answer, Ledger, Peer};

/// A peer's id in the ledger where chronoid is not loaded: it mints no
/// counter IDs, so it is no clash, reachable or not.
pub const NO_CHRONOID: i32 = -2;

/// The column in which every kind of asking reads the peer's
/// `chronoid.node_ids_seen` (`peers.rs`'s `ASK`, `formation.rs`'s).
pub const SEEN_COLUMN: usize = 2;

/// Each peer asked, by its key in the ledger: its answer, or why there is none.
pub type Asked = Vec<(String, Result<Vec<Option<String>>, String>)>;

/// Records the peers' answers in the ledger, passed on to whoever asks
/// this server and what they know learnt where `learn`, and forgets the
/// peers `keep` says are no longer asked; the ledger as it now is.
pub fn record(
    asked: &Asked,
    own: i32,
    learn: bool,
    now: u64,
    keep: impl Fn(&Peer) -> bool,
) -> Ledger {
    // Nothing asked and nothing to forget: no lock, no write.
    if asked.is_empty() {
        let ledger = ledger::read();
        if ledger.peers.iter().all(&keep) {
            return ledger;
        }
    }
    // Itself, as its peers pass it on; a copy of it (another since) is kept.
    let me = (ledger::own_system(), ledger::own_since());
    ledger::update(|l| {
        let mut changed = l.keep_peers(&keep);
        for (key, answer) in asked {
            let Ok(row) = answer else { continue };
            let known = row
                .get(SEEN_COLUMN)
                .cloned()
                .flatten()
                .map(|text| read_answer(&text, now))
                .unwrap_or_default();
            let itself = known.first();
            changed |= l.note_peer(Peer {
                key: key.clone(),
                system: itself.map_or(0, |k| k.system),
                since: itself.map_or(0, |k| k.since),
                node_id: int_column(row, 0).unwrap_or(NO_CHRONOID),
                own_id: own,
                seen_ms: now,
                pass_on: learn,
                name: itself.map_or_else(|| key.clone(), |k| k.name.clone()),
            });
            for k in known
                .into_iter()
                .filter(|k| learn && (k.system, k.since) != me)
            {
                changed |= l.note_known(k);
            }
        }
        changed
    })
    .0
}

/// A peer's node id: its answer, or, out of reach, its last answer if it
/// was given while this server had the id it has now. `Err` is the refusal.
pub fn answered_or_remembered(
    ledger: &Ledger,
    key: &str,
    answer: &Result<Vec<Option<String>>, String>,
    peer: &str,
    own: i32,
    now: u64,
    hint: &str,
) -> Result<Option<Vec<Option<String>>>, (String, String)> {
    match answer {
        Ok(row) => Ok(Some(row.clone())),
        Err(why) => match ledger.remembered(key, own) {
            Some(p) => {
                pgrx::warning!(
                    "chronoid: could not ask {peer} for its node id ({why}); its answer of {} s ago stands",
                    now.saturating_sub(p.seen_ms) / 1000
                );
                Ok(None)
            }
            None => Err((
                format!(
                    "could not ask {peer} for its node id ({why}), and it has not answered this server since this server has {}",
                    as_own(own)
                ),
                hint.into(),
            )),
        },
    }
}

/// This server's node id in words.
pub fn as_own(own: i32) -> String {
    if own == UNSET {
        "no node id".into()
    } else {
        format!("node id {own}")
    }
}

/// A peer's answer's column as an integer (`None`: NULL, or no number).
pub fn int_column(row: &[Option<String>], i: usize) -> Option<i32> {
    row.get(i)?.as_deref()?.trim().parse().ok()
}
