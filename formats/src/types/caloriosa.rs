//! Caloriosa device names (the revised layout of the seed's second comment):
//! unsigned 64 bits, `1 | ms_since_2017:41 | random:12 | increment:10`,
//! written as 11 base-62 characters with the alphabet `0-9a-zA-Z`. The prefix
//! bit keeps the text at 11 characters. The alphabet does not sort like the
//! number; the type orders by the number.

use std::fmt;

use crate::counter_id::CounterId;
use crate::ticker::WrappingTicker;

/// 2017-01-01T00:00:00Z in unix milliseconds.
pub const EPOCH_UNIX_MS: i64 = 1_483_228_800_000;
pub const PREFIX: u64 = 1 << 63;
pub const MAX_TIMESTAMP: u64 = (1 << 41) - 1;
pub const MAX_RANDOM: u16 = (1 << 12) - 1;
pub const MAX_INCREMENT: u16 = (1 << 10) - 1;
pub const TEXT_LEN: usize = 11;

const ALPHABET: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The server-wide (millisecond, increment) state: the increment runs on and
/// wraps 1023 -> 0; at most 1024 per millisecond.
pub type CaloriosaTicker = WrappingTicker<10>;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Caloriosa(u64);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseError {
    /// Not 11 characters of `0-9a-zA-Z`, or above 2^64-1.
    Syntax,
    /// Valid base 62, but the prefix bit is not set: not a name of this
    /// layout (the seed's own example, `katjjMQN`, is in the old 48-bit one).
    NoPrefix { value: u64 },
}

impl Caloriosa {
    /// `None` unless the prefix bit is set.
    pub const fn from_u64(value: u64) -> Option<Self> {
        if value & PREFIX == 0 {
            None
        } else {
            Some(Caloriosa(value))
        }
    }

    /// Stored bits, which only ever hold valid names.
    pub const fn from_stored(value: i64) -> Self {
        Caloriosa(value as u64)
    }

    pub const fn to_u64(self) -> u64 {
        self.0
    }

    /// The same 64 bits as a two's-complement bigint: always negative.
    pub const fn to_i64(self) -> i64 {
        self.0 as i64
    }

    pub fn from_parts(ms_since_epoch: u64, random: u16, increment: u16) -> Option<Self> {
        if ms_since_epoch > MAX_TIMESTAMP || random > MAX_RANDOM || increment > MAX_INCREMENT {
            return None;
        }
        Some(Caloriosa(
            PREFIX | ms_since_epoch << 22 | u64::from(random) << 10 | u64::from(increment),
        ))
    }

    pub const fn ms_since_epoch(self) -> u64 {
        (self.0 >> 22) & MAX_TIMESTAMP
    }
    pub const fn random(self) -> u16 {
        ((self.0 >> 10) & MAX_RANDOM as u64) as u16
    }
    pub const fn increment(self) -> u16 {
        (self.0 & MAX_INCREMENT as u64) as u16
    }
    pub const fn unix_ms(self) -> i64 {
        EPOCH_UNIX_MS + self.ms_since_epoch() as i64
    }

    pub fn encode(self) -> [u8; TEXT_LEN] {
        let mut out = [0u8; TEXT_LEN];
        let mut v = self.0;
        for slot in out.iter_mut().rev() {
            *slot = ALPHABET[(v % 62) as usize];
            v /= 62;
        }
        out
    }

    pub fn parse(text: &[u8]) -> Result<Self, ParseError> {
        if text.is_empty() || text.len() > TEXT_LEN {
            return Err(ParseError::Syntax);
        }
        let mut v: u64 = 0;
        for &c in text {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'z' => c - b'a' + 10,
                b'A'..=b'Z' => c - b'A' + 36,
                _ => return Err(ParseError::Syntax),
            };
            v = v
                .checked_mul(62)
                .and_then(|v| v.checked_add(u64::from(d)))
                .ok_or(ParseError::Syntax)?;
        }
        match Self::from_u64(v) {
            Some(name) if text.len() == TEXT_LEN => Ok(name),
            Some(_) => Err(ParseError::Syntax),
            None => Err(ParseError::NoPrefix { value: v }),
        }
    }
}

/// Caloriosa's own code (the Go library `Caloriosa/core`) writes the same
/// 11 digits with the alphabet `0-9A-Za-z`: every name it makes is the exact
/// ASCII case-swap of this type's text. None of them parses here: its first
/// letter (`A`-`L`) counts 36 or more in this alphabet, which overflows 64
/// bits. These read and write that spelling explicitly; the type's text
/// stays the seed's.
impl Caloriosa {
    /// A name as `Caloriosa/core` writes it.
    pub fn encode_core_name(self) -> [u8; TEXT_LEN] {
        let mut text = self.encode();
        swap_ascii_case(&mut text);
        text
    }

    /// Reads a name written by `Caloriosa/core`. Only ASCII letters swap, so
    /// a character outside `0-9A-Za-z` stays one, and is refused.
    pub fn parse_core_name(text: &[u8]) -> Result<Self, ParseError> {
        if text.len() > TEXT_LEN {
            return Err(ParseError::Syntax);
        }
        let mut swapped = [0u8; TEXT_LEN];
        let swapped = &mut swapped[..text.len()];
        swapped.copy_from_slice(text);
        swap_ascii_case(swapped);
        Self::parse(swapped)
    }
}

fn swap_ascii_case(text: &mut [u8]) {
    for c in text {
        *c = if c.is_ascii_lowercase() {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        };
    }
}

/// Generated with [`EPOCH_UNIX_MS`]: the ticker's sequence is the increment,
/// the third field the random bits.
impl CounterId for Caloriosa {
    type Ticker = CaloriosaTicker;
    const MAX_TIMESTAMP: u64 = MAX_TIMESTAMP;
    const MAX_SEQUENCE: u16 = MAX_INCREMENT;
    const MAX_NODE_OR_RANDOM: u16 = MAX_RANDOM;

    fn from_fields(ms_since_epoch: u64, sequence: u16, random: u16) -> Option<Self> {
        Self::from_parts(ms_since_epoch, random, sequence)
    }
}

crate::text_form!(Caloriosa, ParseError, "caloriosa");

impl fmt::Display for Caloriosa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.encode()).expect("ASCII"))
    }
}

impl fmt::Debug for Caloriosa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Caloriosa({self}: ms {} random {} increment {})",
            self.ms_since_epoch(),
            self.random(),
            self.increment()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FakeClock;
    use crate::counter_id::GenerateError;
    use rand::{Rng, SeedableRng};

    #[derive(serde::Deserialize)]
    struct Vector {
        ms_since_2017: Option<u64>,
        random12: Option<u16>,
        increment10: Option<u16>,
        uint64: String,
        text: String,
    }

    /// Names made by an encoder other than this one, in the alphabet of
    /// `Caloriosa/core` (tests/vectors/caloriosa_core_names.json).
    #[test]
    fn core_names() {
        #[derive(serde::Deserialize)]
        struct Name {
            uint64: String,
            core_name: String,
            text: String,
        }
        #[derive(serde::Deserialize)]
        struct File {
            vectors: Vec<Name>,
            invalid_core_names: Vec<String>,
        }
        let file: File = serde_json::from_str(include_str!(
            "../../../tests/vectors/caloriosa_core_names.json"
        ))
        .unwrap();
        assert!(file.vectors.len() >= 20);
        for v in file.vectors {
            let name = Caloriosa::from_u64(v.uint64.parse().unwrap()).unwrap();
            assert_eq!(Caloriosa::parse_core_name(v.core_name.as_bytes()), Ok(name));
            assert_eq!(name.encode_core_name(), v.core_name.as_bytes());
            assert_eq!(name.to_string(), v.text);
            // In this alphabet a core name's first letter overflows 64 bits:
            // it is refused, never read as another device.
            assert_eq!(
                Caloriosa::parse(v.core_name.as_bytes()),
                Err(ParseError::Syntax)
            );
        }
        for bad in file.invalid_core_names {
            assert!(
                Caloriosa::parse_core_name(bad.as_bytes()).is_err(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn conformance_vectors() {
        #[derive(serde::Deserialize)]
        struct File {
            vectors: Vec<Vector>,
        }
        let file: File =
            serde_json::from_str(include_str!("../../../tests/vectors/caloriosa.json")).unwrap();
        for v in file.vectors {
            let value: u64 = v.uint64.parse().unwrap();
            match (v.ms_since_2017, v.random12, v.increment10) {
                (Some(ms), Some(r), Some(i)) => {
                    let name = Caloriosa::from_parts(ms, r, i).unwrap();
                    assert_eq!(name.to_u64(), value);
                    assert_eq!(name.to_string(), v.text);
                    assert_eq!(Caloriosa::parse(v.text.as_bytes()), Ok(name));
                }
                // The seed's example, in the old layout: the alphabet decodes
                // it, the prefix bit is missing.
                _ => assert_eq!(
                    Caloriosa::parse(v.text.as_bytes()),
                    Err(ParseError::NoPrefix { value })
                ),
            }
        }
    }

    #[test]
    fn strict_input() {
        for bad in [
            &b""[..],
            b"aZl8N0y58M80",
            b"aZl8N0y58M-",
            b"aZl8N0y58M ",
            b"zzzzzzzzzzz",
        ] {
            assert_eq!(
                Caloriosa::parse(bad),
                Err(ParseError::Syntax),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        // Base 62 that decodes below 2^63: short, or 11 characters with zeros.
        assert!(matches!(
            Caloriosa::parse(b"00000000001"),
            Err(ParseError::NoPrefix { value: 1 })
        ));
        assert!(matches!(
            Caloriosa::parse(b"aZl8N0y58M"),
            Err(ParseError::NoPrefix { .. })
        ));
        assert_eq!(Caloriosa::from_u64(1), None);
    }

    #[test]
    fn random_round_trips() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(62);
        for _ in 0..100_000 {
            let name = Caloriosa::from_u64(rng.random::<u64>() | PREFIX).unwrap();
            assert_eq!(Caloriosa::parse(&name.encode()), Ok(name));
            assert_eq!(Caloriosa::from_stored(name.to_i64()), name);
            assert!(name.to_i64() < 0);
        }
    }

    #[test]
    fn generate_uses_the_shared_increment() {
        let ticker = CaloriosaTicker::new();
        let mut clock = FakeClock::at(EPOCH_UNIX_MS as u64 + 77);
        let a = Caloriosa::generate(&ticker, &mut clock, EPOCH_UNIX_MS, 4095).unwrap();
        let b = Caloriosa::generate(&ticker, &mut clock, EPOCH_UNIX_MS, 7).unwrap();
        assert_eq!(
            (a.ms_since_epoch(), a.random(), a.increment()),
            (77, 4095, 0)
        );
        assert_eq!((b.ms_since_epoch(), b.random(), b.increment()), (77, 7, 1));
        let mut early = FakeClock::at(1000);
        assert!(matches!(
            Caloriosa::generate(&CaloriosaTicker::new(), &mut early, EPOCH_UNIX_MS, 0),
            Err(GenerateError::BeforeEpoch { .. })
        ));
        assert!(matches!(
            Caloriosa::generate(&ticker, &mut clock, EPOCH_UNIX_MS, 4096),
            Err(GenerateError::FieldOutOfRange {
                value: 4096,
                max: 4095
            })
        ));
        let (first, last) = Caloriosa::bounds_of_unix_ms(a.unix_ms(), EPOCH_UNIX_MS).unwrap();
        assert_eq!((first.random(), first.increment()), (0, 0));
        assert_eq!(
            (last.random(), last.increment()),
            (MAX_RANDOM, MAX_INCREMENT)
        );
        assert!(first <= a && b <= last);
        assert_eq!(
            Caloriosa::bounds_of_unix_ms(EPOCH_UNIX_MS - 1, EPOCH_UNIX_MS),
            None
        );
    }
}
