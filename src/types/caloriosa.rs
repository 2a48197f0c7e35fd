//! SQL functions of the `caloriosa` type (declared, with its operators and
//! operator classes, in `sql/caloriosa.sql`). The shared
//! shape of the epoch + ticker types is in `src/types/counter_id.rs`; here is what only
//! caloriosa has: base-62 text that must carry the prefix bit, and the
//! unsigned number as numeric.
//!
//! Type adapters: may import `src/durable/`, `src/pg/` and the files of
//! `src/types/` it names, never `src/generators.rs`.

use pgrx::datum::AnyNumeric;
use pgrx::prelude::*;

use super::counter_id::{counter_id_functions, CounterIdSqlType};
use crate::durable::generator::CALORIOSA_TICKER;
use crate::pg::datum::SqlDatum;
use crate::pg::input_error::InputError;
use chronoid_formats::caloriosa::{Caloriosa, CaloriosaTicker, ParseError, EPOCH_UNIX_MS};

crate::pg::datum::by_value_8_byte_type!(
    Caloriosa, "caloriosa",
    to_bits: Caloriosa::to_i64,
    from_bits: Caloriosa::from_stored
);

impl CounterIdSqlType for Caloriosa {
    const NAME: &'static str = "caloriosa";

    fn ticker() -> &'static CaloriosaTicker {
        CALORIOSA_TICKER.get()
    }
    const GENERATOR: crate::durable::generator::Generator =
        crate::durable::generator::Generator::Caloriosa;
    fn epoch_unix_ms() -> i64 {
        EPOCH_UNIX_MS
    }
    fn node_or_random(node: Option<u16>, _function: &str) -> u16 {
        chronoid_formats::node_id::caloriosa_salt(node, crate::pg::random::random_u16())
    }
    fn unix_ms(self, _epoch: i64) -> i64 {
        Caloriosa::unix_ms(self)
    }
    fn to_bits(self) -> i64 {
        Caloriosa::to_i64(self)
    }
    fn from_bits(bits: i64) -> Option<Self> {
        Caloriosa::from_u64(bits as u64)
    }
    fn recv_rejects(bits: i64) -> String {
        format!("invalid external caloriosa value: the prefix bit is not set ({bits})")
    }
    fn bigint_rejects(value: i64) -> String {
        format!(
            "value {value} is out of range for type caloriosa: as a bigint every caloriosa is \
             negative (its prefix bit is the sign bit)"
        )
    }
    fn time_range(_epoch: i64) -> String {
        "2017-01-01 .. 2086-09-07".into()
    }
}

counter_id_functions!(Caloriosa {
    recv: caloriosa_recv,
    from_bigint: caloriosa_from_bigint,
    from_integer: caloriosa_from_integer,
    from_smallint: caloriosa_from_smallint,
    generate: gen_caloriosa,
    timestamp: caloriosa_timestamp,
    floor: caloriosa_floor,
    ceil: caloriosa_ceil,
});

// Text input and output, run once per value by COPY: without pgrx's guard
// (see fmgr::unguarded_text_io!), only a rejected input raises an ERROR.
crate::pg::fmgr::unguarded_text_io!(
    input "caloriosa_in_wrapper": parse_text, reject_text;
    output "caloriosa_out_wrapper": i64, print_text
);

fn parse_text(text: &[u8]) -> Result<i64, ParseError> {
    Caloriosa::parse(text).map(Caloriosa::to_i64)
}

fn reject_text(text: &[u8], e: ParseError) -> InputError {
    match e {
        ParseError::Syntax if Caloriosa::parse_core_name(text).is_ok() => {
            InputError::invalid_text(Caloriosa::NAME, text).with_hint(
                "It is a name in the spelling of Caloriosa's own code (alphabet 0-9A-Za-z): read \
                 it with caloriosa_from_core_name()."
                    .into(),
            )
        }
        ParseError::Syntax => InputError::invalid_text(Caloriosa::NAME, text),
        ParseError::NoPrefix { value } => InputError::invalid_text(Caloriosa::NAME, text)
            .with_hint(format!(
                "It is base 62 for {value}, which lacks the prefix bit (2^63) of the 11-character \
             layout; the seed's example \"katjjMQN\" is in the old 48-bit layout, which this \
             type does not store."
            )),
    }
}

fn print_text(stored: i64, out: &mut [u8; crate::pg::fmgr::MAX_TEXT]) -> usize {
    let text = Caloriosa::from_stored(stored).encode();
    out[..text.len()].copy_from_slice(&text);
    text.len()
}

/// The unsigned 64-bit number the seed calls the snowflake.
#[pg_extern(sql = false)]
fn caloriosa_to_numeric(name: SqlDatum<Caloriosa>) -> AnyNumeric {
    AnyNumeric::from(name.to_u64())
}

#[pg_extern(sql = false)]
fn caloriosa_random(name: SqlDatum<Caloriosa>) -> i32 {
    i32::from(name.random())
}

#[pg_extern(sql = false)]
fn caloriosa_increment(name: SqlDatum<Caloriosa>) -> i32 {
    i32::from(name.increment())
}

/// A name as Caloriosa's own code (`Caloriosa/core`) writes it: the same
/// digits in the alphabet `0-9A-Za-z`, the case-swap of the type's text.
#[pg_extern(sql = false)]
fn caloriosa_to_core_name(name: SqlDatum<Caloriosa>) -> String {
    String::from_utf8(name.encode_core_name().to_vec()).expect("ASCII")
}

#[pg_extern(sql = false)]
fn caloriosa_from_core_name(text: &str) -> SqlDatum<Caloriosa> {
    Caloriosa::parse_core_name(text.as_bytes())
        .map(SqlDatum)
        .unwrap_or_else(|e| {
            let error = InputError::invalid_text(Caloriosa::NAME, text.as_bytes());
            let hint = match e {
                _ if Caloriosa::parse(text.as_bytes()).is_ok() => {
                    "It is in this type's own spelling (alphabet 0-9a-zA-Z): cast it with \
                     ::caloriosa."
                        .to_string()
                }
                ParseError::NoPrefix { value } => format!(
                    "It is base 62 (alphabet 0-9A-Za-z) for {value}, which lacks the prefix bit \
                     (2^63) of the 11-character layout."
                ),
                ParseError::Syntax => "caloriosa_from_core_name() reads the 11 characters of \
                     alphabet 0-9A-Za-z that Caloriosa's own code writes."
                    .to_string(),
            };
            error.with_hint(hint).raise()
        })
}
