//! Plain fmgr (version-1) functions for the per-row hot paths, where pgrx's
//! wrapper (memory-context switch, panic guard) would cost more than the
//! work itself: scru160's comparison, hashing, min/max and sort support
//! (`fixed_length_functions!`), codokey's sort support, the text input and
//! output of the 8-byte types and scru160 (`unguarded_text_io!`), and
//! `gen_scru160()` (`unguarded_generator!`).
//!
//! Their common path runs without a pg_guard: it only reads its arguments'
//! bytes, compares, hashes (with functions that cannot raise an ERROR:
//! hash_bytes*, addHyperLogLog), parses or prints, and allocates at most
//! with palloc, crossing no Rust value with a destructor, and has no
//! operation that can panic. Whatever can raise an ERROR (a rejected input,
//! the sortsupport set-up, the abort check, a generator's slow path) runs
//! under pgrx's guard.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

/// The bytes of a by-reference datum of `N` bytes.
///
/// # Safety
/// `d` points to a datum of the type, which is exactly `N` bytes.
#[inline(always)]
pub unsafe fn fixed_bytes<'a, const N: usize>(d: pgrx::pg_sys::Datum) -> &'a [u8; N] {
    // SAFETY: the caller's promise; datums outlive the call that reads them.
    unsafe { &*d.cast_mut_ptr::<[u8; N]>() }
}

/// The `pg_finfo_<symbol>` record that marks the C function `<symbol>` as
/// version 1 (the symbol given as the parts `concat!` joins).
macro_rules! finfo {
    ($($symbol:tt)+) => {
        const _: () = {
            #[unsafe(export_name = concat!("pg_finfo_", $($symbol)+))]
            extern "C" fn finfo() -> &'static ::pgrx::pg_sys::Pg_finfo_record {
                static V1: ::pgrx::pg_sys::Pg_finfo_record =
                    ::pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
                &V1
            }
        };
    };
}
pub(crate) use finfo;

/// Defines the C functions `<prefix>_eq`, `_ne`, `_lt`, `_le`, `_gt`, `_ge`,
/// `_cmp`, `_hash`, `_hash_extended`, `_smaller`, `_larger` and
/// `_sortsupport` (with their `pg_finfo_` records) of a fixed-length type of
/// `$len` bytes that orders as its bytes, with `$abbreviate` (a safe
/// `fn(&[u8; $len]) -> u64` ordering like the bytes) as the abbreviated key.
macro_rules! fixed_length_functions {
    ($prefix:literal, $len:expr, abbreviate: $abbreviate:path) => {
        mod fmgr_functions {
            // `$len` and `$abbreviate` name items of the type's module.
            #[allow(unused_imports)]
            use super::*;
            use std::cmp::Ordering;

            use ::pgrx::pg_sys::{Datum, FunctionCallInfo, SortSupport};

            use $crate::pg::ffi::{self, arg};
            use $crate::pg::fmgr::fixed_bytes;

            const BYTES: usize = $len;

            /// One C function and its `pg_finfo_` record.
            macro_rules! v1 {
                ($suffix:literal, |$fcinfo:ident| $body:expr) => {
                    const _: () = {
                        $crate::pg::fmgr::finfo!($prefix, "_", $suffix);
                        #[unsafe(export_name = concat!($prefix, "_", $suffix))]
                        unsafe extern "C-unwind" fn function($fcinfo: FunctionCallInfo) -> Datum {
                            // SAFETY: called by fmgr with the arguments the SQL
                            // declaration gives: datums of this type (and an
                            // int8 seed, a SortSupport for their functions).
                            unsafe { $body }
                        }
                    };
                };
            }

            /// # Safety
            /// Both arguments are datums of the type.
            #[inline(always)]
            unsafe fn compare(fcinfo: FunctionCallInfo) -> Ordering {
                // SAFETY: the caller's promise.
                unsafe { fixed_bytes::<BYTES>(arg(fcinfo, 0)).cmp(fixed_bytes(arg(fcinfo, 1))) }
            }

            v1!("eq", |fcinfo| compare(fcinfo).is_eq().into());
            v1!("ne", |fcinfo| compare(fcinfo).is_ne().into());
            v1!("lt", |fcinfo| compare(fcinfo).is_lt().into());
            v1!("le", |fcinfo| compare(fcinfo).is_le().into());
            v1!("gt", |fcinfo| compare(fcinfo).is_gt().into());
            v1!("ge", |fcinfo| compare(fcinfo).is_ge().into());
            v1!("cmp", |fcinfo| (compare(fcinfo) as i32).into());
            // For min() and max(): one of the two input datums, which
            // outlive the call.
            v1!("smaller", |fcinfo| if compare(fcinfo).is_le() {
                arg(fcinfo, 0)
            } else {
                arg(fcinfo, 1)
            });
            v1!("larger", |fcinfo| if compare(fcinfo).is_ge() {
                arg(fcinfo, 0)
            } else {
                arg(fcinfo, 1)
            });
            v1!("hash", |fcinfo| ffi::hash_bytes(
                fixed_bytes::<BYTES>(arg(fcinfo, 0)).as_ptr(),
                BYTES as i32
            )
            .into());
            v1!("hash_extended", |fcinfo| ffi::hash_bytes_extended(
                fixed_bytes::<BYTES>(arg(fcinfo, 0)).as_ptr(),
                BYTES as i32,
                arg(fcinfo, 1).value() as u64,
            )
            .into());
            v1!("sortsupport", |fcinfo| $crate::pg::fmgr::sortsupport_entry(
                fcinfo,
                abbrev_convert,
                full_compare
            ));

            unsafe extern "C-unwind" fn full_compare(a: Datum, b: Datum, _: SortSupport) -> i32 {
                // SAFETY: tuplesort compares datums of the type it sorts.
                unsafe { fixed_bytes::<BYTES>(a).cmp(fixed_bytes(b)) as i32 }
            }

            unsafe extern "C-unwind" fn abbrev_convert(d: Datum, ssup: SortSupport) -> Datum {
                // SAFETY: a datum of the type, and the SortSupport set up by
                // install_sort_support with abbreviation.
                unsafe {
                    let key: u64 = $abbreviate(fixed_bytes::<BYTES>(d));
                    ffi::note_abbreviation(ssup, key);
                    Datum::from(key)
                }
            }
        }
    };
}
pub(crate) use fixed_length_functions;

/// The body of a sortsupport function: `full` as the comparator, and
/// abbreviated keys by `convert` when the sort asks for them.
///
/// # Safety
/// `fcinfo` is a sortsupport call (its one argument a SortSupport).
pub unsafe fn sortsupport_entry(
    fcinfo: pgrx::pg_sys::FunctionCallInfo,
    convert: unsafe extern "C-unwind" fn(
        pgrx::pg_sys::Datum,
        pgrx::pg_sys::SortSupport,
    ) -> pgrx::pg_sys::Datum,
    full: unsafe extern "C-unwind" fn(
        pgrx::pg_sys::Datum,
        pgrx::pg_sys::Datum,
        pgrx::pg_sys::SortSupport,
    ) -> i32,
) -> pgrx::pg_sys::Datum {
    // Guarded: setting up abbreviation allocates in the sort's memory
    // context, which can raise an ERROR.
    // SAFETY: the caller's promise.
    unsafe {
        pgrx::pg_sys::panic::pgrx_extern_c_guard(|| {
            crate::pg::ffi::install_sort_support(
                crate::pg::ffi::arg(fcinfo, 0).cast_mut_ptr(),
                convert,
                full,
            )
        });
    }
    pgrx::pg_sys::Datum::null()
}

/// The bytes of a varlena datum that is not compressed or stored out of
/// line, read in place (1- or 4-byte header); `None` otherwise.
///
/// # Safety
/// `d` points to a varlena.
#[inline(always)]
pub unsafe fn inline_varlena_bytes<'a>(d: pgrx::pg_sys::Datum) -> Option<&'a [u8]> {
    use pgrx::varlena::{
        varatt_is_1b, varatt_is_1b_e, varatt_is_4b_u, vardata_any, varsize_any_exhdr,
    };
    let ptr = d.cast_mut_ptr::<pgrx::pg_sys::varlena>();
    // SAFETY: the caller's promise; the header says how many bytes follow.
    unsafe {
        if varatt_is_1b_e(ptr) || !(varatt_is_1b(ptr) || varatt_is_4b_u(ptr)) {
            return None;
        }
        Some(std::slice::from_raw_parts(
            vardata_any(ptr).cast::<u8>(),
            varsize_any_exhdr(ptr),
        ))
    }
}

/// Defines the C function `<prefix>_sortsupport` (and its `pg_finfo_`
/// record) of a variable-length type that orders as its bytes (bytea's
/// order: byte by byte, a prefix first), with `$abbreviate` (a safe
/// `fn(&[u8]) -> u64` that never contradicts that order) as the abbreviated
/// key. bytea's own sort support abbreviates too, but through the generic
/// string machinery (a hash of every full key for its abort heuristic, a
/// length check and memcmp per comparison); a key type with short values
/// can pack its digits and compare them as one integer.
macro_rules! varlena_sortsupport {
    ($prefix:literal, abbreviate: $abbreviate:path) => {
        mod varlena_sortsupport {
            #[allow(unused_imports)]
            use super::*;

            use ::pgrx::pg_sys::{self, Datum, FunctionCallInfo, SortSupport};

            use $crate::pg::ffi;
            use $crate::pg::fmgr::inline_varlena_bytes;

            $crate::pg::fmgr::finfo!($prefix, "_sortsupport");

            #[unsafe(export_name = concat!($prefix, "_sortsupport"))]
            unsafe extern "C-unwind" fn sortsupport(fcinfo: FunctionCallInfo) -> Datum {
                // SAFETY: fmgr passes the SortSupport as the one argument.
                unsafe { $crate::pg::fmgr::sortsupport_entry(fcinfo, abbrev_convert, full_compare) }
            }

            /// The bytes of a datum: in place, or (never for a short key,
            /// which is neither compressed nor stored out of line, but
            /// handled all the same) detoasted into the sort's memory.
            ///
            /// # Safety
            /// `d` is a datum of the type.
            #[inline(always)]
            unsafe fn bytes<'a>(d: Datum) -> &'a [u8] {
                // SAFETY: the caller's promise.
                unsafe {
                    match inline_varlena_bytes(d) {
                        Some(b) => b,
                        None => pg_sys::panic::pgrx_extern_c_guard(|| {
                            let p = pg_sys::pg_detoast_datum_packed(d.cast_mut_ptr());
                            inline_varlena_bytes(Datum::from(p)).expect("detoasted")
                        }),
                    }
                }
            }

            unsafe extern "C-unwind" fn full_compare(a: Datum, b: Datum, _: SortSupport) -> i32 {
                // SAFETY: tuplesort compares datums of the type it sorts.
                unsafe { bytes(a).cmp(bytes(b)) as i32 }
            }

            unsafe extern "C-unwind" fn abbrev_convert(d: Datum, ssup: SortSupport) -> Datum {
                // SAFETY: a datum of the type, and the SortSupport set up by
                // install_sort_support with abbreviation.
                unsafe {
                    let key: u64 = $abbreviate(bytes(d));
                    ffi::note_abbreviation(ssup, key);
                    Datum::from(key)
                }
            }
        }
    };
}
pub(crate) use varlena_sortsupport;

/// Defines the C function `$symbol` (and its `pg_finfo_` record): a
/// generator of a fixed-length by-reference type of `$len` bytes that runs
/// `$fast` (`fn() -> Result<[u8; $len], D>`) without a pg_guard, and only
/// when that defers, `$slow` (`fn(D) -> [u8; $len]`) under one.
///
/// `$fast` must not raise an ERROR, panic, or call into PostgreSQL. The
/// one call that can fail here is palloc (out of memory), which is made
/// with no Rust value alive that has a destructor: its longjmp leaves only
/// plain frames behind, as from a C function.
macro_rules! unguarded_generator {
    ($symbol:literal, $len:expr, fast: $fast:path, slow: $slow:path) => {
        const _: () = {
            use ::pgrx::pg_sys::{self, Datum, FunctionCallInfo};

            $crate::pg::fmgr::finfo!($symbol);

            #[unsafe(export_name = $symbol)]
            unsafe extern "C-unwind" fn generate(_fcinfo: FunctionCallInfo) -> Datum {
                let bytes: [u8; $len] = match $fast() {
                    Ok(bytes) => bytes,
                    // SAFETY: the guard turns a Rust panic or a PostgreSQL
                    // ERROR inside into an ERROR raised after it.
                    Err(deferred) => unsafe {
                        pg_sys::panic::pgrx_extern_c_guard(|| $slow(deferred))
                    },
                };
                // SAFETY: nothing with a destructor is alive here (see above).
                unsafe { $crate::pg::fmgr::RawDatum::into_raw(bytes) }
            }
        };
    };
}
pub(crate) use unguarded_generator;

/// A datum the unguarded I/O functions read and return without pgrx: the
/// 8-byte by-value types as `i64`, the fixed-length by-reference ones as
/// their bytes.
pub trait RawDatum: Sized {
    /// # Safety
    /// `d` is a datum of a type with this representation.
    unsafe fn read(d: pgrx::pg_sys::Datum) -> Self;
    /// # Safety
    /// For unguarded callers: may palloc (see `unguarded_generator!`).
    unsafe fn into_raw(self) -> pgrx::pg_sys::Datum;
}

impl RawDatum for i64 {
    #[inline(always)]
    unsafe fn read(d: pgrx::pg_sys::Datum) -> Self {
        d.value() as i64
    }
    #[inline(always)]
    unsafe fn into_raw(self) -> pgrx::pg_sys::Datum {
        pgrx::pg_sys::Datum::from(self)
    }
}

impl<const N: usize> RawDatum for [u8; N] {
    #[inline(always)]
    unsafe fn read(d: pgrx::pg_sys::Datum) -> Self {
        // SAFETY: the caller's promise.
        unsafe { *fixed_bytes::<N>(d) }
    }
    #[inline(always)]
    unsafe fn into_raw(self) -> pgrx::pg_sys::Datum {
        // SAFETY: palloc returns N writable bytes (or longjmps: the caller
        // holds nothing with a destructor).
        unsafe {
            let ptr = crate::pg::ffi::palloc_unguarded(N).cast::<[u8; N]>();
            ptr.write(self);
            pgrx::pg_sys::Datum::from(ptr)
        }
    }
}

/// The longest text any chronoid type prints, with room to spare.
pub const MAX_TEXT: usize = 48;

/// Defines a type's text input and output functions under the symbols its
/// SQL declares, without pgrx's per-call guard: COPY runs them once per
/// value, and the guard cost as much as the conversion.
///
/// - `input`: `$parse` (`fn(&[u8]) -> Result<D, E>`, D a `RawDatum`) must
///   not raise an ERROR or panic; on `Err`, `$reject` (`fn(&[u8], E) ->
///   InputError`) describes it, and it is reported under a guard: saved in
///   the caller's `ErrorSaveContext` when there is one (PostgreSQL 16+:
///   `pg_input_is_valid`, `COPY ... ON_ERROR`), raised otherwise.
/// - `output`: `$print` (`fn(D, &mut [u8; MAX_TEXT]) -> usize`, the length
///   written) must not raise an ERROR or panic.
macro_rules! unguarded_text_io {
    (input $in_symbol:literal: $parse:path, $reject:path;
     output $out_symbol:literal: $datum:ty, $print:path) => {
        const _: () = {
            use ::pgrx::pg_sys::{self, Datum, FunctionCallInfo};
            use $crate::pg::ffi::arg;
            use $crate::pg::fmgr::{RawDatum, MAX_TEXT};

            $crate::pg::fmgr::finfo!($in_symbol);

            #[unsafe(export_name = $in_symbol)]
            unsafe extern "C-unwind" fn input(fcinfo: FunctionCallInfo) -> Datum {
                // SAFETY: an input function's first argument is a
                // NUL-terminated cstring, alive for the call.
                let text = unsafe {
                    ::std::ffi::CStr::from_ptr(arg(fcinfo, 0).cast_mut_ptr::<::std::ffi::c_char>())
                }
                .to_bytes();
                match $parse(text) {
                    // SAFETY: nothing with a destructor is alive here.
                    Ok(value) => unsafe { RawDatum::into_raw(value) },
                    // SAFETY: the guard turns an ERROR raised inside into one
                    // raised after it; fcinfo->context is the caller's.
                    Err(e) => unsafe {
                        pg_sys::panic::pgrx_extern_c_guard(|| {
                            $reject(text, e).report((*fcinfo).context);
                            // A soft error's result is never read.
                            Datum::from(0usize)
                        })
                    },
                }
            }

            $crate::pg::fmgr::finfo!($out_symbol);

            #[unsafe(export_name = $out_symbol)]
            unsafe extern "C-unwind" fn output(fcinfo: FunctionCallInfo) -> Datum {
                let mut text = [0u8; MAX_TEXT];
                // SAFETY: the one argument is a datum of the type.
                let len = $print(
                    unsafe { <$datum as RawDatum>::read(arg(fcinfo, 0)) },
                    &mut text,
                );
                // SAFETY: palloc returns len + 1 writable bytes (or longjmps;
                // nothing with a destructor is alive here).
                unsafe {
                    let ptr = $crate::pg::ffi::palloc_unguarded(len + 1).cast::<u8>();
                    ptr.copy_from_nonoverlapping(text.as_ptr(), len);
                    *ptr.add(len) = 0;
                    Datum::from(ptr)
                }
            }
        };
    };
}
pub(crate) use unguarded_text_io;
