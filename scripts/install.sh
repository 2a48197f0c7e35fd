#!/usr/bin/env bash
# Builds chronoid and installs it into the PostgreSQL that PG_CONFIG names,
# without ever rewriting a file in place:
#
#   scripts/install.sh [--debug]     build (release unless --debug) and install
#   scripts/install.sh --build       only build (what `make` / `make all` does)
#   scripts/install.sh --detach      only unlink the installed library (below)
#   scripts/install.sh --uninstall   remove what an install wrote
#   make install / make uninstall    the same, with PG_CONFIG=… DESTDIR=…
#
# Environment: PG_CONFIG (default: the system PostgreSQL 15), DESTDIR,
# CHRONOID_INSTALL_PROFILE (a cargo profile; default release, the tests use
# the quicker-to-build test-install for majors other than 15),
# CHRONOID_PREBUILT (install the files of an earlier --build, copied there,
# without cargo: how a test installs as a user that has no cargo),
# CHRONOID_INSTALL_FEATURES (more cargo features; `make test` builds with
# pg_test, see below).
#
# pg_test: the library then also holds the in-database tests of pgrx-tests/
# (tests/t/034_pg_tests.pl calls them), so that the tests run on the very
# build that is installed instead of one of their own (`cargo pgrx test`
# builds the crate twice more per major). pgrx writes their functions into
# the install script, in a `tests` schema; they are moved out of it into
# pg_tests.sql beside it (the build's directory, never installed), so the
# extension's objects are the same with and without the feature.
#
# Why: a running server maps chronoid.so into every backend. Copying over
# it (what `cp` and `cargo pgrx install` do: open, truncate, write) changes
# the pages those backends execute, and they die with SIGSEGV. Each file is
# instead written beside its destination and renamed over it: a rename
# swaps the directory entry, running servers keep the old file (inode) they
# have mapped, and pick up the new one when they restart.
#
# --detach unlinks the installed library, for a tool that copies in place
# (`cargo pgrx test` installs its test build so): the copy then creates a
# new file instead of rewriting the mapped one.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

PG_CONFIG=${PG_CONFIG:-$SYSTEM_PG_CONFIG}
DESTDIR=${DESTDIR:-}
pkglibdir=$("$PG_CONFIG" --pkglibdir)
sharedir=$("$PG_CONFIG" --sharedir)
major=$(major_of "$PG_CONFIG")

if [ "${1:-}" = --detach ]; then
    rm -f "$DESTDIR$pkglibdir/chronoid.so"
    exit 0
fi

# --uninstall removes exactly the files an install of this tree writes: the
# library, the control file, this version's install script, the update
# scripts and the released install scripts (names from sql/, nothing else).
if [ "${1:-}" = --uninstall ]; then
    version=$(chronoid_version)
    rm -f "$DESTDIR$pkglibdir/chronoid.so" "$DESTDIR$sharedir/extension/chronoid.control" \
        "$DESTDIR$sharedir/extension/chronoid--$version.sql"
    for f in sql/chronoid--*--*.sql sql/versions/chronoid--*.sql; do
        rm -f "$DESTDIR$sharedir/extension/$(basename "$f")"
    done
    echo "removed chronoid $version from $DESTDIR$pkglibdir and $DESTDIR$sharedir/extension"
    exit 0
fi

# split_pg_tests SCRIPT OUT: the blocks pgrx writes for the `tests` schema
# (each between its "<begin connected objects>" and "</end connected
# objects>" comments) go from SCRIPT to OUT; OUT is empty without pg_test.
split_pg_tests() {
    python3 - "$1" "$2" <<'PY'
import re, sys
script, out = sys.argv[1], sys.argv[2]
text = open(script).read()
block = re.compile(r"/\* <begin connected objects> \*/\n.*?/\* </end connected objects> \*/\n\n?", re.S)
tests = lambda b: re.search(r'^CREATE SCHEMA IF NOT EXISTS tests;|^CREATE +FUNCTION tests\.', b, re.M)
moved = [b.group(0) for b in block.finditer(text) if tests(b.group(0))]
kept = block.sub(lambda b: "" if tests(b.group(0)) else b.group(0), text)
if re.search(r"\btests\.\"", kept):
    sys.exit(f"{script}: a test function is left outside its block")
open(script, "w").write(kept)
open(out, "w").write("".join(moved))
PY
}

profile=${CHRONOID_INSTALL_PROFILE:-release}
flags=(--profile "$profile")
build_only=no
if [ "${1:-}" = --build ]; then build_only=yes; fi
if [ "${1:-}" = --debug ]; then
    profile=debug
    flags=(--debug)
fi
if [ -n "${CHRONOID_PREBUILT:-}" ]; then
    # Its paths are those of the pg_config it was built for: find the files.
    lib=$(find "$CHRONOID_PREBUILT" -name chronoid.so | head -1)
    ext=$(dirname "$(find "$CHRONOID_PREBUILT" -name chronoid.control | head -1)")
else
    out=target/$profile/chronoid-pg$major
    # cargo locks its directory while it compiles, not while cargo pgrx
    # copies the library and generates the SQL from it: two builds for two
    # majors with one profile (scripts/test.sh runs a major's TAP files
    # beside the next major's build) would take each other's library. One
    # build and copy at a time, per target directory and profile (a build
    # of another profile, maybe at the lowest priority in the background,
    # never holds this one up).
    target=${CARGO_TARGET_DIR:-target}
    mkdir -p "$target"
    exec 9>"$target/.chronoid-install-$profile.lock"
    flock 9
    cargo pgrx package --pg-config "$PG_CONFIG" --no-default-features \
        --features "pg$major ${CHRONOID_INSTALL_FEATURES:-}" --out-dir "$out" "${flags[@]}" >/dev/null
    split_pg_tests "$out$sharedir/extension/chronoid--$(chronoid_version).sql" "$out/pg_tests.sql"
    if [ $build_only = yes ]; then
        echo "built chronoid for PostgreSQL $major in $out"
        exit 0
    fi
    # The install below copies from $out, which only a build of this major
    # and profile rewrites.
    flock -u 9
    lib=$out$pkglibdir/chronoid.so
    ext=$out$sharedir/extension
fi

# put SOURCE DIR: SOURCE into DIR under its own name, by rename.
put() {
    local src=$1 dir=$2 name tmp
    name=$(basename "$src")
    mkdir -p "$dir"
    tmp=$(mktemp "$dir/.$name.XXXXXX")
    cp "$src" "$tmp"
    chmod 644 "$tmp"
    [ "${src##*.}" = so ] && chmod 755 "$tmp"
    mv -f "$tmp" "$dir/$name"
}

put "$lib" "$DESTDIR$pkglibdir"
for f in "$ext"/chronoid*; do
    put "$f" "$DESTDIR$sharedir/extension"
done
# Released install scripts of earlier versions, for updates from them.
for f in sql/versions/chronoid--*.sql; do
    put "$f" "$DESTDIR$sharedir/extension"
done
echo "installed chronoid $(chronoid_version) into $DESTDIR$pkglibdir and $DESTDIR$sharedir/extension"
