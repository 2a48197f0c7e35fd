#!/usr/bin/env bash
# Restart to first ID (issue 35): how long the first gen_nanoflake() takes
# after a clean restart (pg_ctl stop -m fast, then start) and after a crash
# (every process of the cluster killed with SIGKILL), this tree against a
# base (default: 0.6.0 before the clock edges), each built and installed
# into a private copy of one PostgreSQL. Before each restart the generators
# are warm (called 100 times a second for a second), as in a running
# application. The server is up (pg_ctl start -w returned) before the clock
# starts: what is measured is the call, from a connection already open, as
# an application's first request after a restart. 55000 refusals are
# counted and retried. Writes the "restart" block of BENCHMARKS.md.
#
#   scripts/bench_restart.sh                     # PostgreSQL 15, 20 restarts of each kind
#   PG_MAJOR=18 CHRONOID_BENCH_RESTARTS=5 CHRONOID_BENCH_BASE=<commit> scripts/bench_restart.sh
set -euo pipefail
cd "$(dirname "$0")/.."

MAJOR=${PG_MAJOR:-15}
# 0.6.0 as issue 35 found it (the tree before the layers and the edges).
BASE=${CHRONOID_BENCH_BASE:-5a1ae17}
RESTARTS=${CHRONOID_BENCH_RESTARTS:-20}
OUT=${CHRONOID_BENCH_OUT:-BENCHMARKS.md}

bash scripts/setup.sh --test >/dev/null

source scripts/lib.sh
start_version_bench restart "$MAJOR" "$BASE"

SETTINGS=("fsync = on" "synchronous_commit = on")
: >"$WORK/restart.jsonl"
for v in "${clusters[@]}"; do
    DATA[$v]=$WORK/data-$v
    PORT[$v]=$(scripts/cluster.sh port)
    PG_CONFIG=$WORK/pg-$v/bin/pg_config scripts/cluster.sh start "${DATA[$v]}" "${PORT[$v]}" "${SETTINGS[@]}"
    PG_CONFIG=$WORK/pg-$v/bin/pg_config scripts/cluster.sh psql "${DATA[$v]}" "${PORT[$v]}" -q -c "CREATE EXTENSION chronoid"
done

# One restart of server $1, of kind $2 (clean or crash); prints its JSON line.
restart_once() {
    local v=$1 kind=$2 pid
    "$CHRONOID_VENV/bin/python" - "host=127.0.0.1 port=${PORT[$v]} user=postgres dbname=postgres" <<'PY'
import sys, time, psycopg
with psycopg.connect(sys.argv[1], autocommit=True) as c:
    for _ in range(100):
        c.execute("SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa()")
        time.sleep(0.01)
PY
    if [ "$kind" = clean ]; then
        PG_CONFIG=$WORK/pg-$v/bin/pg_config scripts/cluster.sh stop "${DATA[$v]}"
    else
        pid=$(head -1 "${DATA[$v]}/postmaster.pid")
        kill -9 "$pid" $(pgrep -P "$pid") 2>/dev/null || true
        while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    fi
    PG_CONFIG=$WORK/pg-$v/bin/pg_config scripts/cluster.sh start "${DATA[$v]}" "${PORT[$v]}"
    "$CHRONOID_VENV/bin/python" - "host=127.0.0.1 port=${PORT[$v]} user=postgres dbname=postgres" "$v" "$kind" <<'PY'
import json, sys, time, psycopg
dsn, server, kind = sys.argv[1:4]
with psycopg.connect(dsn, autocommit=True) as c:
    refused = 0
    t0 = time.perf_counter()
    while True:
        try:
            c.execute("SELECT gen_nanoflake()")
            break
        except psycopg.errors.ObjectNotInPrerequisiteState:
            refused += 1
    ms = (time.perf_counter() - t0) * 1000
print(json.dumps({"server": server, "kind": kind, "first_id_ms": round(ms, 2), "refused": refused}))
PY
}

# The two servers in turn, restart by restart, so that both see the same
# machine.
for i in $(seq 1 "$RESTARTS"); do
    for kind in clean crash; do
        for v in "${clusters[@]}"; do
            echo "restart $i: $kind, $v" >&2
            restart_once "$v" "$kind" >>"$WORK/restart.jsonl"
        done
    done
done

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
pgv=$(PG_CONFIG=$WORK/pg-new/bin/pg_config scripts/cluster.sh psql "${DATA[new]}" "${PORT[new]}" -At -c "SHOW server_version")
python3 - "$WORK/restart.jsonl" "$(nproc) cores ($cpu), PostgreSQL $pgv" "$(git rev-parse --short "$BASE")" "$RESTARTS" >"$WORK/block.md" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
machine, base, restarts = sys.argv[2:5]
def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]
print("<!-- BEGIN restart (scripts/bench_restart.sh writes this block) -->")
print("## Restart to first ID (issue 35)\n")
print(f"`scripts/bench_restart.sh` ({machine}; {restarts} restarts of each kind per server, interleaved; fsync and synchronous_commit on).")
print("The first `SELECT gen_nanoflake()` on an open connection once `pg_ctl start -w` has returned, the generators warm before the restart;")
print(f"0.6.0 is commit {base}. A refused call (55000) is retried at once and counted.\n")
print("| restart | server | median (ms) | p90 (ms) | max (ms) | calls refused (55000) |")
print("|---|---|---|---|---|---|")
for kind in ("clean", "crash"):
    for server, label in (("base", "0.6.0"), ("new", "this tree")):
        xs = [r["first_id_ms"] for r in rows if r["kind"] == kind and r["server"] == server]
        refused = sum(r["refused"] for r in rows if r["kind"] == kind and r["server"] == server)
        if xs:
            print(f"| {kind} | {label} | {statistics.median(xs):.1f} | {q(xs, 0.9):.1f} | {max(xs):.1f} | {refused} |")
print("<!-- END restart -->")
PY
write_bench_block restart "$WORK/block.md" "$OUT"
echo "wrote the restart block of $OUT" >&2
