//! Codokey: a calendar date as a short radix-36 key that sorts newest first.
//!
//! Fields, most significant first: year, month, day, hour, minute, second,
//! fraction of a second; the precision (0..=6) names the last one present.
//! Each field is written as `max - value` in base 36 (`0-9a-z`), zero-padded
//! to the number of digits its largest countdown needs. The context (year
//! zero, maximum year, fraction maximum) fixes those widths, so it belongs to
//! the application, not to the key.
//!
//! All arithmetic is on integers: microseconds since the unix epoch, UTC, as
//! an `i128`, because PostgreSQL's timestamps run to 294276 AD and the last
//! thirty years of that overflow an `i64` count of microseconds since 1970.
//!
//! A key does not carry its context. Storage therefore accepts any key that
//! some valid context can produce ([`Codokey::parse_any`]), and checks
//! against a context only where one is used ([`Codokey::decode`]).

use std::fmt;

use crate::base36;
use crate::time::{civil_from_micros, days_from_civil, days_in_month, MICROS_PER_DAY};

pub use crate::base36::DIGITS;

pub const MAX_PRECISION: u8 = 6;

/// The years a context may span: those of PostgreSQL timestamps from year 1.
pub const MIN_YEAR: i32 = 1;
pub const MAX_YEAR: i32 = 294_276;
pub const DEFAULT_PRECISION: u8 = 2;

/// Fixed per application: changing it changes every key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    year_zero: i32,
    max_year: i32,
    fraction_max: u32,
    /// Decimal digits of the fraction (fraction_max = 10^d - 1).
    fraction_digits: u32,
    year_width: usize,
    fraction_width: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextError {
    /// max_year below year_zero, or a year outside 1..=9999... of timestamps.
    YearRange,
    /// fraction_max is not 9, 99, ..., 999999.
    FractionMax,
}

/// The reference implementation's context: years 1970..=3265 (`zz`), tenths.
pub const DEFAULT_CONTEXT: Context = Context {
    year_zero: 1970,
    max_year: 3265,
    fraction_max: 9,
    fraction_digits: 1,
    year_width: 2,
    fraction_width: 1,
};

/// Base-36 digits needed to write `n` (at least one).
fn width36(mut n: u64) -> usize {
    let mut w = 1;
    while n >= 36 {
        n /= 36;
        w += 1;
    }
    w
}

impl Context {
    /// Years are those PostgreSQL timestamps can hold in the proleptic
    /// Gregorian calendar from year 1 on; the fraction goes down to
    /// microseconds, the resolution of `timestamptz`.
    pub fn new(year_zero: i32, max_year: i32, fraction_max: u32) -> Result<Self, ContextError> {
        if year_zero < MIN_YEAR || max_year > MAX_YEAR || max_year < year_zero {
            return Err(ContextError::YearRange);
        }
        let fraction_digits = match fraction_max {
            9 => 1,
            99 => 2,
            999 => 3,
            9_999 => 4,
            99_999 => 5,
            999_999 => 6,
            _ => return Err(ContextError::FractionMax),
        };
        Ok(Context {
            year_zero,
            max_year,
            fraction_max,
            fraction_digits,
            year_width: width36((max_year - year_zero) as u64),
            fraction_width: width36(u64::from(fraction_max)),
        })
    }

    pub const fn year_zero(&self) -> i32 {
        self.year_zero
    }
    pub const fn max_year(&self) -> i32 {
        self.max_year
    }
    pub const fn fraction_max(&self) -> u32 {
        self.fraction_max
    }

    /// Field widths in key order: year, month, day, hour, minute, second, fraction.
    fn widths(&self) -> [usize; 7] {
        [self.year_width, 1, 1, 1, 2, 2, self.fraction_width]
    }

    /// Length of a key of this precision.
    pub fn key_len(&self, precision: u8) -> usize {
        self.widths()[..=usize::from(precision)].iter().sum()
    }

    /// The precision whose keys have this length, if any.
    pub fn precision_of_len(&self, len: usize) -> Option<u8> {
        (0..=MAX_PRECISION).find(|&p| self.key_len(p) == len)
    }
}

/// A key: its lowercase base-36 text, which is also its order (newest first).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Codokey(Vec<u8>);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodeError {
    Precision,
    /// The year lies outside [year_zero, max_year].
    YearOutOfContext {
        year: i64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// No precision of the context has keys of this length.
    Length,
    /// A character outside `0-9a-z` / `A-Z`.
    Digit,
    /// A field's countdown is out of its range (hour `x`, day past the end
    /// of the month, year before year_zero...).
    Field,
}

/// A date decoded from a key: the instant (truncated to the key's precision)
/// and that precision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoded {
    pub unix_micros: i128,
    pub precision: u8,
}

/// How many leading digits [`Codokey::abbreviate_storage`] packs.
pub const ABBREVIATED_DIGITS: usize = 10;

impl Codokey {
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).expect("keys are ASCII")
    }

    /// The stored form: one byte per base-36 digit, holding its value
    /// (0..=35). Byte order is key order, as for the text.
    pub fn to_storage(&self) -> Vec<u8> {
        self.0
            .iter()
            .map(|&c| base36::lowercase_digit_value(c).expect("keys are base-36 digits"))
            .collect()
    }

    /// Back from the stored form; `None` for a byte that is no digit value.
    pub fn from_storage(bytes: &[u8]) -> Option<Self> {
        bytes
            .iter()
            .map(|&v| DIGITS.get(usize::from(v)).copied())
            .collect::<Option<Vec<u8>>>()
            .map(Codokey)
    }

    /// The abbreviated sort key of a stored key: its first
    /// [`ABBREVIATED_DIGITS`] digit values, each plus one in 6 bits (0 where
    /// the key has ended), packed from the top of a `u64`. Compared as
    /// unsigned integers, two abbreviations order like the stored bytes (byte
    /// by byte, a shorter key first when it is a prefix), and equal
    /// abbreviations leave the order to the full comparison: so a sort can
    /// compare these instead of the bytes and be exactly as right. Keys of up
    /// to 10 digits (precision 6 in the default context) abbreviate without
    /// loss.
    pub fn abbreviate_storage(storage: &[u8]) -> u64 {
        let mut key = 0u64;
        for i in 0..ABBREVIATED_DIGITS {
            // A stored digit is 0..=35; the clamp keeps 6 bits for any byte.
            let v = storage.get(i).map_or(0, |&d| u64::from(d.min(62)) + 1);
            key = (key << 6) | v;
        }
        key << (64 - 6 * ABBREVIATED_DIGITS)
    }

    pub fn encode(ctx: &Context, unix_micros: i128, precision: u8) -> Result<Self, EncodeError> {
        if precision > MAX_PRECISION {
            return Err(EncodeError::Precision);
        }
        let (year, month, day, hour, minute, second, micros) = civil_from_micros(unix_micros);
        if year < i64::from(ctx.year_zero) || year > i64::from(ctx.max_year) {
            return Err(EncodeError::YearOutOfContext { year });
        }
        // The first d decimal digits of the second, truncated.
        let fraction = micros / 10u32.pow(6 - ctx.fraction_digits);
        let countdowns: [u64; 7] = [
            (i64::from(ctx.max_year) - year) as u64,
            u64::from(12 - month),
            u64::from(days_in_month(year, month) - day),
            u64::from(23 - hour),
            u64::from(59 - minute),
            u64::from(59 - second),
            u64::from(ctx.fraction_max - fraction),
        ];
        let mut key = Vec::with_capacity(ctx.key_len(precision));
        for (value, width) in countdowns
            .iter()
            .zip(ctx.widths())
            .take(usize::from(precision) + 1)
        {
            base36::push_padded(&mut key, *value, width);
        }
        Ok(Codokey(key))
    }

    /// Parses and validates a key for a context: upper case is folded, and
    /// every field must be in range (no rolling over into the next field).
    pub fn parse(ctx: &Context, text: &[u8]) -> Result<Self, DecodeError> {
        let key: Vec<u8> = text.iter().map(u8::to_ascii_lowercase).collect();
        Self::decode_fields(ctx, &key)?;
        Ok(Codokey(key))
    }

    /// Parses a key without its context, as storage must (text input, binary
    /// receive, restores): accepted exactly when some valid context has this
    /// key at some precision. Upper case is folded. That leaves the length
    /// (1 to 15 digits), the alphabet, and each field's range in the widest
    /// context of its width; which instant the key means is for
    /// [`Codokey::decode`] in the application's context to say.
    pub fn parse_any(text: &[u8]) -> Result<Self, DecodeError> {
        if text.is_empty() || text.len() > MAX_KEY_LEN {
            return Err(DecodeError::Length);
        }
        if !text.iter().all(u8::is_ascii_alphanumeric) {
            return Err(DecodeError::Digit);
        }
        let key = Codokey(text.iter().map(u8::to_ascii_lowercase).collect());
        match key.witness_context() {
            Some(_) => Ok(key),
            None => Err(DecodeError::Field),
        }
    }

    /// A context in which this key is valid, if there is one. Most keys are
    /// in the default context, which is tried first.
    ///
    /// Otherwise: for each year width (1..=4 digits) the key's year countdown
    /// needs a span of at least that countdown and of that width, and the
    /// smallest such span leaves the most room for the year itself; for each
    /// fraction width, the largest fraction maximum of that width admits the
    /// most countdowns (999 over 99, 999999 over 99999). Among the years the
    /// span allows, eight consecutive ones (year zero 1..=8) include a leap
    /// year, so a February 29 is admitted whenever some context admits it.
    pub fn witness_context(&self) -> Option<Context> {
        if Self::decode_fields(&DEFAULT_CONTEXT, &self.0).is_ok() {
            return Some(DEFAULT_CONTEXT);
        }
        for year_width in 1..=MAX_YEAR_WIDTH {
            let Some(year_digits) = self.0.get(..year_width) else {
                break;
            };
            let countdown = year_digits.iter().try_fold(0u64, |v, &c| {
                Some(v * 36 + u64::from(base36::lowercase_digit_value(c)?))
            })?;
            let narrowest = if year_width == 1 {
                0
            } else {
                36u64.pow(year_width as u32 - 1)
            };
            let span = countdown.max(narrowest);
            if span >= 36u64.pow(year_width as u32) || span > (MAX_YEAR - MIN_YEAR) as u64 {
                continue;
            }
            let span = span as i32;
            for fraction_max in WIDEST_FRACTION_MAX {
                for year_zero in MIN_YEAR..MIN_YEAR + 8 {
                    let Ok(ctx) =
                        Context::new(year_zero, year_zero.saturating_add(span), fraction_max)
                    else {
                        break;
                    };
                    if Self::decode_fields(&ctx, &self.0).is_ok() {
                        return Some(ctx);
                    }
                }
            }
        }
        None
    }

    /// The instant the key stands for, truncated to its precision.
    pub fn decode(&self, ctx: &Context) -> Result<Decoded, DecodeError> {
        Self::decode_fields(ctx, &self.0)
    }

    fn decode_fields(ctx: &Context, key: &[u8]) -> Result<Decoded, DecodeError> {
        let precision = ctx.precision_of_len(key.len()).ok_or(DecodeError::Length)?;
        let mut fields = [0u64; 7];
        let mut at = 0;
        for (i, width) in ctx
            .widths()
            .into_iter()
            .enumerate()
            .take(usize::from(precision) + 1)
        {
            let mut v = 0u64;
            for &c in &key[at..at + width] {
                v = v * 36 + u64::from(base36::lowercase_digit_value(c).ok_or(DecodeError::Digit)?);
            }
            fields[i] = v;
            at += width;
        }
        let p = usize::from(precision);
        let year_span = (ctx.max_year - ctx.year_zero) as u64;
        if fields[0] > year_span {
            return Err(DecodeError::Field);
        }
        let year = i64::from(ctx.max_year) - fields[0] as i64;
        let month = if p >= 1 {
            12u64.checked_sub(fields[1]).filter(|m| *m >= 1)
        } else {
            Some(1)
        }
        .ok_or(DecodeError::Field)? as u32;
        let dim = days_in_month(year, month);
        let day = if p >= 2 {
            u64::from(dim).checked_sub(fields[2]).filter(|d| *d >= 1)
        } else {
            Some(1)
        }
        .ok_or(DecodeError::Field)? as u32;
        let countdown = |i: usize, max: u64| -> Result<u64, DecodeError> {
            if p < i {
                Ok(0)
            } else {
                max.checked_sub(fields[i]).ok_or(DecodeError::Field)
            }
        };
        let hour = countdown(3, 23)?;
        let minute = countdown(4, 59)?;
        let second = countdown(5, 59)?;
        let fraction = countdown(6, u64::from(ctx.fraction_max))?;
        let micros = fraction * u64::from(10u32.pow(6 - ctx.fraction_digits));
        let days = i128::from(days_from_civil(year, month, day));
        let unix_micros = days * MICROS_PER_DAY
            + i128::from((hour * 3600 + minute * 60 + second) * 1_000_000 + micros);
        Ok(Decoded {
            unix_micros,
            precision,
        })
    }

    /// The smallest and largest keys, of any precision, whose date lies in
    /// the period of `precision` containing `unix_micros`: the period's own
    /// key, and the key of its first instant at the finest precision. Keys
    /// count down, so every key of the period sorts between the two.
    pub fn period_bounds(
        ctx: &Context,
        unix_micros: i128,
        precision: u8,
    ) -> Result<(Self, Self), EncodeError> {
        let floor = Self::encode(ctx, unix_micros, precision)?;
        let start = floor
            .decode(ctx)
            .expect("a key just encoded decodes")
            .unix_micros;
        Ok((floor, Self::encode(ctx, start, MAX_PRECISION)?))
    }
}

/// The year field is at most 4 digits: a span of 294275 years needs 4.
const MAX_YEAR_WIDTH: usize = 4;
/// The longest key: a 4-digit year, 7 digits down to the second, and a
/// 4-digit microsecond fraction.
pub const MAX_KEY_LEN: usize = MAX_YEAR_WIDTH + 7 + 4;
/// For each fraction width (1..=4 digits), the largest fraction maximum.
const WIDEST_FRACTION_MAX: [u32; 4] = [9, 999, 9_999, 999_999];

/// A key as stored: any key some context can make (`Codokey::parse_any`).
impl std::str::FromStr for Codokey {
    type Err = DecodeError;
    fn from_str(text: &str) -> Result<Self, DecodeError> {
        Self::parse_any(text.as_bytes())
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid codokey: {self:?}")
    }
}

impl std::error::Error for DecodeError {}

impl fmt::Display for Codokey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Codokey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Codokey({})", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    const SEC: i128 = 1_000_000;

    fn at(y: i64, mo: u32, d: u32, h: i64, mi: i64, s: i64, micros: i64) -> i128 {
        i128::from(days_from_civil(y, mo, d)) * MICROS_PER_DAY
            + i128::from(h * 3600 + mi * 60 + s) * SEC
            + i128::from(micros)
    }

    fn enc(ctx: &Context, t: i128, p: u8) -> String {
        Codokey::encode(ctx, t, p).unwrap().to_string()
    }

    #[test]
    fn seed_table_and_spec_vectors() {
        let c = DEFAULT_CONTEXT;
        assert_eq!(Context::new(1970, 3265, 9), Ok(c));
        assert_eq!(enc(&c, at(2022, 1, 1, 0, 0, 0, 0), 0), "yj");
        assert_eq!(enc(&c, 0, 0), "zz");
        let late = at(2022, 12, 31, 23, 59, 59, 900_000);
        let want = [
            "yj",
            "yj0",
            "yj00",
            "yj000",
            "yj00000",
            "yj0000000",
            "yj00000000",
        ];
        let epoch = [
            "zz",
            "zzb",
            "zzbu",
            "zzbun",
            "zzbun1n",
            "zzbun1n1n",
            "zzbun1n1n9",
        ];
        for p in 0..=6u8 {
            assert_eq!(enc(&c, late, p), want[usize::from(p)]);
            assert_eq!(enc(&c, 0, p), epoch[usize::from(p)]);
        }
        let micro = Context::new(1970, 3265, 999_999).unwrap();
        assert_eq!(
            enc(&micro, at(2022, 12, 31, 23, 59, 59, 999_999), 6),
            "yj00000000000"
        );
        assert_eq!(enc(&micro, 0, 6), "zzbun1n1nlflr");
        for (date, key) in [
            ((2020, 2, 1), "ylas"),
            ((2020, 2, 29), "yla0"),
            ((2021, 2, 28), "yka0"),
            ((2022, 1, 31), "yjb0"),
        ] {
            assert_eq!(enc(&c, at(date.0, date.1, date.2, 0, 0, 0, 0), 2), key);
        }
    }

    #[test]
    fn widths_follow_the_context() {
        assert_eq!(
            Context::new(1970, 3265, 99).unwrap().key_len(6),
            2 + 1 + 1 + 1 + 2 + 2 + 2
        );
        assert_eq!(
            Context::new(1970, 3265, 999).unwrap().key_len(6),
            2 + 1 + 1 + 1 + 2 + 2 + 2
        );
        assert_eq!(
            Context::new(1970, 3265, 9999).unwrap().key_len(6),
            2 + 1 + 1 + 1 + 2 + 2 + 3
        );
        assert_eq!(Context::new(2000, 2035, 9).unwrap().key_len(0), 1);
        assert_eq!(Context::new(2000, 2036, 9).unwrap().key_len(0), 2);
        assert_eq!(Context::new(1, 9999, 9).unwrap().key_len(0), 3);
        assert_eq!(Context::new(2000, 1999, 9), Err(ContextError::YearRange));
        assert_eq!(Context::new(1970, 3265, 10), Err(ContextError::FractionMax));
        assert_eq!(Context::new(1970, 3265, 0), Err(ContextError::FractionMax));
    }

    #[test]
    fn custom_year_context() {
        let c = Context::new(2000, 2099, 99).unwrap(); // 99 = '2r', width 2
        assert_eq!(
            enc(&c, at(2099, 12, 31, 23, 59, 59, 990_000), 6),
            "00000000000"
        );
        assert_eq!(enc(&c, at(2000, 1, 1, 0, 0, 0, 0), 0), "2r");
        assert_eq!(
            Codokey::encode(&c, at(1999, 12, 31, 0, 0, 0, 0), 0),
            Err(EncodeError::YearOutOfContext { year: 1999 })
        );
        assert_eq!(
            Codokey::encode(&c, at(2100, 1, 1, 0, 0, 0, 0), 0),
            Err(EncodeError::YearOutOfContext { year: 2100 })
        );
        // 'zz' fits the width but not the span of 99 years.
        assert_eq!(Codokey::parse(&c, b"zz"), Err(DecodeError::Field));
    }

    #[test]
    fn period_bounds_enclose_every_key_of_the_period() {
        let c = DEFAULT_CONTEXT;
        let (lo, hi) = Codokey::period_bounds(&c, at(2022, 6, 15, 12, 0, 0, 0), 0).unwrap();
        assert_eq!(
            (lo.to_string(), hi.to_string()),
            ("yj".into(), "yjbun1n1n9".into())
        );
        let (lo, hi) = Codokey::period_bounds(&c, at(2022, 6, 15, 12, 0, 0, 0), 1).unwrap();
        assert_eq!(
            (lo.to_string(), hi.to_string()),
            ("yj6".into(), "yj6tn1n1n9".into())
        );
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for _ in 0..20_000 {
            let t = rng.random_range(0..at(3000, 1, 1, 0, 0, 0, 0));
            let p = rng.random_range(0..=MAX_PRECISION);
            let (lo, hi) = Codokey::period_bounds(&c, t, p).unwrap();
            let start = lo.decode(&c).unwrap().unix_micros;
            for q in p..=MAX_PRECISION {
                let inside = Codokey::encode(&c, t, q).unwrap();
                assert!(lo <= inside && inside <= hi);
                if let Ok(before) = Codokey::encode(&c, start - 1, q) {
                    assert!(before > hi, "the instant before the period sorts after it");
                }
            }
        }
    }

    #[test]
    fn storage_form_orders_like_the_text() {
        let c = DEFAULT_CONTEXT;
        let keys: Vec<Codokey> = ["yj", "yj0", "yj00", "yjbu", "zz", "zzb", "a0"]
            .iter()
            .filter_map(|k| Codokey::parse(&c, k.as_bytes()).ok())
            .collect();
        for a in &keys {
            assert_eq!(Codokey::from_storage(&a.to_storage()).as_ref(), Some(a));
            for b in &keys {
                assert_eq!(a.cmp(b), a.to_storage().cmp(&b.to_storage()), "{a:?} {b:?}");
            }
        }
        assert_eq!(Codokey::from_storage(&[36]), None);
    }

    #[test]
    fn strict_decoding() {
        let c = DEFAULT_CONTEXT;
        use DecodeError::*;
        // (key, the error, or None for a valid key)
        for (key, want) in [
            (&b""[..], Some(Length)),
            (b"y", Some(Length)),
            (b"yj0000", Some(Length)),
            (b"yj00000000000", Some(Length)),
            (b"yc", None),
            (b"yj-0", Some(Digit)),
            (b"yj 0", Some(Digit)),
            (b"yjc", Some(Field)),  // month countdown 12
            (b"yjbv", Some(Field)), // January has 31 days: countdown 31 is day 0
            (b"ylb0", None),
            (b"ylas", None),              // 2020-02-01: countdown 29 - 1
            (b"ylat", Some(Field)),       // February 2020 has 29 days: countdown 29 is day 0
            (b"ykar", None),              // 2021-02-01: countdown 28 - 1
            (b"ykas", Some(Field)),       // February 2021 has 28
            (b"yj00o", Some(Field)),      // hour countdown 24
            (b"yj0001o", Some(Field)),    // minute countdown 60
            (b"yj000001o", Some(Field)),  // second countdown 60
            (b"yj0000000a", Some(Field)), // fraction countdown 10 > 9
        ] {
            let got = Codokey::parse(&c, key);
            assert_eq!(
                got.as_ref().err().copied(),
                want,
                "{:?}",
                String::from_utf8_lossy(key)
            );
        }
        assert_eq!(Codokey::parse(&c, b"YJBU").unwrap().to_string(), "yjbu");
    }

    /// Contexts at the edges of what is allowed, and a few ordinary ones.
    fn edge_contexts() -> Vec<Context> {
        let mut out = vec![DEFAULT_CONTEXT];
        for (yz, my) in [
            (1, 1),
            (1, 36),
            (1, 37),
            (2000, 2035),
            (2000, 2036),
            (1, 1296),
            (1, 1297),
            (1, 9999),
            (1, 46_656),
            (1, 46_657),
            (1, MAX_YEAR),
            (MAX_YEAR, MAX_YEAR),
            (294_200, MAX_YEAR),
            (100, 200),
            (4000, 5000),
        ] {
            for fm in [9, 99, 999, 9_999, 99_999, 999_999] {
                out.push(Context::new(yz, my, fm).unwrap());
            }
        }
        out
    }

    #[test]
    fn parse_any_accepts_every_key_any_context_makes() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(10);
        let mut contexts = edge_contexts();
        for _ in 0..200 {
            let yz = rng.random_range(MIN_YEAR..=MAX_YEAR);
            let reach = rng.random_range(0..50_000);
            let my = rng.random_range(yz..=MAX_YEAR.min(yz + reach));
            let fm = [9, 99, 999, 9_999, 99_999, 999_999][rng.random_range(0..6)];
            contexts.push(Context::new(yz, my, fm).unwrap());
        }
        for ctx in &contexts {
            let lo = at(i64::from(ctx.year_zero), 1, 1, 0, 0, 0, 0);
            let hi = at(i64::from(ctx.max_year), 12, 31, 23, 59, 59, 999_999);
            for i in 0..2_000 {
                let t = match i {
                    0 => lo,
                    1 => hi,
                    _ => rng.random_range(lo..=hi),
                };
                let p = rng.random_range(0..=MAX_PRECISION);
                let key = Codokey::encode(ctx, t, p).unwrap();
                assert_eq!(
                    Codokey::parse_any(key.as_bytes()),
                    Ok(key.clone()),
                    "{ctx:?}"
                );
                let upper = key.as_str().to_ascii_uppercase();
                assert_eq!(Codokey::parse_any(upper.as_bytes()), Ok(key.clone()));
            }
        }
    }

    #[test]
    fn parse_any_accepts_exactly_the_keys_of_some_context() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let contexts = edge_contexts();
        let mut accepted = 0;
        for _ in 0..200_000 {
            let len = rng.random_range(1..=MAX_KEY_LEN + 1);
            let key: Vec<u8> = (0..len).map(|_| DIGITS[rng.random_range(0..36)]).collect();
            let any = Codokey::parse_any(&key);
            // Never stricter than a real context...
            if contexts.iter().any(|c| Codokey::parse(c, &key).is_ok()) {
                assert!(any.is_ok(), "{:?}", String::from_utf8_lossy(&key));
            }
            // ...and never looser: an accepted key is valid in its witness,
            // which encodes it back from the decoded instant.
            if let Ok(k) = any {
                accepted += 1;
                let ctx = k.witness_context().unwrap();
                let d = k.decode(&ctx).unwrap();
                assert_eq!(Codokey::encode(&ctx, d.unix_micros, d.precision), Ok(k));
            }
        }
        assert!(
            accepted > 1_000,
            "the sample reaches valid keys ({accepted})"
        );
    }

    #[test]
    fn parse_any_rejections() {
        use DecodeError::*;
        for (key, want) in [
            (&b""[..], Length),
            (b"0000000000000000", Length),
            (b"yj-0", Digit),
            (b"yj\xc3\xa9", Digit),
            (b"zzzzz", Field),   // no width makes 'z' a month
            (b"yj0001o", Field), // minute countdown 60
            (b"yjczz", Field),   // month 12 with a 2-digit year, month 35 with a 3-digit one
        ] {
            assert_eq!(
                Codokey::parse_any(key),
                Err(want),
                "{:?}",
                String::from_utf8_lossy(key)
            );
        }
        // A key for the default context's year 1970 at the longest length
        // any context has: a 4-digit year and a microsecond fraction.
        assert!(Codokey::parse_any(b"00zzbun1n1nlflr").is_ok());
        // February 29 needs a leap year. The widest context (1 .. 294276)
        // gives year countdown 294275 to year 1 and 294272 to year 4: only
        // the latter has a February 1 with countdown 28.
        let widest = Context::new(1, MAX_YEAR, 9).unwrap();
        let feb1_year4 = enc(&widest, at(4, 2, 1, 0, 0, 0, 0), 2);
        assert!(feb1_year4.ends_with('s'), "{feb1_year4}");
        assert!(Codokey::parse_any(feb1_year4.as_bytes()).is_ok());
        let feb1_year1 = enc(&widest, at(1, 2, 1, 0, 0, 0, 0), 2);
        assert!(feb1_year1.ends_with('r'), "{feb1_year1}");
        let impossible = format!("{}s", &feb1_year1[..feb1_year1.len() - 1]);
        assert_eq!(Codokey::parse_any(impossible.as_bytes()), Err(Field));
    }

    #[test]
    fn the_last_instants_postgresql_can_hold() {
        // 294247 .. 294276 AD overflow i64 microseconds since 1970.
        let widest = Context::new(1, MAX_YEAR, 999_999).unwrap();
        let last = at(294_276, 12, 31, 23, 59, 59, 999_999);
        assert!(last > i128::from(i64::MAX));
        for p in 0..=MAX_PRECISION {
            let key = Codokey::encode(&widest, last, p).unwrap();
            assert_eq!(
                key.decode(&widest).unwrap().unix_micros,
                truncate(&widest, last, p)
            );
            assert_eq!(Codokey::parse_any(key.as_bytes()), Ok(key));
        }
        let june = at(294_247, 6, 1, 0, 0, 0, 0);
        assert_eq!(enc(&Context::new(1, MAX_YEAR, 9).unwrap(), june, 0), "000t");
        let first = at(1, 1, 1, 0, 0, 0, 0);
        assert_eq!(
            Codokey::encode(&widest, first, 6)
                .unwrap()
                .decode(&widest)
                .unwrap()
                .unix_micros,
            first
        );
        assert_eq!(
            Codokey::encode(&widest, last + 1, 0),
            Err(EncodeError::YearOutOfContext { year: 294_277 })
        );
    }

    /// Truncation of an instant to a precision, computed independently.
    fn truncate(ctx: &Context, t: i128, p: u8) -> i128 {
        let (y, mo, d, h, mi, s, us) = civil_from_micros(t);
        let step = 10i64.pow(6 - ctx.fraction_digits);
        let fields = [
            (1, 1, 0, 0, 0, 0),
            (mo, 1, 0, 0, 0, 0),
            (mo, d, 0, 0, 0, 0),
            (mo, d, h, 0, 0, 0),
            (mo, d, h, mi, 0, 0),
            (mo, d, h, mi, s, 0),
            (mo, d, h, mi, s, i64::from(us) / step * step),
        ][usize::from(p)];
        at(
            y,
            fields.0,
            fields.1,
            i64::from(fields.2),
            i64::from(fields.3),
            i64::from(fields.4),
            fields.5,
        )
    }

    #[test]
    fn property_encode_decode_truncates_and_order_is_reverse_time() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(36);
        let contexts = [
            DEFAULT_CONTEXT,
            Context::new(1970, 3265, 999_999).unwrap(),
            Context::new(1970, 3265, 999).unwrap(),
            Context::new(1900, 2100, 99).unwrap(),
        ];
        for ctx in &contexts {
            let lo = at(i64::from(ctx.year_zero), 1, 1, 0, 0, 0, 0);
            let hi = at(i64::from(ctx.max_year), 12, 31, 23, 59, 59, 999_999);
            let mut keyed: Vec<(i128, Codokey)> = Vec::new();
            for _ in 0..20_000 {
                let t = rng.random_range(lo..=hi);
                let p = rng.random_range(0..=MAX_PRECISION);
                let key = Codokey::encode(ctx, t, p).unwrap();
                assert_eq!(key.as_bytes().len(), ctx.key_len(p));
                let back = key.decode(ctx).unwrap();
                assert_eq!(
                    back,
                    Decoded {
                        unix_micros: truncate(ctx, t, p),
                        precision: p
                    },
                    "{key:?}"
                );
                assert_eq!(Codokey::parse(ctx, key.as_bytes()), Ok(key.clone()));
                if p == MAX_PRECISION {
                    keyed.push((truncate(ctx, t, p), key));
                }
            }
            // Same precision: key order is reverse time order.
            keyed.sort_by(|a, b| a.1.cmp(&b.1));
            assert!(keyed.windows(2).all(|w| w[0].0 >= w[1].0));
        }
    }

    #[test]
    fn property_decode_of_garbage_never_panics() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let alphabet = b"0123456789abcdefghijklmnopqrstuvwxyzXYZ -_\x00\xff";
        for _ in 0..300_000 {
            let len = rng.random_range(0..16);
            let key: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            for ctx in [DEFAULT_CONTEXT, Context::new(2000, 2001, 999_999).unwrap()] {
                if let Ok(k) = Codokey::parse(&ctx, &key) {
                    let d = k.decode(&ctx).unwrap();
                    // A valid key re-encodes to itself.
                    assert_eq!(
                        Codokey::encode(&ctx, d.unix_micros, d.precision).unwrap(),
                        k
                    );
                }
            }
        }
    }

    #[derive(serde::Deserialize)]
    struct Split {
        value: i64,
        split: serde_json::Number,
    }

    #[derive(serde::Deserialize)]
    struct Vector {
        kind: String,
        precision: String,
        #[serde(rename = "untilSplit")]
        until_split: u32,
        key: String,
        input_ms: Option<i64>,
        time_ms: Option<i64>,
        input: Option<Split>,
        timestamp: Option<Split>,
    }

    /// `split` is milliseconds with up to three decimals: exact microseconds.
    fn split_micros(s: &Split) -> i128 {
        let text = s.split.to_string();
        let (ms, frac) = text.split_once('.').unwrap_or((&text, ""));
        let frac = format!("{frac:0<3}");
        i128::from(s.value) * SEC
            + i128::from(ms.parse::<i64>().unwrap() * 1000 + frac[..3].parse::<i64>().unwrap())
    }

    #[test]
    fn reference_implementation_assertions() {
        #[derive(serde::Deserialize)]
        struct File {
            vectors: Vec<Vector>,
        }
        let file: File =
            serde_json::from_str(include_str!("../../../tests/vectors/codokey.json")).unwrap();
        assert_eq!(file.vectors.len(), 320);
        for v in &file.vectors {
            let ctx = Context::new(1970, 3265, v.until_split).unwrap();
            let p = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "SPLIT"]
                .iter()
                .position(|n| *n == v.precision)
                .unwrap() as u8;
            match v.kind.as_str() {
                "encode" => {
                    let t = v
                        .input_ms
                        .map(|ms| i128::from(ms) * 1000)
                        .unwrap_or_else(|| split_micros(v.input.as_ref().unwrap()));
                    assert_eq!(enc(&ctx, t, p), v.key, "{t}");
                }
                _ => {
                    let t = v
                        .time_ms
                        .map(|ms| i128::from(ms) * 1000)
                        .unwrap_or_else(|| split_micros(v.timestamp.as_ref().unwrap()));
                    let d = Codokey::parse(&ctx, v.key.as_bytes())
                        .unwrap()
                        .decode(&ctx)
                        .unwrap();
                    assert_eq!(
                        d,
                        Decoded {
                            unix_micros: t,
                            precision: p
                        },
                        "{}",
                        v.key
                    );
                }
            }
        }
    }

    /// Abbreviations never contradict the byte order of stored keys, on
    /// keys of every length and of random contexts, and keys sharing their
    /// first 10 digits tie (the full comparison decides those).
    #[test]
    fn property_abbreviation_orders_like_the_bytes() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(36);
        let mut keys: Vec<Vec<u8>> = Vec::new();
        for _ in 0..20_000 {
            let len = rng.random_range(1..=15);
            keys.push((0..len).map(|_| rng.random_range(0..36u8)).collect());
        }
        // Made keys of random contexts and precisions, and near-ties: one
        // 10-digit prefix continued in every way.
        for _ in 0..5_000 {
            let yz = rng.random_range(1..=2000);
            let ctx = Context::new(yz, yz + rng.random_range(0..5000), 999_999).unwrap();
            let t = rng.random_range(0..at(2400, 1, 1, 0, 0, 0, 0));
            if let Ok(k) = Codokey::encode(&ctx, t, rng.random_range(0..=MAX_PRECISION)) {
                keys.push(k.to_storage());
            }
        }
        let prefix: Vec<u8> = (0..10).map(|_| rng.random_range(0..36u8)).collect();
        let near_ties = keys.len();
        for extra in 0..=5usize {
            for _ in 0..50 {
                let mut k = prefix.clone();
                k.extend((0..extra).map(|_| rng.random_range(0..36u8)));
                keys.push(k);
            }
        }
        let random_pairs = (0..200_000).map(|_| {
            (
                rng.random_range(0..keys.len()),
                rng.random_range(0..keys.len()),
            )
        });
        let tie_pairs =
            (near_ties..keys.len()).flat_map(|i| (near_ties..keys.len()).map(move |j| (i, j)));
        let mut ties = 0;
        for (i, j) in random_pairs
            .collect::<Vec<_>>()
            .into_iter()
            .chain(tie_pairs)
        {
            let (a, b) = (&keys[i], &keys[j]);
            let (ka, kb) = (
                Codokey::abbreviate_storage(a),
                Codokey::abbreviate_storage(b),
            );
            if ka == kb {
                ties += 1;
                assert_eq!(
                    a[..a.len().min(10)],
                    b[..b.len().min(10)],
                    "a tie only on a shared 10-digit prefix"
                );
            } else {
                assert_eq!(ka.cmp(&kb), a.cmp(b), "{a:?} vs {b:?}");
            }
            if a.len() <= 10 && b.len() <= 10 {
                assert_eq!(ka.cmp(&kb), a.cmp(b), "lossless up to 10 digits");
            }
        }
        assert!(ties > 100, "the near-ties were exercised ({ties})");
        // Sorting by (abbreviation, bytes) is sorting by bytes.
        let mut by_bytes = keys.clone();
        by_bytes.sort();
        keys.sort_by(|a, b| {
            Codokey::abbreviate_storage(a)
                .cmp(&Codokey::abbreviate_storage(b))
                .then_with(|| a.cmp(b))
        });
        assert_eq!(keys, by_bytes);
    }
}
