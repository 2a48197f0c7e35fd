//! Instants as the formats count them (unix milliseconds) and as PostgreSQL
//! stores them (`timestamptz`: microseconds since 2000-01-01 UTC).

/// Milliseconds from 1970-01-01 to 2000-01-01, PostgreSQL's epoch.
pub const PG_EPOCH_UNIX_MS: i64 = 946_684_800_000;

/// The unix millisecond a `timestamptz` falls in (rounding towards minus
/// infinity, so an instant before 1970 stays in its own millisecond).
#[inline]
pub fn pg_usec_to_unix_ms(usec: i64) -> i64 {
    usec.div_euclid(1000) + PG_EPOCH_UNIX_MS
}

/// The `timestamptz` of the start of a unix millisecond, if it fits.
pub fn unix_ms_to_pg_usec(ms: i64) -> Option<i64> {
    ms.checked_sub(PG_EPOCH_UNIX_MS)?.checked_mul(1000)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`), exact for every `i32` year.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub const MICROS_PER_DAY: i128 = 86_400_000_000;

/// Calendar fields of a unix instant in microseconds, UTC.
pub fn civil_from_micros(unix_micros: i128) -> (i64, u32, u32, u32, u32, u32, u32) {
    // Every instant a context admits has a day number far inside i64; one
    // beyond is clamped to a year that fails the caller's context check.
    let days = unix_micros
        .div_euclid(MICROS_PER_DAY)
        .clamp(i128::from(i64::MIN / 2), i128::from(i64::MAX / 2)) as i64;
    let micros_of_day = unix_micros.rem_euclid(MICROS_PER_DAY) as i64;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    let secs = micros_of_day / 1_000_000;
    (
        year,
        month,
        day,
        (secs / 3600) as u32,
        (secs / 60 % 60) as u32,
        (secs % 60) as u32,
        (micros_of_day % 1_000_000) as u32,
    )
}

/// An instant as the configuration spells it, `YYYY-MM-DD HH:MM:SS+00`
/// (milliseconds dropped), which `parse_utc_instant` reads back.
pub fn format_utc_instant(unix_ms: i64) -> String {
    let (y, mo, d, h, mi, s, _) = civil_from_micros(i128::from(unix_ms) * 1000);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}+00")
}

pub fn is_leap_year(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Parses an ISO 8601 instant the way a configuration file spells one:
/// `YYYY-MM-DD`, then optionally ` HH:MM[:SS[.ffffff]]` (or `T`), then
/// optionally `Z`, `UTC`, `GMT`, `+HH`, `+HHMM` or `+HH:MM` (or `-`), with or
/// without a space before it (`2024-01-01 00:00:00 UTC`). Without an offset the
/// instant is UTC: a generator's epoch must not move with the TimeZone
/// setting of whoever reads it. Returns unix milliseconds, truncating
/// sub-millisecond digits.
pub fn parse_utc_instant(text: &str) -> Option<i64> {
    let s = text.trim().as_bytes();
    let mut p = Cursor { s, at: 0 };
    let year = p.digits(4, 4)?;
    p.expect(b'-')?;
    let month = p.digits(2, 2)?;
    p.expect(b'-')?;
    let day = p.digits(2, 2)?;
    let (mut hour, mut minute, mut second, mut micros) = (0, 0, 0, 0);
    let time_follows = s.get(p.at + 1).is_some_and(u8::is_ascii_digit);
    if (p.peek_is(b' ') && time_follows) || p.peek_is(b'T') || p.peek_is(b't') {
        p.at += 1;
        hour = p.digits(2, 2)?;
        p.expect(b':')?;
        minute = p.digits(2, 2)?;
        if p.peek_is(b':') {
            p.at += 1;
            second = p.digits(2, 2)?;
            if p.peek_is(b'.') {
                p.at += 1;
                let start = p.at;
                let frac = p.digits(1, 6)?;
                let scale = 10i64.pow(6 - (p.at - start) as u32);
                micros = frac * scale;
            }
        }
    }
    let mut offset_min: i64 = 0;
    if p.peek_is(b' ') && p.at + 1 < s.len() {
        p.at += 1;
    }
    let rest = &s[p.at..];
    if rest.eq_ignore_ascii_case(b"utc") || rest.eq_ignore_ascii_case(b"gmt") {
        p.at = s.len();
    }
    match p.next() {
        None => {}
        Some(b'Z' | b'z') => {}
        Some(sign @ (b'+' | b'-')) => {
            let oh = p.digits(2, 2)?;
            let mut om = 0;
            if p.peek_is(b':') {
                p.at += 1;
                om = p.digits(2, 2)?;
            } else if p.at < s.len() {
                om = p.digits(2, 2)?;
            }
            if oh > 15 || om > 59 {
                return None;
            }
            offset_min = (oh * 60 + om) * if sign == b'-' { -1 } else { 1 };
        }
        Some(_) => return None,
    }
    if p.at != s.len() {
        return None;
    }
    let (month32, day32) = (u32::try_from(month).ok()?, u32::try_from(day).ok()?);
    if !(1..=12).contains(&month32) || day32 < 1 || day32 > days_in_month(year, month32) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let days = days_from_civil(year, month32, day32);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_min * 60;
    Some(seconds * 1000 + micros / 1000)
}

struct Cursor<'a> {
    s: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek_is(&self, byte: u8) -> bool {
        self.s.get(self.at) == Some(&byte)
    }
    fn next(&mut self) -> Option<u8> {
        let b = *self.s.get(self.at)?;
        self.at += 1;
        Some(b)
    }
    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.next()? == byte).then_some(())
    }
    fn digits(&mut self, min: usize, max: usize) -> Option<i64> {
        let start = self.at;
        let mut value = 0i64;
        while self.at < self.s.len() && self.at - start < max && self.s[self.at].is_ascii_digit() {
            value = value * 10 + i64::from(self.s[self.at] - b'0');
            self.at += 1;
        }
        (self.at - start >= min).then_some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pg_epoch_conversions() {
        assert_eq!(pg_usec_to_unix_ms(0), PG_EPOCH_UNIX_MS);
        assert_eq!(pg_usec_to_unix_ms(-1), PG_EPOCH_UNIX_MS - 1);
        assert_eq!(pg_usec_to_unix_ms(999), PG_EPOCH_UNIX_MS);
        assert_eq!(unix_ms_to_pg_usec(PG_EPOCH_UNIX_MS + 2), Some(2000));
        assert_eq!(unix_ms_to_pg_usec(i64::MAX), None);
    }

    #[test]
    fn civil_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(days_in_month(2000, 2), 29);
        assert_eq!(days_in_month(1900, 2), 28);
        assert_eq!(days_in_month(2024, 2), 29);
    }

    #[test]
    fn parses_config_instants() {
        let e2020 = 1_577_836_800_000;
        assert_eq!(parse_utc_instant("2020-01-01"), Some(e2020));
        assert_eq!(parse_utc_instant("2020-01-01 00:00:00+00"), Some(e2020));
        assert_eq!(format_utc_instant(e2020), "2020-01-01 00:00:00+00");
        assert_eq!(
            parse_utc_instant(&format_utc_instant(1_234_567_890_000)),
            Some(1_234_567_890_000)
        );
        assert_eq!(parse_utc_instant("2020-01-01T00:00:00Z"), Some(e2020));
        assert_eq!(parse_utc_instant("2020-01-01 01:00+01:00"), Some(e2020));
        assert_eq!(parse_utc_instant("2019-12-31 19:00:00-0500"), Some(e2020));
        assert_eq!(
            parse_utc_instant("2020-01-01 00:00:00.123456"),
            Some(e2020 + 123)
        );
        assert_eq!(
            parse_utc_instant("2020-01-01 00:00:00.5"),
            Some(e2020 + 500)
        );
        assert_eq!(parse_utc_instant("1970-01-01"), Some(0));
        // The spellings users type, all the same instant.
        for text in [
            "2020-01-01 00:00:00 UTC",
            "2020-01-01 00:00:00 utc",
            "2020-01-01 00:00:00 GMT",
            "2020-01-01 00:00:00UTC",
            "2020-01-01 UTC",
            "2020-01-01 00:00:00 +00",
            "2020-01-01 00:00:00 +00:00",
            "2020-01-01T00:00:00.000Z",
            "2020-01-01T01:00:00+01",
        ] {
            assert_eq!(parse_utc_instant(text), Some(e2020), "{text:?}");
        }
        for bad in [
            "",
            "2020",
            "2020-1-1",
            "2020-02-30",
            "2020-13-01",
            "2020-01-01 24:00",
            "2020-01-01 00:00:00+",
            "2020-01-01x",
            "2020-01-01 00:00:00.",
            "now",
            "2020-01-01 00:00:00+16",
            "2020-01-01 00:00:00.1234567",
            "2020-01-01 00:00:00 CET",
            "2020-01-01 00:00:00 UTC+1",
            "2020-01-01 00:00:00  UTC",
        ] {
            assert_eq!(parse_utc_instant(bad), None, "{bad:?}");
        }
    }
}
