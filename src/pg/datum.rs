//! How chronoid's values cross pgrx's call boundary: `SqlDatum<T>`, the
//! wrapper that carries a formats-crate value as a datum, the macros that
//! give a by-value or fixed-length by-reference type pgrx's datum traits,
//! and `PallocCString` for output functions.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use pgrx::pg_sys;

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
        impl ::pgrx::datum::FromDatum for $crate::pg::datum::SqlDatum<$ty> {
            unsafe fn from_polymorphic_datum(
                $datum: ::pgrx::pg_sys::Datum,
                is_null: bool,
                _typoid: ::pgrx::pg_sys::Oid,
            ) -> Option<Self> {
                (!is_null).then(|| $crate::pg::datum::SqlDatum($make))
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
        $crate::pg::datum::from_datum!($ty, |datum| {
            let from: fn(i64) -> $ty = $from;
            from(datum.value() as i64)
        });

        impl ::pgrx::datum::IntoDatum for $crate::pg::datum::SqlDatum<$ty> {
            fn into_datum(self) -> Option<::pgrx::pg_sys::Datum> {
                let to: fn($ty) -> i64 = $to;
                Some(::pgrx::pg_sys::Datum::from(to(self.0)))
            }
            fn type_oid() -> ::pgrx::pg_sys::Oid {
                ::pgrx::wrappers::regtypein($sql)
            }
        }

        $crate::pg::datum::datum_abi!($crate::pg::datum::SqlDatum<$ty>, $sql);
    };
}
pub(crate) use by_value_8_byte_type;

/// The same for a fixed-length type passed by reference (`scru160`): the
/// datum points to `$len` bytes, which a returned value gets in palloc'd memory.
macro_rules! by_reference_fixed_type {
    ($ty:ty, $sql:literal, $len:expr, to_bytes: $to:expr, from_bytes: $from:expr) => {
        $crate::pg::datum::from_datum!($ty, |datum| {
            let from: fn([u8; $len]) -> $ty = $from;
            // SAFETY: a non-null datum of the type points to its $len bytes.
            from(*unsafe { $crate::pg::fmgr::fixed_bytes::<$len>(datum) })
        });

        impl ::pgrx::datum::IntoDatum for $crate::pg::datum::SqlDatum<$ty> {
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

        $crate::pg::datum::datum_abi!($crate::pg::datum::SqlDatum<$ty>, $sql);
    };
}
pub(crate) use by_reference_fixed_type;

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

/// A `text` datum (detoasted) as a Rust string.
///
/// # Safety
/// `datum` is a `text` datum that lives across the call.
pub unsafe fn text_to_string(datum: pg_sys::Datum) -> String {
    // SAFETY: the caller's; text_to_cstring detoasts and pallocs a copy.
    unsafe {
        std::ffi::CStr::from_ptr(pg_sys::text_to_cstring(datum.cast_mut_ptr()))
            .to_string_lossy()
            .into_owned()
    }
}
