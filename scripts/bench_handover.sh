#!/usr/bin/env bash
# What a handover costs a promotion (issue 54): the time from
# `pg_promote()` on a streaming standby to its first `gen_nanoflake()`,
# on a connection opened before the promotion (a refused or failed call is
# retried at once). Three kinds of promotion, interleaved round by round,
# each on a fresh standby (pg_basebackup -R) of one primary:
#
#   handover   the primary runs: the promoted standby asks it to give way
#              (a replication connection) before its first ID;
#   down       the primary stopped first (a failover): it cannot be
#              reached, and is taken for down;
#   none       primary_conninfo cleared before the promotion: nothing is
#              asked (what a promotion cost before the handover).
#
# After a handover round the primary's chronoid.successor is removed and
# the primary restarted, so that the next standby's is a first handover.
# Writes the "handover" block of BENCHMARKS.md.
#
#   scripts/bench_handover.sh                        # PostgreSQL 18, 10 rounds
#   PG_MAJOR=16 CHRONOID_BENCH_ROUNDS=5 scripts/bench_handover.sh
set -euo pipefail
cd "$(dirname "$0")/.."

MAJOR=${PG_MAJOR:-18}
ROUNDS=${CHRONOID_BENCH_ROUNDS:-10}
OUT=${CHRONOID_BENCH_OUT:-BENCHMARKS.md}

bash scripts/setup.sh --test >/dev/null
source scripts/lib.sh

WORK=$(mktemp -d /tmp/chronoid-bench-handover.XXXXXX)
chmod 755 "$WORK"
source_pg=$(CHRONOID_PG15_FROM_PYPI=1 scripts/postgres.sh "$MAJOR")
cp -a "$(dirname "$("$source_pg" --bindir)")" "$WORK/pg"
export PG_CONFIG=$WORK/pg/bin/pg_config
CHRONOID_INSTALL_PROFILE=release scripts/install.sh >/dev/null
BIN=$WORK/pg/bin
as_postgres() { runuser -u postgres -- env LD_LIBRARY_PATH="$WORK/pg/lib" "$@"; }
trap 'for d in "$WORK"/primary "$WORK"/standby-*; do [ -f "$d/postmaster.pid" ] && as_postgres "$BIN/pg_ctl" -D "$d" -m immediate -w stop >/dev/null 2>&1; done; rm -rf "$WORK"' EXIT

PRIMARY=$WORK/primary
PP=$(scripts/cluster.sh port)
scripts/cluster.sh start "$PRIMARY" "$PP" "chronoid.node_id = 1" "wal_level = replica" "max_wal_senders = 10" \
    "cluster_name = 'primary'" >/dev/null
scripts/cluster.sh psql "$PRIMARY" "$PP" -q -c "CREATE EXTENSION chronoid" -c "SELECT gen_nanoflake()" >/dev/null

: >"$WORK/handover.jsonl"
for r in $(seq 1 "$ROUNDS"); do
    for kind in handover down none; do
        S=$WORK/standby-$r-$kind
        SP=$(scripts/cluster.sh port)
        mkdir -m 700 "$S" && chown postgres: "$S"
        as_postgres "$BIN/pg_basebackup" -h 127.0.0.1 -p "$PP" -U postgres -D "$S" -R -X stream >/dev/null
        printf "port = %s\nunix_socket_directories = '%s'\ncluster_name = 'standby'\n" "$SP" "$S" >>"$S/postgresql.conf"
        rm -f "$S/chronoid.successor"
        scripts/cluster.sh start "$S" "$SP" >/dev/null
        case $kind in
        down) as_postgres "$BIN/pg_ctl" -D "$PRIMARY" -m immediate -w stop >/dev/null ;;
        none) scripts/cluster.sh psql "$S" "$SP" -q -c "ALTER SYSTEM SET primary_conninfo = ''" -c "SELECT pg_reload_conf()" >/dev/null ;;
        esac
        "$CHRONOID_VENV/bin/python" - "host=127.0.0.1 port=$SP user=postgres dbname=postgres" "$kind" >>"$WORK/handover.jsonl" <<'PY'
import json, sys, time, psycopg
conn, kind = sys.argv[1], sys.argv[2]
with psycopg.connect(conn, autocommit=True) as c, psycopg.connect(conn, autocommit=True) as p:
    refused = 0
    t0 = time.monotonic()
    p.execute("SELECT pg_promote(false)")
    while True:
        try:
            c.execute("SELECT gen_nanoflake()")
            break
        except psycopg.Error:
            refused += 1
            if time.monotonic() - t0 > 60:
                raise
    print(json.dumps({"kind": kind, "ms": (time.monotonic() - t0) * 1000, "refused": refused}))
PY
        as_postgres "$BIN/pg_ctl" -D "$S" -m immediate -w stop >/dev/null
        rm -rf "$S"
        case $kind in
        handover)
            as_postgres "$BIN/pg_ctl" -D "$PRIMARY" -m fast -w stop >/dev/null
            rm -f "$PRIMARY/chronoid.successor"
            scripts/cluster.sh start "$PRIMARY" "$PP" >/dev/null
            ;;
        down) scripts/cluster.sh start "$PRIMARY" "$PP" >/dev/null ;;
        esac
    done
done

block=$WORK/block.md
python3 - "$WORK/handover.jsonl" "$MAJOR" "$ROUNDS" "$(git rev-parse --short HEAD)" "$(nproc)" >"$block" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
major, rounds, commit, cores = sys.argv[2:]
print("<!-- BEGIN handover (scripts/bench_handover.sh writes this block) -->")
print("## Promotion to first ID, with the handover (issue 54)")
print()
print(f"`scripts/bench_handover.sh` (PostgreSQL {major}, {cores} cores, commit {commit}; {rounds} rounds, the kinds interleaved, each on a fresh standby).")
print("From `pg_promote()` to the first `gen_nanoflake()` on a connection opened before it; a call refused or failed meanwhile is retried at once.")
print()
print("| promotion | median (ms) | p90 (ms) | max (ms) | calls retried (median) |")
print("|---|---|---|---|---|")
names = {"handover": "handover (the old primary runs, and gives way)", "down": "failover (the old primary stopped)", "none": "nothing asked (`primary_conninfo` cleared)"}
for kind in ("handover", "down", "none"):
    ms = sorted(r["ms"] for r in rows if r["kind"] == kind)
    ref = [r["refused"] for r in rows if r["kind"] == kind]
    p90 = ms[min(len(ms) - 1, int(round(0.9 * (len(ms) - 1))))]
    print(f"| {names[kind]} | {statistics.median(ms):.1f} | {p90:.1f} | {ms[-1]:.1f} | {statistics.median(ref):.0f} |")
print("<!-- END handover -->")
PY
write_bench_block handover "$block" "$OUT"
cat "$block"
