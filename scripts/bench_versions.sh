#!/usr/bin/env bash
# What the durable high-water marks cost: this tree's chronoid against a
# base (default: 0.4.0, the last version without them), each built and
# installed into a private copy of one PostgreSQL, on two clusters with the
# same settings (fsync on, so that the marks' WAL flush and file fsync cost
# what they cost), the statements interleaved between the two servers
# round by round (median of 7). Writes the "versions" block of
# BENCHMARKS.md.
#
#   scripts/bench_versions.sh                 # PostgreSQL 18, base 0.4.0
#   PG_MAJOR=15 CHRONOID_BENCH_BASE=<commit> scripts/bench_versions.sh
set -euo pipefail
cd "$(dirname "$0")/.."

MAJOR=${PG_MAJOR:-18}
# 0.4.0: the last commit before the durable marks.
BASE=${CHRONOID_BENCH_BASE:-5416458}
ROUNDS=${CHRONOID_BENCH_ROUNDS:-7}
OUT=${CHRONOID_BENCH_OUT:-BENCHMARKS.md}

bash scripts/setup.sh >/dev/null
source scripts/lib.sh
start_version_bench versions "$MAJOR" "$BASE"

SETTINGS=("shared_buffers = '2GB'" "max_wal_size = '16GB'" "checkpoint_timeout = '1h'"
    "synchronous_commit = off" "max_parallel_workers_per_gather = 0" "jit = off" "fsync = on")
for v in "${clusters[@]}"; do
    DATA[$v]=$WORK/data-$v
    PORT[$v]=$(scripts/cluster.sh port)
    PG_CONFIG=$WORK/pg-$v/bin/pg_config scripts/cluster.sh start "${DATA[$v]}" "${PORT[$v]}" "${SETTINGS[@]}"
    PG_CONFIG=$WORK/pg-$v/bin/pg_config scripts/cluster.sh psql "${DATA[$v]}" "${PORT[$v]}" -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE EXTENSION chronoid;
CREATE TABLE ins (id nanoflake DEFAULT gen_nanoflake(), n int);
-- Milliseconds a statement takes, timed inside the server.
CREATE FUNCTION ms(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t timestamptz := clock_timestamp();
BEGIN EXECUTE q; RETURN 1000 * extract(epoch FROM clock_timestamp() - t); END $$;
-- WAL bytes a statement writes.
CREATE FUNCTION wal_bytes(q text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE l pg_lsn := pg_current_wal_insert_lsn();
BEGIN EXECUTE q; RETURN pg_current_wal_insert_lsn() - l; END $$;
SQL
done
q() { PG_CONFIG=$WORK/pg-$1/bin/pg_config scripts/cluster.sh psql "${DATA[$1]}" "${PORT[$1]}" -At -q -v ON_ERROR_STOP=1 -c "$2"; }

FLAT_N=10000000 PACED_N=2000000 INSERT_N=2000000 WAL_N=1000000
declare -A STMT=(
    [flat]="SELECT count(gen_nanoflake()) FROM generate_series(1, $FLAT_N) g"
    [flat_base]="SELECT count(*) FROM generate_series(1, $FLAT_N) g"
    [paced]="SELECT count(md5(g::text)), count(gen_nanoflake()) FROM generate_series(1, $PACED_N) g"
    [paced_base]="SELECT count(md5(g::text)), count(*) FROM generate_series(1, $PACED_N) g"
    [insert]="INSERT INTO ins (n) SELECT g FROM generate_series(1, $INSERT_N) g"
)
order=(flat_base flat paced_base paced insert)
results=$WORK/results.tsv
: >"$results"
for round in $(seq 0 "$ROUNDS"); do
    for s in "${order[@]}"; do
        for v in "${clusters[@]}"; do
            [ "$s" != insert ] || q "$v" "TRUNCATE ins; CHECKPOINT" >/dev/null
            ms=$(q "$v" "SELECT ms(\$q\$${STMT[$s]}\$q\$)")
            # Round 0 warms up and is not counted.
            [ "$round" = 0 ] || printf '%s\t%s\t%s\n' "$v" "$s" "$ms" >>"$results"
        done
    done
    echo "round $round of $ROUNDS done" >&2
done
declare -A WAL
for v in "${clusters[@]}"; do
    WAL[$v]=$(q "$v" "SELECT wal_bytes('SELECT count(gen_nanoflake()) FROM generate_series(1, $WAL_N) g')")
done

block=$(python3 - "$results" "$ROUNDS" "${WAL[base]}" "${WAL[new]}" "$MAJOR" "$BASE" \
    "$FLAT_N" "$PACED_N" "$INSERT_N" "$WAL_N" "$(git rev-parse --short HEAD)" <<'PY'
import statistics, sys
path, rounds, wal_base, wal_new, major, base, flat_n, paced_n, insert_n, wal_n, head = sys.argv[1:]
flat_n, paced_n, insert_n, wal_n = map(int, (flat_n, paced_n, insert_n, wal_n))
t = {}
for line in open(path):
    v, s, ms = line.split("\t")
    t.setdefault((v, s), []).append(float(ms))
med = {k: statistics.median(x) for k, x in t.items()}
def net(v, s, n):  # ns per call, paired with its baseline round by round
    return statistics.median(a - b for a, b in zip(t[(v, s)], t[(v, s + "_base")])) * 1e6 / n
rows = [
    ("`gen_nanoflake()` flat out (10M, capped at 4,096/ms), ns per call",
     net("base", "flat", flat_n), net("new", "flat", flat_n)),
    ("`gen_nanoflake()` paced (2M rows with an md5 each), ns per call",
     net("base", "paced", paced_n), net("new", "paced", paced_n)),
    ("INSERT of 2M rows, nanoflake DEFAULT, logged table, ms",
     med[("base", "insert")], med[("new", "insert")]),
]
print("<!-- BEGIN versions (scripts/bench_versions.sh) -->")
print("## The durable high-water marks: 0.5.0 against 0.4.0")
print()
print(f"Produced by `scripts/bench_versions.sh` (PostgreSQL {major}; base `{base}` = 0.4.0, new `{head}`): "
      f"each version built (release) and installed into a private copy of PostgreSQL {major}, two clusters with "
      f"fsync on and synchronous_commit off, every statement run on one server then the other, {rounds} rounds "
      "after a warm-up round, medians; per-call costs are paired with the same statement without the generator, round by round.")
print()
print("| statement | 0.4.0 | 0.5.0 | 0.5.0 / 0.4.0 |")
print("|---|---|---|---|")
for label, a, b in rows:
    print(f"| {label} | {a:.1f} | {b:.1f} | {b / a:.3f} |")
print(f"| WAL bytes written by {wal_n:,} `gen_nanoflake()` calls (one SELECT) | {float(wal_base):,.0f} | {float(wal_new):,.0f} | |")
print()
print("The marks move once per second of generation per generator (one WAL record of about 40 bytes, flushed, and a "
      "renamed, fsynced `chronoid.marks`), so their cost per ID shrinks as the rate grows; flat out the generator is "
      "capped by its 4,096 IDs per millisecond in both versions.")
print("<!-- END versions -->")
PY
)
python3 - "$OUT" "$block" <<'PY'
import re, sys
path, block = sys.argv[1], sys.argv[2]
text = open(path).read()
pattern = re.compile(r"<!-- BEGIN versions .*?<!-- END versions -->", re.S)
text = pattern.sub(lambda m: block, text) if pattern.search(text) else text.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(text)
PY
echo "$block"
