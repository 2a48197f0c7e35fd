//! uid60: 60 bits in an unsigned 64-bit value, `0000 | ms_since_2018_03_01:42
//! | sequence:9 | random:9`, displayed as base-64 digits (`A-Za-z0-9-_`, most
//! significant first, no padding) with the last two characters moved to the
//! front. The display is deliberately not sortable; the type orders by the
//! number.
//!
//! Values below 2^18 have fewer than four digits; they are padded with `A`
//! (zero) to four before the rotation, so that every value 0..2^60 has
//! exactly one display form, of 4 to 10 characters (`1<<18` is `AABA`).

use std::fmt;

use crate::counter_id::CounterId;
use crate::ticker::Ticker;

/// 2018-03-01T00:00:00Z in unix milliseconds.
pub const EPOCH_UNIX_MS: i64 = 1_519_862_400_000;
pub const MAX_VALUE: u64 = (1 << 60) - 1;
pub const MAX_TIMESTAMP: u64 = (1 << 42) - 1;
pub const MAX_SEQUENCE: u16 = (1 << 9) - 1;
pub const MAX_RANDOM: u16 = (1 << 9) - 1;
pub const MIN_TEXT_LEN: usize = 4;
pub const MAX_TEXT_LEN: usize = 10;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The server-wide (millisecond, sequence) state: 512 IDs per millisecond.
pub type Uid60Ticker = Ticker<9>;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Uid60(u64);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseError {
    /// Not 4..=10 characters of the alphabet, or not the canonical form
    /// (leading `A` digits beyond the four-digit minimum).
    Syntax,
}

impl Uid60 {
    pub const fn from_u64(value: u64) -> Option<Self> {
        if value > MAX_VALUE {
            None
        } else {
            Some(Uid60(value))
        }
    }

    pub const fn from_stored(value: i64) -> Self {
        Uid60(value as u64)
    }

    pub const fn to_i64(self) -> i64 {
        self.0 as i64
    }

    pub fn from_parts(ms_since_epoch: u64, sequence: u16, random: u16) -> Option<Self> {
        if ms_since_epoch > MAX_TIMESTAMP || sequence > MAX_SEQUENCE || random > MAX_RANDOM {
            return None;
        }
        Some(Uid60(
            ms_since_epoch << 18 | u64::from(sequence) << 9 | u64::from(random),
        ))
    }

    pub const fn ms_since_epoch(self) -> u64 {
        self.0 >> 18
    }
    pub const fn sequence(self) -> u16 {
        ((self.0 >> 9) & MAX_SEQUENCE as u64) as u16
    }
    pub const fn random(self) -> u16 {
        (self.0 & MAX_RANDOM as u64) as u16
    }
    pub const fn unix_ms(self) -> i64 {
        EPOCH_UNIX_MS + self.ms_since_epoch() as i64
    }

    /// The display form; returns the buffer and how many bytes are used.
    pub fn encode(self) -> ([u8; MAX_TEXT_LEN], usize) {
        let mut digits = [b'A'; MAX_TEXT_LEN];
        let mut v = self.0;
        let mut n = 0;
        while v > 0 || n < MIN_TEXT_LEN {
            digits[MAX_TEXT_LEN - 1 - n] = ALPHABET[(v & 63) as usize];
            v >>= 6;
            n += 1;
        }
        let base64 = &digits[MAX_TEXT_LEN - n..];
        let mut out = [0u8; MAX_TEXT_LEN];
        out[..2].copy_from_slice(&base64[n - 2..]);
        out[2..n].copy_from_slice(&base64[..n - 2]);
        (out, n)
    }

    pub fn parse(text: &[u8]) -> Result<Self, ParseError> {
        if !(MIN_TEXT_LEN..=MAX_TEXT_LEN).contains(&text.len()) {
            return Err(ParseError::Syntax);
        }
        // Undo the rotation: the first two characters are the last two digits.
        let digits = text[2..].iter().chain(&text[..2]);
        let mut v: u64 = 0;
        for &c in digits {
            let d = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'-' => 62,
                b'_' => 63,
                _ => return Err(ParseError::Syntax),
            };
            v = v << 6 | u64::from(d);
        }
        let id = Uid60::from_u64(v).ok_or(ParseError::Syntax)?;
        let (canonical, n) = id.encode();
        if &canonical[..n] != text {
            return Err(ParseError::Syntax);
        }
        Ok(id)
    }
}

/// Generated with [`EPOCH_UNIX_MS`]: the ticker's sequence, then random bits.
impl CounterId for Uid60 {
    type Ticker = Uid60Ticker;
    const MAX_TIMESTAMP: u64 = MAX_TIMESTAMP;
    const MAX_SEQUENCE: u16 = MAX_SEQUENCE;
    const MAX_NODE_OR_RANDOM: u16 = MAX_RANDOM;

    fn from_fields(ms_since_epoch: u64, sequence: u16, random: u16) -> Option<Self> {
        Self::from_parts(ms_since_epoch, sequence, random)
    }
}

crate::text_form!(Uid60, ParseError, "uid60");

impl fmt::Display for Uid60 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (buf, n) = self.encode();
        f.write_str(std::str::from_utf8(&buf[..n]).expect("ASCII"))
    }
}

impl fmt::Debug for Uid60 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Uid60({self}: ms {} seq {} random {})",
            self.ms_since_epoch(),
            self.sequence(),
            self.random()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FakeClock;
    use rand::{Rng, SeedableRng};

    #[derive(serde::Deserialize)]
    struct Vector {
        storage: String,
        display: String,
        ts_ms_since_2018_03_01: u64,
        seq: u16,
        rand: u16,
    }

    #[test]
    fn conformance_vectors() {
        #[derive(serde::Deserialize)]
        struct File {
            vectors: Vec<Vector>,
        }
        let file: File =
            serde_json::from_str(include_str!("../../../tests/vectors/uid60.json")).unwrap();
        assert_eq!(file.vectors.len(), 8);
        for v in file.vectors {
            let id = Uid60::from_parts(v.ts_ms_since_2018_03_01, v.seq, v.rand).unwrap();
            assert_eq!(id.to_i64().to_string(), v.storage);
            assert_eq!(id.to_string(), v.display);
            assert_eq!(Uid60::parse(v.display.as_bytes()), Ok(id));
        }
    }

    #[test]
    fn small_values_pad_to_four_digits() {
        assert_eq!(Uid60::from_u64(0).unwrap().to_string(), "AAAA");
        assert_eq!(Uid60::from_u64(1).unwrap().to_string(), "ABAA");
        assert_eq!(Uid60::from_u64(64).unwrap().to_string(), "BAAA");
        assert_eq!(Uid60::from_u64(1 << 18).unwrap().to_string(), "AABA");
        assert_eq!(Uid60::parse(b"ABAA"), Ok(Uid60::from_u64(1).unwrap()));
    }

    #[test]
    fn strict_input() {
        for bad in [
            &b""[..],
            b"A",
            b"AAA",
            b"AAAAAAAAAAA",
            b"AAB=",
            b"AA BA",
            b"AAAAA", // leading zero digit
            b"xinaS8QBh ",
            b"ABAAA",
        ] {
            assert_eq!(
                Uid60::parse(bad),
                Err(ParseError::Syntax),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(Uid60::from_u64(1 << 60), None);
        // Case matters: 'a' and 'A' are different digits.
        assert_ne!(Uid60::parse(b"xinaS8QBh"), Uid60::parse(b"XinaS8QBh"));
    }

    #[test]
    fn every_value_round_trips() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(60);
        for _ in 0..100_000 {
            let v = rng.random::<u64>() >> rng.random_range(4..64);
            let id = Uid60::from_u64(v).unwrap();
            let text = id.to_string();
            assert!((MIN_TEXT_LEN..=MAX_TEXT_LEN).contains(&text.len()));
            assert_eq!(Uid60::parse(text.as_bytes()), Ok(id), "{v} {text}");
        }
        for v in (0..5000).chain([MAX_VALUE, (1 << 18) - 1, 1 << 18, (1 << 24) - 1, 1 << 24]) {
            let id = Uid60::from_u64(v).unwrap();
            assert_eq!(Uid60::parse(id.to_string().as_bytes()), Ok(id));
        }
    }

    #[test]
    fn generate_takes_sequence_from_the_ticker() {
        let ticker = Uid60Ticker::new();
        let mut clock = FakeClock::at(EPOCH_UNIX_MS as u64 + 5);
        let a = Uid60::generate(&ticker, &mut clock, EPOCH_UNIX_MS, 300).unwrap();
        let b = Uid60::generate(&ticker, &mut clock, EPOCH_UNIX_MS, 1).unwrap();
        assert_eq!((a.ms_since_epoch(), a.sequence(), a.random()), (5, 0, 300));
        assert_eq!((b.ms_since_epoch(), b.sequence(), b.random()), (5, 1, 1));
        assert!(a < b);
        let (first, last) = Uid60::bounds_of_unix_ms(a.unix_ms(), EPOCH_UNIX_MS).unwrap();
        assert_eq!((last.sequence(), last.random()), (MAX_SEQUENCE, MAX_RANDOM));
        assert!(first <= a && b <= last && first.ms_since_epoch() == 5);
    }
}
