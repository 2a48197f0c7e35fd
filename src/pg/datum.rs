//! The SQL face of the formats crate (`chronoid_formats`): one thin adapter
//! per type, plus what they share: datum plumbing and error reports (here),
//! the epoch + ticker adapter (`counter_id`), C declarations (`ffi`), fast fmgr
//! functions (`fmgr`), setting helpers (`guc`), shared memory and the RNG.

pub mod caloriosa;
pub mod codokey;
pub mod counter_id;
pub mod ffi;
pub mod fmgr;
pub mod generators;
pub mod guc;
pub mod high_water;
pub mod input_error;
pub mod nanoflake;
pub mod random;
pub mod reserver;
pub mod scru160;
pub mod shmem;
pub mod uid60;

use pgrx::datum::TimestampWithTimeZone;
use pgrx::pg_sys;
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};

use chronoid_formats::clock::Clock;
use chronoid_formats::time::{pg_usec_to_unix_ms, unix_ms_to_pg_usec};

/// A formats-crate value as a SQL datum. The value types live in another
/// crate, so pgrx's datum traits are implemented for this wrapper (by the
/// macros below); it dereferences to the value.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
#[repr(transparent)]
pub struct SqlDatum<T>(pub T);

impl<T> std::ops::Deref for SqlDatum<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// How any of our value types crosses pgrx's call boundary, given its
/// `FromDatum` and `IntoDatum`.
macro_rules! datum_abi {
    ($ty:ty, $sql:literal) => {
        // SAFETY: the datum traits below read and write exactly the type's
        // representation, and SQL declares every function STRICT.
        unsafe impl<'fcx> ::pgrx::callconv::ArgAbi<'fcx> for $ty {
            unsafe fn unbox_arg_unchecked(arg: ::pgrx::callconv::Arg<'_, 'fcx>) -> Self {
                let index = arg.index();
                // SAFETY: pgrx calls this with an argument of our SQL type.
                unsafe { arg.unbox_arg_using_from_datum() }
                    .unwrap_or_else(|| panic!("argument {index} must not be null"))
            }
        }

        // SAFETY: returns the datum `IntoDatum` built for our SQL type.
        unsafe impl ::pgrx::callconv::BoxRet for $ty {
            unsafe fn box_into<'fcx>(
                self,
                fcinfo: &mut ::pgrx::callconv::FcInfo<'fcx>,
            ) -> ::pgrx::datum::Datum<'fcx> {
                let datum = ::pgrx::datum::IntoDatum::into_datum(self).expect("not null");
                // SAFETY: a datum of the function's declared return type.
                unsafe { fcinfo.return_raw_datum(datum) }
            }
        }

        ::pgrx::pgrx_sql_entity_graph::impl_sql_translatable!($ty, $sql);
    };
}
pub(crate) use datum_abi;

/// pgrx's `FromDatum` for `SqlDatum<$ty>`: NULL is `None`, any other datum
/// the value `$make` reads from it.
macro_rules! from_datum {
    ($ty:ty, |$datum:ident| $make:expr) => {
        impl ::pgrx::datum::FromDatum for $crate::pg::SqlDatum<$ty> {
            unsafe fn from_polymorphic_datum(
                $datum: ::pgrx::pg_sys::Datum,
                is_null: bool,
                _typoid: ::pgrx::pg_sys::Oid,
            ) -> Option<Self> {
                (!is_null).then(|| $crate::pg::SqlDatum($make))
            }
        }
    };
}
pub(crate) use from_datum;

/// The pgrx datum traits for a core value type that PostgreSQL stores as an
/// 8-byte pass-by-value datum (the SQL type is created by hand in `sql/`;
/// these impls only move the 64 bits in and out).
macro_rules! by_value_8_byte_type {
    ($ty:ty, $sql:literal, to_bits: $to:expr, from_bits: $from:expr) => {
        $crate::pg::from_datum!($ty, |datum| {
            let from: fn(i64) -> $ty = $from;
            from(datum.value() as i64)
        });

        impl ::pgrx::datum::IntoDatum for $crate::pg::SqlDatum<$ty> {
            fn into_datum(self) -> Option<::pgrx::pg_sys::Datum> {
                let to: fn($ty) -> i64 = $to;
                Some(::pgrx::pg_sys::Datum::from(to(self.0)))
            }
            fn type_oid() -> ::pgrx::pg_sys::Oid {
                ::pgrx::wrappers::regtypein($sql)
            }
        }

        $crate::pg::datum_abi!($crate::pg::SqlDatum<$ty>, $sql);
    };
}
pub(crate) use by_value_8_byte_type;

/// The same for a fixed-length type passed by reference (`scru160`): the
/// datum points to `$len` bytes, which a returned value gets in palloc'd memory.
macro_rules! by_reference_fixed_type {
    ($ty:ty, $sql:literal, $len:expr, to_bytes: $to:expr, from_bytes: $from:expr) => {
        $crate::pg::from_datum!($ty, |datum| {
            let from: fn([u8; $len]) -> $ty = $from;
            // SAFETY: a non-null datum of the type points to its $len bytes.
            from(*unsafe { $crate::pg::fmgr::fixed_bytes::<$len>(datum) })
        });

        impl ::pgrx::datum::IntoDatum for $crate::pg::SqlDatum<$ty> {
            fn into_datum(self) -> Option<::pgrx::pg_sys::Datum> {
                let to: fn(&$ty) -> &[u8; $len] = $to;
                // SAFETY: palloc returns $len writable bytes (or raises an
                // ERROR), which become the returned datum.
                unsafe {
                    let ptr = ::pgrx::pg_sys::palloc($len).cast::<[u8; $len]>();
                    ptr.write(*to(&self.0));
                    Some(::pgrx::pg_sys::Datum::from(ptr))
                }
            }
            fn type_oid() -> ::pgrx::pg_sys::Oid {
                ::pgrx::wrappers::regtypein($sql)
            }
        }

        $crate::pg::datum_abi!($crate::pg::SqlDatum<$ty>, $sql);
    };
}
pub(crate) use by_reference_fixed_type;

/// State private to one backend process: PostgreSQL backends are
/// single-threaded, so a static needs no lock, only a guard against
/// re-entrance: `with` hands its callback a `&mut`, and a second `with` on
/// the same static inside that callback would alias it. That is refused with
/// an ERROR (the flag is cleared again when the outer call ends, also by an
/// ERROR unwinding through it).
pub struct BackendLocal<T> {
    value: std::cell::UnsafeCell<Option<T>>,
    in_use: std::cell::Cell<bool>,
}

// SAFETY: only ever touched by a backend's one thread.
unsafe impl<T> Sync for BackendLocal<T> {}

impl<T> BackendLocal<T> {
    pub const fn new() -> Self {
        BackendLocal {
            value: std::cell::UnsafeCell::new(None),
            in_use: std::cell::Cell::new(false),
        }
    }

    /// `f` on the value if it exists and is not in use, else `None`: for
    /// fast paths that run without a pg_guard, so cannot raise an ERROR
    /// (nor hold anything with a destructor while PostgreSQL might longjmp).
    #[inline(always)]
    pub fn try_with<R>(&self, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        if self.in_use.get() {
            return None;
        }
        // SAFETY: single-threaded, not in use (checked above), and `f` runs
        // to completion before anything else can reach this value: it is
        // given no way to call back into PostgreSQL.
        let slot = unsafe { &mut *self.value.get() };
        slot.as_mut().map(f)
    }

    pub fn with<R>(&self, init: impl FnOnce() -> T, f: impl FnOnce(&mut T) -> R) -> R {
        struct Release<'a>(&'a std::cell::Cell<bool>);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                self.0.set(false);
            }
        }
        if self.in_use.replace(true) {
            error(
                PgSqlErrorCode::ERRCODE_INTERNAL_ERROR,
                "chronoid: backend-local state used re-entrantly".into(),
            );
        }
        let _release = Release(&self.in_use);
        // SAFETY: single-threaded, and the flag above makes this the only
        // live reference until `_release` drops.
        let slot = unsafe { &mut *self.value.get() };
        f(slot.get_or_insert_with(init))
    }
}

/// A NUL-terminated string in palloc'd memory, handed to PostgreSQL as the
/// `cstring` result of an output function without another copy.
pub struct PallocCString(std::ptr::NonNull<std::ffi::c_char>);

impl PallocCString {
    pub fn new(text: &[u8]) -> Self {
        debug_assert!(!text.contains(&0));
        // SAFETY: palloc returns len + 1 writable bytes (or raises an ERROR);
        // the text and its terminator fill them.
        unsafe {
            let ptr = pg_sys::palloc(text.len() + 1).cast::<u8>();
            ptr.copy_from_nonoverlapping(text.as_ptr(), text.len());
            *ptr.add(text.len()) = 0;
            PallocCString(std::ptr::NonNull::new_unchecked(ptr.cast()))
        }
    }
}

// SAFETY: a cstring datum is a pointer to a NUL-terminated palloc'd string.
unsafe impl pgrx::callconv::BoxRet for PallocCString {
    unsafe fn box_into<'fcx>(
        self,
        fcinfo: &mut pgrx::callconv::FcInfo<'fcx>,
    ) -> pgrx::datum::Datum<'fcx> {
        // SAFETY: the function returns cstring.
        unsafe { fcinfo.return_raw_datum(pg_sys::Datum::from(self.0.as_ptr())) }
    }
}

pgrx::pgrx_sql_entity_graph::impl_sql_translatable!(PallocCString, "cstring");

/// `invalid input syntax for type T: "..."`, SQLSTATE 22P02, raised (the
/// functions taking text that are not input functions; input functions
/// report through [`input_error::InputError`], softly where asked).
pub fn invalid_text_bytes(type_name: &str, input: &[u8]) -> ! {
    input_error::InputError::invalid_text(type_name, input).raise()
}

/// Bad input echoed in a message, which must be valid in the database's
/// encoding: as it is in a UTF8 database (PostgreSQL has checked it), and in
/// any other (LATIN1, SQL_ASCII, ...) with each byte beyond ASCII shown as
/// `\xNN`, since a message in Rust is UTF-8 and every valid input is ASCII.
pub fn quote_bytes(input: &[u8]) -> String {
    // SAFETY: reads the session's fixed database encoding.
    let utf8_database = unsafe { pg_sys::GetDatabaseEncoding() } == pg_sys::pg_enc::PG_UTF8 as i32;
    match std::str::from_utf8(input) {
        Ok(text) if utf8_database || text.is_ascii() => text.to_owned(),
        _ => input
            .iter()
            .map(|&b| {
                if b.is_ascii() {
                    char::from(b).to_string()
                } else {
                    format!("\\x{b:02x}")
                }
            })
            .collect(),
    }
}

/// Raises an ERROR with this SQLSTATE, message and (if any) hint: the one
/// way chronoid raises, for `error`, `error_with_hint` and `InputError`.
pub fn raise(code: PgSqlErrorCode, message: String, hint: Option<&str>) -> ! {
    let mut report = ErrorReport::new(code, message, "chronoid");
    if let Some(hint) = hint {
        report = report.set_hint(hint);
    }
    report.report(PgLogLevel::ERROR);
    unreachable!("ERROR does not return")
}

pub fn error(code: PgSqlErrorCode, message: String) -> ! {
    raise(code, message, None)
}

pub fn error_with_hint(code: PgSqlErrorCode, message: String, hint: &str) -> ! {
    raise(code, message, Some(hint))
}

/// The unix millisecond a `timestamptz` falls in; infinities have none.
pub fn timestamptz_unix_ms(ts: TimestampWithTimeZone, type_name: &str) -> i64 {
    if !ts.is_finite() {
        error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!("timestamp out of range for type {type_name}: {ts}"),
        );
    }
    pg_usec_to_unix_ms(ts.into_inner())
}

pub fn unix_ms_timestamptz(ms: i64) -> TimestampWithTimeZone {
    unix_ms_to_pg_usec(ms)
        .and_then(|usec| TimestampWithTimeZone::try_from(usec).ok())
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                "timestamp out of range".into(),
            )
        })
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

/// A `timestamptz` outside the range a type's timestamp field can hold.
pub fn timestamp_out_of_range(type_name: &str, ts: TimestampWithTimeZone, range: &str) -> ! {
    error(
        PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
        format!("timestamp out of range for type {type_name}: {ts} is outside {range}"),
    )
}

/// The system clock as generators in a backend see it: PostgreSQL's own
/// reading of the wall clock (`GetCurrentTimestamp`), the formats crate's
/// monotonic clock for how long a generator waited, and a wait that spins
/// for the next millisecond but sleeps (and honours query cancel) when the
/// clock is further behind.
pub struct BackendClock;

impl Clock for BackendClock {
    fn now_ms(&mut self) -> u64 {
        // PostgreSQL's own clock reading (one gettimeofday through the vDSO,
        // microseconds since 2000): the same instant as SystemTime, without
        // std's Duration arithmetic, which cost as much again per ID.
        // SAFETY: reads the system clock; cannot raise an ERROR.
        let pg_usec = unsafe { self::ffi::current_timestamp_unguarded() };
        u64::try_from(chronoid_formats::time::pg_usec_to_unix_ms(pg_usec)).unwrap_or(0)
    }

    fn monotonic_ms(&mut self) -> u64 {
        chronoid_formats::clock::SystemClock.monotonic_ms()
    }

    fn wait(&mut self, now_ms: u64, until_ms: u64) {
        pgrx::check_for_interrupts!();
        if until_ms.saturating_sub(now_ms) <= 1 {
            for _ in 0..64 {
                std::hint::spin_loop();
            }
        } else {
            // SAFETY: a plain sleep; cancellation is checked above.
            unsafe { pg_sys::pg_usleep(1000) };
        }
    }
}
