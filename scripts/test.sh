#!/usr/bin/env bash
# Runs every test of chronoid:
#   1. pure-Rust unit and property tests of the formats, and the in-database
#      #[pg_test]s (cargo pgrx test, which starts its own PostgreSQL);
#   2. pg_regress SQL tests (tests/regress) against a real cluster with
#      chronoid preloaded, started by scripts/cluster.sh;
#   3. TAP-style shell tests (tests/tap): concurrency and other multi-backend
#      or multi-server properties.
set -euo pipefail
cd "$(dirname "$0")/.."

# Which PostgreSQL: PG_CONFIG (default: the system 15); every script and
# test below finds its programs through it.
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
BIN=$("$PG_CONFIG" --bindir)
PGXS=$(dirname "$($PG_CONFIG --pgxs)")
PG_REGRESS=$PGXS/../test/regress/pg_regress
WORK=$(mktemp -d /tmp/chronoid-test.XXXXXX)
chmod 755 "$WORK"
PORT=${CHRONOID_TEST_PORT:-$(scripts/cluster.sh port)}
export CHRONOID_TEST_WORK=$WORK

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

cleanup() {
    scripts/cluster.sh stop "$WORK/data" || true
}
trap cleanup EXIT

bash scripts/setup.sh

step "unit, property and in-database tests (cargo pgrx test)"
mkdir -p "$WORK/pgrx" && chown postgres: "$WORK/pgrx"
# Mutation fuzzing of every decoder: 2,000,000 inputs each (src/core/fuzz.rs).
# cargo pgrx test copies its build over the installed library in place:
# unlink that first, so the copy is a new file and servers running the old
# one keep it (scripts/install.sh says why).
PG_CONFIG=$PG_CONFIG scripts/install.sh --detach
CHRONOID_FUZZ_ITERATIONS=${CHRONOID_FUZZ_ITERATIONS:-2000000} \
    cargo pgrx test "pg$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')" --runas postgres --pgdata "$WORK/pgrx/data"

step "install the release build"
PG_CONFIG=$PG_CONFIG scripts/install.sh

step "pg_regress (tests/regress)"
# The server reads the conformance vectors, so give it a copy it can read.
cp -r tests/vectors "$WORK/vectors" && chmod -R a+rX "$WORK/vectors"
export CHRONOID_VECTORS=$WORK/vectors
scripts/cluster.sh start "$WORK/data" "$PORT"
mkdir -p "$WORK/regress"
if ! "$PG_REGRESS" --bindir="$BIN" --inputdir=tests/regress \
    --outputdir="$WORK/regress" --host=127.0.0.1 --port="$PORT" --user=postgres \
    --dbname=chronoid_regress --schedule=tests/regress/schedule; then
    cat "$WORK/regress/regression.diffs" 2>/dev/null | head -200
    exit 1
fi

step "TAP tests (tests/tap)"
export CHRONOID_PORT=$PORT CHRONOID_DATA=$WORK/data
failed=0
for t in tests/tap/*.sh; do
    echo "# $t"
    if ! bash "$t"; then
        echo "FAILED: $t"
        failed=1
    fi
done
[ "$failed" -eq 0 ] || exit 1

step "all tests passed"
