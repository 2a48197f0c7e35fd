#!/usr/bin/env bash
# What keeping servers' node ids apart costs a caller (issues 42 and 48):
# this tree against a base without the node checks (default 2fb533d, the
# last commit before them), each built (release) and installed into a
# private copy of one PostgreSQL. Servers, each with a node id of its own
# (two servers that replicate from one publisher are known to each other
# through it, and must differ):
#
#   base        the base, alone;
#   alone       this tree, alone;
#   sub1        this tree subscribed to one publisher;
#   sub4        this tree subscribed to four publishers, measured three
#               times: all up; one publisher stopped ("down"); one stopped
#               and one SIGSTOPped ("black-holed": it accepts connections
#               and never answers) for longer than a round of asking;
#   citus       a Citus 14.0.1 coordinator with chronoid.node_id_base = 100
#               (the documented way to keep formations apart, which makes it
#               check the formation) and two workers, measured with all up
#               and with one worker SIGSTOPped.
#
# Measured on each, round by round (median of the rounds for ns, every
# transaction's latency for the percentiles), beside the same server's
# plain `SELECT 1`:
#
#   - the first call in a new connection: pgbench -C, 4 clients, one
#     `SELECT gen_nanoflake()` per connection (and `SELECT 1`), p50 / p99 /
#     max;
#   - calls in a kept connection: gen_nanoflake() flat out, ns per call
#     (paired with generate_series), and pgbench on kept connections at
#     400 tps, p50 / p99 / max.
#
# Writes the "node checks" block of BENCHMARKS.md.
#
#   scripts/bench_node.sh                    # PostgreSQL 18, base 2fb533d
#   PG_MAJOR=16 CHRONOID_BENCH_ROUNDS=5 scripts/bench_node.sh
set -euo pipefail
cd "$(dirname "$0")/.."

MAJOR=${PG_MAJOR:-18}
BASE=${CHRONOID_BENCH_BASE:-2fb533d}
ROUNDS=${CHRONOID_BENCH_ROUNDS:-3}
SECONDS_PER_RUN=${CHRONOID_BENCH_SECONDS:-10}
OUT=${CHRONOID_BENCH_OUT:-BENCHMARKS.md}

bash scripts/setup.sh --test >/dev/null
source scripts/lib.sh
# cargo-pgrx's configuration of the benchmark's own, for this major.
export PGRX_HOME=$(test_private_dir)/pgrx-bench
mkdir -p "$PGRX_HOME"
cargo pgrx init "--pg$MAJOR" "$(CHRONOID_PG15_FROM_PYPI=1 scripts/postgres.sh "$MAJOR")" >/dev/null
start_version_bench node "$MAJOR" "$BASE"
PG_CONFIG=$WORK/pg-new/bin/pg_config scripts/citus.sh >/dev/null

SETTINGS=("shared_buffers = '256MB'" "synchronous_commit = off" "max_parallel_workers_per_gather = 0"
    "jit = off" "wal_level = logical" "max_worker_processes = 16")
CITUS=("shared_preload_libraries = 'citus,chronoid'" "citus.local_hostname = '127.0.0.1'"
    "citus.node_conninfo = 'sslmode=disable'" "citus.enable_statistics_collection = off"
    "chronoid.node_id_base = 100")
declare -A PG=([base]=base)
declare -A CONF=([base]="chronoid.node_id = 1" [alone]="chronoid.node_id = 1" [sub1]="chronoid.node_id = 6"
    [sub4]="chronoid.node_id = 7" [p1]="chronoid.node_id = 2" [p2]="chronoid.node_id = 3"
    [p3]="chronoid.node_id = 4" [p4]="chronoid.node_id = 5")
SERVERS=(base alone sub1 sub4 p1 p2 p3 p4 citus w1 w2)
for s in "${SERVERS[@]}"; do
    DATA[$s]=$WORK/data-$s
    PORT[$s]=$(scripts/cluster.sh port)
    extra=("${SETTINGS[@]}")
    case $s in citus | w1 | w2) extra+=("${CITUS[@]}") ;; *) extra+=("${CONF[$s]}") ;; esac
    PG_CONFIG=$WORK/pg-${PG[$s]:-new}/bin/pg_config scripts/cluster.sh start "${DATA[$s]}" "${PORT[$s]}" "${extra[@]}"
done
q() { PG_CONFIG=$WORK/pg-${PG[$1]:-new}/bin/pg_config scripts/cluster.sh psql "${DATA[$1]}" "${PORT[$1]}" -At -q -c "$2"; }
for s in "${SERVERS[@]}"; do
    case $s in citus | w1 | w2) q "$s" "CREATE EXTENSION citus" ;; esac
    q "$s" "CREATE EXTENSION chronoid;
        CREATE TABLE mesh_t (id nanoflake PRIMARY KEY);
        CREATE PUBLICATION mesh FOR TABLE mesh_t;
        CREATE FUNCTION ms(q text) RETURNS float8 LANGUAGE plpgsql AS \$\$
        DECLARE t timestamptz := clock_timestamp();
        BEGIN EXECUTE q; RETURN 1000 * extract(epoch FROM clock_timestamp() - t); END \$\$;"
done
# Only a table that carries nothing is replicated: the cost measured is
# the checking, not the replication.
subscribe() { q "$1" "CREATE SUBSCRIPTION ${1}_from_$2 CONNECTION 'host=127.0.0.1 port=${PORT[$2]} user=postgres dbname=postgres' PUBLICATION mesh WITH (origin = none, copy_data = false)"; }
subscribe sub1 p1
for p in p1 p2 p3 p4; do subscribe sub4 "$p"; done
q citus "SELECT citus_set_coordinator_host('127.0.0.1', ${PORT[citus]})" >/dev/null
for w in w1 w2; do q citus "SELECT citus_add_node('127.0.0.1', ${PORT[$w]})" >/dev/null; done
for s in alone sub1 sub4 citus; do
    for _ in $(seq 1 60); do q "$s" "SELECT gen_nanoflake()" >/dev/null 2>&1 && break; sleep 1; done
done

# pid of a server's postmaster and its children, for SIGSTOP/SIGCONT.
processes() {
    local pm
    pm=$(head -1 "${DATA[$1]}/postmaster.pid")
    echo "$pm $(ps -o pid= --ppid "$pm" | tr '\n' ' ')"
}

FLAT_N=4000000
results=$WORK/results.tsv
: >"$results"
echo 'SELECT gen_nanoflake();' >"$WORK/gen.sql"
echo 'SELECT 1;' >"$WORK/one.sql"
bench() {
    local label=$1 s=$2 script=$3 mode=$4 prefix=$WORK/log-$1-$3-$4 out
    rm -f "$prefix".*
    local args=(-h 127.0.0.1 -p "${PORT[$s]}" -U postgres -n -c 4 -j 2 -T "$SECONDS_PER_RUN"
        -f "$WORK/$script.sql" -l --log-prefix="$prefix")
    case $mode in
        kept) args+=(-R 400) ;;
        new) args+=(-C) ;;
    esac
    out=$("$WORK/pg-${PG[$s]:-new}/bin/pgbench" "${args[@]}" postgres 2>&1) || { echo "$out" >&2; return 1; }
    # Per transaction: client, number, latency (us), ...
    awk -v l="$label" -v t="$script" -v m="$mode" '{ printf "%s\t%s\t%s\tlat\t%s\n", l, t, m, $3 }' "$prefix".* >>"$results"
}
measure() {
    local label=$1 s=$2 flat base_ms
    flat=$(q "$s" "SELECT ms('SELECT count(gen_nanoflake()) FROM generate_series(1, $FLAT_N) g')")
    base_ms=$(q "$s" "SELECT ms('SELECT count(*) FROM generate_series(1, $FLAT_N) g')")
    printf '%s\tgen\tflat\tns\t%s\n' "$label" "$(awk -v a="$flat" -v b="$base_ms" -v n="$FLAT_N" 'BEGIN { print (a - b) * 1e6 / n }')" >>"$results"
    for mode in new kept; do
        for script in one gen; do bench "$label" "$s" "$script" "$mode"; done
    done
}
read -r -a p4_pids <<<"$(processes p4)"
read -r -a p3_pids <<<"$(processes p3)"
read -r -a w2_pids <<<"$(processes w2)"
resume() { kill -CONT "${p3_pids[@]}" "${w2_pids[@]}" 2>/dev/null || true; }
trap 'resume' ERR
for round in $(seq 0 "$ROUNDS"); do
    for s in base alone sub1 sub4 citus; do measure "$s" "$s"; done
    PG_CONFIG=$WORK/pg-new/bin/pg_config scripts/cluster.sh stop "${DATA[p4]}"
    measure sub4_down sub4
    kill -STOP "${p3_pids[@]}"
    # Longer than a round of asking (10 s): the peer worker's judge is
    # waiting on p3 while the callers are measured.
    sleep 12
    measure sub4_hole sub4
    kill -CONT "${p3_pids[@]}"
    PG_CONFIG=$WORK/pg-new/bin/pg_config scripts/cluster.sh start "${DATA[p4]}" "${PORT[p4]}"
    read -r -a p4_pids <<<"$(processes p4)"
    kill -STOP "${w2_pids[@]}"
    sleep 12
    measure citus_hole citus
    kill -CONT "${w2_pids[@]}"
    # Round 0 warms up and is not counted.
    [ "$round" = 0 ] && : >"$results"
    echo "round $round of $ROUNDS done" >&2
done

block=$WORK/block.md
python3 - "$results" "$ROUNDS" "$MAJOR" "$BASE" "$(git rev-parse --short HEAD)" "$SECONDS_PER_RUN" >"$block" <<'PY'
import statistics, sys
path, rounds, major, base, head, secs = sys.argv[1:]
ns, lat = {}, {}
for line in open(path):
    label, script, mode, what, value = line.rstrip("\n").split("\t")
    if not value:
        continue
    if what == "ns":
        ns.setdefault(label, []).append(float(value))
    else:
        lat.setdefault((label, script, mode), []).append(float(value) / 1000)
def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]
rows = [
    ("base", f"base `{base}` (no node checks), alone"),
    ("alone", f"`{head}`, alone"),
    ("sub1", f"`{head}`, 1 subscription"),
    ("sub4", f"`{head}`, 4 subscriptions"),
    ("sub4_down", f"`{head}`, 4 subscriptions, one publisher down"),
    ("sub4_hole", f"`{head}`, 4 subscriptions, one down, one black-holed (SIGSTOP, > 12 s)"),
    ("citus", f"`{head}`, Citus coordinator, `chronoid.node_id_base = 100`, 2 workers"),
    ("citus_hole", f"`{head}`, the same, one worker black-holed (SIGSTOP, > 12 s)"),
]
print("<!-- BEGIN node checks (scripts/bench_node.sh) -->")
print("## What the node checks cost a caller")
print()
print(f"Produced by `scripts/bench_node.sh` (PostgreSQL {major}, 2 cores): the base and this tree each built (release) "
      f"and installed into a private copy of PostgreSQL {major}; every server measured in turn, {rounds} rounds after a "
      f"warm-up round. pgbench: 4 clients, {secs} s per run; a new connection per transaction (`-C`) for the first "
      "call, 400 tps on kept connections; latencies in ms over every transaction of all rounds; `SELECT 1` is the "
      "same server's floor. Flat out: `count(gen_nanoflake())` over generate_series less `count(*)`, ns per call, "
      "median of the rounds.")
print()
print("| server | first call, new connection: `SELECT 1` p50 / p99 / max ms | `gen_nanoflake()` p50 / p99 / max ms | p50 over `SELECT 1` ms | kept connection, 400 tps: `SELECT 1` p50 / p99 / max ms | `gen_nanoflake()` p50 / p99 / max ms | flat out, ns per call |")
print("|---|---:|---:|---:|---:|---:|---:|")
for label, name in rows:
    if label not in ns:
        continue
    one, gen = lat[(label, "one", "new")], lat[(label, "gen", "new")]
    k1, kg = lat[(label, "one", "kept")], lat[(label, "gen", "kept")]
    three = lambda xs, d: f"{pct(xs, .5):.{d}f} / {pct(xs, .99):.{d}f} / {max(xs):.{d}f}"
    print(f"| {name} | {three(one, 2)} | {three(gen, 2)} | {pct(gen, .5) - pct(one, .5):+.2f} | "
          f"{three(k1, 3)} | {three(kg, 3)} | {statistics.median(ns[label]):.1f} |")
print()
print("A caller reads its database's verdict (one word in shared memory) and the configuration epoch, and mints; "
      "the peer worker's judges do every asking, so a publisher or Citus node that does not answer costs a judge "
      "5 s per question and no caller anything. Flat out, the rows differ within that run's noise, and "
      "this tree reads as the base did before the node checks.")
print("<!-- END node checks -->")
PY
cat "$block"
write_bench_block "node checks" "$block" "$OUT"
