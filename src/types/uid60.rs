//! SQL functions of the `uid60` type (declared, with its operators and
//! operator classes, in `sql/uid60.sql`). The shared shape
//! of the epoch + ticker types is in `src/types/counter_id.rs`; here is what only uid60
//! has: its rotated base-64 text and its field accessors.
//!
//! Type adapters: may import `src/durable/`, `src/pg/` and the files of
//! `src/types/` it names, never `src/generators.rs`.

use pgrx::prelude::*;

use super::counter_id::{counter_id_functions, CounterIdSqlType};
use crate::durable::generator::UID60_TICKER;
use crate::pg::datum::SqlDatum;
use crate::pg::input_error::InputError;
use chronoid_formats::uid60::{Uid60, Uid60Ticker, EPOCH_UNIX_MS};

crate::pg::datum::by_value_8_byte_type!(
    Uid60, "uid60",
    to_bits: Uid60::to_i64,
    from_bits: Uid60::from_stored
);

impl CounterIdSqlType for Uid60 {
    const NAME: &'static str = "uid60";

    fn ticker() -> &'static Uid60Ticker {
        UID60_TICKER.get()
    }
    const GENERATOR: crate::durable::generator::Generator =
        crate::durable::generator::Generator::Uid60;
    fn epoch_unix_ms() -> i64 {
        EPOCH_UNIX_MS
    }
    fn node_or_random(node: Option<u16>, function: &str) -> u16 {
        use chronoid_formats::node_id::{uid60_free_bits, Uid60NodeTooLarge, MAX_UID60_NODE_ID};
        uid60_free_bits(node, crate::pg::random::random_u16()).unwrap_or_else(|Uid60NodeTooLarge(id)| {
            crate::pg::error::error_with_hint(
                pgrx::PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!("{function} carries this server's node id in the 9 bits uid60 leaves free: node id {id} does not fit (0 .. {MAX_UID60_NODE_ID})"),
                "Give this server a node id of at most 511 (chronoid.node_id, or chronoid.node_id_base for a Citus formation).",
            )
        })
    }
    fn unix_ms(self, _epoch: i64) -> i64 {
        Uid60::unix_ms(self)
    }
    fn to_bits(self) -> i64 {
        Uid60::to_i64(self)
    }
    fn from_bits(bits: i64) -> Option<Self> {
        u64::try_from(bits).ok().and_then(Uid60::from_u64)
    }
    fn recv_rejects(bits: i64) -> String {
        format!("invalid external uid60 value: {bits} is not in 0 .. 2^60-1")
    }
    fn bigint_rejects(value: i64) -> String {
        format!("value {value} is out of range for type uid60 (0 .. 2^60-1)")
    }
    fn time_range(_epoch: i64) -> String {
        "2018-03-01 .. 2157-07-13".into()
    }
}

counter_id_functions!(Uid60 {
    recv: uid60_recv,
    from_bigint: uid60_from_bigint,
    from_integer: uid60_from_integer,
    from_smallint: uid60_from_smallint,
    generate: gen_uid60,
    timestamp: uid60_timestamp,
    floor: uid60_floor,
    ceil: uid60_ceil,
});

// Text input and output, run once per value by COPY: without pgrx's guard
// (see fmgr::unguarded_text_io!), only a rejected input raises an ERROR.
crate::pg::fmgr::unguarded_text_io!(
    input "uid60_in_wrapper": parse_text, reject_text;
    output "uid60_out_wrapper": i64, print_text
);

fn parse_text(text: &[u8]) -> Result<i64, ()> {
    Uid60::parse(text).map(Uid60::to_i64).map_err(|_| ())
}

fn reject_text(text: &[u8], _: ()) -> InputError {
    InputError::invalid_text(Uid60::NAME, text)
}

fn print_text(stored: i64, out: &mut [u8; crate::pg::fmgr::MAX_TEXT]) -> usize {
    let (text, len) = Uid60::from_stored(stored).encode();
    out[..len].copy_from_slice(&text[..len]);
    len
}

#[pg_extern(sql = false)]
fn uid60_sequence(id: SqlDatum<Uid60>) -> i32 {
    i32::from(id.sequence())
}

#[pg_extern(sql = false)]
fn uid60_random(id: SqlDatum<Uid60>) -> i32 {
    i32::from(id.random())
}
