//! Everything chronoid declares about PostgreSQL's C side that pgrx does not:
//! external functions, C-layout structs, and the guarded entry points that
//! use them (abbreviated-key set-up and abort for sort support), plus the
//! raw reads of a receive function's message buffer. The per-type adapters
//! stay free of raw pointers.
//!
//! The declarations were checked against the server headers of every major
//! chronoid builds for (15 to 18): `common/hashfn.h`, `lib/hyperloglog.h`,
//! `utils/sortsupport.h`.
//!
//! Plumbing: may import only other files of `src/pg/` (and pgrx), never a
//! type adapter (`src/types/`) or the durable generators (`src/durable/`).

use pgrx::pg_sys;

#[cfg(not(any(feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18")))]
compile_error!("chronoid builds for PostgreSQL 15 to 18: enable one of pg15 .. pg18");

/// `lib/hyperloglog.h`'s `hyperLogLogState`, the same from 15 to 18.
#[repr(C)]
pub struct HyperLogLogState {
    register_width: u8,
    n_registers: pg_sys::Size,
    alpha_mm: f64,
    hashes_arr: *mut u8,
    arr_size: pg_sys::Size,
}

// Exported by the postgres executable; not in pgrx's bindings.
// SAFETY: the signatures are those of the headers named above, on every
// supported major; callers uphold each function's contract.
unsafe extern "C-unwind" {
    pub fn hash_bytes(k: *const u8, keylen: std::ffi::c_int) -> u32;
    pub fn hash_bytes_extended(k: *const u8, keylen: std::ffi::c_int, seed: u64) -> u64;
    pub fn hash_bytes_uint32(k: u32) -> u32;
    fn initHyperLogLog(state: *mut HyperLogLogState, bwidth: u8);
    fn addHyperLogLog(state: *mut HyperLogLogState, hash: u32);
    fn estimateHyperLogLog(state: *mut HyperLogLogState) -> f64;
    /// The comparator for unsigned abbreviated keys (PostgreSQL 15 on),
    /// which tuplesort recognises and radix-sorts; pgrx only exposes a Rust
    /// wrapper, which tuplesort would not recognise.
    #[link_name = "ssup_datum_unsigned_cmp"]
    fn ssup_datum_unsigned_cmp_c(
        x: pg_sys::Datum,
        y: pg_sys::Datum,
        ssup: pg_sys::SortSupport,
    ) -> i32;
    /// palloc and GetCurrentTimestamp called directly: pgrx's bindings wrap
    /// every call in a sigsetjmp, which costs more than a generator's work.
    /// For unguarded fast paths only (`fmgr::unguarded_generator!`), where
    /// palloc's longjmp (out of memory) crosses no Rust value with a
    /// destructor, and GetCurrentTimestamp cannot fail.
    #[link_name = "palloc"]
    pub fn palloc_unguarded(size: pg_sys::Size) -> *mut std::ffi::c_void;
    #[link_name = "GetCurrentTimestamp"]
    pub fn current_timestamp_unguarded() -> pg_sys::TimestampTz;
    /// Cannot raise an ERROR: a process-local flag, and once per process a
    /// read of shared state under a spinlock.
    #[link_name = "RecoveryInProgress"]
    pub fn recovery_in_progress_unguarded() -> bool;
    /// PostgreSQL's own signal handlers (tcop/tcopprot.h,
    /// postmaster/interrupt.h), installed as they are by its processes:
    /// pgrx's bindings are Rust wrappers, not the C functions.
    #[link_name = "die"]
    pub fn die_signal_handler(signal: std::ffi::c_int);
    #[link_name = "SignalHandlerForConfigReload"]
    pub fn config_reload_signal_handler(signal: std::ffi::c_int);
    /// port.h's pqsignal: a function up to 17 (which returns the previous
    /// handler, unused here), renamed pqsignal_be by a macro in 18.
    #[cfg_attr(feature = "pg18", link_name = "pqsignal_be")]
    #[cfg_attr(not(feature = "pg18"), link_name = "pqsignal")]
    pub fn set_signal_handler(signal: std::ffi::c_int, handler: pg_sys::pqsigfunc);
    /// common/file_perm.h: the mode PostgreSQL creates files with (0600, or
    /// 0640 when the data directory allows the group), set at start.
    pub static pg_file_create_mode: std::ffi::c_int;
}

/// Argument `n` of a (strict) call.
///
/// # Safety
/// `fcinfo` is the call's; it has more than `n` arguments.
#[inline(always)]
pub unsafe fn arg(fcinfo: pg_sys::FunctionCallInfo, n: usize) -> pg_sys::Datum {
    // SAFETY: the caller promises n < nargs, so the flexible array member
    // holds at least n + 1 entries.
    unsafe { (*fcinfo).args.as_slice(n + 1)[n].value }
}

/// Abbreviated-key bookkeeping, as PostgreSQL's uuid.c keeps it: count the
/// inputs and estimate how many distinct abbreviations they produced.
#[repr(C)]
struct AbbrevState {
    input_count: f64,
    estimating: bool,
    cardinality: HyperLogLogState,
}

/// Installs `full` as the comparator, and abbreviated keys when the sort
/// asks for them: `convert` maps a datum to an unsigned key that orders like
/// it, `full` compares two datums when keys tie.
///
/// # Safety
/// `ssup` is the SortSupport PostgreSQL passed to a sortsupport function;
/// the call is guarded (it allocates in the sort's memory context).
pub unsafe fn install_sort_support(
    ssup: pg_sys::SortSupport,
    convert: unsafe extern "C-unwind" fn(pg_sys::Datum, pg_sys::SortSupport) -> pg_sys::Datum,
    full: unsafe extern "C-unwind" fn(pg_sys::Datum, pg_sys::Datum, pg_sys::SortSupport) -> i32,
) {
    // SAFETY: `ssup` is live for the sort; the state is allocated in its
    // memory context, so it lives exactly as long as the sort needs it.
    unsafe {
        (*ssup).comparator = Some(full);
        if !(*ssup).abbreviate {
            return;
        }
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

/// Counts one abbreviated key towards the cardinality estimate. Called per
/// row without a guard: `addHyperLogLog` and `hash_bytes_uint32` cannot
/// raise an ERROR or allocate.
///
/// # Safety
/// `ssup` was set up by `install_sort_support` with abbreviation.
#[inline]
pub unsafe fn note_abbreviation(ssup: pg_sys::SortSupport, key: u64) {
    // SAFETY: `ssup_extra` is the AbbrevState installed above, live for the sort.
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
    // SAFETY: tuplesort passes the SortSupport it was set up with, whose
    // `ssup_extra` is our AbbrevState.
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

/// The message buffer a receive function is given.
fn recv_buffer(buf: pgrx::datum::Internal) -> *mut pg_sys::StringInfoData {
    buf.unwrap()
        .expect("receive buffer")
        .cast_mut_ptr::<pg_sys::StringInfoData>()
}

/// Reads the 8 bytes of a binary-protocol value (network byte order).
pub fn recv_i64(buf: pgrx::datum::Internal) -> i64 {
    // SAFETY: `buf` is the StringInfo of a receive call; pq_getmsgint64
    // raises 08P01 itself when fewer than 8 bytes remain.
    unsafe { pg_sys::pq_getmsgint64(recv_buffer(buf)) }
}

/// Reads exactly `N` bytes of a binary-protocol value.
pub fn recv_array<const N: usize>(buf: pgrx::datum::Internal) -> [u8; N] {
    // SAFETY: as above; pq_getmsgbytes raises 08P01 when fewer than N bytes
    // remain, so the pointer it returns covers N bytes of the message.
    unsafe { *pg_sys::pq_getmsgbytes(recv_buffer(buf), N as i32).cast::<[u8; N]>() }
}

/// Reads the rest of the message: a variable-length value's bytes.
pub fn recv_rest<'a>(buf: pgrx::datum::Internal) -> &'a [u8] {
    let buf = recv_buffer(buf);
    // SAFETY: the StringInfo of a receive call: `len - cursor` bytes remain,
    // and pq_getmsgbytes returns a pointer to them inside the message, which
    // lives for the call.
    unsafe {
        let remaining = ((*buf).len - (*buf).cursor) as usize;
        std::slice::from_raw_parts(
            pg_sys::pq_getmsgbytes(buf, remaining as i32).cast::<u8>(),
            remaining,
        )
    }
}
