//! What a server remembers of the other servers whose IDs meet its own: the
//! policy half of `chronoid.peers` (the extension reads and writes the file,
//! asks the peers, and passes the clock in).
//!
//! A server is one instance of a cluster: its system identifier, and when
//! that instance first asked its peers (`since`, unix ms on its own clock).
//! A cluster's copies (a standby promoted, a clone started on its own)
//! share the system identifier; a copy started later, or the same server
//! restarted, has a later `since`.
//!
//! Two kinds of entry:
//!
//! - **peers**: each server this one asks (a subscription's publisher, a
//!   Citus node), by a key of the extension's, with the node id it answered
//!   and this server's own node id at the time. When the peer cannot be
//!   asked (a partition, a peer down), its last answer stands, but only
//!   while this server's own id is the one it was checked against: a server
//!   whose id changed while a peer was out of reach cannot know that the
//!   peer did not take the same one. A subscription's publisher is passed
//!   on to whoever asks, as long as the subscription is there, however long
//!   ago it last answered: rows still come from it.
//! - **known**: servers that mint with a node id near this one: the peers'
//!   own answers, the servers that asked this one (they tell their id as
//!   they ask), and what the peers said they know. A server hands its known
//!   list to whoever asks, so a server learns the ids of its peers' peers:
//!   in A ⇄ B ⇄ C, A and C each learn the other's id from B. An entry is
//!   forgotten [`KNOWN_FOR_MS`] after the server itself last spoke (passed
//!   on as an age, so that no two servers' clocks are compared).
//!
//! Another server with this one's node id is a clash; so is a copy of this
//! one (its system identifier) with a later `since`: of two instances of
//! one cluster minting at once, the older refuses (the newer sees the
//! older as its own past, as a promoted standby sees its old primary).
//!
//! ```
//! use chronoid_formats::node_ledger::{Known, Ledger, Peer};
//!
//! let me = Known { system: 1, since: 50, node_id: 1, seen_ms: 1_000, name: "a".into() };
//! let mut ledger = Ledger::default();
//! // B (system 2, node id 5) answered subscription 16400, while this server had id 1.
//! ledger.note_peer(Peer { key: "subscription 16400".into(), system: 2, since: 7, node_id: 5,
//!                         own_id: 1, seen_ms: 1_000, pass_on: true, name: "b".into() });
//! // B said C (system 3) mints with node id 1: this server's own.
//! ledger.note_known(Known { system: 3, since: 9, node_id: 1, seen_ms: 900, name: "c".into() });
//! assert_eq!(ledger.clash(&me, 1_000).map(|k| k.system), Some(3));
//! // B is out of reach: its answer stands while this server's id is still 1.
//! assert_eq!(ledger.remembered("subscription 16400", 1).map(|p| p.node_id), Some(5));
//! assert!(ledger.remembered("subscription 16400", 2).is_none());
//! let text = ledger.to_text();
//! assert_eq!(Ledger::from_text(&text).unwrap(), ledger);
//! ```

/// How long a server's id is known after it last spoke to anyone who passed
/// it on: fifteen minutes, many of the servers' rounds of asking (every
/// backend each minute, every server's peer worker more often), so that a
/// server that still mints is never forgotten, and one that is gone (rebuilt
/// with a new system identifier under the same id, say) stops blocking its
/// successor.
pub const KNOWN_FOR_MS: u64 = 15 * 60_000;

/// An entry is written again only when what it says changes or it is this
/// much fresher than the file's: the file is rewritten about once a minute
/// at most per server, not once per question.
pub const REFRESH_AFTER_MS: u64 = 60_000;

const HEADER: &str = "chronoid peers 2";

/// A server asked directly, by the extension's key for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    pub key: String,
    /// Its system identifier (0: not told).
    pub system: u64,
    /// When that instance first asked its peers (0: not told).
    pub since: u64,
    /// What it answered, as `node_judging::Told::stored` stores it: its
    /// node id (`Said::stored`: -1 none, -2 no chronoid there), or, for a
    /// Citus group's holder, the holding's code.
    pub node_id: i32,
    /// This server's node id when it answered (-1: none).
    pub own_id: i32,
    pub seen_ms: u64,
    /// Passed on to whoever asks this server (a subscription's publisher).
    pub pass_on: bool,
    /// How it names itself.
    pub name: String,
}

/// A server known to mint with `node_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    pub system: u64,
    pub since: u64,
    pub node_id: i32,
    /// When it last spoke, on this server's clock (unix ms).
    pub seen_ms: u64,
    /// How it names itself (`cluster_name`, or address and port).
    pub name: String,
}

impl Known {
    fn same_server(&self, other: &Known) -> bool {
        (self.system, self.since) == (other.system, other.since)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ledger {
    pub peers: Vec<Peer>,
    pub known: Vec<Known>,
}

/// Tabs and line ends would break a line of the file or of an answer.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl Ledger {
    /// Records a peer's answer; `true` if the file needs writing.
    pub fn note_peer(&mut self, peer: Peer) -> bool {
        let peer = Peer {
            key: clean(&peer.key),
            name: clean(&peer.name),
            ..peer
        };
        match self.peers.iter_mut().find(|p| p.key == peer.key) {
            Some(p)
                if *p
                    == Peer {
                        seen_ms: p.seen_ms,
                        ..peer.clone()
                    } =>
            {
                refresh(&mut p.seen_ms, peer.seen_ms)
            }
            Some(p) => {
                *p = peer;
                true
            }
            None => {
                self.peers.push(peer);
                true
            }
        }
    }

    /// The peer's last answer, if it was given while this server had
    /// `own_id`.
    pub fn remembered(&self, key: &str, own_id: i32) -> Option<&Peer> {
        let key = clean(key);
        self.peers
            .iter()
            .find(|p| p.key == key && p.own_id == own_id)
    }

    /// Forgets the peers `keep` says are no longer asked (a subscription
    /// dropped or disabled); `true` if any was.
    pub fn keep_peers(&mut self, keep: impl Fn(&Peer) -> bool) -> bool {
        let before = self.peers.len();
        self.peers.retain(keep);
        self.peers.len() != before
    }

    /// Records that a server mints with an id; the freshest word on it wins.
    /// `true` if the file needs writing.
    pub fn note_known(&mut self, known: Known) -> bool {
        self.note_known_all([known])
    }

    /// Records what a peer's answer says it knows, in one pass (linear in
    /// the ledger and the answer); the ledger keeps at most [`MAX_KNOWN`],
    /// the freshest. `true` if the file needs writing.
    pub fn note_known_all(&mut self, known: impl IntoIterator<Item = Known>) -> bool {
        let mut at: std::collections::HashMap<(u64, u64), usize> = self
            .known
            .iter()
            .enumerate()
            .map(|(i, k)| ((k.system, k.since), i))
            .collect();
        let mut changed = false;
        for known in known {
            let known = Known {
                name: clean(&known.name),
                ..known
            };
            match at.get(&(known.system, known.since)) {
                Some(&i) => changed |= Self::merge_known(&mut self.known[i], known),
                None => {
                    at.insert((known.system, known.since), self.known.len());
                    self.known.push(known);
                    changed = true;
                }
            }
        }
        if self.known.len() > MAX_KNOWN {
            self.known
                .sort_unstable_by_key(|k| std::cmp::Reverse(k.seen_ms));
            self.known.truncate(MAX_KNOWN);
            changed = true;
        }
        changed
    }

    fn merge_known(k: &mut Known, known: Known) -> bool {
        if known.seen_ms < k.seen_ms {
            false
        } else if k.node_id == known.node_id && k.name == known.name {
            refresh(&mut k.seen_ms, known.seen_ms)
        } else {
            *k = known;
            true
        }
    }

    /// Drops what is no longer known; `true` if anything was. A server
    /// known with this server's own id (`own_id`) is kept however long ago
    /// it was heard of: a clash is forgotten only on fresher news of that
    /// server (another id), never by time, since the peers that told of it
    /// may be out of reach while both servers' rows still meet.
    pub fn forget_old(&mut self, now: u64, own_id: i32) -> bool {
        let before = self.known.len();
        self.known.retain(|k| {
            now.saturating_sub(k.seen_ms) < KNOWN_FOR_MS || (own_id >= 0 && k.node_id == own_id)
        });
        self.known.len() != before
    }

    /// The servers known now, this one (`own`) aside: what it heard, and
    /// the publishers it passes on (as heard now: rows still come from
    /// them). Of two words on one server, the later stands.
    pub fn known_now(&self, own: &Known, now: u64) -> Vec<Known> {
        let passed_on = self
            .peers
            .iter()
            .filter(|p| p.pass_on && p.system != 0 && p.node_id >= -1)
            .map(|p| {
                let k = Known {
                    system: p.system,
                    since: p.since,
                    node_id: p.node_id,
                    seen_ms: p.seen_ms,
                    name: p.name.clone(),
                };
                (k, true)
            });
        let heard = self
            .known
            .iter()
            .filter(|k| {
                now.saturating_sub(k.seen_ms) < KNOWN_FOR_MS
                    || (own.node_id >= 0 && k.node_id == own.node_id)
            })
            .map(|k| (k.clone(), false));
        // By server, in one pass: an answer may name up to MAX_KNOWN.
        let mut out: Vec<(Known, bool)> = Vec::new();
        let mut at: std::collections::HashMap<(u64, u64), usize> = std::collections::HashMap::new();
        for (k, held) in passed_on.chain(heard) {
            if k.same_server(own) {
                continue;
            }
            match at.get(&(k.system, k.since)) {
                Some(&i) => {
                    let (o, o_held) = &mut out[i];
                    *o_held |= held;
                    if k.seen_ms > o.seen_ms {
                        *o = k;
                    }
                }
                None => {
                    at.insert((k.system, k.since), out.len());
                    out.push((k, held));
                }
            }
        }
        out.into_iter()
            .map(|(k, held)| if held { Known { seen_ms: now, ..k } } else { k })
            .collect()
    }

    /// Another server known now to mint with this one's node id, or a copy
    /// of this one started later with it.
    pub fn clash(&self, own: &Known, now: u64) -> Option<Known> {
        if own.node_id < 0 {
            return None;
        }
        self.known_now(own, now).into_iter().find(|k| {
            k.node_id == own.node_id
                && (k.system != own.system || (own.since != 0 && k.since > own.since))
        })
    }

    /// The answer this server gives to whoever asks: itself first, then
    /// the servers it knows now, one per line (`system`, `since`, `node
    /// id`, `age ms`, `name`, tab-separated).
    pub fn answer(&self, own: &Known, now: u64) -> String {
        let mut lines = vec![answer_line(own, now)];
        lines.extend(self.known_now(own, now).iter().map(|k| answer_line(k, now)));
        lines.join("\n")
    }

    pub fn to_text(&self) -> String {
        let mut text = format!("{HEADER}\n");
        for p in &self.peers {
            text += &format!(
                "peer\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                p.system,
                p.since,
                p.node_id,
                p.own_id,
                p.seen_ms,
                u8::from(p.pass_on),
                p.name,
                p.key
            );
        }
        for k in &self.known {
            text += &format!(
                "known\t{}\t{}\t{}\t{}\t{}\n",
                k.system, k.since, k.node_id, k.seen_ms, k.name
            );
        }
        text
    }

    /// The file's text; `Err` says what is wrong with it.
    pub fn from_text(text: &str) -> Result<Ledger, String> {
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            return Err(format!("the first line is not \"{HEADER}\""));
        }
        let mut ledger = Ledger::default();
        for (n, line) in lines.enumerate() {
            let bad = || format!("line {} is not an entry: {line:?}", n + 2);
            let fields: Vec<&str> = line.split('\t').collect();
            match fields.as_slice() {
                ["peer", system, since, node_id, own_id, seen_ms, pass_on, name, key] => {
                    ledger.peers.push(Peer {
                        key: (*key).to_owned(),
                        system: system.parse().map_err(|_| bad())?,
                        since: since.parse().map_err(|_| bad())?,
                        node_id: node_id.parse().map_err(|_| bad())?,
                        own_id: own_id.parse().map_err(|_| bad())?,
                        seen_ms: seen_ms.parse().map_err(|_| bad())?,
                        pass_on: match *pass_on {
                            "1" => true,
                            "0" => false,
                            _ => return Err(bad()),
                        },
                        name: (*name).to_owned(),
                    })
                }
                ["known", system, since, node_id, seen_ms, name] => ledger.known.push(Known {
                    system: system.parse().map_err(|_| bad())?,
                    since: since.parse().map_err(|_| bad())?,
                    node_id: node_id.parse().map_err(|_| bad())?,
                    seen_ms: seen_ms.parse().map_err(|_| bad())?,
                    name: (*name).to_owned(),
                }),
                _ => return Err(bad()),
            }
        }
        Ok(ledger)
    }
}

/// Moves a time seen forward if it is [`REFRESH_AFTER_MS`] older than
/// `now`; `true` if it did (the file needs writing).
fn refresh(seen_ms: &mut u64, now: u64) -> bool {
    if now.saturating_sub(*seen_ms) >= REFRESH_AFTER_MS {
        *seen_ms = now;
        true
    } else {
        false
    }
}

fn answer_line(k: &Known, now: u64) -> String {
    format!(
        "{}\t{}\t{}\t{}\t{}",
        k.system,
        k.since,
        k.node_id,
        now.saturating_sub(k.seen_ms),
        clean(&k.name)
    )
}

/// The most an answer may hold: a server passes on at most [`MAX_KNOWN`]
/// servers besides itself, each line well under 256 bytes.
pub const MAX_ANSWER_BYTES: usize = 256 * 1024;
/// The most servers a ledger keeps known, and an answer may name.
pub const MAX_KNOWN: usize = 1_000;
/// The longest name a server gives itself in an answer (`cluster_name` is
/// at most NAMEDATALEN - 1 bytes; an address and port fit too).
pub const MAX_NAME_BYTES: usize = 128;

/// A peer's answer read back: itself first, then what it knows, with each
/// age turned into a time on this server's clock (`now`). An answer over
/// [`MAX_ANSWER_BYTES`] or [`MAX_KNOWN`] + 1 lines, or with any line that
/// is not an entry chronoid writes, is no answer (`Err` says why): only
/// chronoid answers for chronoid, and a peer's answer costs this server
/// time and room in proportion to a bound, not to what the peer sends.
pub fn read_answer(text: &str, now: u64) -> Result<Vec<Known>, String> {
    if text.len() > MAX_ANSWER_BYTES {
        return Err(format!("an answer over {} KiB", MAX_ANSWER_BYTES / 1024));
    }
    let mut out = Vec::new();
    for (n, line) in text.split('\n').enumerate() {
        if n > MAX_KNOWN {
            return Err(format!("an answer naming over {MAX_KNOWN} servers"));
        }
        out.push(read_answer_line(line).ok_or_else(|| {
            format!("line {} of the answer is not a chronoid entry", n + 1)
        })?(now));
    }
    Ok(out)
}

/// One line of an answer, strictly: `system`, `since`, `node id` (-1, or
/// 0..=1023), `age ms`, `name` (printable, at most [`MAX_NAME_BYTES`]).
fn read_answer_line(line: &str) -> Option<impl FnOnce(u64) -> Known> {
    let mut fields = line.splitn(5, '\t');
    let system: u64 = fields.next()?.parse().ok()?;
    let since: u64 = fields.next()?.parse().ok()?;
    let node_id: i32 = fields.next()?.parse().ok()?;
    let age: u64 = fields.next()?.parse().ok()?;
    let name = fields.next()?;
    let valid = system != 0
        && (-1..=i32::from(crate::node_id::MAX_NODE_ID)).contains(&node_id)
        && name.len() <= MAX_NAME_BYTES
        && !name.chars().any(char::is_control);
    valid.then(|| {
        let name = name.to_owned();
        move |now: u64| Known {
            system,
            since,
            node_id,
            seen_ms: now.saturating_sub(age),
            name,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(system: u64, node_id: i32, seen_ms: u64) -> Known {
        Known {
            system,
            since: 1,
            node_id,
            seen_ms,
            name: format!("s{system}"),
        }
    }

    fn me(node_id: i32) -> Known {
        Known {
            system: 100,
            since: 10,
            node_id,
            seen_ms: 0,
            name: "me".into(),
        }
    }

    fn peer(key: &str, node_id: i32, own_id: i32, seen_ms: u64) -> Peer {
        Peer {
            key: key.into(),
            system: 7,
            since: 3,
            node_id,
            own_id,
            seen_ms,
            pass_on: true,
            name: "p".into(),
        }
    }

    #[test]
    fn text_round_trips_and_rejects_what_it_never_writes() {
        let mut l = Ledger::default();
        l.note_peer(peer("subscription 1 \"a\tb\"", -1, 3, 10));
        l.note_known(known(7, 4, 10));
        let text = l.to_text();
        assert!(text.contains("subscription 1 \"a b\""));
        assert_eq!(Ledger::from_text(&text).unwrap(), l);
        assert!(Ledger::from_text("").is_err());
        assert!(
            Ledger::from_text("chronoid peers 1\n").is_err(),
            "an older layout"
        );
        assert!(Ledger::from_text("chronoid peers 2\npeer\tx\n").is_err());
        assert!(Ledger::from_text("chronoid peers 2\nknown\t1\t1\tone\t2\tn\n").is_err());
        assert!(Ledger::from_text("chronoid peers 2\npeer\t1\t1\t1\t1\t1\t2\tn\tk\n").is_err());
        assert_eq!(
            Ledger::from_text("chronoid peers 2\n").unwrap(),
            Ledger::default()
        );
    }

    #[test]
    fn a_remembered_answer_stands_only_under_the_same_own_id() {
        let mut l = Ledger::default();
        assert!(l.note_peer(peer("k", 5, 1, 0)));
        assert!(!l.note_peer(peer("k", 5, 1, REFRESH_AFTER_MS - 1)));
        assert!(l.note_peer(peer("k", 5, 1, REFRESH_AFTER_MS)));
        assert_eq!(l.remembered("k", 1).unwrap().node_id, 5);
        assert!(l.remembered("k", 2).is_none());
        assert!(l.remembered("k", -1).is_none());
        assert!(l.remembered("other", 1).is_none());
        // The peer answered again with another id, under another own id.
        assert!(l.note_peer(peer("k", 6, 2, 1)));
        assert!(l.remembered("k", 1).is_none());
        assert_eq!(l.remembered("k", 2).unwrap().node_id, 6);
        assert!(!l.keep_peers(|p| p.key == "k"));
        assert!(l.keep_peers(|_| false));
        assert!(l.peers.is_empty());
    }

    #[test]
    fn the_freshest_word_wins_and_old_words_are_forgotten() {
        let mut l = Ledger::default();
        assert!(l.note_known(known(3, 1, 1_000)));
        assert!(
            !l.note_known(known(3, 9, 500)),
            "older news changes nothing"
        );
        assert!(!l.note_known(known(3, 1, 1_000 + REFRESH_AFTER_MS - 1)));
        assert!(
            l.note_known(known(3, 2, 1_001)),
            "a new id is written at once"
        );
        assert_eq!(l.known[0].node_id, 2);
        // Known until KNOWN_FOR_MS after it last spoke, not a moment past,
        // unless it has this server's id: a clash is never forgotten by time.
        assert!(l.clash(&me(2), 1_001 + 10 * KNOWN_FOR_MS).is_some());
        assert!(!l.forget_old(1_001 + 10 * KNOWN_FOR_MS, 2));
        assert_eq!(l.known_now(&me(3), 1_001 + KNOWN_FOR_MS - 1).len(), 1);
        assert!(l.known_now(&me(3), 1_001 + KNOWN_FOR_MS).is_empty());
        assert!(!l.forget_old(1_001 + KNOWN_FOR_MS - 1, 3));
        assert!(l.forget_old(1_001 + KNOWN_FOR_MS, 3));
        assert!(l.known.is_empty());
    }

    #[test]
    fn a_publisher_is_passed_on_however_long_ago_it_answered() {
        let mut l = Ledger::default();
        l.note_peer(peer("subscription 9", 4, 1, 0));
        let later = 10 * KNOWN_FOR_MS;
        assert_eq!(l.clash(&me(4), later).unwrap().system, 7);
        let answer = read_answer(&l.answer(&me(1), later), later).unwrap();
        assert_eq!(
            (answer[1].system, answer[1].node_id, answer[1].seen_ms),
            (7, 4, later)
        );
        // Not a Citus node's, not one without chronoid, not one not told.
        l.peers[0].pass_on = false;
        assert!(l.clash(&me(4), later).is_none());
        l.peers[0].pass_on = true;
        l.peers[0].node_id = -2;
        assert!(l.clash(&me(-2), later).is_none());
        assert_eq!(
            read_answer(&l.answer(&me(1), later), later).unwrap().len(),
            1
        );
    }

    #[test]
    fn of_a_publishers_answer_and_a_word_since_the_later_stands() {
        let mut l = Ledger::default();
        l.note_peer(peer("subscription 9", 1, 2, 1_000));
        // The publisher told another server its new id after it last answered.
        l.note_known(Known {
            system: 7,
            since: 3,
            node_id: 4,
            seen_ms: 2_000,
            name: "p".into(),
        });
        assert!(l.clash(&me(1), 3_000).is_none());
        assert_eq!(
            l.clash(&me(4), 3_000).unwrap().seen_ms,
            3_000,
            "held fresh: a publisher"
        );
        // And the other way round: its answer is the later word.
        l.note_peer(peer("subscription 9", 5, 2, 4_000));
        assert!(l.clash(&me(4), 5_000).is_none());
        assert!(l.clash(&me(5), 5_000).is_some());
    }

    #[test]
    fn a_clash_is_another_server_or_a_later_copy_with_this_ones_id() {
        let mut l = Ledger::default();
        l.note_known(known(1, 4, 0));
        l.note_known(known(2, 5, 0));
        l.note_known(known(3, -1, 0));
        assert_eq!(l.clash(&me(4), 0).unwrap().system, 1);
        assert!(
            l.clash(&me(-1), 0).is_none(),
            "no id: the direct check's business"
        );
        assert!(l.clash(&me(6), 0).is_none());
        // Copies of this server (system 100, since 10).
        let copy = |since, node_id| Known {
            system: 100,
            since,
            node_id,
            seen_ms: 0,
            name: "copy".into(),
        };
        l.note_known(copy(10, 6));
        assert!(
            l.clash(&me(6), 0).is_none(),
            "itself, heard of through a peer"
        );
        l.note_known(copy(5, 6));
        assert!(
            l.clash(&me(6), 0).is_none(),
            "its own past (a primary before the failover)"
        );
        l.note_known(copy(20, 7));
        assert!(l.clash(&me(6), 0).is_none(), "a later copy with another id");
        l.note_known(copy(20, 6));
        assert_eq!(
            l.clash(&me(6), 0).unwrap().since,
            20,
            "a later copy with this id: the older refuses"
        );
        assert!(
            l.clash(&Known { since: 0, ..me(6) }, 0).is_none(),
            "unknown since: no twin check"
        );
    }

    #[test]
    fn an_answer_passes_ages_not_clock_readings() {
        let mut l = Ledger::default();
        l.note_known(known(2, 5, 1_000));
        l.note_known(known(3, 6, 0));
        let own = Known {
            system: 1,
            since: 4,
            node_id: 4,
            seen_ms: 5_000,
            name: "me\there".into(),
        };
        let answer = l.answer(&own, 5_000);
        // On a server whose clock reads 1,000,000: the ages carried over.
        let read = read_answer(&answer, 1_000_000).unwrap();
        assert_eq!(read.len(), 3);
        assert_eq!(
            (
                read[0].system,
                read[0].since,
                read[0].node_id,
                read[0].seen_ms
            ),
            (1, 4, 4, 1_000_000)
        );
        assert_eq!(read[0].name, "me here");
        assert_eq!(read[1].seen_ms, 1_000_000 - 4_000);
        assert_eq!(read[2].seen_ms, 1_000_000 - 5_000);
        // Gone past KNOWN_FOR_MS: not passed on.
        assert_eq!(
            read_answer(&l.answer(&own, KNOWN_FOR_MS + 500), 0)
                .unwrap()
                .len(),
            2
        );
        assert!(read_answer("garbage\nmore\tgarbage", 0).is_err());
    }

    #[test]
    fn an_answer_is_bounded_and_every_line_checked() {
        let line = |n: u64| format!("{n}\t1\t3\t0\tserver {n}");
        let lines: Vec<String> = (1..=MAX_KNOWN as u64 + 1).map(line).collect();
        assert_eq!(
            read_answer(&lines.join("\n"), 0).unwrap().len(),
            MAX_KNOWN + 1
        );
        let one_more: Vec<String> = (1..=MAX_KNOWN as u64 + 2).map(line).collect();
        assert!(
            read_answer(&one_more.join("\n"), 0).is_err(),
            "one server too many"
        );
        let big = format!("1\t1\t3\t0\t{}", "n".repeat(MAX_ANSWER_BYTES));
        assert!(read_answer(&big, 0).is_err(), "over 256 KiB");
        for bad in [
            "",
            "1\t1\t3\t0",
            "0\t1\t3\t0\tzero system",
            "1\t1\t1024\t0\tid past 1023",
            "1\t1\t-2\t0\tid below -1",
            "1\t1\tthree\t0\tn",
            "1\t1\t3\t-5\tn",
        ] {
            assert!(read_answer(bad, 0).is_err(), "{bad:?}");
        }
        let long_name = format!("1\t1\t3\t0\t{}", "n".repeat(MAX_NAME_BYTES + 1));
        assert!(read_answer(&long_name, 0).is_err());
        assert!(read_answer("1\t1\t3\t0\tok\n2\t1\t3\t0\tok\x07", 0).is_err());
    }

    #[test]
    fn many_servers_are_noted_in_one_pass_and_the_freshest_kept() {
        let mut l = Ledger::default();
        let many: Vec<Known> = (1..=3 * MAX_KNOWN as u64).map(|n| known(n, 5, n)).collect();
        assert!(l.note_known_all(many.clone()));
        assert_eq!(l.known.len(), MAX_KNOWN);
        assert!(l.known.iter().all(|k| k.seen_ms > 2 * MAX_KNOWN as u64));
        assert!(
            !l.note_known_all(many.into_iter().rev().take(10)),
            "nothing new"
        );
        assert_eq!(l.known_now(&me(1), 3 * MAX_KNOWN as u64).len(), MAX_KNOWN);
    }
}
