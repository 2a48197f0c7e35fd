#!/usr/bin/env bash
# `npm pack` as npm users run it (issue 31), as root (it builds with cargo):
#
#   tests/node_pack.sh          (scripts/test.sh runs it with its static checks)
#
# 1. In the node/ of a clean checkout (this work tree's files that git tracks
#    or would track: no dist/, node_modules/ or src/wasm-bytes.ts, no
#    target/), npm pack builds the package itself (node/package.json's
#    prepack hook, node/scripts/prepack.mjs); the tarball, npm-installed
#    into a fresh project, imports as ESM and as CommonJS, and a value parses
#    and prints. Without the hook the tarball has no dist/ and this fails.
# 2. node/ alone, outside a checkout, refuses to pack (exit non-zero),
#    saying to run `make clients`, and leaves no tarball.
# (tests/t/025_node_package.pl tests the tarball `make clients` packs in
# full, with the drivers, against a server.)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(node -p "require('./node/package.json').version")
work=$(mktemp -d /tmp/chronoid-npm-pack.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "tests/node_pack.sh: $*" >&2; exit 1; }
tarball=$work/chronoid-$version.tgz

mkdir "$work/checkout"
git ls-files -z --cached --others --exclude-standard \
    | while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done \
    | tar --null -T - -cf - | tar -xf - -C "$work/checkout"
[ ! -e "$work/checkout/node/dist" ] && [ ! -e "$work/checkout/node/node_modules" ] \
    || fail "the clean checkout has node/dist or node/node_modules"

# 2. node/ alone.
cp -r "$work/checkout/node" "$work/alone"
if (cd "$work/alone" && npm pack --pack-destination "$work" >"$work/alone.log" 2>&1); then
    cat "$work/alone.log" >&2
    fail "npm pack in node/ outside a checkout packed"
fi
grep -q 'run `make clients` from a chronoid checkout' "$work/alone.log" \
    || { cat "$work/alone.log" >&2; fail "npm pack outside a checkout does not say to run make clients"; }
[ ! -e "$tarball" ] || fail "npm pack outside a checkout left $tarball"
echo "ok: npm pack in node/ alone refuses: $(grep -m1 'chronoid: npm pack:' "$work/alone.log")"

# 1. The clean checkout. cargo builds in a target directory of its own under
# this tree's target/ (kept between runs, apart from the tree's own builds).
(cd "$work/checkout/node" && CARGO_TARGET_DIR="$root/target/npm-pack" \
    npm pack --silent --pack-destination "$work" >"$work/pack.log" 2>&1) \
    || { cat "$work/pack.log" >&2; fail "npm pack in a clean checkout's node/ failed"; }
[ -f "$tarball" ] || fail "npm pack made no $tarball"
files=$(tar -tzf "$tarball")
for f in package/dist/index.js package/dist/index.cjs package/dist/index.d.ts package/package.json; do
    grep -qx "$f" <<<"$files" || fail "the tarball of a clean checkout has no $f"
done
echo "ok: npm pack in a clean checkout's node/ builds the package ($(wc -l <<<"$files") files)"

mkdir "$work/project"
cd "$work/project"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "$tarball"
cat >esm.mjs <<'JS'
import { Nanoflake } from 'chronoid';
const id = Nanoflake.fromText('3KGEOQM2H3');
console.log(`${id} ${id.toBigInt()}`);
JS
cat >cjs.cjs <<'JS'
const { Nanoflake } = require('chronoid');
const id = Nanoflake.fromText('3KGEOQM2H3');
console.log(`${id} ${id.toBigInt()}`);
JS
expected='3kgeoqm2h3 362387865620487'
for program in esm.mjs cjs.cjs; do
    got=$(node "$program" 2>&1) || fail "node $program, the installed tarball: $got"
    [ "$got" = "$expected" ] || fail "node $program printed '$got', not '$expected'"
    echo "ok: installed from the tarball, $program: $got"
done
