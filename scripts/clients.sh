#!/usr/bin/env bash
# Builds chronoid's client packages (`make clients`):
#
#   scripts/clients.sh [OUTDIR]          -> OUTDIR (default dist/):
#     chronoid-VERSION-cp310-abi3-*.whl  the Python package (python/), one
#     chronoid-VERSION.tar.gz            wheel for every CPython >= 3.10, and
#                                        its sdist (builds with maturin + cargo)
#
# The Python package compiles the formats crate into its native module
# (maturin and PyO3), so the codecs are the ones the server runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

out=$(realpath -m "${1:-dist}")
mkdir -p "$out"
maturin=$CHRONOID_VENV/bin/maturin
[ -x "$maturin" ] || bash scripts/setup.sh --test >/dev/null
version=$(chronoid_version)
rm -f "$out"/chronoid-"$version"-*.whl "$out"/chronoid-"$version".tar.gz "$out"/chronoid-"$version".tgz
(cd python && "$maturin" build --release --interpreter /usr/bin/python3 --out "$out" --quiet) >/dev/null 2>&1 \
    || (cd python && "$maturin" build --release --interpreter /usr/bin/python3 --out "$out")
(cd python && "$maturin" sdist --out "$out") >/dev/null 2>&1 || (cd python && "$maturin" sdist --out "$out")

# Node: the WebAssembly build of the codecs, embedded; tsup's ESM, CommonJS
# and .d.ts builds (the locked dev dependencies); npm pack.
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || bash scripts/setup.sh --test >/dev/null
cargo build -q --release --target wasm32-unknown-unknown -p chronoid-wasm
node node/scripts/embed-wasm.mjs target/wasm32-unknown-unknown/release/chronoid_wasm.wasm
(cd node && npm ci --no-audit --no-fund --silent && npx tsup --silent >/dev/null && npm pack --silent --pack-destination "$out" >/dev/null)
ls "$out"/chronoid-"$version"-*.whl "$out"/chronoid-"$version".tar.gz "$out"/chronoid-"$version".tgz
