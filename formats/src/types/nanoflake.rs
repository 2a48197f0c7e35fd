//! Nanoflake: a Snowflake-compatible signed 64-bit ID that is never negative,
//! `ms_since_epoch << 22 | generator << 12 | sequence` (41/10/12 bits).

use std::fmt;

use crate::base36::{self, Base36Error};
use crate::counter_id::CounterId;
use crate::ticker::Ticker;

pub const TIMESTAMP_BITS: u32 = 41;
pub const GENERATOR_BITS: u32 = 10;
pub const SEQUENCE_BITS: u32 = 12;

pub const MAX_TIMESTAMP: u64 = (1 << TIMESTAMP_BITS) - 1;
pub const MAX_GENERATOR: u16 = (1 << GENERATOR_BITS) - 1;
pub const MAX_SEQUENCE: u16 = (1 << SEQUENCE_BITS) - 1;

/// Default epoch, 2020-01-01T00:00:00Z, in unix milliseconds.
pub const DEFAULT_EPOCH_UNIX_MS: i64 = 1_577_836_800_000;

/// The server-wide (millisecond, sequence) state of nanoflake generation.
pub type NanoflakeTicker = Ticker<SEQUENCE_BITS>;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Nanoflake(i64);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseError {
    /// Not a base-36 number (empty, a sign, whitespace, another character).
    Syntax,
    /// A base-36 number above 2^63-1.
    OutOfRange,
}

impl Nanoflake {
    pub const MIN: Nanoflake = Nanoflake(0);
    pub const MAX: Nanoflake = Nanoflake(i64::MAX);

    /// `None` for a negative integer: no nanoflake has the sign bit set.
    pub const fn from_i64(value: i64) -> Option<Self> {
        if value < 0 {
            None
        } else {
            Some(Nanoflake(value))
        }
    }

    /// A value read back from storage, where only valid IDs are ever put.
    pub const fn from_stored(value: i64) -> Self {
        Nanoflake(value)
    }

    pub const fn to_i64(self) -> i64 {
        self.0
    }

    pub fn from_parts(ms_since_epoch: u64, generator: u16, sequence: u16) -> Option<Self> {
        if ms_since_epoch > MAX_TIMESTAMP || generator > MAX_GENERATOR || sequence > MAX_SEQUENCE {
            return None;
        }
        let packed = ms_since_epoch << (GENERATOR_BITS + SEQUENCE_BITS)
            | u64::from(generator) << SEQUENCE_BITS
            | u64::from(sequence);
        Some(Nanoflake(packed as i64))
    }

    pub const fn ms_since_epoch(self) -> u64 {
        (self.0 as u64) >> (GENERATOR_BITS + SEQUENCE_BITS)
    }

    pub const fn generator(self) -> u16 {
        ((self.0 as u64 >> SEQUENCE_BITS) & MAX_GENERATOR as u64) as u16
    }

    pub const fn sequence(self) -> u16 {
        (self.0 as u64 & MAX_SEQUENCE as u64) as u16
    }

    /// The unix millisecond of the ID under the given epoch.
    pub const fn unix_ms(self, epoch_unix_ms: i64) -> i64 {
        epoch_unix_ms + self.ms_since_epoch() as i64
    }

    pub fn parse(text: &[u8]) -> Result<Self, ParseError> {
        match base36::decode(text) {
            Ok(v) => i64::try_from(v)
                .map(Nanoflake)
                .map_err(|_| ParseError::OutOfRange),
            Err(Base36Error::Overflow) => Err(ParseError::OutOfRange),
            Err(Base36Error::Empty | Base36Error::InvalidDigit(_)) => Err(ParseError::Syntax),
        }
    }
}

/// Generated under a configurable epoch (the server's); the third field is
/// the generator (node) id, which callers sharing no ticker must keep apart.
impl CounterId for Nanoflake {
    type Ticker = NanoflakeTicker;
    const MAX_TIMESTAMP: u64 = MAX_TIMESTAMP;
    const MAX_SEQUENCE: u16 = MAX_SEQUENCE;
    const MAX_NODE_OR_RANDOM: u16 = MAX_GENERATOR;

    fn from_fields(ms_since_epoch: u64, sequence: u16, generator: u16) -> Option<Self> {
        Self::from_parts(ms_since_epoch, generator, sequence)
    }
}

crate::text_form!(Nanoflake, ParseError, "nanoflake");

impl fmt::Display for Nanoflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&base36::encode(self.0 as u64))
    }
}

impl fmt::Debug for Nanoflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Nanoflake({self}: ms {} gen {} seq {})",
            self.ms_since_epoch(),
            self.generator(),
            self.sequence()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FakeClock;
    use crate::counter_id::GenerateError;
    use rand::{Rng, SeedableRng};

    #[test]
    fn layout() {
        let id = Nanoflake::from_parts(86_400_000, 5, 7).unwrap();
        assert_eq!(id.to_i64(), 362_387_865_620_487);
        assert_eq!(
            (id.ms_since_epoch(), id.generator(), id.sequence()),
            (86_400_000, 5, 7)
        );
        assert_eq!(
            Nanoflake::from_parts(MAX_TIMESTAMP, MAX_GENERATOR, MAX_SEQUENCE),
            Some(Nanoflake::MAX)
        );
        assert_eq!(Nanoflake::from_parts(MAX_TIMESTAMP + 1, 0, 0), None);
        assert_eq!(Nanoflake::from_parts(0, MAX_GENERATOR + 1, 0), None);
        assert_eq!(Nanoflake::from_parts(0, 0, MAX_SEQUENCE + 1), None);
        assert_eq!(Nanoflake::from_i64(-1), None);
    }

    #[test]
    fn parse_classes() {
        assert_eq!(Nanoflake::parse(b"1Y2P0IJ32E8E7"), Ok(Nanoflake::MAX));
        assert_eq!(
            Nanoflake::parse(b"1y2p0ij32e8e8"),
            Err(ParseError::OutOfRange)
        );
        assert_eq!(
            Nanoflake::parse(b"3w5e11264sgsf"),
            Err(ParseError::OutOfRange)
        );
        assert_eq!(
            Nanoflake::parse(b"zzzzzzzzzzzzzzzzzzzzzzz"),
            Err(ParseError::OutOfRange)
        );
        for bad in [&b""[..], b"-1", b"+1", b" 1", b"1 ", b"1.0", b"\t", b"1\n"] {
            assert_eq!(Nanoflake::parse(bad), Err(ParseError::Syntax), "{bad:?}");
        }
    }

    #[test]
    fn text_round_trip_and_order_over_random_values() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x6e616e6f);
        let mut values: Vec<Nanoflake> = (0..100_000)
            .map(|_| Nanoflake::from_i64(rng.random::<i64>() & i64::MAX).unwrap())
            .chain([Nanoflake::MIN, Nanoflake::MAX])
            .collect();
        for v in &values {
            let text = v.to_string();
            assert!(text.len() <= 13);
            assert_eq!(Nanoflake::parse(text.as_bytes()), Ok(*v));
            assert_eq!(Nanoflake::parse(text.to_uppercase().as_bytes()), Ok(*v));
        }
        // The numeric order is the order of generation; the text order is not
        // (base-36 has no padding), which is why the type orders by number.
        values.sort();
        assert!(values.windows(2).all(|w| w[0].to_i64() <= w[1].to_i64()));
    }

    #[test]
    fn generate_packs_tick_generator_and_epoch() {
        let ticker = NanoflakeTicker::new();
        let epoch = DEFAULT_EPOCH_UNIX_MS;
        let mut clock = FakeClock::at(epoch as u64 + 1234);
        let a = Nanoflake::generate(&ticker, &mut clock, epoch, 42).unwrap();
        let b = Nanoflake::generate(&ticker, &mut clock, epoch, 42).unwrap();
        assert_eq!(
            (a.ms_since_epoch(), a.generator(), a.sequence()),
            (1234, 42, 0)
        );
        assert_eq!(
            (b.ms_since_epoch(), b.generator(), b.sequence()),
            (1234, 42, 1)
        );
        assert_eq!(a.unix_ms(epoch), epoch + 1234);
        let (first, last) = Nanoflake::bounds_of_unix_ms(epoch + 1234, epoch).unwrap();
        assert_eq!((first.generator(), first.sequence()), (0, 0));
        assert_eq!(
            (last.generator(), last.sequence()),
            (MAX_GENERATOR, MAX_SEQUENCE)
        );
        assert!(matches!(
            Nanoflake::generate(&ticker, &mut clock, epoch, MAX_GENERATOR + 1),
            Err(GenerateError::FieldOutOfRange { .. })
        ));
    }

    #[test]
    fn generate_rejects_future_epoch_and_overflow() {
        let ticker = NanoflakeTicker::new();
        let mut clock = FakeClock::at(1_000_000);
        assert!(matches!(
            Nanoflake::generate(&ticker, &mut clock, 2_000_000, 0),
            Err(GenerateError::BeforeEpoch { .. })
        ));
        let mut late = FakeClock::at(MAX_TIMESTAMP + 1 + 10);
        assert_eq!(
            Nanoflake::generate(&ticker, &mut late, 10, 0),
            Err(GenerateError::TimestampOverflow {
                ms_since_epoch: MAX_TIMESTAMP + 1
            })
        );
    }
}

#[cfg(test)]
mod vector_tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Vector {
        ms_since_epoch: u64,
        generator: u16,
        sequence: u16,
        int64: String,
        text: String,
    }

    #[derive(serde::Deserialize)]
    struct Vectors {
        vectors: Vec<Vector>,
    }

    #[test]
    fn conformance_vectors() {
        let file: Vectors =
            serde_json::from_str(include_str!("../../../tests/vectors/nanoflake.json")).unwrap();
        assert_eq!(file.vectors.len(), 5);
        for v in file.vectors {
            let id = Nanoflake::from_parts(v.ms_since_epoch, v.generator, v.sequence).unwrap();
            assert_eq!(id.to_i64().to_string(), v.int64);
            assert_eq!(id.to_string(), v.text);
            assert_eq!(Nanoflake::parse(v.text.as_bytes()), Ok(id));
            assert_eq!(
                (id.ms_since_epoch(), id.generator(), id.sequence()),
                (v.ms_since_epoch, v.generator, v.sequence)
            );
        }
    }
}
