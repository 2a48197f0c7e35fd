//! The one adapter shape of the epoch + ticker formats (nanoflake,
//! caloriosa, uid60; `chronoid_formats::counter_id`): an 8-byte int8 datum whose
//! comparison, hashing and sort support are PostgreSQL's own int8 functions
//! (declared in each type's `sql/<type>.sql`), and SQL functions that receive, cast, generate,
//! read the time of and bound IDs. Each type says what differs
//! (`CounterIdSqlType`) and names its SQL functions in one `counter_id_functions!`.
//!
//! Type adapters: may import `src/node/`, `src/durable/`, `src/pg/` and the files of
//! `src/types/` it names, never `src/generators.rs`.

use pgrx::datum::{Internal, TimestampWithTimeZone};
use pgrx::PgSqlErrorCode;

use chronoid_formats::counter_id::{CounterId, GenerateError, MAX_CLOCK_WAIT_MS};

use chronoid_formats::generator_stats::Observed;
use chronoid_formats::high_water::Covered;
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::PgLogLevel;

use crate::durable::generator::Generator;
use crate::durable::{minted, reservation};
use crate::pg::clock::BackendClock;
use crate::pg::error::{error, error_with_hint};
use crate::pg::guards::{
    refuse_during_recovery, refuse_in_read_only_transaction, require_preloaded,
};
use crate::pg::time::{timestamp_out_of_range, timestamptz_unix_ms, unix_ms_timestamptz};

/// What differs between the epoch + ticker types in SQL.
pub trait CounterIdSqlType: CounterId + 'static {
    /// The SQL type name, for messages.
    const NAME: &'static str;

    /// The ticker in shared memory that the server's generators share.
    fn ticker() -> &'static Self::Ticker;
    /// Whose durable high-water mark covers that ticker's pairs.
    const GENERATOR: Generator;
    /// The epoch the session reads and makes IDs under.
    fn epoch_unix_ms() -> i64;
    /// The third field of a new ID from the node id in effect (`None`:
    /// this server has none): the node id, random bits, or both
    /// (`chronoid_formats::node_id`). Raises the ERROR for a node id the
    /// format cannot carry.
    fn node_or_random(node: Option<u16>, function: &str) -> u16;
    /// The node id IDs made under `node` carry (`None`: random bits).
    fn carried_node(node: Option<u16>) -> Option<u16> {
        node
    }
    /// `node_or_random`'s value where it needs no random bits and can
    /// raise nothing (`None`: the guarded path makes it): the unguarded
    /// common case of the generator (`generate_unguarded`).
    fn node_bits_unguarded(_node: Option<u16>) -> Option<u16> {
        None
    }
    /// The 64 bits of an ID, as the int8 datum carries them.
    fn to_bits(self) -> i64;
    fn unix_ms(self, epoch_unix_ms: i64) -> i64;

    /// The value with these 64 bits, if it is one.
    fn from_bits(bits: i64) -> Option<Self>;
    /// Why a binary value is none (22P03's message).
    fn recv_rejects(bits: i64) -> String;
    /// Why a bigint is none (22003's message).
    fn bigint_rejects(value: i64) -> String;
    /// The span of timestamps the type holds under an epoch, for messages.
    fn time_range(epoch_unix_ms: i64) -> String;

    /// Raises the ERROR for a generator that made no ID.
    fn generate_failed(err: GenerateError) -> ! {
        match err {
            GenerateError::ClockBehind(behind) => clock_behind(
                Self::NAME,
                behind,
                MAX_CLOCK_WAIT_MS,
                Self::GENERATOR.durable_mark(),
            ),
            GenerateError::Abandoned => abandoned(Self::NAME),
            GenerateError::PastTickerRange {
                unix_ms,
                last_unix_ms,
            } => past_ticker_range(Self::NAME, unix_ms, last_unix_ms),
            _ => error(
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                format!(
                    "the system clock is outside the {} range ({})",
                    Self::NAME,
                    Self::time_range(Self::epoch_unix_ms())
                ),
            ),
        }
    }
}

/// The epoch each server-wide generator makes IDs under, in the order of
/// `Generator::ALL`, for the durable marks (`_PG_init`).
pub fn server_epochs() -> [i64; 3] {
    use chronoid_formats::{caloriosa::Caloriosa, nanoflake::Nanoflake, uid60::Uid60};
    let epochs = [
        (Nanoflake::GENERATOR, Nanoflake::epoch_unix_ms()),
        (Caloriosa::GENERATOR, Caloriosa::epoch_unix_ms()),
        (Uid60::GENERATOR, Uid60::epoch_unix_ms()),
    ];
    let mut out = [0; 3];
    for (g, epoch) in epochs {
        out[g as usize] = epoch;
    }
    out
}

pub fn recv<T: CounterIdSqlType>(buf: Internal) -> T {
    let bits = crate::pg::ffi::recv_i64(buf);
    T::from_bits(bits).unwrap_or_else(|| {
        error(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            T::recv_rejects(bits),
        )
    })
}

pub fn from_bigint<T: CounterIdSqlType>(value: i64) -> T {
    T::from_bits(value).unwrap_or_else(|| {
        error(
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            T::bigint_rejects(value),
        )
    })
}

/// A clock for the unguarded path: PostgreSQL's reading of the wall clock
/// about once a millisecond (`now_ms_spanned`), and a wait for the next millisecond that only spins; any longer wait (a
/// clock behind) gives up at once, by making the monotonic clock read past
/// every bound, so that the guarded path waits instead (checking for
/// cancels, which may raise).
struct UnguardedClock {
    gave_up: bool,
}

impl chronoid_formats::clock::Clock for UnguardedClock {
    #[inline(always)]
    fn now_ms(&mut self) -> u64 {
        crate::pg::clock::now_ms_spanned()
    }
    fn monotonic_ms(&mut self) -> u64 {
        if self.gave_up {
            u64::MAX / 4
        } else {
            chronoid_formats::clock::Clock::monotonic_ms(&mut BackendClock)
        }
    }
    fn wait(&mut self, now_ms: u64, until_ms: u64) {
        if until_ms.saturating_sub(now_ms) <= 1 {
            for _ in 0..64 {
                std::hint::spin_loop();
            }
        } else {
            self.gave_up = true;
        }
    }
}

/// The common case of a counter generator, run without pgrx's guard (see
/// `counter_id_functions!` and `fmgr::unguarded_generator!`): the server
/// preloads chronoid and is a primary in a read-write transaction, the
/// peer worker's verdict lets it mint with the node id in effect, and the
/// ticker's next pair lies under the durable mark with the clock not behind.
/// Nothing here raises an ERROR, panics or holds a value with a destructor:
/// it reads shared memory and the clock, and takes one pair with a
/// compare-and-swap. `None`: not that case; `generate`, under the guard,
/// does everything again (no pair was taken, or one is left as a gap).
#[inline(always)]
pub fn generate_unguarded<T: CounterIdSqlType>() -> Option<i64> {
    if !crate::pg::guards::may_write_unguarded() {
        return None;
    }
    let node = crate::node::identity::node_unguarded()?;
    if !crate::node::verdict::mints_unguarded(node) {
        return None;
    }
    let bits = T::node_bits_unguarded(node)?;
    if !minted::ready() {
        return None;
    }
    let covered = Covered {
        ticker: T::ticker(),
        mark: T::GENERATOR.mark(),
        // A pair the mark does not cover waits for a reservation: the
        // guarded path's.
        reserve: |_| false,
        nudge: |_| reservation::nudge(),
    };
    let mut clock = Observed::new(UnguardedClock { gave_up: false });
    let id = T::generate(&covered, &mut clock, T::epoch_unix_ms(), bits).ok()?;
    T::GENERATOR.stats().record(&clock, Ok(()));
    minted::count_minted(T::GENERATOR);
    Some(id.to_bits())
}

pub fn generate<T: CounterIdSqlType>(function: &str) -> T {
    require_preloaded(function);
    refuse_during_recovery(function);
    refuse_in_read_only_transaction(function);
    // The operators' moves this call has seen: a pair it waits for is
    // given up if the generator is moved meanwhile, and the next pair it
    // takes is from the moved ticker.
    let moves_seen = std::cell::Cell::new(T::GENERATOR.moves());
    let covered = Covered {
        ticker: T::ticker(),
        mark: T::GENERATOR.mark(),
        reserve: |unix_ms| {
            let granted = reservation::wait_for_reservation(
                T::GENERATOR,
                unix_ms,
                function,
                moves_seen.get(),
            );
            moves_seen.set(T::GENERATOR.moves());
            granted
        },
        nudge: |_| reservation::nudge(),
    };
    let epoch = T::epoch_unix_ms();
    let mut clock = Observed::new(BackendClock);
    let node = crate::node::identity::node_in_effect(function);
    let node = crate::node::callers::require_mint(
        function,
        node.id,
        crate::node::identity::node_unguarded,
    );
    let result = T::generate(
        &covered,
        &mut clock,
        epoch,
        T::node_or_random(node, function),
    );
    let stats = T::GENERATOR.stats();
    match result {
        Ok(id) => {
            stats.record(&clock, Ok(()));
            minted::count_minted(T::GENERATOR);
            id
        }
        Err(e) => {
            if let GenerateError::ClockBehind(behind) = e {
                stats.record(&clock, Err(behind));
            }
            T::generate_failed(e)
        }
    }
}

/// The clock reads past the last millisecond the server-wide tickers count,
/// though the type's field would hold it (a late epoch).
pub fn past_ticker_range(type_name: &str, unix_ms: u64, last_unix_ms: u64) -> ! {
    error_with_hint(
        PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
        format!(
            "the system clock ({}) is past {}, the last millisecond chronoid's server-wide generators count",
            chronoid_formats::time::format_utc_instant(unix_ms as i64),
            chronoid_formats::time::format_utc_instant(last_unix_ms as i64)
        ),
        &format!(
            "gen_{type_name}() counts time in 43 bits of unix milliseconds, whatever the epoch; set the system clock right."
        ),
    )
}

/// An operator kept moving the generator while this call waited for its
/// pair to be reserved.
pub fn abandoned(type_name: &str) -> ! {
    error_with_hint(
        PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        format!("the {type_name} generator was moved again and again while this call waited"),
        "chronoid_set_high_water_mark() moved it meanwhile; call again.",
    )
}

/// A generator gave up on a clock that stayed behind its last ID.
pub fn clock_behind(
    type_name: &str,
    behind: chronoid_formats::ticker::ClockBehind,
    max_wait_ms: u64,
    mark_ms: u64,
) -> ! {
    let message = format!(
        "system clock is {} ms behind the last {type_name} issued on this server; gave up after waiting up to {max_wait_ms} ms",
        behind.needed_ms.saturating_sub(behind.clock_ms),
    );
    // Behind the mark itself (rather than behind IDs of this run): this
    // server, or the primary it replaced, may have issued IDs up to it.
    let detail = if mark_ms > 0
        && behind.needed_ms + chronoid_formats::high_water::RESERVATION_WINDOW_MS > mark_ms
    {
        format!(
            "The durable high-water mark of {type_name} is {} ({mark_ms} ms): IDs up to it may have been issued before a restart or by a former primary. Generation resumes above it once the clock passes it.",
            chronoid_formats::time::format_utc_instant(mark_ms as i64)
        )
    } else {
        format!("The clock was stepped back; generation resumes once it passes the last {type_name} issued.")
    };
    ErrorReport::new(
        PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
        message,
        "chronoid",
    )
    .set_detail(detail)
    .report(PgLogLevel::ERROR);
    unreachable!("ERROR does not return")
}

pub fn timestamp<T: CounterIdSqlType>(id: T, epoch_unix_ms: i64) -> TimestampWithTimeZone {
    unix_ms_timestamptz(id.unix_ms(epoch_unix_ms))
}

/// The first and last IDs of the millisecond `ts` falls in, under an epoch.
pub fn bounds<T: CounterIdSqlType>(ts: TimestampWithTimeZone, epoch_unix_ms: i64) -> (T, T) {
    let ms = timestamptz_unix_ms(ts, T::NAME);
    T::bounds_of_unix_ms(ms, epoch_unix_ms)
        .unwrap_or_else(|| timestamp_out_of_range(T::NAME, ts, &T::time_range(epoch_unix_ms)))
}

/// The SQL functions every epoch + ticker type has, under the names its SQL
/// declares (`<name>_wrapper` is the C symbol).
macro_rules! counter_id_functions {
    ($ty:ty {
        recv: $recv:ident,
        from_bigint: $from_bigint:ident,
        from_integer: $from_integer:ident,
        from_smallint: $from_smallint:ident,
        generate: $generate:ident,
        timestamp: $timestamp:ident,
        floor: $floor:ident,
        ceil: $ceil:ident $(,)?
    }) => {
        #[::pgrx::pg_extern(sql = false)]
        fn $recv(buf: ::pgrx::datum::Internal) -> $crate::pg::datum::SqlDatum<$ty> {
            $crate::pg::datum::SqlDatum($crate::types::counter_id::recv(buf))
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $from_bigint(value: i64) -> $crate::pg::datum::SqlDatum<$ty> {
            $crate::pg::datum::SqlDatum($crate::types::counter_id::from_bigint(value))
        }

        // From the narrower integers as from bigint, so that every 64-bit
        // type casts from every integer type alike.
        #[::pgrx::pg_extern(sql = false)]
        fn $from_integer(value: i32) -> $crate::pg::datum::SqlDatum<$ty> {
            $crate::pg::datum::SqlDatum($crate::types::counter_id::from_bigint(i64::from(value)))
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $from_smallint(value: i16) -> $crate::pg::datum::SqlDatum<$ty> {
            $crate::pg::datum::SqlDatum($crate::types::counter_id::from_bigint(i64::from(value)))
        }

        // The generator under the symbol its SQL declares: its common case
        // without pgrx's guard (`generate_unguarded`), which a DEFAULT runs
        // once per row and which costs less than the guard; everything
        // else under it.
        const _: () = {
            use ::pgrx::pg_sys::{Datum, FunctionCallInfo};
            use $crate::types::counter_id::CounterIdSqlType;

            $crate::pg::fmgr::finfo!(stringify!($generate), "_wrapper");

            #[unsafe(export_name = concat!(stringify!($generate), "_wrapper"))]
            unsafe extern "C-unwind" fn generate(_fcinfo: FunctionCallInfo) -> Datum {
                let bits = match $crate::types::counter_id::generate_unguarded::<$ty>() {
                    Some(bits) => bits,
                    // SAFETY: the guard turns a Rust panic or a PostgreSQL
                    // ERROR inside into an ERROR raised after it.
                    None => unsafe {
                        ::pgrx::pg_sys::panic::pgrx_extern_c_guard(|| {
                            $crate::types::counter_id::generate::<$ty>(concat!(
                                stringify!($generate),
                                "()"
                            ))
                            .to_bits()
                        })
                    },
                };
                Datum::from(bits)
            }
        };

        #[::pgrx::pg_extern(sql = false)]
        fn $timestamp(
            id: $crate::pg::datum::SqlDatum<$ty>,
        ) -> ::pgrx::datum::TimestampWithTimeZone {
            use $crate::types::counter_id::CounterIdSqlType;
            $crate::types::counter_id::timestamp(id.0, <$ty>::epoch_unix_ms())
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $floor(ts: ::pgrx::datum::TimestampWithTimeZone) -> $crate::pg::datum::SqlDatum<$ty> {
            use $crate::types::counter_id::CounterIdSqlType;
            $crate::pg::datum::SqlDatum(
                $crate::types::counter_id::bounds::<$ty>(ts, <$ty>::epoch_unix_ms()).0,
            )
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $ceil(ts: ::pgrx::datum::TimestampWithTimeZone) -> $crate::pg::datum::SqlDatum<$ty> {
            use $crate::types::counter_id::CounterIdSqlType;
            $crate::pg::datum::SqlDatum(
                $crate::types::counter_id::bounds::<$ty>(ts, <$ty>::epoch_unix_ms()).1,
            )
        }
    };
}
pub(crate) use counter_id_functions;
