//! A server's place handed over to its successor before the successor's
//! first ID: the policy half (the extension asks, answers, and keeps the
//! files).
//!
//! A standby promoted while the primary it followed still runs (a split
//! brain, a promotion by hand, a failover whose old primary was only cut
//! off) is a copy of that primary: the same system identifier, and, on a
//! later timeline, a later rank (`since`). Of two copies minting with one
//! node id the older refuses (`node_ledger`), but it would only learn of
//! the newer on a round of asking, and both would mint meanwhile. So the
//! newer asks the server it was a standby of (`primary_conninfo`) before it
//! mints; that server, if it is the copy the newer one succeeds, with the
//! same node id setting, records its successor and refuses from that
//! moment, in every database, and only then answers (`takes_place_of`).
//! The successor mints once the answer names it (`Handover::Stopped`).
//!
//! What is left to chance is said here once: a predecessor that cannot be
//! reached (down, as after a failover, or cut off by a partition) is taken
//! for down, and the successor mints: failover must go on without the old
//! primary. A predecessor cut off and still running mints until it is
//! reached (the successor asks again every round) or fenced.
//!
//! ```
//! use chronoid_formats::node_handover::{read_answer, takes_place_of, Handover};
//! use chronoid_formats::node_ledger::Known;
//!
//! let k = |since, node_id| Known { system: 7, since, node_id, seen_ms: 0, name: "a".into() };
//! let (old, new) = (k(100, 1), k((2 << 42) | 5, 1));
//! assert!(takes_place_of(&old, &new));
//! assert!(!takes_place_of(&new, &old), "an older copy takes no place");
//! // The old primary's answer: itself, then the successor it now refuses for.
//! assert_eq!(read_answer(&new, Some(&[old.clone(), new.clone()])), Handover::Stopped);
//! assert_eq!(read_answer(&new, Some(&[old])), Handover::NotTaken);
//! ```

use crate::node_judging::Judgement;
use crate::node_ledger::Known;

/// Whether `asker`, asking as a successor, takes the place of this
/// instance (`own`, its node id as set: -1 unset): a later copy of it (its
/// system identifier, a later rank) with the same `chronoid.node_id`
/// setting (a Citus node's, unset on both, is its group's on both). A
/// standby (rank 0) holds no place; a server that is not a copy, or one
/// given another node id, takes none.
pub fn takes_place_of(own: &Known, asker: &Known) -> bool {
    own.since != 0
        && asker.system == own.system
        && asker.since > own.since
        && asker.node_id == own.node_id
}

/// Whether a server that recorded `recorded` as its successor takes
/// `asker`: only the first (of two standbys promoted, the one that asked
/// first took the place and mints; the other is told so, and refuses).
pub fn keeps(recorded: Option<&Known>, asker: &Known) -> bool {
    recorded.is_none_or(|r| (r.system, r.since) == (asker.system, asker.since))
}

/// What the server a successor was a standby of answered it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handover {
    /// It recorded this server as its successor: it refuses now.
    Stopped,
    /// It holds no place this server takes: a standby, another cluster,
    /// another node id, this very server, or chronoid not loaded there.
    Clear,
    /// It is a later copy of this server, or handed its place over to
    /// another copy (named) first: that one mints, and this one refuses.
    Newer(String),
    /// It answered without recording this server (the asker's role may not
    /// replicate there, or it is an older chronoid).
    NotTaken,
}

impl Handover {
    /// As the ledger keeps it: a code in a peer's node id column, and the
    /// name beside it (`Newer`'s copy).
    pub fn code(&self) -> i32 {
        match self {
            Handover::Stopped => 1,
            Handover::Clear => 2,
            Handover::Newer(_) => 3,
            Handover::NotTaken => 4,
        }
    }

    pub fn from_code(code: i32, name: &str) -> Option<Handover> {
        match code {
            1 => Some(Handover::Stopped),
            2 => Some(Handover::Clear),
            3 => Some(Handover::Newer(name.to_owned())),
            4 => Some(Handover::NotTaken),
            _ => None,
        }
    }
}

/// What the answer `lines` (itself, then the successor it refuses for, if
/// any; `None`: chronoid not loaded there) says to `me` (this server, its
/// node id as set).
pub fn read_answer(me: &Known, lines: Option<&[Known]>) -> Handover {
    let Some(itself) = lines.and_then(<[Known]>::first) else {
        return Handover::Clear;
    };
    if itself.system != me.system || itself.since == 0 || itself.since == me.since {
        return Handover::Clear;
    }
    if itself.since > me.since {
        return Handover::Newer(itself.name.clone());
    }
    match lines.and_then(|l| l.get(1)) {
        Some(s) if (s.system, s.since) == (me.system, me.since) => Handover::Stopped,
        Some(s) if s.system == me.system => Handover::Newer(s.name.clone()),
        _ if itself.node_id != me.node_id => Handover::Clear,
        _ => Handover::NotTaken,
    }
}

/// The last line of an answer to a successor: where each counter
/// generator (nanoflake, caloriosa, uid60) stopped, in milliseconds since
/// its epoch.
pub fn last_line(last: [u64; 3]) -> String {
    format!("\nlast\t{}\t{}\t{}", last[0], last[1], last[2])
}

/// A ledger entry's name with where the generators of the server whose
/// place it records stopped (each as milliseconds since its epoch), so that
/// a restart before the first ID still resumes above them.
pub fn with_stop(name: &str, last: Option<[u64; 3]>) -> String {
    match last {
        Some([a, b, c]) => format!("{name}{STOPPED_AT}{a} {b} {c})"),
        None => name.to_owned(),
    }
}

/// A name written by [`with_stop`]: the name, and where the generators
/// stopped, if it says.
pub fn read_stop(name: &str) -> (&str, Option<[u64; 3]>) {
    let Some((bare, rest)) = name.split_once(STOPPED_AT) else {
        return (name, None);
    };
    let v: Vec<u64> = rest
        .trim_end_matches(')')
        .split(' ')
        .filter_map(|f| f.parse().ok())
        .collect();
    match v.as_slice() {
        &[a, b, c] => (bare, Some([a, b, c])),
        _ => (name, None),
    }
}

const STOPPED_AT: &str = " (its generators stopped at ";

/// An answer split into its lines of servers and where the generators
/// stopped (`None`: not said).
pub fn split_answer(text: &str) -> (&str, Option<[u64; 3]>) {
    let Some((lines, last)) = text.rsplit_once("\nlast\t") else {
        return (text, None);
    };
    let v: Vec<u64> = last.split('\t').filter_map(|f| f.parse().ok()).collect();
    match v.as_slice() {
        &[a, b, c] => (lines, Some([a, b, c])),
        _ => (text, None),
    }
}

pub const HINT_NEWER: &str = "A later copy of this server mints in its place: stop this one, or rebuild it as a standby; docs/across-servers.md, \"Handover\".";

pub const HINT_NOT_TAKEN: &str = "Let the role in primary_conninfo replicate on that server (it asks over a replication connection), and load chronoid there; docs/across-servers.md, \"Handover\".";

pub const HINT_HANDED_OVER: &str = "Its successor mints now. To make this server mint again, rebuild it as a standby (pg_rewind, or a new base backup); if the successor is gone for good, remove the file chronoid.successor from this server's data directory and restart it; docs/across-servers.md, \"Handover\".";

/// Whether a question's failure means no server can be there: none
/// listening, no route, no host by that name, no connection made in time.
/// Anything else (the server's own error, a connection made and never
/// answered, a connection string this server's libpq cannot use) may hide
/// a server that runs and mints, and is waited out.
pub fn taken_for_down(why: &str) -> bool {
    [
        "could not connect within",
        "Connection refused",
        "No such file or directory",
        "No route to host",
        "Network is unreachable",
        "could not translate host name",
        "Connection timed out",
    ]
    .iter()
    .any(|w| why.contains(w))
}

/// Judges the server this one was a standby of (`name`): by what it last
/// answered this instance (`remembered`), else by why asking failed.
pub fn judge_predecessor(
    name: &str,
    remembered: Option<&Handover>,
    failed: Option<&str>,
) -> Judgement {
    match (remembered, failed) {
        (Some(Handover::Stopped | Handover::Clear), _) => Judgement::Mint,
        (Some(Handover::Newer(copy)), _) => Judgement::Refuse {
            message: crate::reason!(
                "{name} says that another copy of it (\"{copy}\") holds its place: that copy mints, and this one must not"
            ),
            hint: HINT_NEWER.into(),
        },
        (Some(Handover::NotTaken), _) => Judgement::Refuse {
            message: crate::reason!(
                "{name} mints with this server's node id and did not take it as its successor"
            ),
            hint: HINT_NOT_TAKEN.into(),
        },
        // Down (a failover's old primary) or out of reach: taken for down.
        (None, Some(why)) if taken_for_down(why) => Judgement::Mint,
        (None, Some(why)) => Judgement::Wait(crate::reason!(
            "asking {name} to stop minting before this server mints: could not ask it ({why}); asking again"
        )),
        (None, None) => Judgement::Wait(crate::reason!(
            "asking {name} to stop minting before this server mints"
        )),
    }
}

/// A Citus coordinator's record of which node holds each group, as its
/// peer worker reads the formation: the holder it confirmed (`None`: the
/// group never seen), and the node the formation lists now (`None`: none).
/// What it does next:
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextHolder {
    /// Nothing changed.
    Same,
    /// Confirm `listed` (a group seen for the first time, or one whose
    /// holder was told): no node held it before, or the one that did has
    /// stopped.
    Confirm,
    /// Tell the confirmed holder, which the formation no longer lists for
    /// the group, to stop; confirm the listed one once it has.
    Release,
}

pub fn next_holder(confirmed: Option<&str>, listed: Option<&str>) -> NextHolder {
    match (confirmed, listed) {
        (None, None) => NextHolder::Same,
        (None, Some(_)) => NextHolder::Confirm,
        (Some(c), Some(l)) if c == l => NextHolder::Same,
        (Some(_), _) => NextHolder::Release,
    }
}

/// The coordinator's answer to a node that asks who holds its group
/// (`holder\tGROUP\tHOST:PORT`, the address empty while the group is
/// being handed over), read back: the confirmed holder, `None` while
/// pending; `Err` for anything else.
pub fn read_holder(text: &str, group: i32) -> Result<Option<String>, String> {
    let mut f = text.split('\t');
    match (
        f.next(),
        f.next().map(str::parse::<i32>),
        f.next(),
        f.next(),
    ) {
        (Some("holder"), Some(Ok(g)), Some(h), None) if g == group => {
            Ok((!h.is_empty()).then(|| h.to_owned()))
        }
        _ => Err("an answer that is not chronoid's".into()),
    }
}

pub fn holder_line(group: i32, holder: Option<&str>) -> String {
    format!("holder\t{group}\t{}", holder.unwrap_or(""))
}

/// What a node the coordinator told to stop for `group` answers once it
/// has.
pub fn released_line(group: i32) -> String {
    format!("released\t{group}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_reads_back_from_a_name() {
        let name = with_stop("10.0.0.3:5432", Some([7, 0, 1_234_567]));
        assert_eq!(read_stop(&name), ("10.0.0.3:5432", Some([7, 0, 1_234_567])));
        assert_eq!(read_stop("10.0.0.3:5432"), ("10.0.0.3:5432", None));
        assert_eq!(with_stop("x", None), "x");
        // A name that only looks like one keeps its text.
        let odd = "x (its generators stopped at 1 2)";
        assert_eq!(read_stop(odd), (odd, None));
    }

    fn k(system: u64, since: u64, node_id: i32, name: &str) -> Known {
        Known {
            system,
            since,
            node_id,
            seen_ms: 0,
            name: name.into(),
        }
    }

    #[test]
    fn only_a_later_copy_with_the_same_setting_takes_a_primarys_place() {
        let own = k(7, 100, 1, "old");
        assert!(takes_place_of(&own, &k(7, 101, 1, "new")));
        assert!(!taken_for_down(
            "FATAL:  the database system is shutting down"
        ));
        assert!(!taken_for_down(
            "invalid connection option \"keepalives_idel\""
        ));
        assert!(
            !taken_for_down("no answer within 5 s"),
            "connected, never answered"
        );
        assert!(taken_for_down("could not connect within 5 s"));
        assert!(!takes_place_of(&own, &k(7, 100, 1, "itself")));
        assert!(!takes_place_of(&own, &k(7, 99, 1, "older")));
        assert!(!takes_place_of(&own, &k(8, 101, 1, "another cluster")));
        assert!(!takes_place_of(&own, &k(7, 101, 2, "another id")));
        assert!(takes_place_of(
            &k(7, 100, -1, "citus"),
            &k(7, 101, -1, "citus copy")
        ));
        assert!(!takes_place_of(
            &k(7, 0, 1, "a standby"),
            &k(7, 101, 1, "new")
        ));
    }

    #[test]
    fn the_first_successor_keeps_the_place() {
        let first = k(7, 101, 1, "first");
        assert!(keeps(None, &first));
        assert!(keeps(Some(&first), &first), "asked again");
        assert!(
            !keeps(Some(&first), &k(7, 102, 1, "second")),
            "the first keeps it"
        );
        assert!(!keeps(Some(&k(7, 102, 1, "second")), &first));
    }

    #[test]
    fn an_answer_read_by_the_successor() {
        let me = k(7, 200, 1, "me");
        let old = k(7, 100, 1, "old");
        assert_eq!(read_answer(&me, None), Handover::Clear, "no chronoid");
        assert_eq!(read_answer(&me, Some(&[])), Handover::Clear);
        assert_eq!(
            read_answer(&me, Some(&[old.clone(), me.clone()])),
            Handover::Stopped
        );
        assert_eq!(
            read_answer(&me, Some(std::slice::from_ref(&old))),
            Handover::NotTaken
        );
        assert_eq!(
            read_answer(&me, Some(&[old.clone(), k(7, 300, 1, "later")])),
            Handover::Newer("later".into()),
            "it handed over to another copy"
        );
        assert_eq!(
            read_answer(&me, Some(&[old.clone(), k(7, 150, 1, "sibling")])),
            Handover::Newer("sibling".into()),
            "it handed over to a sibling promoted first"
        );
        assert_eq!(
            read_answer(&me, Some(&[k(7, 300, 1, "later")])),
            Handover::Newer("later".into())
        );
        assert_eq!(
            read_answer(&me, Some(&[k(7, 0, 1, "standby")])),
            Handover::Clear
        );
        assert_eq!(
            read_answer(&me, Some(&[k(8, 100, 1, "other")])),
            Handover::Clear
        );
        assert_eq!(
            read_answer(&me, Some(&[k(7, 100, 2, "other id")])),
            Handover::Clear
        );
        assert_eq!(
            read_answer(&me, Some(std::slice::from_ref(&me))),
            Handover::Clear,
            "itself"
        );
        for h in [
            Handover::Stopped,
            Handover::Clear,
            Handover::Newer("n".into()),
            Handover::NotTaken,
        ] {
            assert_eq!(Handover::from_code(h.code(), "n"), Some(h));
        }
        assert_eq!(Handover::from_code(9, "n"), None);
    }

    #[test]
    fn a_coordinator_confirms_a_groups_holder_once_the_last_one_stopped() {
        assert_eq!(next_holder(None, None), NextHolder::Same);
        assert_eq!(
            next_holder(None, Some("h:1")),
            NextHolder::Confirm,
            "first seen"
        );
        assert_eq!(next_holder(Some("h:1"), Some("h:1")), NextHolder::Same);
        assert_eq!(
            next_holder(Some("h:1"), Some("h:2")),
            NextHolder::Release,
            "replaced"
        );
        assert_eq!(
            next_holder(Some("h:1"), None),
            NextHolder::Release,
            "removed"
        );
        assert_eq!(
            read_holder(&holder_line(4, Some("h:1")), 4),
            Ok(Some("h:1".into()))
        );
        assert_eq!(read_holder(&holder_line(4, None), 4), Ok(None));
        assert!(
            read_holder(&holder_line(4, None), 5).is_err(),
            "another group"
        );
        assert!(read_holder("holder\t4\th:1\tmore", 4).is_err());
        assert!(read_holder("", 4).is_err());
        assert_eq!(released_line(4), "released\t4");
        let text = format!("a\nb{}", last_line([1, 2, 3]));
        assert_eq!(split_answer(&text), ("a\nb", Some([1, 2, 3])));
        assert_eq!(split_answer("a\nb"), ("a\nb", None));
    }

    #[test]
    fn a_predecessor_is_waited_for_unless_down() {
        let name = "the server";
        assert_eq!(
            judge_predecessor(name, Some(&Handover::Stopped), None),
            Judgement::Mint
        );
        assert_eq!(
            judge_predecessor(name, Some(&Handover::Clear), Some("FATAL:  x")),
            Judgement::Mint
        );
        assert!(matches!(
            judge_predecessor(name, Some(&Handover::Newer("c".into())), None),
            Judgement::Refuse { .. }
        ));
        assert!(matches!(
            judge_predecessor(name, Some(&Handover::NotTaken), None),
            Judgement::Refuse { .. }
        ));
        assert!(matches!(
            judge_predecessor(name, None, None),
            Judgement::Wait(_)
        ));
        let shutting =
            "connection to server at \"h\" failed: FATAL:  the database system is shutting down";
        assert!(matches!(
            judge_predecessor(name, None, Some(shutting)),
            Judgement::Wait(_)
        ));
        let refused =
            "connection to server on socket \"/tmp/.s.PGSQL.5432\" failed: Connection refused";
        assert_eq!(
            judge_predecessor(name, None, Some(refused)),
            Judgement::Mint
        );
        assert_eq!(
            judge_predecessor(name, None, Some("could not connect within 5 s")),
            Judgement::Mint,
            "a host down"
        );
        assert!(
            matches!(
                judge_predecessor(name, None, Some("no answer within 5 s")),
                Judgement::Wait(_)
            ),
            "connected to a server whose processes are stopped: it may mint again"
        );
    }
}
