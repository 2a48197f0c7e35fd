#!/usr/bin/env bash
# Runs every test of chronoid, on every supported PostgreSQL major:
#   1. pure-Rust unit and property tests of the formats, and the in-database
#      #[pg_test]s (cargo pgrx test, which starts its own PostgreSQL);
#   2. pg_regress SQL tests (tests/regress) against a real cluster with
#      chronoid preloaded, started by scripts/cluster.sh;
#   3. TAP-style shell tests (tests/tap): concurrency and other multi-backend
#      or multi-server properties, dump/restore, upgrades, pg_upgrade.
#
# The matrix (CHRONOID_MAJORS, default "15 18 16 17"): the whole suite on the
# majors in CHRONOID_FULL_MAJORS (default "15 18"); on the others the pgrx
# tests, pg_regress, dump/restore and the extension-upgrade tests. 15 is the
# system's (Debian's); the others are fetched once by scripts/postgres.sh.
# The pure-Rust tests do not depend on the major: the 10M-input fuzzing runs
# on the first major only. PG_CONFIG=... tests just that PostgreSQL, fully.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
major_of() { "$1" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/'; }

if [ -n "${PG_CONFIG:-}" ]; then
    MAJORS=$(major_of "$PG_CONFIG")
    FULL=$MAJORS
    declare -A CONFIG=([$MAJORS]=$PG_CONFIG)
else
    MAJORS=${CHRONOID_MAJORS:-15 18 16 17}
    FULL=${CHRONOID_FULL_MAJORS:-15 18}
    declare -A CONFIG=()
fi

bash scripts/setup.sh
for m in $MAJORS; do
    [ -n "${CONFIG[$m]:-}" ] || CONFIG[$m]=$(scripts/postgres.sh "$m")
done
# cargo pgrx knows every major's pg_config (one call: init rewrites its config).
init=()
for m in $MAJORS; do init+=("--pg$m" "${CONFIG[$m]}"); done
cargo pgrx init "${init[@]}" >/dev/null

WORK=$(mktemp -d /tmp/chronoid-test.XXXXXX)
chmod 755 "$WORK"
export CHRONOID_TEST_WORK=$WORK
trap 'for d in "$WORK"/*/data; do scripts/cluster.sh stop "$d" || true; done' EXIT

fuzz=${CHRONOID_FUZZ_ITERATIONS:-2000000}
failed=()
for m in $MAJORS; do
    export PG_CONFIG=${CONFIG[$m]}
    BIN=$("$PG_CONFIG" --bindir)
    PG_REGRESS=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress
    full=no
    [[ " $FULL " == *" $m "* ]] && full=yes
    mkdir -p "$WORK/$m" && chown postgres: "$WORK/$m"
    export CHRONOID_TEST_WORK=$WORK/$m

    step "PostgreSQL $m ($("$PG_CONFIG" --version)): unit, property and in-database tests (cargo pgrx test)"
    # Mutation fuzzing of every decoder: $fuzz inputs each (src/core/fuzz.rs).
    # cargo pgrx test copies its build over the installed library in place:
    # unlink that first, so the copy is a new file and servers running the
    # old one keep it (scripts/install.sh says why).
    scripts/install.sh --detach
    CHRONOID_FUZZ_ITERATIONS=$fuzz cargo pgrx test "pg$m" --runas postgres --pgdata "$WORK/$m/pgrx"
    fuzz=20000

    # 15, the system's, gets the release build users install; the other
    # majors a build that takes a third of the time (no LTO).
    if [ "$m" = "$(echo $MAJORS | cut -d' ' -f1)" ]; then
        export CHRONOID_INSTALL_PROFILE=release
    else
        export CHRONOID_INSTALL_PROFILE=test-install
    fi
    step "PostgreSQL $m: install ($CHRONOID_INSTALL_PROFILE build)"
    scripts/install.sh

    step "PostgreSQL $m: pg_regress (tests/regress)"
    # The server reads the conformance vectors, so give it a copy it can read.
    cp -r tests/vectors "$WORK/$m/vectors" && chmod -R a+rX "$WORK/$m/vectors"
    export CHRONOID_VECTORS=$WORK/$m/vectors
    PORT=$(scripts/cluster.sh port)
    scripts/cluster.sh start "$WORK/$m/data" "$PORT"
    mkdir -p "$WORK/$m/regress"
    if ! "$PG_REGRESS" --bindir="$BIN" --inputdir=tests/regress \
        --outputdir="$WORK/$m/regress" --host=127.0.0.1 --port="$PORT" --user=postgres \
        --dbname=chronoid_regress --schedule=tests/regress/schedule; then
        head -200 "$WORK/$m/regress/regression.diffs" 2>/dev/null || true
        failed+=("PostgreSQL $m: pg_regress")
    fi

    step "PostgreSQL $m: TAP tests (tests/tap)"
    export CHRONOID_PORT=$PORT CHRONOID_DATA=$WORK/$m/data
    if [ $full = yes ]; then
        taps=(tests/tap/*.sh)
    else
        taps=(tests/tap/dump_restore.sh tests/tap/codokey_restore.sh tests/tap/upgrade.sh)
    fi
    for t in "${taps[@]}"; do
        echo "# $t"
        bash "$t" || failed+=("PostgreSQL $m: $t")
    done
    scripts/cluster.sh stop "$WORK/$m/data"
done

# A cluster of the oldest major, upgraded with pg_upgrade to the newest.
majors_sorted=$(printf '%s\n' $MAJORS | sort -n)
old=$(echo "$majors_sorted" | head -1) new=$(echo "$majors_sorted" | tail -1)
if [ "$old" != "$new" ]; then
    step "pg_upgrade from PostgreSQL $old to $new"
    mkdir -p "$WORK/pg_upgrade" && chown postgres: "$WORK/pg_upgrade"
    CHRONOID_TEST_WORK=$WORK/pg_upgrade OLD_PG_CONFIG=${CONFIG[$old]} NEW_PG_CONFIG=${CONFIG[$new]} \
        bash tests/pg_upgrade.sh || failed+=("pg_upgrade $old -> $new")
fi

if [ ${#failed[@]} -gt 0 ]; then
    printf 'FAILED: %s\n' "${failed[@]}"
    exit 1
fi
step "all tests passed on PostgreSQL $(echo $MAJORS | tr ' ' ',')"
