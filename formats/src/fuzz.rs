//! Mutation fuzzing of every text and binary decoder, on stable Rust and
//! without a fuzzing engine: valid encodings are mutated (bytes flipped,
//! inserted, deleted, truncated, cases changed, alphabets crossed) and fed to
//! the parsers, with purely random byte strings mixed in. A parser must never
//! panic; whatever it accepts must re-encode canonically and parse back to the
//! same value.
//!
//! `cargo test` runs a quick pass; `CHRONOID_FUZZ_ITERATIONS=N` sets the
//! number of inputs per decoder (scripts/test.sh runs 2,000,000 each).

use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};

use super::caloriosa::Caloriosa;
use super::codokey::{Codokey, Context};
use super::nanoflake::Nanoflake;
use super::scru160::Scru160;
use super::uid60::Uid60;

const ALPHABETS: &[u8] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_+= .\x00\x7f\xff\xc3\xa9";

pub fn iterations() -> usize {
    std::env::var("CHRONOID_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000)
}

/// One mutation of `seed`, or random bytes.
pub fn mutate(rng: &mut StdRng, seed: &[u8]) -> Vec<u8> {
    let mut s = seed.to_vec();
    let rounds = rng.random_range(1..=3);
    for _ in 0..rounds {
        match rng.random_range(0..9) {
            0 if !s.is_empty() => {
                let i = rng.random_range(0..s.len());
                s[i] = ALPHABETS[rng.random_range(0..ALPHABETS.len())];
            }
            1 => {
                let i = rng.random_range(0..=s.len());
                s.insert(i, ALPHABETS[rng.random_range(0..ALPHABETS.len())]);
            }
            2 if !s.is_empty() => {
                s.remove(rng.random_range(0..s.len()));
            }
            3 => s.truncate(rng.random_range(0..=s.len())),
            4 => s.make_ascii_uppercase(),
            5 => s.make_ascii_lowercase(),
            6 if !s.is_empty() => {
                let i = rng.random_range(0..s.len());
                s[i] ^= 1 << rng.random_range(0..8);
            }
            7 => {
                let len = rng.random_range(0..48);
                s = (0..len).map(|_| rng.random::<u8>()).collect();
            }
            _ => s.extend_from_slice(&seed[..rng.random_range(0..=seed.len())]),
        }
    }
    s
}

/// Runs `iterations()` mutated inputs through `check`, seeded from `seeds`.
pub fn run(
    name: &str,
    seeds: impl Fn(&mut StdRng) -> Vec<u8>,
    mut check: impl FnMut(&[u8]),
) -> usize {
    let mut rng = StdRng::seed_from_u64(
        name.bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
    );
    let n = iterations();
    for _ in 0..n {
        let seed = seeds(&mut rng);
        let input = mutate(&mut rng, &seed);
        check(&input);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_nanoflake_text_and_binary() {
        run(
            "nanoflake",
            |r| {
                Nanoflake::from_i64(r.random::<i64>() & i64::MAX)
                    .unwrap()
                    .to_string()
                    .into_bytes()
            },
            |input| {
                if let Ok(id) = Nanoflake::parse(input) {
                    assert_eq!(Nanoflake::parse(id.to_string().as_bytes()), Ok(id));
                }
                // Binary receive: any 8 bytes; the sign decides.
                if input.len() >= 8 {
                    let v = i64::from_be_bytes(input[..8].try_into().unwrap());
                    assert_eq!(Nanoflake::from_i64(v).is_some(), v >= 0);
                }
            },
        );
    }

    #[test]
    fn fuzz_scru160_text_and_binary() {
        run(
            "scru160",
            |r| {
                let mut b = [0u8; 20];
                r.fill_bytes(&mut b);
                let id = Scru160::from_bytes(b);
                if r.random_bool(0.5) {
                    id.encode().to_vec()
                } else {
                    id.encode_hex().to_vec()
                }
            },
            |input| {
                if let Ok(id) = Scru160::parse(input) {
                    assert_eq!(Scru160::parse(&id.encode()), Ok(id));
                    assert!(input.len() == 32 || input.len() == 40);
                }
            },
        );
    }

    #[test]
    fn fuzz_caloriosa_text_and_binary() {
        run(
            "caloriosa",
            |r| {
                Caloriosa::from_u64(r.random::<u64>() | 1 << 63)
                    .unwrap()
                    .encode()
                    .to_vec()
            },
            |input| {
                if let Ok(name) = Caloriosa::parse(input) {
                    assert_eq!(&name.encode()[..], input);
                }
                if input.len() >= 8 {
                    let v = u64::from_be_bytes(input[..8].try_into().unwrap());
                    assert_eq!(Caloriosa::from_u64(v).is_some(), v >> 63 == 1);
                }
            },
        );
    }

    #[test]
    fn fuzz_uid60_text_and_binary() {
        run(
            "uid60",
            |r| {
                Uid60::from_u64(r.random::<u64>() >> r.random_range(4..64))
                    .unwrap()
                    .to_string()
                    .into_bytes()
            },
            |input| {
                if let Ok(id) = Uid60::parse(input) {
                    assert_eq!(
                        id.to_string().as_bytes(),
                        input,
                        "only canonical forms are accepted"
                    );
                }
                if input.len() >= 8 {
                    let v = u64::from_be_bytes(input[..8].try_into().unwrap());
                    assert_eq!(Uid60::from_u64(v).is_some(), v < 1 << 60);
                }
            },
        );
    }

    #[test]
    fn fuzz_codokey_text_and_binary() {
        let contexts = [
            Context::new(1970, 3265, 9).unwrap(),
            Context::new(1970, 3265, 999_999).unwrap(),
            Context::new(2000, 2099, 99).unwrap(),
        ];
        run(
            "codokey",
            |r| {
                let ctx = &contexts[r.random_range(0..contexts.len())];
                let t = r.random_range(0..4_000_000_000_000_000i64);
                Codokey::encode(ctx, t.into(), r.random_range(0..=6))
                    .map(|k| k.to_string().into_bytes())
                    .unwrap_or_default()
            },
            |input| {
                for ctx in &contexts {
                    if let Ok(key) = Codokey::parse(ctx, input) {
                        let d = key.decode(ctx).unwrap();
                        assert_eq!(
                            Codokey::encode(ctx, d.unix_micros, d.precision).unwrap(),
                            key
                        );
                    }
                }
                // Binary receive: digit values, then the same validation.
                if let Some(key) = Codokey::from_storage(input) {
                    assert_eq!(key.to_storage(), input);
                }
            },
        );
    }
}
