//! The formats crate's codecs as WebAssembly exports for the Node package.
//!
//! JavaScript copies its input into memory it got from `alloc`, calls an
//! export, and reads the result from `out_ptr()`: a non-negative return is
//! the result's length, a negative one an error (`ERR_*`). Values cross as
//! their binary form (the server's send/receive bytes).

use std::cell::RefCell;

use chronoid_formats::caloriosa::Caloriosa;
use chronoid_formats::codokey::{Codokey, Context};
use chronoid_formats::nanoflake::Nanoflake;
use chronoid_formats::scru160::{self, Scru160};
use chronoid_formats::uid60::Uid60;
use chronoid_formats::wire::Wire;
use rand::RngCore;

const ERR_TEXT: i32 = -1;
const ERR_BINARY: i32 = -2;
const ERR_KIND: i32 = -3;
const ERR_CONTEXT: i32 = -4;
const ERR_RANGE: i32 = -5;

const NANOFLAKE: u32 = 0;
const SCRU160: u32 = 1;
const CODOKEY: u32 = 2;
const CALORIOSA: u32 = 3;
const UID60: u32 = 4;

thread_local! {
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static SCRU160_GENERATOR: RefCell<scru160::Generator> = const { RefCell::new(scru160::Generator::new()) };
}

fn put(bytes: &[u8]) -> i32 {
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        out.clear();
        out.extend_from_slice(bytes);
    });
    bytes.len() as i32
}

/// # Safety
/// `ptr..ptr+len` is memory this module handed out with `alloc`.
unsafe fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, len)
    }
}

#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// # Safety
/// `ptr` and `len` are an `alloc` result and its length.
#[no_mangle]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
}

#[no_mangle]
pub extern "C" fn out_ptr() -> *const u8 {
    OUT.with(|out| out.borrow().as_ptr())
}

fn parse<T: Wire>(text: &[u8]) -> i32 {
    match std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.parse::<T>().ok())
    {
        Some(v) => put(&v.to_binary()),
        None => ERR_TEXT,
    }
}

fn print<T: Wire>(binary: &[u8]) -> i32 {
    match T::from_binary(binary) {
        Ok(v) => put(v.to_string().as_bytes()),
        Err(_) => ERR_BINARY,
    }
}

/// Text (as the type's input function reads it) to the binary form.
///
/// # Safety
/// See [`input`].
#[no_mangle]
pub unsafe extern "C" fn from_text(kind: u32, ptr: *const u8, len: usize) -> i32 {
    let text = input(ptr, len);
    match kind {
        NANOFLAKE => parse::<Nanoflake>(text),
        SCRU160 => parse::<Scru160>(text),
        CODOKEY => match Codokey::parse_any(text) {
            Ok(k) => put(&k.to_binary()),
            Err(_) => ERR_TEXT,
        },
        CALORIOSA => parse::<Caloriosa>(text),
        UID60 => parse::<Uid60>(text),
        _ => ERR_KIND,
    }
}

/// The binary form (checked as the receive function checks it) to text.
///
/// # Safety
/// See [`input`].
#[no_mangle]
pub unsafe extern "C" fn to_text(kind: u32, ptr: *const u8, len: usize) -> i32 {
    let binary = input(ptr, len);
    match kind {
        NANOFLAKE => print::<Nanoflake>(binary),
        SCRU160 => print::<Scru160>(binary),
        CODOKEY => print::<Codokey>(binary),
        CALORIOSA => print::<Caloriosa>(binary),
        UID60 => print::<Uid60>(binary),
        _ => ERR_KIND,
    }
}

/// A name as Caloriosa's own code (`Caloriosa/core`, alphabet `0-9A-Za-z`)
/// writes it, to the binary form.
///
/// # Safety
/// See [`input`].
#[no_mangle]
pub unsafe extern "C" fn caloriosa_from_core_name(ptr: *const u8, len: usize) -> i32 {
    match Caloriosa::parse_core_name(input(ptr, len)) {
        Ok(name) => put(&name.to_binary()),
        Err(_) => ERR_TEXT,
    }
}

/// The binary form to the name as `Caloriosa/core` writes it.
///
/// # Safety
/// See [`input`].
#[no_mangle]
pub unsafe extern "C" fn caloriosa_to_core_name(ptr: *const u8, len: usize) -> i32 {
    match Caloriosa::from_binary(input(ptr, len)) {
        Ok(name) => put(&name.encode_core_name()),
        Err(_) => ERR_BINARY,
    }
}

fn context(year_zero: i32, max_year: i32, fraction_max: u32) -> Result<Context, i32> {
    Context::new(year_zero, max_year, fraction_max).map_err(|_| ERR_CONTEXT)
}

/// Runs `make` with the context and precision the arguments name; its key
/// text is the result.
fn with_context_and_precision(
    year_zero: i32,
    max_year: i32,
    fraction_max: u32,
    precision: u32,
    make: impl FnOnce(&Context, u8) -> Option<String>,
) -> i32 {
    let ctx = match context(year_zero, max_year, fraction_max) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let Ok(precision) = u8::try_from(precision) else {
        return ERR_RANGE;
    };
    match make(&ctx, precision) {
        Some(text) => put(text.as_bytes()),
        None => ERR_RANGE,
    }
}

/// `codokey(instant, precision)` in a context: the key's text.
#[no_mangle]
pub extern "C" fn codokey_encode(
    unix_micros: i64,
    precision: u32,
    year_zero: i32,
    max_year: i32,
    fraction_max: u32,
) -> i32 {
    with_context_and_precision(year_zero, max_year, fraction_max, precision, |ctx, p| {
        Codokey::encode(ctx, i128::from(unix_micros), p)
            .ok()
            .map(|k| k.as_str().to_owned())
    })
}

/// `codokey_floor` and `codokey_ceil`: the two keys' texts, joined by a space.
#[no_mangle]
pub extern "C" fn codokey_bounds(
    unix_micros: i64,
    precision: u32,
    year_zero: i32,
    max_year: i32,
    fraction_max: u32,
) -> i32 {
    with_context_and_precision(year_zero, max_year, fraction_max, precision, |ctx, p| {
        Codokey::period_bounds(ctx, i128::from(unix_micros), p)
            .ok()
            .map(|(lo, hi)| format!("{} {}", lo.as_str(), hi.as_str()))
    })
}

/// The instant (unix microseconds, 8 bytes little-endian) and precision (1
/// byte) of a key's text in a context.
///
/// # Safety
/// See [`input`].
#[no_mangle]
pub unsafe extern "C" fn codokey_decode(
    ptr: *const u8,
    len: usize,
    year_zero: i32,
    max_year: i32,
    fraction_max: u32,
) -> i32 {
    let ctx = match context(year_zero, max_year, fraction_max) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let Ok(key) = Codokey::parse(&ctx, input(ptr, len)) else {
        return ERR_TEXT;
    };
    match key
        .decode(&ctx)
        .ok()
        .and_then(|d| i64::try_from(d.unix_micros).ok().map(|m| (m, d.precision)))
    {
        Some((micros, precision)) => {
            let mut out = micros.to_le_bytes().to_vec();
            out.push(precision);
            put(&out)
        }
        None => ERR_TEXT,
    }
}

/// Random bytes JavaScript supplies (crypto.getRandomValues) for one ID.
struct Given<'a>(&'a [u8], usize);

impl RngCore for Given<'_> {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for d in dest {
            // Wrapping reuse never happens with the 64 bytes given: an ID
            // takes at most 14.
            *d = self.0[self.1 % self.0.len()];
            self.1 += 1;
        }
    }
}

/// A new scru160 at `now_ms` from this module's generator (the spec's
/// counter rules), with `len` (> 0) random bytes at `ptr`.
///
/// # Safety
/// See [`input`].
#[no_mangle]
pub unsafe extern "C" fn scru160_generate(now_ms: f64, ptr: *const u8, len: usize) -> i32 {
    let random = input(ptr, len);
    if random.is_empty() || now_ms.is_nan() || now_ms < 0.0 {
        return ERR_RANGE;
    }
    SCRU160_GENERATOR.with(|g| {
        match g
            .borrow_mut()
            .generate(now_ms as u64, &mut Given(random, 0))
        {
            Ok((id, _)) => put(id.as_bytes()),
            Err(_) => ERR_RANGE,
        }
    })
}
