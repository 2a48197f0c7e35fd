//! What a server remembers of the other servers whose IDs meet its own: the
//! policy half of `chronoid.peers` (the extension reads and writes the file,
//! asks the peers, and passes the clock in).
//!
//! Two kinds of entry:
//!
//! - **peers**: each server this one asks (a subscription's publisher, a
//!   Citus node), by a key of the extension's, with the node id it answered
//!   and this server's own node id at the time. When the peer cannot be
//!   asked (a partition, a peer down), its last answer stands, but only
//!   while this server's own id is the one it was checked against: a server
//!   whose id changed while a peer was out of reach cannot know that the
//!   peer did not take the same one.
//! - **known**: servers (by system identifier) that mint with a node id
//!   near this one: the peers' own answers, the servers that asked this
//!   one (they tell their id as they ask), and what the peers said they
//!   know. A server hands its known list to whoever asks, so a server learns
//!   the ids of its peers' peers: in A ⇄ B ⇄ C, A and C each learn the
//!   other's id from B, whether or not B mints. An entry is forgotten
//!   [`KNOWN_FOR_MS`] after the server itself last spoke (passed on as an
//!   age, so that no two servers' clocks are compared).
//!
//! ```
//! use chronoid_formats::node_ledger::{Known, Ledger};
//!
//! let mut ledger = Ledger::default();
//! // B (system 2, node id 5) answered subscription 16400, while this server had id 1.
//! ledger.note_peer("subscription 16400", 2, 5, 1, 1_000);
//! ledger.note_known(Known { system: 2, node_id: 5, seen_ms: 1_000, name: "b".into() });
//! // B said C (system 3) mints with node id 1: this server's own.
//! ledger.note_known(Known { system: 3, node_id: 1, seen_ms: 900, name: "c".into() });
//! assert_eq!(ledger.clash(1, 1, 1_000).map(|k| k.system), Some(3));
//! // B is out of reach: its answer stands while this server's id is still 1.
//! assert_eq!(ledger.remembered("subscription 16400", 1).map(|p| p.node_id), Some(5));
//! assert!(ledger.remembered("subscription 16400", 2).is_none());
//! let text = ledger.to_text();
//! assert_eq!(Ledger::from_text(&text).unwrap(), ledger);
//! ```

/// How long a server's id is known after it last spoke to anyone who passed
/// it on: five of the peers' one-minute rounds, so that a server that still
/// mints is never forgotten, and one that is gone (rebuilt with a new system
/// identifier under the same id, say) stops blocking its successor.
pub const KNOWN_FOR_MS: u64 = 5 * 60_000;

/// A known entry is written again only when its id changes or it is this
/// much fresher than the file's: the file is rewritten about once a minute
/// at most per server, not once per question.
pub const REFRESH_AFTER_MS: u64 = 60_000;

const HEADER: &str = "chronoid peers 1";

/// A server asked directly, by the extension's key for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    pub key: String,
    /// Its system identifier (0: not told).
    pub system: u64,
    /// The node id it answered (-1: none).
    pub node_id: i32,
    /// This server's node id when it answered (-1: none).
    pub own_id: i32,
    pub seen_ms: u64,
}

/// A server known to mint with `node_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    pub system: u64,
    pub node_id: i32,
    /// When it last spoke, on this server's clock (unix ms).
    pub seen_ms: u64,
    /// How it names itself (`cluster_name`, or address and port).
    pub name: String,
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
    pub fn note_peer(
        &mut self,
        key: &str,
        system: u64,
        node_id: i32,
        own_id: i32,
        now: u64,
    ) -> bool {
        let peer = Peer {
            key: clean(key),
            system,
            node_id,
            own_id,
            seen_ms: now,
        };
        match self.peers.iter_mut().find(|p| p.key == peer.key) {
            Some(p) if p.system == system && p.node_id == node_id && p.own_id == own_id => {
                refresh(&mut p.seen_ms, now)
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

    /// Records that a server mints with an id; the freshest word on it wins.
    /// `true` if the file needs writing.
    pub fn note_known(&mut self, known: Known) -> bool {
        let known = Known {
            name: clean(&known.name),
            ..known
        };
        match self.known.iter_mut().find(|k| k.system == known.system) {
            Some(k) if known.seen_ms < k.seen_ms => false,
            Some(k) if k.node_id == known.node_id && k.name == known.name => {
                refresh(&mut k.seen_ms, known.seen_ms)
            }
            Some(k) => {
                *k = known;
                true
            }
            None => {
                self.known.push(known);
                true
            }
        }
    }

    /// Drops what is no longer known; `true` if anything was.
    pub fn forget_old(&mut self, now: u64) -> bool {
        let before = self.known.len();
        self.known
            .retain(|k| now.saturating_sub(k.seen_ms) < KNOWN_FOR_MS);
        self.known.len() != before
    }

    /// The servers known now, but this one (`own_system`).
    pub fn known_now(&self, own_system: u64, now: u64) -> impl Iterator<Item = &Known> {
        self.known
            .iter()
            .filter(move |k| k.system != own_system && now.saturating_sub(k.seen_ms) < KNOWN_FOR_MS)
    }

    /// Another server known now to mint with this one's node id.
    pub fn clash(&self, own_system: u64, own_id: i32, now: u64) -> Option<&Known> {
        if own_id < 0 {
            return None;
        }
        self.known_now(own_system, now)
            .find(|k| k.node_id == own_id)
    }

    /// The answer this server gives to whoever asks: itself first, then
    /// the servers it knows now, one per line (`system`, `node id`, `age
    /// ms`, `name`, tab-separated).
    pub fn answer(&self, own: &Known, now: u64) -> String {
        let mut lines = vec![answer_line(own, now)];
        lines.extend(self.known_now(own.system, now).map(|k| answer_line(k, now)));
        lines.join("\n")
    }

    pub fn to_text(&self) -> String {
        let mut text = format!("{HEADER}\n");
        for p in &self.peers {
            text += &format!(
                "peer\t{}\t{}\t{}\t{}\t{}\n",
                p.system, p.node_id, p.own_id, p.seen_ms, p.key
            );
        }
        for k in &self.known {
            text += &format!(
                "known\t{}\t{}\t{}\t{}\n",
                k.system, k.node_id, k.seen_ms, k.name
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
            let fields: Vec<&str> = line.splitn(6, '\t').collect();
            match fields.as_slice() {
                ["peer", system, node_id, own_id, seen_ms, key] => ledger.peers.push(Peer {
                    key: (*key).to_owned(),
                    system: system.parse().map_err(|_| bad())?,
                    node_id: node_id.parse().map_err(|_| bad())?,
                    own_id: own_id.parse().map_err(|_| bad())?,
                    seen_ms: seen_ms.parse().map_err(|_| bad())?,
                }),
                ["known", system, node_id, seen_ms, name @ ..] if name.len() <= 1 => {
                    let name = name.join("\t");
                    ledger.known.push(Known {
                        system: system.parse().map_err(|_| bad())?,
                        node_id: node_id.parse().map_err(|_| bad())?,
                        seen_ms: seen_ms.parse().map_err(|_| bad())?,
                        name,
                    })
                }
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
        "{}\t{}\t{}\t{}",
        k.system,
        k.node_id,
        now.saturating_sub(k.seen_ms),
        k.name
    )
}

/// A peer's answer read back: itself first, then what it knows, with each
/// age turned into a time on this server's clock (`now`). Lines that do not
/// parse are skipped: a peer of another release may say more.
pub fn read_answer(text: &str, now: u64) -> Vec<Known> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.splitn(4, '\t').collect();
            let [system, node_id, age, name] = fields.as_slice() else {
                return None;
            };
            let age: u64 = age.parse().ok()?;
            Some(Known {
                system: system.parse().ok()?,
                node_id: node_id.parse().ok()?,
                seen_ms: now.saturating_sub(age),
                name: clean(name),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(system: u64, node_id: i32, seen_ms: u64) -> Known {
        Known {
            system,
            node_id,
            seen_ms,
            name: format!("s{system}"),
        }
    }

    #[test]
    fn text_round_trips_and_rejects_what_it_never_writes() {
        let mut l = Ledger::default();
        l.note_peer("subscription 1 \"a\tb\"", 7, -1, 3, 10);
        l.note_known(known(7, 4, 10));
        let text = l.to_text();
        assert!(text.contains("subscription 1 \"a b\""));
        assert_eq!(Ledger::from_text(&text).unwrap(), l);
        assert!(Ledger::from_text("").is_err());
        assert!(Ledger::from_text("chronoid peers 1\npeer\tx\n").is_err());
        assert!(Ledger::from_text("chronoid peers 1\nknown\t1\tone\t2\tn\n").is_err());
        assert_eq!(
            Ledger::from_text("chronoid peers 1\n").unwrap(),
            Ledger::default()
        );
    }

    #[test]
    fn a_remembered_answer_stands_only_under_the_same_own_id() {
        let mut l = Ledger::default();
        assert!(l.note_peer("k", 2, 5, 1, 0));
        assert!(!l.note_peer("k", 2, 5, 1, REFRESH_AFTER_MS - 1));
        assert!(l.note_peer("k", 2, 5, 1, REFRESH_AFTER_MS));
        assert_eq!(l.remembered("k", 1).unwrap().node_id, 5);
        assert!(l.remembered("k", 2).is_none());
        assert!(l.remembered("k", -1).is_none());
        assert!(l.remembered("other", 1).is_none());
        // The peer answered again with another id, under another own id.
        assert!(l.note_peer("k", 2, 6, 2, 1));
        assert!(l.remembered("k", 1).is_none());
        assert_eq!(l.remembered("k", 2).unwrap().node_id, 6);
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
        // Known until KNOWN_FOR_MS after it last spoke, not a moment past.
        assert!(l.clash(1, 2, 1_001 + KNOWN_FOR_MS - 1).is_some());
        assert!(l.clash(1, 2, 1_001 + KNOWN_FOR_MS).is_none());
        assert!(!l.forget_old(1_001 + KNOWN_FOR_MS - 1));
        assert!(l.forget_old(1_001 + KNOWN_FOR_MS));
        assert!(l.known.is_empty());
    }

    #[test]
    fn a_clash_is_another_server_with_this_ones_id() {
        let mut l = Ledger::default();
        l.note_known(known(1, 4, 0));
        l.note_known(known(2, 5, 0));
        l.note_known(known(3, -1, 0));
        assert!(
            l.clash(1, 4, 0).is_none(),
            "itself (a standby it was) is no clash"
        );
        assert_eq!(l.clash(9, 4, 0).unwrap().system, 1);
        assert!(
            l.clash(9, -1, 0).is_none(),
            "no id: the direct check's business"
        );
        assert!(l.clash(9, 6, 0).is_none());
    }

    #[test]
    fn an_answer_passes_ages_not_clock_readings() {
        let mut l = Ledger::default();
        l.note_known(known(2, 5, 1_000));
        l.note_known(known(3, 6, 0));
        let own = Known {
            system: 1,
            node_id: 4,
            seen_ms: 5_000,
            name: "me\there".into(),
        };
        let answer = l.answer(&own, 5_000);
        // On a server whose clock reads 1,000,000: the ages carried over.
        let read = read_answer(&answer, 1_000_000);
        assert_eq!(read.len(), 3);
        assert_eq!(
            (read[0].system, read[0].node_id, read[0].seen_ms),
            (1, 4, 1_000_000)
        );
        assert_eq!(read[0].name, "me here");
        assert_eq!(read[1].seen_ms, 1_000_000 - 4_000);
        assert_eq!(read[2].seen_ms, 1_000_000 - 5_000);
        // Gone past KNOWN_FOR_MS: not passed on.
        assert_eq!(read_answer(&l.answer(&own, KNOWN_FOR_MS + 500), 0).len(), 2);
        assert!(read_answer("garbage\nmore\tgarbage", 0).is_empty());
    }
}
