//! The one adapter shape of the epoch + ticker formats (nanoflake,
//! caloriosa, uid60; `chronoid_formats::counter_id`): an 8-byte int8 datum whose
//! comparison, hashing and sort support are PostgreSQL's own int8 functions
//! (declared in each type's `sql/<type>.sql`), and SQL functions that receive, cast, generate,
//! read the time of and bound IDs. Each type says what differs
//! (`CounterIdSqlType`) and names its SQL functions in one `counter_id_functions!`.

use pgrx::datum::{Internal, TimestampWithTimeZone};
use pgrx::{pg_sys, PgSqlErrorCode};

use chronoid_formats::counter_id::{CounterId, GenerateError, MAX_CLOCK_WAIT_MS};

use super::high_water::Generator;
use super::reserver;
use super::{error, shmem, BackendClock, BackendLocal};
use chronoid_formats::generator_stats::Observed;
use chronoid_formats::high_water::Covered;

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
    /// The third field of a new ID: the node id, or random bits.
    fn node_or_random() -> u16;
    /// The node id new IDs carry, for formats that carry one.
    fn node_id() -> Option<u16> {
        None
    }
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
            GenerateError::ClockBehind(behind) => super::clock_behind(
                Self::NAME,
                behind,
                MAX_CLOCK_WAIT_MS,
                Self::GENERATOR.mark().get(),
            ),
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

pub fn recv<T: CounterIdSqlType>(buf: Internal) -> T {
    let bits = super::ffi::recv_i64(buf);
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

pub fn generate<T: CounterIdSqlType>(function: &str) -> T {
    shmem::require_preloaded(function);
    refuse_during_recovery(function);
    refuse_in_read_only_transaction(function);
    let covered = Covered {
        ticker: T::ticker(),
        mark: T::GENERATOR.mark(),
        reserve: |unix_ms| reserver::wait_for_reservation(T::GENERATOR, unix_ms, function),
        nudge: |_| reserver::nudge(),
    };
    let epoch = T::epoch_unix_ms();
    let mut clock = Observed::new(BackendClock);
    let result = T::generate(&covered, &mut clock, epoch, T::node_or_random());
    let stats = T::GENERATOR.stats();
    match result {
        Ok(id) => {
            stats.record(&clock, Ok(()));
            super::generators::count_minted(T::GENERATOR);
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

/// A read-only transaction writes nothing, and an ID from a counter
/// generator may need a reservation (WAL): refused as `nextval()` is, which
/// also keeps a primary fenced with `default_transaction_read_only` from
/// minting. `gen_scru160()` needs no mark and keeps working.
pub fn refuse_in_read_only_transaction(function: &str) {
    // SAFETY: a process-local flag PostgreSQL sets per transaction.
    if unsafe { pg_sys::XactReadOnly } {
        error(
            PgSqlErrorCode::ERRCODE_READ_ONLY_SQL_TRANSACTION,
            format!("cannot execute {function} in a read-only transaction"),
        );
    }
}

/// A standby shares its primary's node id and replays, rather than makes,
/// high-water marks: an ID minted there could equal one the primary mints.
/// Refused as `nextval()` is during recovery.
pub fn refuse_during_recovery(function: &str) {
    // Recovery never starts again in a process that saw it end: once it has,
    // the value exists and the check is one load.
    static RECOVERY_ENDED: BackendLocal<()> = BackendLocal::new();
    if RECOVERY_ENDED.try_with(|_| ()).is_some() {
        return;
    }
    // SAFETY: reads process-local and shared recovery state; cannot raise.
    if !unsafe { super::ffi::recovery_in_progress_unguarded() } {
        RECOVERY_ENDED.with(|| (), |_| ());
    } else {
        super::error_with_hint(
            PgSqlErrorCode::ERRCODE_READ_ONLY_SQL_TRANSACTION,
            format!("cannot execute {function} during recovery"),
            "Generate on the primary; a promoted standby generates above every high-water mark it replayed.",
        );
    }
}

pub fn timestamp<T: CounterIdSqlType>(id: T, epoch_unix_ms: i64) -> TimestampWithTimeZone {
    super::unix_ms_timestamptz(id.unix_ms(epoch_unix_ms))
}

/// The first and last IDs of the millisecond `ts` falls in, under an epoch.
pub fn bounds<T: CounterIdSqlType>(ts: TimestampWithTimeZone, epoch_unix_ms: i64) -> (T, T) {
    let ms = super::timestamptz_unix_ms(ts, T::NAME);
    T::bounds_of_unix_ms(ms, epoch_unix_ms).unwrap_or_else(|| {
        super::timestamp_out_of_range(T::NAME, ts, &T::time_range(epoch_unix_ms))
    })
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
        fn $recv(buf: ::pgrx::datum::Internal) -> $crate::pg::SqlDatum<$ty> {
            $crate::pg::SqlDatum($crate::pg::counter_id::recv(buf))
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $from_bigint(value: i64) -> $crate::pg::SqlDatum<$ty> {
            $crate::pg::SqlDatum($crate::pg::counter_id::from_bigint(value))
        }

        // From the narrower integers as from bigint, so that every 64-bit
        // type casts from every integer type alike.
        #[::pgrx::pg_extern(sql = false)]
        fn $from_integer(value: i32) -> $crate::pg::SqlDatum<$ty> {
            $crate::pg::SqlDatum($crate::pg::counter_id::from_bigint(i64::from(value)))
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $from_smallint(value: i16) -> $crate::pg::SqlDatum<$ty> {
            $crate::pg::SqlDatum($crate::pg::counter_id::from_bigint(i64::from(value)))
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $generate() -> $crate::pg::SqlDatum<$ty> {
            $crate::pg::SqlDatum($crate::pg::counter_id::generate(concat!(
                stringify!($generate),
                "()"
            )))
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $timestamp(id: $crate::pg::SqlDatum<$ty>) -> ::pgrx::datum::TimestampWithTimeZone {
            use $crate::pg::counter_id::CounterIdSqlType;
            $crate::pg::counter_id::timestamp(id.0, <$ty>::epoch_unix_ms())
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $floor(ts: ::pgrx::datum::TimestampWithTimeZone) -> $crate::pg::SqlDatum<$ty> {
            use $crate::pg::counter_id::CounterIdSqlType;
            $crate::pg::SqlDatum(
                $crate::pg::counter_id::bounds::<$ty>(ts, <$ty>::epoch_unix_ms()).0,
            )
        }

        #[::pgrx::pg_extern(sql = false)]
        fn $ceil(ts: ::pgrx::datum::TimestampWithTimeZone) -> $crate::pg::SqlDatum<$ty> {
            use $crate::pg::counter_id::CounterIdSqlType;
            $crate::pg::SqlDatum(
                $crate::pg::counter_id::bounds::<$ty>(ts, <$ty>::epoch_unix_ms()).1,
            )
        }
    };
}
pub(crate) use counter_id_functions;
