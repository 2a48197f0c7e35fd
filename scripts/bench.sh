#!/usr/bin/env bash
# The benchmark: starts its own cluster, runs bench/*.sql (every comparison
# in one run, median of 5, comparisons interleaved), and writes BENCHMARKS.md.
#   make bench                       # everything
#   scripts/bench.sh nanoflake       # only bench/nanoflake.sql
#   (suites: generate insert nanoflake scru160 codokey; uuidv7 on PostgreSQL 18)
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${CHRONOID_BENCH_DATA:-/tmp/chronoid-bench}
PORT=${CHRONOID_BENCH_PORT:-$(scripts/cluster.sh port)}
OUT=${CHRONOID_BENCH_OUT:-BENCHMARKS.md}
SETTINGS=(
    "shared_buffers = '2GB'" "work_mem = '1GB'" "maintenance_work_mem = '2GB'"
    "max_wal_size = '16GB'" "checkpoint_timeout = '1h'" "synchronous_commit = off"
    "max_parallel_workers_per_gather = 0" "max_parallel_maintenance_workers = 0" "jit = off"
)
suites=("$@")
# CHRONOID_BENCH_N / CHRONOID_BENCH_INSERT_N: rows per statement (defaults in
# each bench/*.sql: 10,000,000 and 5,000,000; the counter-capped generators
# 2,000,000), for a quicker run.
sizes=()
[ -z "${CHRONOID_BENCH_N:-}" ] || sizes+=(-v "N=$CHRONOID_BENCH_N")
[ -z "${CHRONOID_BENCH_INSERT_N:-}" ] || sizes+=(-v "INSERT_N=$CHRONOID_BENCH_INSERT_N")
[ ${#suites[@]} -gt 0 ] || suites=(generate insert nanoflake scru160 codokey)

bash scripts/setup.sh
scripts/install.sh
scripts/cluster.sh stop "$DATA" || true
rm -rf "$DATA"
scripts/cluster.sh start "$DATA" "$PORT" "${SETTINGS[@]}"
trap 'scripts/cluster.sh stop "$DATA"' EXIT

psql_bench() { scripts/cluster.sh psql "$DATA" "$PORT" -d chronoid_bench -q "$@"; }
scripts/cluster.sh psql "$DATA" "$PORT" -q -c "CREATE DATABASE chronoid_bench"
psql_bench -c "CREATE EXTENSION chronoid" -f bench/lib.sql
for suite in "${suites[@]}"; do
    echo "== bench/$suite.sql"
    psql_bench "${sizes[@]}" -f "bench/$suite.sql" 2>&1 | grep -E 'NOTICE:  .* / |ERROR' | sed 's/^psql:[^ ]* //'
done
tables=$(psql_bench -f bench/report.sql)
load=
if [ "${CHRONOID_LOAD_SECONDS:-60}" != 0 ]; then
    echo "== bench/load.sh (pgbench)"
    load=$(bench/load.sh "$DATA" "$PORT" "${CHRONOID_LOAD_SECONDS:-60}")
    echo "$load"
fi

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)
pgv=$(psql_bench -At -c "SHOW server_version")
{
    echo "# Benchmarks"
    echo
    env_note=
    [ ${#sizes[@]} -eq 0 ] || env_note="CHRONOID_BENCH_N=${CHRONOID_BENCH_N:-} CHRONOID_BENCH_INSERT_N=${CHRONOID_BENCH_INSERT_N:-} "
    [ -z "${CHRONOID_LOAD_SECONDS:-}" ] || env_note+="CHRONOID_LOAD_SECONDS=$CHRONOID_LOAD_SECONDS "
    [ -z "${PG_CONFIG:-}" ] || env_note="PG_CONFIG=<PostgreSQL $("$PG_CONFIG" --version | cut -d' ' -f2)> $env_note"
    echo "Produced by \`${env_note}scripts/bench.sh${*:+ $*}\` (\`make bench\` runs it) on $(date -u +%Y-%m-%d)."
    echo "Machine: $(nproc) cores ($cpu), $mem; PostgreSQL $pgv; chronoid $(grep -m1 '^version' Cargo.toml | cut -d'"' -f2) (${CHRONOID_INSTALL_PROFILE:-release} build)."
    echo "Settings: ${SETTINGS[*]}; fsync = off; unlogged tables."
    echo "Every figure is the median of 5 runs (of 7 paired differences for the paired generators, 15 for the paced ones; after one untimed warm-up round), timed inside the server; the statements of a section run interleaved (a, b, c, a, b, c, ...); all rows of one table come from the same run. \"Input stored\" is pg_stats.correlation of the column read: about 0 = shuffled, ±1 = stored in (reverse) order."
    echo
    echo "$tables"
    echo
    echo "$load"
    # The blocks the other bench_*.sh scripts write (other runs), kept.
    if [ -f "$OUT" ]; then
        for block in $(sed -n 's/^<!-- BEGIN \([a-z][a-z ]*[a-z]\) (.*/\1/p' "$OUT" | tr ' ' '_'); do
            block=${block//_/ }
            echo
            sed -n "/^<!-- BEGIN $block (/,/^<!-- END $block -->/p" "$OUT"
        done
    fi
} >"$OUT.new"
mv "$OUT.new" "$OUT"
echo "wrote $OUT"
