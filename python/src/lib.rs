//! `chronoid._native`: the formats crate's codecs for the Python package.
//!
//! Values cross as their binary form (the bytes PostgreSQL's send function
//! writes), which the Python classes keep; text goes through the same
//! parser and printer as the server's input and output functions. Errors
//! are `ValueError`s whose message names the type, as the server's do.

use std::sync::Mutex;

use chronoid_formats::caloriosa::{self, Caloriosa};
use chronoid_formats::codokey::{Codokey, Context};
use chronoid_formats::counter_id::CounterId;
use chronoid_formats::nanoflake::Nanoflake;
use chronoid_formats::scru160::{self, Scru160};
use chronoid_formats::uid60::{self, Uid60};
use chronoid_formats::wire::Wire;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

fn invalid_text(kind: &str, text: &str) -> PyErr {
    PyValueError::new_err(format!("invalid input syntax for type {kind}: \"{text}\""))
}

fn invalid_binary(kind: &str) -> PyErr {
    PyValueError::new_err(format!("invalid binary {kind} value"))
}

fn unknown(kind: &str) -> PyErr {
    PyValueError::new_err(format!("unknown chronoid type {kind:?}"))
}

fn text_to_binary<T: Wire>(kind: &str, text: &str) -> PyResult<Vec<u8>> {
    text.parse::<T>()
        .map(|v| v.to_binary())
        .map_err(|_| invalid_text(kind, text))
}

fn binary_value<T: Wire>(kind: &str, data: &[u8]) -> PyResult<T> {
    T::from_binary(data).map_err(|_| invalid_binary(kind))
}

/// `from_text(kind, text) -> bytes`: the binary form of a value's text, as
/// the type's input function reads it (codokey: any key some context can
/// make, as the server's input accepts).
#[pyfunction]
fn from_text<'py>(py: Python<'py>, kind: &str, text: &str) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = match kind {
        "nanoflake" => text_to_binary::<Nanoflake>(kind, text)?,
        "scru160" => text_to_binary::<Scru160>(kind, text)?,
        "codokey" => Codokey::parse_any(text.as_bytes())
            .map(|k| k.to_binary())
            .map_err(|_| invalid_text(kind, text))?,
        "caloriosa" => text_to_binary::<Caloriosa>(kind, text)?,
        "uid60" => text_to_binary::<Uid60>(kind, text)?,
        _ => return Err(unknown(kind)),
    };
    Ok(PyBytes::new(py, &bytes))
}

/// `to_text(kind, data) -> str`: the text the type's output function prints
/// for a binary form, which is checked as the receive function checks it.
#[pyfunction]
fn to_text(kind: &str, data: &[u8]) -> PyResult<String> {
    Ok(match kind {
        "nanoflake" => binary_value::<Nanoflake>(kind, data)?.to_string(),
        "scru160" => binary_value::<Scru160>(kind, data)?.to_string(),
        "codokey" => binary_value::<Codokey>(kind, data)?.to_string(),
        "caloriosa" => binary_value::<Caloriosa>(kind, data)?.to_string(),
        "uid60" => binary_value::<Uid60>(kind, data)?.to_string(),
        _ => return Err(unknown(kind)),
    })
}

fn bounds<'py, T: Wire>(
    py: Python<'py>,
    pair: Option<(T, T)>,
    kind: &str,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (lo, hi) = pair
        .ok_or_else(|| PyValueError::new_err(format!("timestamp out of range for type {kind}")))?;
    Ok((
        PyBytes::new(py, &lo.to_binary()),
        PyBytes::new(py, &hi.to_binary()),
    ))
}

/// `nanoflake_fields(data) -> (ms_since_epoch, generator, sequence)`.
#[pyfunction]
fn nanoflake_fields(data: &[u8]) -> PyResult<(u64, u16, u16)> {
    let v = binary_value::<Nanoflake>("nanoflake", data)?;
    Ok((v.ms_since_epoch(), v.generator(), v.sequence()))
}

/// `nanoflake_bounds(unix_ms, epoch_unix_ms) -> (first, last)`: the binary
/// forms of the smallest and largest nanoflakes of that millisecond.
#[pyfunction]
fn nanoflake_bounds<'py>(
    py: Python<'py>,
    unix_ms: i64,
    epoch_unix_ms: i64,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    bounds(
        py,
        Nanoflake::bounds_of_unix_ms(unix_ms, epoch_unix_ms),
        "nanoflake",
    )
}

/// `caloriosa_fields(data) -> (unix_ms, random, increment)`.
#[pyfunction]
fn caloriosa_fields(data: &[u8]) -> PyResult<(i64, u16, u16)> {
    let v = binary_value::<Caloriosa>("caloriosa", data)?;
    Ok((v.unix_ms(), v.random(), v.increment()))
}

#[pyfunction]
fn caloriosa_bounds<'py>(
    py: Python<'py>,
    unix_ms: i64,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    bounds(
        py,
        Caloriosa::bounds_of_unix_ms(unix_ms, caloriosa::EPOCH_UNIX_MS),
        "caloriosa",
    )
}

/// `caloriosa_from_core_name(text) -> bytes`: a name as Caloriosa's own
/// code (`Caloriosa/core`, alphabet `0-9A-Za-z`) writes it.
#[pyfunction]
fn caloriosa_from_core_name<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyBytes>> {
    let name = Caloriosa::parse_core_name(text.as_bytes()).map_err(|_| {
        PyValueError::new_err(format!(
            "invalid Caloriosa/core name (11 characters of 0-9A-Za-z): \"{text}\""
        ))
    })?;
    Ok(PyBytes::new(py, &name.to_binary()))
}

/// `caloriosa_to_core_name(data) -> str`.
#[pyfunction]
fn caloriosa_to_core_name(data: &[u8]) -> PyResult<String> {
    let name = binary_value::<Caloriosa>("caloriosa", data)?;
    Ok(String::from_utf8(name.encode_core_name().to_vec()).expect("ASCII"))
}

/// `uid60_fields(data) -> (unix_ms, sequence, random)`.
#[pyfunction]
fn uid60_fields(data: &[u8]) -> PyResult<(i64, u16, u16)> {
    let v = binary_value::<Uid60>("uid60", data)?;
    Ok((v.unix_ms(), v.sequence(), v.random()))
}

#[pyfunction]
fn uid60_bounds<'py>(
    py: Python<'py>,
    unix_ms: i64,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    bounds(
        py,
        Uid60::bounds_of_unix_ms(unix_ms, uid60::EPOCH_UNIX_MS),
        "uid60",
    )
}

/// `scru160_fields(data) -> (unix_ms, counter, random16, random80)`.
#[pyfunction]
fn scru160_fields(data: &[u8]) -> PyResult<(u64, u16, u16, u128)> {
    let v = binary_value::<Scru160>("scru160", data)?;
    Ok((v.timestamp(), v.counter(), v.random16(), v.random80()))
}

/// `scru160_to_hex(data) -> str`: the 40-digit hex form (`scru160_to_hex`).
#[pyfunction]
fn scru160_to_hex(data: &[u8]) -> PyResult<String> {
    let v = binary_value::<Scru160>("scru160", data)?;
    Ok(String::from_utf8(v.encode_hex().to_vec()).expect("ASCII"))
}

#[pyfunction]
fn scru160_bounds<'py>(
    py: Python<'py>,
    unix_ms: i64,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let pair = u64::try_from(unix_ms).ok().and_then(Scru160::bounds_of_ms);
    bounds(py, pair, "scru160")
}

/// The process's scru160 generator: the spec's counter rules (a random
/// counter start per millisecond, counting up within it, a clock stepped
/// back by up to 10 s treated as the last millisecond), shared by every
/// thread so that IDs made in one process increase.
static SCRU160: Mutex<scru160::Generator> = Mutex::new(scru160::Generator::new());

/// `scru160_generate() -> bytes`: a new scru160 from the system clock.
#[pyfunction]
fn scru160_generate<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let mut generator = SCRU160.lock().unwrap_or_else(|e| e.into_inner());
    let (id, _notice) = generator
        .generate(now_ms, &mut rand::rng())
        .map_err(|e| PyValueError::new_err(format!("scru160: {e:?}")))?;
    Ok(PyBytes::new(py, id.as_bytes()))
}

fn context(year_zero: i32, max_year: i32, fraction_max: u32) -> PyResult<Context> {
    Context::new(year_zero, max_year, fraction_max)
        .map_err(|e| PyValueError::new_err(format!("invalid codokey context: {e:?}")))
}

/// `codokey_decode(text, year_zero, max_year, fraction_max) -> (unix_micros,
/// precision)`: what `codokey_timestamp` and `codokey_precision` give.
#[pyfunction]
fn codokey_decode(
    text: &str,
    year_zero: i32,
    max_year: i32,
    fraction_max: u32,
) -> PyResult<(i128, u8)> {
    let ctx = context(year_zero, max_year, fraction_max)?;
    let key = Codokey::parse(&ctx, text.as_bytes()).map_err(|_| invalid_text("codokey", text))?;
    let decoded = key.decode(&ctx).map_err(|e| {
        PyValueError::new_err(format!(
            "codokey {text:?} does not decode in this context: {e:?}"
        ))
    })?;
    Ok((decoded.unix_micros, decoded.precision))
}

/// `codokey_encode(unix_micros, precision, year_zero, max_year,
/// fraction_max) -> str`: `codokey(timestamptz, precision)`.
#[pyfunction]
fn codokey_encode(
    unix_micros: i128,
    precision: u8,
    year_zero: i32,
    max_year: i32,
    fraction_max: u32,
) -> PyResult<String> {
    let ctx = context(year_zero, max_year, fraction_max)?;
    Codokey::encode(&ctx, unix_micros, precision)
        .map(|k| k.as_str().to_owned())
        .map_err(|e| PyValueError::new_err(format!("codokey: {e:?}")))
}

/// `codokey_bounds(...) -> (floor, ceil)`: `codokey_floor` and `codokey_ceil`.
#[pyfunction]
fn codokey_bounds(
    unix_micros: i128,
    precision: u8,
    year_zero: i32,
    max_year: i32,
    fraction_max: u32,
) -> PyResult<(String, String)> {
    let ctx = context(year_zero, max_year, fraction_max)?;
    Codokey::period_bounds(&ctx, unix_micros, precision)
        .map(|(lo, hi)| (lo.as_str().to_owned(), hi.as_str().to_owned()))
        .map_err(|e| PyValueError::new_err(format!("codokey: {e:?}")))
}

/// `to_int(kind, data) -> int`: the bigint cast of an 8-byte type.
#[pyfunction]
fn to_int(kind: &str, data: &[u8]) -> PyResult<i64> {
    match kind {
        "nanoflake" => binary_value::<Nanoflake>(kind, data).map(|v| v.to_i64()),
        "caloriosa" => binary_value::<Caloriosa>(kind, data).map(|v| v.to_i64()),
        "uid60" => binary_value::<Uid60>(kind, data).map(|v| v.to_i64()),
        _ => Err(unknown(kind)),
    }
}

/// `from_int(kind, n) -> bytes`: the cast from bigint, checked.
#[pyfunction]
fn from_int<'py>(py: Python<'py>, kind: &str, n: i64) -> PyResult<Bound<'py, PyBytes>> {
    let data = n.to_be_bytes();
    match kind {
        "nanoflake" => binary_value::<Nanoflake>(kind, &data).map(|_| ()),
        "caloriosa" => binary_value::<Caloriosa>(kind, &data).map(|_| ()),
        "uid60" => binary_value::<Uid60>(kind, &data).map(|_| ()),
        _ => Err(unknown(kind)),
    }
    .map_err(|_| PyValueError::new_err(format!("{n} is out of range for type {kind}")))?;
    Ok(PyBytes::new(py, &data))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(from_text, m)?)?;
    m.add_function(wrap_pyfunction!(to_text, m)?)?;
    m.add_function(wrap_pyfunction!(to_int, m)?)?;
    m.add_function(wrap_pyfunction!(from_int, m)?)?;
    m.add_function(wrap_pyfunction!(nanoflake_fields, m)?)?;
    m.add_function(wrap_pyfunction!(nanoflake_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(caloriosa_fields, m)?)?;
    m.add_function(wrap_pyfunction!(caloriosa_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(caloriosa_from_core_name, m)?)?;
    m.add_function(wrap_pyfunction!(caloriosa_to_core_name, m)?)?;
    m.add_function(wrap_pyfunction!(uid60_fields, m)?)?;
    m.add_function(wrap_pyfunction!(uid60_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(scru160_fields, m)?)?;
    m.add_function(wrap_pyfunction!(scru160_to_hex, m)?)?;
    m.add_function(wrap_pyfunction!(scru160_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(scru160_generate, m)?)?;
    m.add_function(wrap_pyfunction!(codokey_decode, m)?)?;
    m.add_function(wrap_pyfunction!(codokey_encode, m)?)?;
    m.add_function(wrap_pyfunction!(codokey_bounds, m)?)?;
    m.add(
        "DEFAULT_NANOFLAKE_EPOCH_UNIX_MS",
        chronoid_formats::nanoflake::DEFAULT_EPOCH_UNIX_MS,
    )?;
    Ok(())
}
