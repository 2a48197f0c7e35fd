//! Whether a server may mint, judged from what its peers answered: the
//! policy half of the extension's peer worker (which asks, records the
//! answers in `chronoid.peers`, and passes here what it has).
//!
//! A peer is a publisher of one of the server's subscriptions (its rows
//! arrive here) or another node of its Citus formation. Each is judged by
//! its last answer given while this server had the node id it has now
//! (`remembered`): asked this round or earlier, reachable or not. A peer
//! never heard under this id is waited for while it is being asked, and
//! refused once asking it failed: two servers cut apart and given one id
//! must not both mint.

use crate::node_id::UNSET;

/// What a peer said of its node id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Said {
    /// It mints with this node id.
    Id(u16),
    /// chronoid is loaded there, with no node id (`chronoid.node_id` not
    /// set, and no Citus group to take one from).
    NoId,
    /// chronoid is not loaded there: it mints no counter IDs.
    NoChronoid,
}

impl Said {
    /// As `chronoid.peers` stores it: the node id, -1 for none, -2 where
    /// chronoid is not loaded.
    pub fn stored(self) -> i32 {
        match self {
            Said::Id(id) => i32::from(id),
            Said::NoId => UNSET,
            Said::NoChronoid => -2,
        }
    }

    /// What `stored` stored (a node id past 1023 cannot be, and reads as
    /// none).
    pub fn from_stored(value: i32) -> Said {
        match value {
            UNSET => Said::NoId,
            v if v < UNSET => Said::NoChronoid,
            v => u16::try_from(v)
                .ok()
                .filter(|id| *id <= crate::node_id::MAX_NODE_ID)
                .map_or(Said::NoId, Said::Id),
        }
    }

    /// The node id, where it has one.
    pub fn id(self) -> Option<u16> {
        match self {
            Said::Id(id) => Some(id),
            _ => None,
        }
    }
}

/// What an answer tells, as `chronoid.peers` keeps it: a peer's node id,
/// or (a Citus worker's question to its coordinator) who holds its group,
/// or (a promoted standby's to its old primary) whether it gave way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Told {
    Said(Said),
    Holding(Holding),
    /// What the server a promoted standby followed said of its place.
    Handover(crate::node_handover::Handover),
}

impl Told {
    /// The value `chronoid.peers` stores for it in its node id column, and
    /// the name beside it (a holding's holder; `name` for a node id).
    pub fn stored<'a>(&'a self, name: &'a str) -> (i32, &'a str) {
        match self {
            Told::Said(said) => (said.stored(), name),
            Told::Holding(h) => (h.code(), h.holder()),
            Told::Handover(h @ crate::node_handover::Handover::Newer(copy)) => (h.code(), copy),
            Told::Handover(h) => (h.code(), name),
        }
    }
}

pub const HINT: &str = "Give every server whose IDs meet its own chronoid.node_id (0..1023) in postgresql.conf and reload; docs/across-servers.md, \"Refusals\".";

pub const HINT_UNREACHABLE: &str = "Bring the publisher up (this server asks again within seconds). If this server's node id was changed while the publisher is out of reach, change it back until the publisher can be asked; a publisher that has never answered may have its subscription disabled meanwhile (ALTER SUBSCRIPTION ... DISABLE). docs/across-servers.md, \"Refusals\".";

pub const HINT_DISABLED: &str = "Enable the subscription once its publisher is in reach (this server asks it then), change this server's node id back, or drop the subscription if its rows are not wanted; docs/across-servers.md, \"Refusals\".";

pub const HINT_CITUS: &str = "Leave chronoid.node_id unset on every node of a Citus formation (each then takes chronoid.node_id_base plus its group id), or give each node its own; docs/across-servers.md, \"Refusals\".";

pub const HINT_CITUS_UNREACHABLE: &str = "Bring the node up (this node asks again within seconds), or leave chronoid.node_id unset and chronoid.node_id_base 0 on every node, so that none needs asking; docs/across-servers.md, \"Refusals\".";

/// What the judge found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    Mint,
    /// A peer never heard under this id is being asked: callers wait.
    Wait(String),
    Refuse {
        message: String,
        hint: String,
    },
}

impl Judgement {
    fn refuse(message: String, hint: &str) -> Judgement {
        Judgement::Refuse {
            message,
            hint: hint.into(),
        }
    }
}

/// A peer's last answer under this server's present id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub said: Said,
    /// How it names itself, or where its id comes from (a Citus node).
    pub name: String,
}

/// A subscription's publisher, as the judge sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Publisher {
    pub subscription: String,
    pub enabled: bool,
    pub remembered: Option<Answer>,
    /// Its last answer whatever this server's id was then: (the answer,
    /// this server's id then). A disabled subscription is judged by it.
    pub last: Option<(Answer, i32)>,
    /// Why it could not be asked this round, where it could not.
    pub failed: Option<String>,
}

/// This server's node id in words.
pub fn as_own(own: i32) -> String {
    if own == UNSET {
        "no node id".into()
    } else {
        format!("node id {own}")
    }
}

/// Judges the publishers of the server's (superuser-owned) subscriptions
/// against its own node id `own` (-1: none).
pub fn judge_publishers(own: i32, publishers: &[Publisher]) -> Judgement {
    let mut seen: Vec<(u16, String)> = Vec::new();
    let mut waiting = None;
    for p in publishers.iter().filter(|p| p.enabled) {
        let peer = format!("the publisher of subscription \"{}\"", p.subscription);
        let (theirs, publisher) = match (&p.remembered, &p.failed) {
            (Some(a), _) if a.said == Said::NoChronoid => continue,
            (Some(a), None) => (a.said, format!("{peer} ({})", a.name)),
            (Some(a), Some(_)) => (
                a.said,
                format!("{peer} (out of reach; as it last answered: {})", a.name),
            ),
            (None, Some(why)) => {
                return Judgement::refuse(
                    crate::reason!(
                        "could not ask {peer} for its node id ({why}), and it has not answered this server since this server has {}",
                        as_own(own)
                    ),
                    HINT_UNREACHABLE,
                )
            }
            (None, None) => {
                waiting.get_or_insert_with(|| crate::reason!("{peer} is being asked its node id"));
                continue;
            }
        };
        if let Some(refusal) = clash(own, theirs, &publisher, &mut seen) {
            return refusal;
        }
    }
    // A disabled subscription's slot keeps the publisher's rows for when it
    // is enabled: its publisher is asked too, and judged by its last answer
    // (out of reach is no refusal: that may be why it was disabled) as an
    // enabled one's is (no id on either side, one id on both, fan-in); an
    // id this server took since the publisher last answered cannot be
    // checked. One never heard is not judged: disabling a subscription
    // whose publisher never answered is the way out the hint gives.
    for p in publishers.iter().filter(|p| !p.enabled) {
        let Some((answer, own_then)) = &p.last else {
            continue;
        };
        if answer.said == Said::NoChronoid {
            continue;
        }
        let publisher = format!(
            "the publisher of the disabled subscription \"{}\" ({})",
            p.subscription, answer.name
        );
        if *own_then != own {
            return Judgement::refuse(
                crate::reason!(
                    "{publisher} last answered while this server had {}; its rows arrive when the subscription is enabled, and it cannot be asked whether it has taken this server's {} since",
                    as_own(*own_then),
                    as_own(own)
                ),
                HINT_DISABLED,
            );
        }
        // Its rows arrive as an enabled one's do: judged alike.
        if let Some(refusal) = clash(own, answer.said, &publisher, &mut seen) {
            return refusal;
        }
    }
    waiting.map_or(Judgement::Mint, Judgement::Wait)
}

/// Whether the rows of `publisher`, whose node id is `theirs`, meet this
/// server's (`own`) or another publisher's (`seen`, which it joins).
fn clash(
    own: i32,
    theirs: Said,
    publisher: &str,
    seen: &mut Vec<(u16, String)>,
) -> Option<Judgement> {
    // Two publishers with one id meet here too (fan-in).
    if let Said::Id(theirs) = theirs {
        if let Some(other) = seen.iter().find(|(id, _)| *id == theirs) {
            return Some(Judgement::refuse(
                crate::reason!(
                    "{publisher} and {} share node id {theirs}, and this server receives the rows of both",
                    other.1
                ),
                HINT,
            ));
        }
        seen.push((theirs, publisher.to_owned()));
    }
    let refusal = match (own, theirs) {
        (UNSET, _) => crate::reason!(
            "this server has no node id (chronoid.node_id is not set), and it receives rows from {publisher}"
        ),
        (_, Said::NoId) => crate::reason!(
            "{publisher} has no node id (chronoid.node_id is not set there), and this server receives its rows"
        ),
        (id, Said::Id(theirs)) if id == i32::from(theirs) => crate::reason!(
            "this server's node id {id} is also the node id of {publisher}, whose rows it receives"
        ),
        _ => return None,
    };
    Some(Judgement::refuse(refusal, HINT))
}

/// Another node of a Citus formation, as the judge sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormationNode {
    /// "the Citus node HOST:PORT (group N)".
    pub name: String,
    /// Its node id and where it comes from (`name` is the source).
    pub remembered: Option<Answer>,
    pub failed: Option<String>,
}

/// Judges a Citus node whose id is its own (`chronoid.node_id`, or a base
/// other than 0) against every other node of its formation: an id another
/// node has is refused, naming both. `me` says where this node's id comes
/// from and its group ("chronoid.node_id, group 1").
pub fn judge_formation(own: i32, me: &str, nodes: &[FormationNode]) -> Judgement {
    let mut waiting = None;
    for n in nodes {
        let (theirs, source) = match (&n.remembered, &n.failed) {
            (Some(a), _) if a.said == Said::NoChronoid => continue,
            (Some(a), None) => (a.said, a.name.clone()),
            (Some(a), Some(_)) => (a.said, "as it last answered".into()),
            (None, Some(why)) => {
                return Judgement::refuse(
                    crate::reason!(
                        "could not ask {} for its node id ({why}), and it has not answered this server since this server has {}",
                        n.name,
                        as_own(own)
                    ),
                    HINT_CITUS_UNREACHABLE,
                )
            }
            (None, None) => {
                waiting.get_or_insert_with(|| crate::reason!("{} is being asked its node id", n.name));
                continue;
            }
        };
        if theirs.stored() == own {
            return Judgement::refuse(
                crate::reason!(
                    "this node's node id {own} ({me}) is also the node id of {} ({source})",
                    n.name
                ),
                HINT_CITUS,
            );
        }
    }
    waiting.map_or(Judgement::Mint, Judgement::Wait)
}

pub const HINT_CITUS_HOLDER: &str = "A node the formation no longer counts as its group's (removed, replaced by citus_update_node, or its group id given to another node) must not mint that group's IDs: stop it, or add it to the formation again (citus_add_node) and restart it; docs/across-servers.md, \"Refusals\".";

/// What a Citus worker's coordinator says of the worker's group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holding {
    /// The node it lists for the group (`holder`: its address) is this one.
    Holds { holder: String },
    /// It lists no node in the group (`citus_remove_node`).
    NotListed,
    /// It lists another server (`holder`: its address), or a copy of this
    /// one (a standby promoted and made the node by `citus_update_node`).
    Another { holder: String, copy: bool },
    /// It lists a node (`holder`) that could not be asked who it is: this
    /// node, or the one that replaced it, out of this node's reach.
    Unconfirmed { holder: String },
    /// It lists `holder`, and is still telling the node that held the
    /// group before to stop (`node_handover::next_holder`).
    Pending { holder: String },
}

impl Holding {
    /// As the ledger keeps it: a code in a peer's node id column (the
    /// holder's address in its name).
    pub fn code(&self) -> i32 {
        match self {
            Holding::Holds { .. } => 1,
            Holding::NotListed => 2,
            Holding::Another { copy: false, .. } => 3,
            Holding::Another { copy: true, .. } => 4,
            Holding::Unconfirmed { .. } => 5,
            Holding::Pending { .. } => 6,
        }
    }

    pub fn holder(&self) -> &str {
        match self {
            Holding::Holds { holder }
            | Holding::Another { holder, .. }
            | Holding::Unconfirmed { holder }
            | Holding::Pending { holder } => holder,
            Holding::NotListed => "",
        }
    }

    pub fn from_code(code: i32, holder: &str) -> Option<Holding> {
        let holder = holder.to_owned();
        match code {
            1 => Some(Holding::Holds { holder }),
            2 => Some(Holding::NotListed),
            3 | 4 => Some(Holding::Another {
                holder,
                copy: code == 4,
            }),
            5 => Some(Holding::Unconfirmed { holder }),
            6 => Some(Holding::Pending { holder }),
            _ => None,
        }
    }

    /// What is recorded of the coordinator's answer `self`, where the
    /// coordinator last said `before` to this instance: a listed node that
    /// could not be asked is taken for this one only if it is the very
    /// address that was this one when last asked (a connection of this
    /// node's to itself that failed); listed at any other address, it may
    /// be the node that replaced this one, and this one refuses.
    pub fn after(self, before: Option<&Holding>) -> Holding {
        match (self, before) {
            (Holding::Unconfirmed { holder }, Some(Holding::Holds { holder: was }))
                if *was == holder =>
            {
                Holding::Holds { holder }
            }
            (answer, _) => answer,
        }
    }
}

/// What several judgements of one scope come to: the first refusal, else
/// the first wait, else mint.
pub fn strongest(found: &[Judgement]) -> Judgement {
    let refused = found.iter().find(|j| matches!(j, Judgement::Refuse { .. }));
    let waiting = found.iter().find(|j| matches!(j, Judgement::Wait(_)));
    refused.or(waiting).cloned().unwrap_or(Judgement::Mint)
}

/// A server known (from the peers' answers, or because it asked this one)
/// to mint with this server's id `own_id`, heard of `heard_s` ago: a copy
/// of this server (its system identifier `own_system`) made active after
/// it, or another server.
pub fn known_clash(
    own_id: i32,
    own_system: u64,
    system: u64,
    name: &str,
    heard_s: u64,
) -> Judgement {
    let message = if system == own_system {
        crate::reason!(
            "a copy of this server (its system identifier {system}, made active after this one) mints with this server's node id {own_id}: \"{name}\", which replicates with this server or with a server it replicates with (last heard of {heard_s} s ago)"
        )
    } else {
        crate::reason!(
            "this server's node id {own_id} is also the node id of the server \"{name}\" (system identifier {system}), which replicates with this server or with a server it replicates with (last heard of {heard_s} s ago)"
        )
    };
    Judgement::refuse(message, HINT)
}

/// Judges whether this Citus worker, which reads group `group`, is still
/// the node its coordinator (`coordinator`: its address) counts as that
/// group's: by what the coordinator last said while this node had its
/// present id (`holding`), or, never told, refused once asking failed.
pub fn judge_holding(
    group: i32,
    coordinator: &str,
    holding: Option<&Holding>,
    failed: Option<&str>,
) -> Judgement {
    let message = match (holding, failed) {
        (Some(Holding::Holds { .. }), _) => return Judgement::Mint,
        (Some(Holding::Pending { holder }), _) => {
            return Judgement::Wait(crate::reason!(
                "the formation's coordinator ({coordinator}) lists {holder} as the node of group {group}, and is still telling the node that held group {group} before to stop"
            ))
        }
        (Some(Holding::Unconfirmed { holder }), _) => crate::reason!(
            "this node reads Citus group {group}, but the formation's coordinator ({coordinator}) lists {holder} as the node of group {group}, which this node could not ask who it is: it may be the node that replaced this one"
        ),
        (Some(Holding::NotListed), _) => crate::reason!(
            "this node reads Citus group {group}, but the formation's coordinator ({coordinator}) lists no node in group {group}: the node was removed from the formation"
        ),
        (Some(Holding::Another { holder, copy }), _) => crate::reason!(
            "this node reads Citus group {group}, but the formation's coordinator ({coordinator}) lists {holder} as the node of group {group}, {}",
            if *copy {
                "a copy of this node (a standby promoted and made the node)"
            } else {
                "another server"
            }
        ),
        (None, Some(why)) => crate::reason!(
            "could not ask the formation's coordinator ({coordinator}) which node holds Citus group {group} ({why}), and it has not said since this node has its present node id"
        ),
        (None, None) => {
            return Judgement::Wait(crate::reason!(
                "the formation's coordinator ({coordinator}) is being asked which node holds group {group}"
            ))
        }
    };
    Judgement::refuse(message, HINT_CITUS_HOLDER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_outweighs_a_wait_which_outweighs_minting() {
        let refuse = Judgement::refuse("no".into(), HINT);
        let wait = Judgement::Wait("asking".into());
        assert_eq!(strongest(&[]), Judgement::Mint);
        assert_eq!(strongest(&[Judgement::Mint, wait.clone()]), wait);
        assert_eq!(
            strongest(&[wait.clone(), refuse.clone(), Judgement::Mint]),
            refuse
        );
    }

    #[test]
    fn a_known_clash_names_a_copy_of_this_server_or_another_server() {
        let Judgement::Refuse { message, hint } = known_clash(3, 42, 42, "copy", 7) else {
            panic!("a clash refuses")
        };
        assert!(message.starts_with("a copy of this server (its system identifier 42, made active after this one) mints with this server's node id 3: \"copy\""), "{message}");
        assert!(message.ends_with("(last heard of 7 s ago)"));
        assert_eq!(hint, HINT);
        let Judgement::Refuse { message, .. } = known_clash(3, 42, 43, "far", 0) else {
            panic!("a clash refuses")
        };
        assert!(message.starts_with("this server's node id 3 is also the node id of the server \"far\" (system identifier 43)"), "{message}");
    }

    #[test]
    fn what_a_peer_said_is_stored_and_read_back_as_it_was() {
        for said in [Said::Id(0), Said::Id(1023), Said::NoId, Said::NoChronoid] {
            assert_eq!(Said::from_stored(said.stored()), said);
        }
        assert_eq!(Said::from_stored(-7), Said::NoChronoid);
        assert_eq!(
            Said::from_stored(1024),
            Said::NoId,
            "no node id is past 1023"
        );
        let holding = Holding::Another {
            holder: "10.0.0.2:5432".into(),
            copy: true,
        };
        let told = Told::Holding(holding.clone());
        let (code, holder) = told.stored("ignored");
        assert_eq!(Holding::from_code(code, holder), Some(holding));
        assert_eq!(Told::Said(Said::Id(7)).stored("p"), (7, "p"));
    }

    fn answer(node_id: i32) -> Option<Answer> {
        Some(Answer {
            said: Said::from_stored(node_id),
            name: format!("p{node_id}"),
        })
    }

    fn publisher(sub: &str, remembered: Option<Answer>, failed: Option<&str>) -> Publisher {
        Publisher {
            subscription: sub.into(),
            enabled: true,
            last: remembered.clone().map(|a| (a, 1)),
            remembered,
            failed: failed.map(Into::into),
        }
    }

    fn message(j: Judgement) -> String {
        match j {
            Judgement::Refuse { message, .. } => message,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn distinct_ids_mint_and_every_clash_is_refused() {
        assert_eq!(judge_publishers(1, &[]), Judgement::Mint);
        assert_eq!(
            judge_publishers(1, &[publisher("a", answer(2), None)]),
            Judgement::Mint
        );
        assert_eq!(
            judge_publishers(
                -1,
                &[publisher("a", answer(Said::NoChronoid.stored()), None)]
            ),
            Judgement::Mint
        );
        assert!(message(judge_publishers(2, &[publisher("a", answer(2), None)]))
            .contains("this server's node id 2 is also the node id of the publisher of subscription \"a\" (p2)"));
        assert!(
            message(judge_publishers(-1, &[publisher("a", answer(2), None)]))
                .starts_with("this server has no node id")
        );
        assert!(
            message(judge_publishers(1, &[publisher("a", answer(-1), None)]))
                .contains("has no node id (chronoid.node_id is not set there)")
        );
        assert!(message(judge_publishers(
            1,
            &[
                publisher("a", answer(3), None),
                publisher("b", answer(3), None)
            ]
        ))
        .contains("share node id 3"));
    }

    #[test]
    fn a_peer_out_of_reach_stands_by_its_last_answer_or_is_refused() {
        assert_eq!(
            judge_publishers(1, &[publisher("a", answer(2), Some("down"))]),
            Judgement::Mint
        );
        assert!(message(judge_publishers(1, &[publisher("a", None, Some("no answer within 5 s"))]))
            .contains("could not ask the publisher of subscription \"a\" for its node id (no answer within 5 s), and it has not answered this server since this server has node id 1"));
        assert_eq!(
            judge_publishers(
                1,
                &[publisher("a", None, None), publisher("b", answer(2), None)]
            ),
            Judgement::Wait(
                "the publisher of subscription \"a\" is being asked its node id".into()
            )
        );
        // A clash found elsewhere is not held up by a peer still asked.
        assert!(matches!(
            judge_publishers(
                2,
                &[publisher("a", None, None), publisher("b", answer(2), None)]
            ),
            Judgement::Refuse { .. }
        ));
    }

    #[test]
    fn a_disabled_subscription_is_judged_by_its_last_answer() {
        let mut p = publisher("a", None, None);
        p.enabled = false;
        assert_eq!(
            judge_publishers(1, std::slice::from_ref(&p)),
            Judgement::Mint,
            "never answered"
        );
        p.last = Some((answer(2).unwrap(), 1));
        assert_eq!(
            judge_publishers(1, std::slice::from_ref(&p)),
            Judgement::Mint
        );
        assert!(message(judge_publishers(2, std::slice::from_ref(&p))).contains(
            "last answered while this server had node id 1; its rows arrive when the subscription is enabled"
        ));
        p.last = Some((answer(1).unwrap(), 1));
        assert!(message(judge_publishers(1, std::slice::from_ref(&p)))
            .contains("is also the node id of the publisher of the disabled subscription"));
        // No id on either side, and fan-in, as for an enabled one: its rows
        // arrive when it is enabled.
        p.last = Some((answer(UNSET).unwrap(), 0));
        assert!(message(judge_publishers(0, std::slice::from_ref(&p)))
            .contains("the publisher of the disabled subscription \"a\" (p-1) has no node id"));
        p.last = Some((answer(3).unwrap(), UNSET));
        assert!(message(judge_publishers(UNSET, std::slice::from_ref(&p)))
            .contains("this server has no node id (chronoid.node_id is not set), and it receives rows from the publisher of the disabled subscription"));
        p.last = Some((answer(3).unwrap(), 1));
        let enabled = publisher("b", answer(3), None);
        assert!(message(judge_publishers(1, &[enabled, p]))
            .contains("share node id 3, and this server receives the rows of both"));
    }

    #[test]
    fn a_formation_node_with_this_nodes_id_is_refused() {
        let node = |remembered, failed: Option<&str>| FormationNode {
            name: "the Citus node h:1 (group 2)".into(),
            remembered,
            failed: failed.map(Into::into),
        };
        assert_eq!(
            judge_formation(5, "x", &[node(answer(6), None)]),
            Judgement::Mint
        );
        assert!(message(judge_formation(5, "chronoid.node_id, group 1", &[node(answer(5), None)]))
            .contains("this node's node id 5 (chronoid.node_id, group 1) is also the node id of the Citus node h:1 (group 2) (p5)"));
        assert!(
            message(judge_formation(5, "x", &[node(None, Some("down"))]))
                .contains("could not ask the Citus node")
        );
        assert!(matches!(
            judge_formation(5, "x", &[node(None, None)]),
            Judgement::Wait(_)
        ));
    }

    #[test]
    fn a_worker_the_coordinator_no_longer_counts_refuses() {
        let holds = Holding::Holds {
            holder: "w:1".into(),
        };
        assert_eq!(
            judge_holding(1, "c:1", Some(&holds), Some("down")),
            Judgement::Mint
        );
        assert!(
            message(judge_holding(1, "c:1", Some(&Holding::NotListed), None))
                .contains("lists no node in group 1")
        );
        let copy = Holding::Another {
            holder: "h:2".into(),
            copy: true,
        };
        assert!(message(judge_holding(1, "c:1", Some(&copy), None))
            .contains("lists h:2 as the node of group 1, a copy of this node"));
        assert!(message(judge_holding(1, "c:1", None, Some("down")))
            .contains("could not ask the formation's coordinator (c:1)"));
        assert!(matches!(
            judge_holding(1, "c:1", None, None),
            Judgement::Wait(_)
        ));
        for h in [
            holds.clone(),
            Holding::NotListed,
            copy,
            Holding::Another {
                holder: "x".into(),
                copy: false,
            },
            Holding::Unconfirmed {
                holder: "y:3".into(),
            },
        ] {
            assert_eq!(Holding::from_code(h.code(), h.holder()), Some(h));
        }
        assert_eq!(Holding::from_code(0, ""), None);
    }

    #[test]
    fn a_listed_node_out_of_reach_is_this_one_only_at_the_address_this_one_had() {
        let unconfirmed = |h: &str| Holding::Unconfirmed { holder: h.into() };
        let holds = Holding::Holds {
            holder: "w:1".into(),
        };
        // The same address as when this node was last found there.
        assert_eq!(unconfirmed("w:1").after(Some(&holds)), holds);
        // Another address (citus_update_node to a copy out of reach), or
        // never confirmed: refused, naming it.
        for before in [Some(&holds), None, Some(&Holding::NotListed)] {
            let after = unconfirmed("w2:1").after(before);
            assert_eq!(after, unconfirmed("w2:1"));
            assert!(
                message(judge_holding(1, "c:1", Some(&after), None)).contains(
                    "lists w2:1 as the node of group 1, which this node could not ask who it is"
                )
            );
        }
        // A first answer, and later answers, stand as given.
        assert_eq!(Holding::NotListed.after(Some(&holds)), Holding::NotListed);
        // An address recorded before the holder was kept ("") matches none.
        let old = Holding::from_code(1, "").unwrap();
        assert_eq!(unconfirmed("w:1").after(Some(&old)), unconfirmed("w:1"));
    }
}
