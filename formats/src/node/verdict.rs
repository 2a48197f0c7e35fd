//! The verdict on whether a server's counter generators may mint, as one
//! word that every caller reads (the extension keeps one per database in
//! shared memory; its peer worker writes them).
//!
//! The worker judges, callers only read: a verdict is made for one
//! *configuration epoch*, a counter every change a caller can see moves on
//! (a subscription created, altered or dropped; the Citus formation's
//! tables; a reload that changes the node id). A caller mints on a word
//! made for the epoch it sees now and for the node id it would put in its
//! IDs; on any other word it waits for the worker, for a bounded time,
//! never for a peer.
//!
//! ```
//! use chronoid_formats::node_verdict::{Reading, State, Verdict};
//!
//! let word = Verdict { epoch: 7, state: State::Allowed, node: Some(3) }.to_word();
//! assert_eq!(Verdict::from_word(word).node, Some(3));
//! assert_eq!(Verdict::reading(word, 7, Some(3)), Reading::Mint);
//! // A subscription changed since (epoch 8), or another node id in effect here.
//! assert_eq!(Verdict::reading(word, 8, Some(3)), Reading::Wait);
//! assert_eq!(Verdict::reading(word, 7, Some(4)), Reading::Wait);
//! ```

/// What the worker found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Not judged yet, or a peer never heard from is being asked.
    Pending = 0,
    Allowed = 1,
    /// The reason is kept beside the word.
    Refused = 2,
}

/// One verdict: the epoch it was made for, what was found, and the node id
/// it was judged for (`None`: none in effect).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub epoch: u32,
    pub state: State,
    pub node: Option<u16>,
}

/// What a caller does with the word it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    Mint,
    /// Refused, for this epoch and node id: the reason is beside the word.
    Refuse,
    /// No verdict yet for what this caller sees.
    Wait,
}

/// The word before any verdict: epoch 0, which no epoch in use equals
/// (epochs start at 1).
pub const NO_VERDICT: u64 = 0;

impl Verdict {
    /// `epoch` in the high 32 bits, the state in bits 16..24, the node id
    /// plus one (0: none) in the low 16.
    pub fn to_word(self) -> u64 {
        (u64::from(self.epoch) << 32)
            | ((self.state as u64) << 16)
            | self.node.map_or(0, |n| u64::from(n) + 1)
    }

    pub fn from_word(word: u64) -> Verdict {
        Verdict {
            epoch: (word >> 32) as u32,
            state: match (word >> 16) & 0xff {
                1 => State::Allowed,
                2 => State::Refused,
                _ => State::Pending,
            },
            node: match word & 0xffff {
                0 => None,
                n => Some((n - 1) as u16),
            },
        }
    }

    /// The epoch as a word carries it (the low 32 bits of the counter).
    pub fn epoch_of(counter: u64) -> u32 {
        counter as u32
    }

    /// What a caller that sees epoch `epoch` and would mint with `node`
    /// does with `word`.
    pub fn reading(word: u64, epoch: u64, node: Option<u16>) -> Reading {
        let v = Verdict::from_word(word);
        if v.epoch != Verdict::epoch_of(epoch) || v.node != node {
            return Reading::Wait;
        }
        match v.state {
            State::Allowed => Reading::Mint,
            State::Refused => Reading::Refuse,
            State::Pending => Reading::Wait,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdict_round_trips_and_no_verdict_mints_nothing() {
        for epoch in [1, 2, u32::MAX] {
            for state in [State::Pending, State::Allowed, State::Refused] {
                for node in [None, Some(0), Some(1), Some(511), Some(1023)] {
                    let v = Verdict { epoch, state, node };
                    assert_eq!(Verdict::from_word(v.to_word()), v);
                }
            }
        }
        for node in [None, Some(0)] {
            assert_eq!(Verdict::reading(NO_VERDICT, 1, node), Reading::Wait);
            assert_eq!(Verdict::reading(NO_VERDICT, 1 << 32, node), Reading::Wait);
        }
    }

    #[test]
    fn a_caller_mints_only_on_its_epoch_and_its_node_id() {
        let word = |state, node| {
            Verdict {
                epoch: 5,
                state,
                node,
            }
            .to_word()
        };
        assert_eq!(
            Verdict::reading(word(State::Allowed, None), 5, None),
            Reading::Mint
        );
        assert_eq!(
            Verdict::reading(word(State::Allowed, None), 5, Some(0)),
            Reading::Wait
        );
        assert_eq!(
            Verdict::reading(word(State::Allowed, Some(0)), 5, None),
            Reading::Wait
        );
        assert_eq!(
            Verdict::reading(word(State::Allowed, Some(9)), 4, Some(9)),
            Reading::Wait
        );
        assert_eq!(
            Verdict::reading(word(State::Allowed, Some(9)), 6, Some(9)),
            Reading::Wait
        );
        assert_eq!(
            Verdict::reading(word(State::Refused, Some(9)), 5, Some(9)),
            Reading::Refuse
        );
        assert_eq!(
            Verdict::reading(word(State::Refused, Some(9)), 6, Some(9)),
            Reading::Wait
        );
        assert_eq!(
            Verdict::reading(word(State::Pending, Some(9)), 5, Some(9)),
            Reading::Wait
        );
        // The counter's high bits are not the word's: epoch 5 + 2^32 reads as 5.
        assert_eq!(
            Verdict::reading(word(State::Allowed, Some(9)), 5 + (1 << 32), Some(9)),
            Reading::Mint
        );
    }
}
