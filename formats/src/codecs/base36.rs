//! Lowercase base-36 for non-negative 64-bit integers (the nanoflake text form).

/// The digits in value order; lowercase is the canonical spelling (nanoflake
/// text, codokey keys).
pub const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// Longest canonical encoding of a `u64` (`3w5e11264sgsf`).
pub const MAX_LEN: usize = 13;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base36Error {
    Empty,
    /// A byte that is not `0-9`, `a-z` or `A-Z`, at this byte offset.
    InvalidDigit(usize),
    /// The digits are valid but the number does not fit in a `u64`.
    Overflow,
}

pub fn encode(value: u64) -> String {
    let mut buf = [0u8; MAX_LEN];
    let start = encode_into(value, &mut buf);
    // Every byte comes from DIGITS, which is ASCII.
    String::from_utf8(buf[start..].to_vec()).expect("base36 digits are ASCII")
}

/// Writes the digits right-aligned into `buf` without allocating, for output
/// functions that run once per row; returns where they start.
pub fn encode_into(mut value: u64, buf: &mut [u8; MAX_LEN]) -> usize {
    let mut at = MAX_LEN;
    loop {
        at -= 1;
        buf[at] = DIGITS[(value % 36) as usize];
        value /= 36;
        if value == 0 {
            return at;
        }
    }
}

/// Digit values by byte, either case; 0xff for anything else.
const VALUES: [u8; 256] = {
    let mut table = [0xffu8; 256];
    let mut i = 0;
    while i < 36 {
        table[DIGITS[i] as usize] = i as u8;
        table[DIGITS[i].to_ascii_uppercase() as usize] = i as u8;
        i += 1;
    }
    table
};

/// The value of a digit in its canonical (lowercase) spelling.
pub fn lowercase_digit_value(c: u8) -> Option<u8> {
    match VALUES[usize::from(c)] {
        _ if c.is_ascii_uppercase() => None,
        0xff => None,
        value => Some(value),
    }
}

/// Appends `value` as exactly `width` lowercase digits, zero-padded on the
/// left; the caller makes sure it fits.
pub fn push_padded(out: &mut Vec<u8>, mut value: u64, width: usize) {
    let start = out.len();
    out.resize(start + width, b'0');
    for slot in out[start..].iter_mut().rev() {
        *slot = DIGITS[(value % 36) as usize];
        value /= 36;
    }
    debug_assert_eq!(value, 0, "value wider than its field");
}

/// Parses digits in either case. Signs, whitespace and separators are not
/// digits: the text form has exactly one spelling per value apart from case
/// and leading zeros.
pub fn decode(text: &[u8]) -> Result<u64, Base36Error> {
    if text.is_empty() {
        return Err(Base36Error::Empty);
    }
    let mut value: u64 = 0;
    let mut overflow = false;
    for (at, &byte) in text.iter().enumerate() {
        let digit = VALUES[byte as usize];
        if digit == 0xff {
            return Err(Base36Error::InvalidDigit(at));
        }
        // Keep scanning after an overflow: a bad character later in the
        // string is the more useful error. Up to 12 digits cannot overflow.
        if at < 12 {
            value = value * 36 + u64::from(digit);
        } else {
            match value
                .checked_mul(36)
                .and_then(|v| v.checked_add(u64::from(digit)))
            {
                Some(v) => value = v,
                None => overflow = true,
            }
        }
    }
    if overflow {
        Err(Base36Error::Overflow)
    } else {
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(encode(0), "0");
        assert_eq!(encode(35), "z");
        assert_eq!(encode(36), "10");
        assert_eq!(encode(u64::MAX), "3w5e11264sgsf");
        assert_eq!(encode(i64::MAX as u64), "1y2p0ij32e8e7");
        assert_eq!(decode(b"3W5E11264SGSF"), Ok(u64::MAX));
        assert_eq!(decode(b"3w5e11264sgsg"), Err(Base36Error::Overflow));
        assert_eq!(decode(b"000z"), Ok(35));
        // 12 digits never overflow; the 13th is checked, even after zeros.
        assert_eq!(decode(b"zzzzzzzzzzzz"), Ok(36u64.pow(12) - 1));
        assert_eq!(
            decode(b"00000000000003w5e11264sgsg"),
            Err(Base36Error::Overflow)
        );
        assert_eq!(decode(b"00000000000003w5e11264sgsf"), Ok(u64::MAX));
    }

    #[test]
    fn rejects_non_digits() {
        assert_eq!(decode(b""), Err(Base36Error::Empty));
        assert_eq!(decode(b"-1"), Err(Base36Error::InvalidDigit(0)));
        assert_eq!(decode(b"+1"), Err(Base36Error::InvalidDigit(0)));
        assert_eq!(decode(b" 1"), Err(Base36Error::InvalidDigit(0)));
        assert_eq!(decode(b"1 "), Err(Base36Error::InvalidDigit(1)));
        assert_eq!(decode(b"1_0"), Err(Base36Error::InvalidDigit(1)));
        assert_eq!(
            decode("1\u{e9}".as_bytes()),
            Err(Base36Error::InvalidDigit(1))
        );
        assert_eq!(
            decode(b"zzzzzzzzzzzzzzzzzzzz!"),
            Err(Base36Error::InvalidDigit(20))
        );
    }

    /// Differential property test against a slow u128 reference, over random
    /// strings mixing digits, both cases and bytes that are not digits.
    #[test]
    fn decode_matches_reference_on_random_strings() {
        use rand::{Rng, SeedableRng};
        fn reference(text: &[u8]) -> Result<u64, Base36Error> {
            if text.is_empty() {
                return Err(Base36Error::Empty);
            }
            let mut v: u128 = 0;
            for (at, b) in text.iter().enumerate() {
                let d = (*b as char)
                    .to_digit(36)
                    .ok_or(Base36Error::InvalidDigit(at))?;
                v = (v * 36 + u128::from(d)).min(u128::from(u64::MAX) + 1);
            }
            u64::try_from(v).map_err(|_| Base36Error::Overflow)
        }
        let alphabet =
            b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ00000 -+_.\0\xff";
        let mut rng = rand::rngs::StdRng::seed_from_u64(36);
        for _ in 0..200_000 {
            let len = rng.random_range(0..=20);
            let text: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            assert_eq!(
                decode(&text),
                reference(&text),
                "{:?}",
                String::from_utf8_lossy(&text)
            );
        }
        for _ in 0..200_000 {
            let v: u64 = rng.random::<u64>() >> rng.random_range(0..64);
            assert_eq!(decode(encode(v).as_bytes()), Ok(v));
            assert_eq!(decode(encode(v).to_uppercase().as_bytes()), Ok(v));
        }
    }
}
