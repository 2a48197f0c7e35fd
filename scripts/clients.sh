#!/usr/bin/env bash
# Builds chronoid's client packages (`make clients`):
#
#   scripts/clients.sh [OUTDIR]          -> OUTDIR (default dist/):
#     chronoid-VERSION-cp310-abi3-*.whl  the Python package (python/), one
#     chronoid-VERSION.tar.gz            wheel for every CPython >= 3.10, and
#                                        its sdist (builds with maturin + cargo)
#     chronoid-VERSION.tgz               the Node package (node/), npm pack
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

# Node: the locked dev dependencies, then npm pack, whose prepack hook
# (node/scripts/prepack.mjs, as for any npm pack or npm publish) builds what
# the tarball ships: the WebAssembly build of the codecs, embedded, and
# tsup's ESM, CommonJS and .d.ts builds.
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || bash scripts/setup.sh --test >/dev/null
(cd node && npm ci --no-audit --no-fund --silent && npm pack --silent --pack-destination "$out" >/dev/null)
ls "$out"/chronoid-"$version"-*.whl "$out"/chronoid-"$version".tar.gz "$out"/chronoid-"$version".tgz
