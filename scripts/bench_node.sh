#!/usr/bin/env bash
# What keeping servers' node ids apart costs a caller (issue 42): this tree
# against a base without the node checks (default 2fb533d, the last commit
# before them), each built and installed into a private copy of one
# PostgreSQL. Three servers under test: the base, this tree alone, and this
# tree in a two-writer mesh (a subscription to a fourth server, node ids 1
# and 2), where each backend judges its publisher before its first ID and
# again every minute (by what the peer worker heard). Measured, round by round on each server in turn
# (median of the rounds):
#
#   - gen_nanoflake() flat out, ns per call (paired with generate_series);
#   - pgbench, 4 clients on kept connections at a low rate (400 tps): one
#     INSERT ... DEFAULT per transaction, latency p50, p99 and max;
#   - the same at 4 tps (each client's call after about a second's pause,
#     so that every call finds the backend's once-a-second look at its
#     ledger due);
#   - pgbench, 4 clients, a new connection per transaction (-C): every
#     backend's first ID, and so in the mesh every question to the peer.
#
# Both against bigint identity on the same server. Writes the "node checks"
# block of BENCHMARKS.md.
#
#   scripts/bench_node.sh                    # PostgreSQL 18, base 2fb533d
#   PG_MAJOR=15 CHRONOID_BENCH_ROUNDS=5 scripts/bench_node.sh
set -euo pipefail
cd "$(dirname "$0")/.."

MAJOR=${PG_MAJOR:-18}
BASE=${CHRONOID_BENCH_BASE:-2fb533d}
ROUNDS=${CHRONOID_BENCH_ROUNDS:-3}
SECONDS_PER_RUN=${CHRONOID_BENCH_SECONDS:-10}
OUT=${CHRONOID_BENCH_OUT:-BENCHMARKS.md}

bash scripts/setup.sh >/dev/null
source scripts/lib.sh
start_version_bench node "$MAJOR" "$BASE"

SETTINGS=("shared_buffers = '1GB'" "max_wal_size = '8GB'" "synchronous_commit = off"
    "max_parallel_workers_per_gather = 0" "jit = off" "wal_level = logical")
# server -> the PostgreSQL copy it runs
declare -A PG=([base]=base [alone]=new [mesh]=new [peer]=new)
declare -A NODE=([base]=1 [alone]=1 [mesh]=1 [peer]=2)
for s in base alone mesh peer; do
    DATA[$s]=$WORK/data-$s
    PORT[$s]=$(scripts/cluster.sh port)
    PG_CONFIG=$WORK/pg-${PG[$s]}/bin/pg_config scripts/cluster.sh start "${DATA[$s]}" "${PORT[$s]}" \
        "${SETTINGS[@]}" "chronoid.node_id = ${NODE[$s]}"
done
q() { PG_CONFIG=$WORK/pg-${PG[$1]}/bin/pg_config scripts/cluster.sh psql "${DATA[$1]}" "${PORT[$1]}" -At -q -v ON_ERROR_STOP=1 -c "$2"; }
for s in base alone mesh peer; do
    q "$s" "CREATE EXTENSION chronoid;
        CREATE TABLE t_bigint (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, n int);
        CREATE TABLE t_nanoflake (id nanoflake DEFAULT gen_nanoflake() PRIMARY KEY, n int);
        CREATE TABLE mesh_t (id nanoflake PRIMARY KEY);
        CREATE PUBLICATION mesh FOR TABLE mesh_t;
        CREATE FUNCTION ms(q text) RETURNS float8 LANGUAGE plpgsql AS \$\$
        DECLARE t timestamptz := clock_timestamp();
        BEGIN EXECUTE q; RETURN 1000 * extract(epoch FROM clock_timestamp() - t); END \$\$;"
done
# Only the table that carries nothing is replicated: the cost measured is
# the asking, not the replication.
q mesh "CREATE SUBSCRIPTION from_peer CONNECTION 'host=127.0.0.1 port=${PORT[peer]} user=postgres dbname=postgres' PUBLICATION mesh WITH (origin = none, copy_data = false)"
q mesh "SELECT nanoflake_generator(gen_nanoflake())" >/dev/null

FLAT_N=4000000
results=$WORK/results.tsv
: >"$results"
bench() {
    local s=$1 table=$2 mode=$3 prefix=$WORK/log-$1-$2-$3 out
    echo "INSERT INTO t_$table (n) VALUES (1);" >"$WORK/insert-$table.sql"
    rm -f "$prefix".*
    local args=(-h 127.0.0.1 -p "${PORT[$s]}" -U postgres -n -c 4 -j 2 -T "$SECONDS_PER_RUN"
        -f "$WORK/insert-$table.sql" -l --log-prefix="$prefix")
    case $mode in
        kept) args+=(-R 400) ;;
        paused) args+=(-R 4) ;;
        new) args+=(-C) ;;
    esac
    out=$("$WORK/pg-${PG[$s]}/bin/pgbench" "${args[@]}" postgres 2>&1) || { echo "$out" >&2; return 1; }
    printf '%s\t%s\t%s\ttps\t%s\n' "$s" "$table" "$mode" "$(echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | head -1)" >>"$results"
    # Per transaction: client, number, latency (us), ...
    awk -v s="$s" -v t="$table" -v m="$mode" '{ printf "%s\t%s\t%s\tlat\t%s\n", s, t, m, $3 }' "$prefix".* >>"$results"
}
for round in $(seq 0 "$ROUNDS"); do
    for s in base alone mesh; do
        flat=$(q "$s" "SELECT ms('SELECT count(gen_nanoflake()) FROM generate_series(1, $FLAT_N) g')")
        base=$(q "$s" "SELECT ms('SELECT count(*) FROM generate_series(1, $FLAT_N) g')")
        # Round 0 warms up and is not counted.
        [ "$round" = 0 ] && continue
        printf '%s\tnanoflake\tflat\tns\t%s\n' "$s" "$(awk -v a="$flat" -v b="$base" -v n="$FLAT_N" 'BEGIN { print (a - b) * 1e6 / n }')" >>"$results"
        for mode in kept paused new; do
            for table in bigint nanoflake; do
                bench "$s" "$table" "$mode"
            done
        done
    done
    echo "round $round of $ROUNDS done" >&2
done

block=$(python3 - "$results" "$ROUNDS" "$MAJOR" "$BASE" "$(git rev-parse --short HEAD)" "$SECONDS_PER_RUN" <<'PY'
import statistics, sys
path, rounds, major, base, head, secs = sys.argv[1:]
ns, tps, lat = {}, {}, {}
for line in open(path):
    s, table, mode, what, value = line.rstrip("\n").split("\t")
    if not value:
        continue
    if what == "ns":
        ns.setdefault(s, []).append(float(value))
    elif what == "tps":
        tps.setdefault((s, table, mode), []).append(float(value))
    else:
        lat.setdefault((s, table, mode), []).append(float(value))
def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]
names = {"base": f"base `{base}` (no node checks)", "alone": f"`{head}`, a server alone",
         "mesh": f"`{head}`, in a mesh (one subscription)"}
print("<!-- BEGIN node checks (scripts/bench_node.sh) -->")
print("## What the node checks cost a caller")
print()
print(f"Produced by `scripts/bench_node.sh` (PostgreSQL {major}): the base and this tree each built (release) and "
      f"installed into a private copy of PostgreSQL {major}; three servers (the base; this tree alone; this tree "
      "subscribed to a fourth server, node ids 1 and 2, so that each backend judges its publisher before its first ID "
      f"and every minute after), every measurement run on each server in turn, {rounds} rounds after a warm-up round. "
      f"pgbench: 4 clients, {secs} s per run, one INSERT ... DEFAULT per transaction; latencies are every "
      "transaction's of all rounds.")
print()
print("| server | `gen_nanoflake()` flat out, ns per call | kept connections, 400 tps: bigint p50 / p99 / max µs | nanoflake p50 / p99 / max µs | after a pause (4 tps): bigint p50 / max µs | nanoflake p50 / max µs | a new connection per transaction: bigint tps | nanoflake tps | nanoflake / bigint |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for s in ("base", "alone", "mesh"):
    cells = [names[s], f"{statistics.median(ns[s]):.1f}"]
    for table in ("bigint", "nanoflake"):
        xs = lat[(s, table, "kept")]
        cells.append(f"{pct(xs, .5):.0f} / {pct(xs, .99):.0f} / {max(xs):.0f}")
    for table in ("bigint", "nanoflake"):
        xs = lat[(s, table, "paused")]
        cells.append(f"{pct(xs, .5):.0f} / {max(xs):.0f}")
    b, n = statistics.median(tps[(s, "bigint", "new")]), statistics.median(tps[(s, "nanoflake", "new")])
    cells += [f"{b:.0f}", f"{n:.0f}", f"{n / b:.3f}"]
    print("| " + " | ".join(cells) + " |")
print()
print("On kept connections the check is a few comparisons of values the backend holds, an atomic read and the "
      "clock reading the generator makes anyway; a backend judges its publishers on its first ID and once a minute "
      "(and looks at chronoid.peers once a second), by what the server's peer worker heard, asking a publisher itself "
      "only where the worker has not heard it. A new connection per transaction pays that judging (a catalog scan "
      "and a file read) on every transaction: the last column. A pool (PgBouncer, an application's) keeps backends, "
      "and pays it once per backend.")
print("<!-- END node checks -->")
PY
)
echo "$block"
python3 - "$OUT" "$block" <<'PY'
import re, sys
path, block = sys.argv[1], sys.argv[2]
text = open(path).read()
pattern = re.compile(r"<!-- BEGIN node checks .*?<!-- END node checks -->", re.S)
text = pattern.sub(lambda m: block, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(text)
PY
