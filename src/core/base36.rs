//! Lowercase base-36 for non-negative 64-bit integers (the nanoflake text form).

const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

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
        let digit = match byte {
            b'0'..=b'9' => byte - b'0',
            b'a'..=b'z' => byte - b'a' + 10,
            b'A'..=b'Z' => byte - b'A' + 10,
            _ => return Err(Base36Error::InvalidDigit(at)),
        };
        // Keep scanning after an overflow: a bad character later in the
        // string is the more useful error.
        match value.checked_mul(36).and_then(|v| v.checked_add(u64::from(digit))) {
            Some(v) => value = v,
            None => overflow = true,
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
    }

    #[test]
    fn rejects_non_digits() {
        assert_eq!(decode(b""), Err(Base36Error::Empty));
        assert_eq!(decode(b"-1"), Err(Base36Error::InvalidDigit(0)));
        assert_eq!(decode(b"+1"), Err(Base36Error::InvalidDigit(0)));
        assert_eq!(decode(b" 1"), Err(Base36Error::InvalidDigit(0)));
        assert_eq!(decode(b"1 "), Err(Base36Error::InvalidDigit(1)));
        assert_eq!(decode(b"1_0"), Err(Base36Error::InvalidDigit(1)));
        assert_eq!(decode("1\u{e9}".as_bytes()), Err(Base36Error::InvalidDigit(1)));
        assert_eq!(decode(b"zzzzzzzzzzzzzzzzzzzz!"), Err(Base36Error::InvalidDigit(20)));
    }
}
