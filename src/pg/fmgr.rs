//! Plain fmgr (version-1) functions for the hot paths that cannot fail:
//! comparison, hashing and sort support run millions of times per index
//! build, and pgrx's wrapper (memory-context switch, panic guard) would cost
//! more than the comparison itself. Anything that can raise an ERROR goes
//! through `#[pg_extern]` instead.

use pgrx::pg_sys;

/// Declares `pg_finfo_*` records, the marker PostgreSQL looks up to call a C
/// function with the version-1 convention.
macro_rules! pg_function_info_v1 {
    ($($finfo:ident),* $(,)?) => {
        $(
            #[unsafe(no_mangle)]
            pub extern "C" fn $finfo() -> &'static ::pgrx::pg_sys::Pg_finfo_record {
                static V1: ::pgrx::pg_sys::Pg_finfo_record =
                    ::pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
                &V1
            }
        )*
    };
}
pub(crate) use pg_function_info_v1;

/// Argument `n` of a (strict) call.
///
/// # Safety
/// `fcinfo` is the call's; it has more than `n` arguments.
#[inline(always)]
pub unsafe fn arg(fcinfo: pg_sys::FunctionCallInfo, n: usize) -> pg_sys::Datum {
    unsafe { (*fcinfo).args.as_slice(n + 1)[n].value }
}

// Not in pgrx's bindings (common/hashfn.h, lib/hyperloglog.h); exported by
// the postgres executable.
#[repr(C)]
pub struct HyperLogLogState {
    register_width: u8,
    n_registers: pg_sys::Size,
    alpha_mm: f64,
    hashes_arr: *mut u8,
    arr_size: pg_sys::Size,
}

unsafe extern "C-unwind" {
    pub fn hash_bytes(k: *const u8, keylen: std::ffi::c_int) -> u32;
    pub fn hash_bytes_extended(k: *const u8, keylen: std::ffi::c_int, seed: u64) -> u64;
    pub fn hash_bytes_uint32(k: u32) -> u32;
    pub fn initHyperLogLog(state: *mut HyperLogLogState, bwidth: u8);
    pub fn addHyperLogLog(state: *mut HyperLogLogState, hash: u32);
    pub fn estimateHyperLogLog(state: *mut HyperLogLogState) -> f64;
    /// PostgreSQL 15's comparator for unsigned abbreviated keys, which its
    /// tuplesort recognises and radix-sorts; pgrx only exposes a Rust wrapper.
    #[link_name = "ssup_datum_unsigned_cmp"]
    fn ssup_datum_unsigned_cmp_c(
        x: pg_sys::Datum,
        y: pg_sys::Datum,
        ssup: pg_sys::SortSupport,
    ) -> i32;
}

/// Abbreviated-key bookkeeping, as PostgreSQL's uuid.c keeps it: count the
/// inputs and estimate how many distinct abbreviations they produced.
#[repr(C)]
pub struct AbbrevState {
    input_count: f64,
    estimating: bool,
    cardinality: HyperLogLogState,
}

/// Installs abbreviated keys on `ssup`: `convert` maps a datum to an unsigned
/// key that orders like it, `full` compares two datums when keys tie.
///
/// # Safety
/// `ssup` is the SortSupport PostgreSQL passed to a sortsupport function.
pub unsafe fn install_abbreviation(
    ssup: pg_sys::SortSupport,
    convert: unsafe extern "C-unwind" fn(pg_sys::Datum, pg_sys::SortSupport) -> pg_sys::Datum,
    full: unsafe extern "C-unwind" fn(pg_sys::Datum, pg_sys::Datum, pg_sys::SortSupport) -> i32,
) {
    unsafe {
        let state = pg_sys::MemoryContextAlloc((*ssup).ssup_cxt, size_of::<AbbrevState>())
            .cast::<AbbrevState>();
        (*state).input_count = 0.0;
        (*state).estimating = true;
        initHyperLogLog(&raw mut (*state).cardinality, 10);
        (*ssup).ssup_extra = state.cast();
        (*ssup).comparator = Some(ssup_datum_unsigned_cmp_c);
        (*ssup).abbrev_converter = Some(convert);
        (*ssup).abbrev_abort = Some(abbrev_abort);
        (*ssup).abbrev_full_comparator = Some(full);
    }
}

/// Counts one abbreviated key towards the cardinality estimate.
///
/// # Safety
/// `ssup` was set up by `install_abbreviation`.
#[inline]
pub unsafe fn note_abbreviation(ssup: pg_sys::SortSupport, key: u64) {
    unsafe {
        let state = (*ssup).ssup_extra.cast::<AbbrevState>();
        (*state).input_count += 1.0;
        if (*state).estimating {
            let folded = (key as u32) ^ ((key >> 32) as u32);
            addHyperLogLog(&raw mut (*state).cardinality, hash_bytes_uint32(folded));
        }
    }
}

/// PostgreSQL's uuid.c heuristic: after 10,000 rows, stop estimating once
/// the keys are clearly distinct (over 100k), and give up abbreviation when
/// fewer than one in 2,000 keys differ (time-ordered IDs almost never do).
/// Guarded: it may write to the log, and tuplesort calls it only now and
/// then, not per row.
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn abbrev_abort(memtupcount: i32, ssup: pg_sys::SortSupport) -> bool {
    unsafe {
        let state = (*ssup).ssup_extra.cast::<AbbrevState>();
        if memtupcount < 10_000 || (*state).input_count < 10_000.0 || !(*state).estimating {
            return false;
        }
        let distinct = estimateHyperLogLog(&raw mut (*state).cardinality);
        if distinct > 100_000.0 {
            (*state).estimating = false;
            return false;
        }
        let abort = distinct < (*state).input_count / 2000.0 + 0.5;
        if abort && pg_sys::trace_sort {
            pgrx::log!(
                "chronoid abbreviated keys: aborting at cardinality {distinct:.1} after {} values ({memtupcount} rows)",
                (*state).input_count
            );
        }
        abort
    }
}
