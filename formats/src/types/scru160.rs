//! SCRU160: a 160-bit ID, big-endian `timestamp:48 | counter:16 |
//! random16:16 | random80:80`, written as 32 base32hex characters (RFC 4648
//! `0-9A-V`) or 40 hex digits. The byte order is the numeric order, which is
//! the order of generation and the order of both text forms.

use std::fmt;

use rand::RngCore;

pub const LEN: usize = 20;
pub const BASE32_LEN: usize = 32;
pub const HEX_LEN: usize = 40;

pub const MAX_TIMESTAMP: u64 = (1 << 48) - 1;
pub const MAX_RANDOM80: u128 = (1 << 80) - 1;

/// How far the clock may fall behind the last ID before a generator stops
/// counting on from that ID and starts over from the clock.
pub const MAX_ROLLBACK_MS: u64 = 10_000;

const BASE32HEX: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";
const HEX: &[u8; 16] = b"0123456789abcdef";

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Scru160([u8; LEN]);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseError {
    /// Neither 32 nor 40 characters.
    Length,
    /// A character outside the alphabet of the form its length selects.
    Digit,
}

impl Scru160 {
    pub const MIN: Scru160 = Scru160([0; LEN]);
    pub const MAX: Scru160 = Scru160([0xff; LEN]);

    pub const fn from_bytes(bytes: [u8; LEN]) -> Self {
        Scru160(bytes)
    }

    pub const fn as_bytes(&self) -> &[u8; LEN] {
        &self.0
    }

    pub fn from_fields(
        timestamp: u64,
        counter: u16,
        random16: u16,
        random80: u128,
    ) -> Option<Self> {
        if timestamp > MAX_TIMESTAMP || random80 > MAX_RANDOM80 {
            return None;
        }
        let mut b = [0u8; LEN];
        b[0..6].copy_from_slice(&timestamp.to_be_bytes()[2..]);
        b[6..8].copy_from_slice(&counter.to_be_bytes());
        b[8..10].copy_from_slice(&random16.to_be_bytes());
        b[10..20].copy_from_slice(&random80.to_be_bytes()[6..]);
        Some(Scru160(b))
    }

    pub fn timestamp(&self) -> u64 {
        let mut t = [0u8; 8];
        t[2..].copy_from_slice(&self.0[0..6]);
        u64::from_be_bytes(t)
    }

    pub fn counter(&self) -> u16 {
        u16::from_be_bytes([self.0[6], self.0[7]])
    }

    pub fn random16(&self) -> u16 {
        u16::from_be_bytes([self.0[8], self.0[9]])
    }

    pub fn random80(&self) -> u128 {
        let mut r = [0u8; 16];
        r[6..].copy_from_slice(&self.0[10..]);
        u128::from_be_bytes(r)
    }

    /// The smallest and largest IDs whose timestamp is `ms`.
    pub fn bounds_of_ms(ms: u64) -> Option<(Self, Self)> {
        Some((
            Self::from_fields(ms, 0, 0, 0)?,
            Self::from_fields(ms, u16::MAX, u16::MAX, MAX_RANDOM80)?,
        ))
    }

    /// The first 8 bytes as a big-endian integer: timestamp and counter, the
    /// abbreviated key of sort support (it orders exactly like the bytes).
    pub fn prefix_u64(&self) -> u64 {
        u64::from_be_bytes(self.0[0..8].try_into().expect("8 bytes"))
    }

    /// Canonical text: 32 uppercase base32hex characters.
    pub fn encode(&self) -> [u8; BASE32_LEN] {
        let mut out = [0u8; BASE32_LEN];
        // 160 bits = 4 groups of 40 bits = 4 groups of 8 characters.
        for (group, chunk) in self.0.chunks_exact(5).enumerate() {
            let mut v = chunk.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
            for i in (0..8).rev() {
                out[group * 8 + i] = BASE32HEX[(v & 31) as usize];
                v >>= 5;
            }
        }
        out
    }

    /// 40 lowercase hex digits.
    pub fn encode_hex(&self) -> [u8; HEX_LEN] {
        let mut out = [0u8; HEX_LEN];
        for (i, b) in self.0.iter().enumerate() {
            out[2 * i] = HEX[usize::from(b >> 4)];
            out[2 * i + 1] = HEX[usize::from(b & 15)];
        }
        out
    }

    /// Accepts the 32-character base32hex form or the 40-character hex form,
    /// in any case; nothing else (no whitespace, no separators).
    pub fn parse(text: &[u8]) -> Result<Self, ParseError> {
        // Table lookups with the bad-digit check folded into one OR: the
        // input function runs once per value in COPY, and a branch per
        // character cost more than the decoding.
        if let Ok(text) = <&[u8; BASE32_LEN]>::try_from(text) {
            let mut b = [0u8; LEN];
            let mut bad = 0u8;
            for group in 0..4 {
                let mut v = 0u64;
                for &c in &text[group * 8..group * 8 + 8] {
                    let d = BASE32HEX_VALUES[usize::from(c)];
                    bad |= d;
                    v = v << 5 | u64::from(d & 31);
                }
                b[group * 5..group * 5 + 5].copy_from_slice(&v.to_be_bytes()[3..]);
            }
            return if bad > 31 {
                Err(ParseError::Digit)
            } else {
                Ok(Scru160(b))
            };
        }
        if let Ok(text) = <&[u8; HEX_LEN]>::try_from(text) {
            let mut b = [0u8; LEN];
            let mut bad = 0u8;
            for (i, pair) in text.chunks_exact(2).enumerate() {
                let hi = HEX_VALUES[usize::from(pair[0])];
                let lo = HEX_VALUES[usize::from(pair[1])];
                bad |= hi | lo;
                b[i] = hi << 4 | (lo & 15);
            }
            return if bad > 15 {
                Err(ParseError::Digit)
            } else {
                Ok(Scru160(b))
            };
        }
        Err(ParseError::Length)
    }
}

/// Marks a byte that is no digit in the tables below (every digit value has
/// its top three bits clear).
const INVALID_DIGIT: u8 = 0xFF;

/// A 256-entry table: each byte's digit value, or `INVALID_DIGIT`.
macro_rules! digit_table {
    ($($range:pat => $base:expr),+) => {{
        let mut t = [INVALID_DIGIT; 256];
        let mut c = 0;
        while c < 256 {
            let b = c as u8;
            t[c] = match b {
                $($range => b - $base,)+
                _ => INVALID_DIGIT,
            };
            c += 1;
        }
        t
    }};
}

const BASE32HEX_VALUES: [u8; 256] =
    digit_table!(b'0'..=b'9' => b'0', b'A'..=b'V' => b'A' - 10, b'a'..=b'v' => b'a' - 10);
const HEX_VALUES: [u8; 256] =
    digit_table!(b'0'..=b'9' => b'0', b'A'..=b'F' => b'A' - 10, b'a'..=b'f' => b'a' - 10);

crate::text_form!(Scru160, ParseError, "scru160");

impl fmt::Display for Scru160 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.encode()).expect("ASCII"))
    }
}

impl fmt::Debug for Scru160 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Scru160({self}: ts {} counter {})",
            self.timestamp(),
            self.counter()
        )
    }
}

/// What a generator has to report besides the ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// The clock was further behind the last ID than `MAX_ROLLBACK_MS`: the
    /// generator started over from the clock, so this ID sorts before
    /// earlier ones (uniqueness still rests on 96 random bits).
    ClockReset { last_ms: u64, clock_ms: u64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenerateError {
    /// The clock reads past the last usable timestamp (2^48 - 2 ms, in the
    /// year 10889).
    TimestampOverflow { ms: u64 },
}

/// Per-backend generator state: the spec's default counter usage. The
/// current time and the random source are inputs, so tests can drive it.
#[derive(Debug, Clone, Default)]
pub struct Generator {
    timestamp: u64,
    counter: u16,
}

impl Generator {
    pub const fn new() -> Self {
        Generator {
            timestamp: 0,
            counter: 0,
        }
    }

    /// The next ID at clock reading `now_ms`:
    /// - a new millisecond starts the counter at a random 15-bit value;
    /// - within the same millisecond the counter increments;
    /// - if it would overflow, the timestamp field advances by one ms and the
    ///   counter starts afresh (order and uniqueness hold, nothing waits);
    /// - a clock that went back by up to `MAX_ROLLBACK_MS` is treated as the
    ///   same millisecond as the last ID (IDs keep increasing); further back,
    ///   the generator starts over from the clock and says so.
    ///
    /// Timestamps 0 and 2^48-1 are reserved and never produced.
    pub fn generate(
        &mut self,
        now_ms: u64,
        rng: &mut impl RngCore,
    ) -> Result<(Scru160, Option<Notice>), GenerateError> {
        let now_ms = now_ms.max(1);
        let mut notice = None;
        if now_ms > self.timestamp {
            self.timestamp = now_ms;
            self.counter = random_counter(rng);
        } else if self.timestamp - now_ms <= MAX_ROLLBACK_MS {
            match self.counter.checked_add(1) {
                Some(c) => self.counter = c,
                None => {
                    self.timestamp += 1;
                    self.counter = random_counter(rng);
                }
            }
        } else {
            notice = Some(Notice::ClockReset {
                last_ms: self.timestamp,
                clock_ms: now_ms,
            });
            self.timestamp = now_ms;
            self.counter = random_counter(rng);
        }
        if self.timestamp >= MAX_TIMESTAMP {
            return Err(GenerateError::TimestampOverflow { ms: self.timestamp });
        }
        Ok((with_random_tail(self.timestamp, self.counter, rng), notice))
    }
}

/// Generates IDs for explicit instants (backfills, imports, tests), apart
/// from the clock-driven [`Generator`] so that neither disturbs the other.
///
/// Uniqueness rests on the 96 random bits and the random 15-bit counter
/// start, as for two servers generating in the same millisecond: an ID for
/// an instant never collides with another generator's ID in practice, even
/// one minted live in that millisecond. Order: consecutive calls for the
/// same millisecond count up, so a run of IDs for one instant is strictly
/// increasing; if more than 32k such calls exhaust the counter, it starts
/// afresh at a random value (still unique, no longer ordered within that
/// millisecond). The timestamp field is exactly the instant's millisecond:
/// it never moves, so `scru160_timestamp` gives back the instant.
#[derive(Debug, Clone, Default)]
pub struct InstantGenerator {
    timestamp: u64,
    counter: u16,
}

impl InstantGenerator {
    pub const fn new() -> Self {
        InstantGenerator {
            timestamp: 0,
            counter: 0,
        }
    }

    /// An ID whose timestamp is `unix_ms`: 1 ..= 2^48 - 2 (timestamps 0 and
    /// 2^48 - 1 are reserved, as for the clock-driven generator).
    pub fn generate_at(
        &mut self,
        unix_ms: u64,
        rng: &mut impl RngCore,
    ) -> Result<Scru160, InstantOutOfRange> {
        if unix_ms == 0 || unix_ms >= MAX_TIMESTAMP {
            return Err(InstantOutOfRange { ms: unix_ms });
        }
        let next = if unix_ms == self.timestamp {
            self.counter.checked_add(1)
        } else {
            None
        };
        self.timestamp = unix_ms;
        self.counter = next.unwrap_or_else(|| random_counter(rng));
        Ok(with_random_tail(unix_ms, self.counter, rng))
    }
}

/// An instant outside 1 ..= 2^48 - 2 ms since 1970 (the reserved timestamps
/// and everything before 1970 or after the year 10889).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstantOutOfRange {
    pub ms: u64,
}

/// An ID of this timestamp (below 2^48) and counter, its 96 random bits
/// drawn from `rng`.
fn with_random_tail(timestamp: u64, counter: u16, rng: &mut impl RngCore) -> Scru160 {
    let mut b = [0u8; LEN];
    b[0..6].copy_from_slice(&timestamp.to_be_bytes()[2..]);
    b[6..8].copy_from_slice(&counter.to_be_bytes());
    rng.fill_bytes(&mut b[8..20]);
    Scru160(b)
}

fn random_counter(rng: &mut impl RngCore) -> u16 {
    (rng.next_u32() & 0x7fff) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn rng() -> rand::rngs::StdRng {
        rand::rngs::StdRng::seed_from_u64(160)
    }

    #[test]
    fn fields_and_both_encodings() {
        let id = Scru160::parse(b"017c083c130732153679e83c4fc65664e6a964a1").unwrap();
        assert_eq!(id.to_string(), "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51");
        assert_eq!(id.timestamp(), 1_632_225_727_239);
        assert_eq!(id.counter(), 12821);
        assert_eq!(id.random16(), 13945);
        assert_eq!(id.random80(), 1_096_701_577_047_146_014_270_625);
        assert_eq!(
            &id.encode_hex(),
            b"017c083c130732153679e83c4fc65664e6a964a1"
        );
        assert_eq!(Scru160::parse(b"05u0gf0j0sp1adjpt0u4vhimcjjaip51"), Ok(id));
        assert_eq!(
            Scru160::parse(b"017C083C130732153679E83C4FC65664E6A964A1"),
            Ok(id)
        );
        assert_eq!(
            Scru160::from_fields(id.timestamp(), id.counter(), id.random16(), id.random80()),
            Some(id)
        );
        assert_eq!(Scru160::MAX.to_string(), "VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV");
        assert_eq!(Scru160::MIN.to_string(), "00000000000000000000000000000000");
    }

    #[test]
    fn rejects_malformed_text() {
        use ParseError::*;
        for (text, want) in [
            (&b""[..], Length),
            (b"05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5", Length),
            (b"05U0GF0J0SP1ADJPT0U4VHIMCJJAIP511", Length),
            (b"05U0GF0J0SP1ADJPT0U4VHIMCJJAIPW1", Digit),
            (b"05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5 ", Digit),
            (b"017c083c130732153679e83c4fc65664e6a964ag", Digit),
            (b"017c083c-30732153679e83c4fc65664e6a964a1", Digit),
            (b"017c083c130732153679e83c4fc65664e6a964a", Length),
        ] {
            assert_eq!(
                Scru160::parse(text),
                Err(want),
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn random_round_trips_and_text_order_is_binary_order() {
        let mut r = rng();
        let mut ids: Vec<Scru160> = (0..50_000)
            .map(|_| {
                let mut b = [0u8; LEN];
                r.fill_bytes(&mut b);
                // Share prefixes often, so that order is decided deep inside.
                if r.random_bool(0.5) {
                    b[..8].fill(0x17);
                }
                Scru160::from_bytes(b)
            })
            .collect();
        for id in &ids {
            assert_eq!(Scru160::parse(&id.encode()), Ok(*id));
            assert_eq!(Scru160::parse(&id.encode_hex()), Ok(*id));
            assert_eq!(
                Scru160::parse(id.to_string().to_lowercase().as_bytes()),
                Ok(*id)
            );
        }
        ids.sort();
        for w in ids.windows(2) {
            assert!(w[0].encode() <= w[1].encode());
            assert!(w[0].encode_hex() <= w[1].encode_hex());
            assert!(w[0].prefix_u64() <= w[1].prefix_u64());
        }
    }

    #[test]
    fn same_millisecond_increments_the_counter() {
        let mut g = Generator::new();
        let mut r = rng();
        let (a, _) = g.generate(1000, &mut r).unwrap();
        let (b, _) = g.generate(1000, &mut r).unwrap();
        assert_eq!(a.timestamp(), 1000);
        assert!(
            a.counter() < 0x8000,
            "a new millisecond starts at a 15-bit value"
        );
        assert_eq!(b.counter(), a.counter() + 1);
        assert_ne!(a.random80(), b.random80());
        let (c, _) = g.generate(1001, &mut r).unwrap();
        assert_eq!(c.timestamp(), 1001);
        assert!(c.counter() < 0x8000);
    }

    #[test]
    fn counter_overflow_advances_the_timestamp() {
        let mut g = Generator::new();
        let mut r = rng();
        let mut prev = g.generate(5000, &mut r).unwrap().0;
        let mut advanced = false;
        for _ in 0..70_000 {
            let (id, notice) = g.generate(5000, &mut r).unwrap();
            assert!(id > prev);
            assert_eq!(notice, None);
            if id.timestamp() == 5001 {
                advanced = true;
            }
            assert!(id.timestamp() <= 5002);
            prev = id;
        }
        assert!(
            advanced,
            "more than 32k IDs in one millisecond move into the next"
        );
    }

    #[test]
    fn small_rollback_counts_on_and_large_rollback_resets_with_a_notice() {
        let mut g = Generator::new();
        let mut r = rng();
        let (a, _) = g.generate(100_000, &mut r).unwrap();
        let (b, n) = g.generate(95_000, &mut r).unwrap(); // 5 s back
        assert_eq!(n, None);
        assert_eq!(b.timestamp(), 100_000);
        assert!(b > a);
        let (c, n) = g.generate(100_000 - MAX_ROLLBACK_MS - 1, &mut r).unwrap();
        assert_eq!(
            n,
            Some(Notice::ClockReset {
                last_ms: 100_000,
                clock_ms: 100_000 - MAX_ROLLBACK_MS - 1
            })
        );
        assert_eq!(c.timestamp(), 100_000 - MAX_ROLLBACK_MS - 1);
        // From the reset point on, order holds again.
        let (d, n) = g.generate(100_000 - MAX_ROLLBACK_MS - 1, &mut r).unwrap();
        assert_eq!(n, None);
        assert!(d > c);
    }

    #[test]
    fn reserved_timestamps_are_never_produced() {
        let mut r = rng();
        let (id, _) = Generator::new().generate(0, &mut r).unwrap();
        assert_eq!(id.timestamp(), 1);
        assert_eq!(
            Generator::new().generate(MAX_TIMESTAMP, &mut r),
            Err(GenerateError::TimestampOverflow { ms: MAX_TIMESTAMP })
        );
        let (id, _) = Generator::new()
            .generate(MAX_TIMESTAMP - 1, &mut r)
            .unwrap();
        assert_eq!(id.timestamp(), MAX_TIMESTAMP - 1);
    }

    #[derive(serde::Deserialize)]
    struct Inspect {
        input: String,
        canonical: String,
        timestamp: u64,
        counter: u16,
        random16: u16,
        random80: String,
    }

    #[derive(serde::Deserialize)]
    struct Decoded {
        b32: String,
        hex: String,
        timestamp: u64,
        counter: u16,
        random16: Option<u16>,
        random80: Option<String>,
    }

    #[derive(serde::Deserialize)]
    struct Vectors {
        authoritative_inspect: Vec<Inspect>,
        spec_examples_decoded: Vec<Decoded>,
        python_readme_examples_decoded: Vec<Decoded>,
    }

    #[test]
    fn conformance_vectors() {
        let v: Vectors =
            serde_json::from_str(include_str!("../../../tests/vectors/scru160.json")).unwrap();
        for i in &v.authoritative_inspect {
            let id = Scru160::parse(i.input.as_bytes()).unwrap();
            assert_eq!(id.to_string(), i.canonical);
            assert_eq!(
                (id.timestamp(), id.counter(), id.random16()),
                (i.timestamp, i.counter, i.random16)
            );
            assert_eq!(id.random80().to_string(), i.random80);
        }
        for d in v
            .spec_examples_decoded
            .iter()
            .chain(&v.python_readme_examples_decoded)
        {
            let id = Scru160::parse(d.b32.as_bytes()).unwrap();
            assert_eq!(Scru160::parse(d.hex.as_bytes()), Ok(id));
            assert_eq!(std::str::from_utf8(&id.encode_hex()).unwrap(), d.hex);
            assert_eq!((id.timestamp(), id.counter()), (d.timestamp, d.counter));
            if let Some(r16) = d.random16 {
                assert_eq!(id.random16(), r16);
            }
            if let Some(r80) = &d.random80 {
                assert_eq!(&id.random80().to_string(), r80);
            }
        }
    }

    #[test]
    fn ids_for_an_instant_keep_its_millisecond_and_count_up() {
        let mut g = InstantGenerator::new();
        let mut r = rng();
        let ms = 1_577_836_800_123;
        let ids: Vec<Scru160> = (0..1000)
            .map(|_| g.generate_at(ms, &mut r).unwrap())
            .collect();
        assert!(ids.iter().all(|id| id.timestamp() == ms));
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "a run for one instant increases"
        );
        assert!(
            ids[0].counter() < 0x8000,
            "a new instant starts at a 15-bit counter"
        );
        // Another instant and back: a fresh counter, the timestamp as given.
        let other = g.generate_at(ms - 5, &mut r).unwrap();
        assert_eq!(other.timestamp(), ms - 5);
        assert_eq!(g.generate_at(ms, &mut r).unwrap().timestamp(), ms);
    }

    #[test]
    fn ids_for_an_instant_stay_unique_past_the_counter() {
        let mut g = InstantGenerator::new();
        let mut r = rng();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..70_000 {
            let id = g.generate_at(42, &mut r).unwrap();
            assert_eq!(id.timestamp(), 42);
            assert!(seen.insert(id));
        }
    }

    #[test]
    fn instants_outside_the_timestamp_field_are_refused() {
        let mut g = InstantGenerator::new();
        let mut r = rng();
        assert_eq!(g.generate_at(0, &mut r), Err(InstantOutOfRange { ms: 0 }));
        assert!(g.generate_at(MAX_TIMESTAMP, &mut r).is_err());
        assert!(g.generate_at(MAX_TIMESTAMP - 1, &mut r).is_ok());
        assert!(g.generate_at(1, &mut r).is_ok());
    }

    /// The table decoders against a plain one, for every byte value in
    /// every position of both text forms.
    #[test]
    fn decoders_agree_with_a_plain_decoder_on_every_byte() {
        fn plain(text: &[u8]) -> Option<[u8; LEN]> {
            let (bits, alphabet): (u32, &[u8]) = match text.len() {
                BASE32_LEN => (5, b"0123456789ABCDEFGHIJKLMNOPQRSTUV"),
                HEX_LEN => (4, b"0123456789ABCDEF"),
                _ => return None,
            };
            let mut n = 0u128;
            let mut high = 0u64; // 160 bits: 32 above a u128
            for &c in text {
                let d = alphabet.iter().position(|&a| a == c.to_ascii_uppercase())? as u128;
                high = high << bits | (n >> (128 - bits)) as u64;
                n = n << bits | d;
            }
            let mut out = [0u8; LEN];
            out[..4].copy_from_slice(&(high as u32).to_be_bytes());
            out[4..].copy_from_slice(&n.to_be_bytes());
            Some(out)
        }
        let base = *b"05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51";
        let hex = *b"017c083c130732153679e83c4fc65664e6a964a1";
        for pos in 0..HEX_LEN {
            for byte in 0..=255u8 {
                if pos < BASE32_LEN {
                    let mut t = base;
                    t[pos] = byte;
                    assert_eq!(
                        Scru160::parse(&t).ok().map(|id| *id.as_bytes()),
                        plain(&t),
                        "{t:?}"
                    );
                }
                let mut t = hex;
                t[pos] = byte;
                assert_eq!(
                    Scru160::parse(&t).ok().map(|id| *id.as_bytes()),
                    plain(&t),
                    "{t:?}"
                );
            }
        }
    }
}
