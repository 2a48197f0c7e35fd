#!/usr/bin/env bash
# What a caller pays for the durable high-water marks (issue 29): this tree
# against a base (default: 0.5.0, whose callers made the marks durable
# themselves), each built and installed into a private copy of one
# PostgreSQL, on two clusters with the same settings: fsync and
# synchronous_commit on, logged tables. Writes the "reservation" block of
# BENCHMARKS.md:
#   - latency (p50, p99, max) of SELECT gen_X() and INSERT ... DEFAULT gen_X()
#     for nanoflake, caloriosa, uid60 against gen_scru160() and a bigint
#     identity, at 1 call per 2 s, 1/s, 100/s, ~1,100/s (10,000 calls/s of
#     the nine statements) and flat out, with 1 and 8 sessions
#     (bench/reservation.py; the two servers' runs interleaved cell by cell);
#   - replay of 100,000 mark records against 100,000 setval() records
#     (crash recovery, timed by the server's own "redo done" line);
#   - what an idle and a busy server write per hour.
#
#   scripts/bench_reservation.sh              # PostgreSQL 15, base 0.5.0
#   PG_MAJOR=18 CHRONOID_BENCH_BASE=<commit> CHRONOID_BENCH_SCALE=0.5 scripts/bench_reservation.sh
set -euo pipefail
cd "$(dirname "$0")/.."

MAJOR=${PG_MAJOR:-15}
# 0.5.0: the last commit before the reservation ahead of need.
BASE=${CHRONOID_BENCH_BASE:-b709cf5}
# Multiplies every run's duration (1 = the published figures).
SCALE=${CHRONOID_BENCH_SCALE:-1}
OUT=${CHRONOID_BENCH_OUT:-BENCHMARKS.md}

bash scripts/setup.sh --test >/dev/null

source scripts/lib.sh
start_version_bench reservation "$MAJOR" "$BASE"

SETTINGS=("shared_buffers = '1GB'" "max_wal_size = '16GB'" "checkpoint_timeout = '1h'"
    "synchronous_commit = on" "jit = off" "fsync = on" "max_connections = 50")
for v in "${clusters[@]}"; do
    DATA[$v]=$WORK/data-$v
    PORT[$v]=$(scripts/cluster.sh port)
    PG_CONFIG=$WORK/pg-$v/bin/pg_config scripts/cluster.sh start "${DATA[$v]}" "${PORT[$v]}" "${SETTINGS[@]}"
    PG_CONFIG=$WORK/pg-$v/bin/pg_config scripts/cluster.sh psql "${DATA[$v]}" "${PORT[$v]}" -q -c "CREATE EXTENSION chronoid"
done
dsn() { echo "host=127.0.0.1 port=${PORT[$1]} user=postgres dbname=postgres"; }
q() { PG_CONFIG=$WORK/pg-$1/bin/pg_config scripts/cluster.sh psql "${DATA[$1]}" "${PORT[$1]}" -At -q -c "$2"; }

# Latency: every cell on both servers, one after the other.
: >"$WORK/latency.jsonl"
for sessions in 1 8; do
    for cell in "0.5 60" "1 40" "100 10" "1111 10" "max 10"; do
        read -r rate seconds <<<"$cell"
        seconds=$(python3 -c "print($seconds * $SCALE)")
        for v in "${clusters[@]}"; do
            echo "latency: $v, rate $rate, $sessions sessions, $seconds s" >&2
            "$CHRONOID_VENV/bin/python" bench/reservation.py "$(dsn "$v")" "$rate" "$sessions" "$seconds" |
                sed "s/^{/{\"server\": \"$v\", /" >>"$WORK/latency.jsonl"
        done
    done
done

# What the new server writes idle (no generator used for longer than
# keep-warm) and busy (one session calling gen_nanoflake() 100 times a
# second), per hour: WAL bytes, and reservations (each one WAL flush and one
# file fsync).
window=$(python3 -c "print(int(60 * $SCALE))")
write_rates() {
    local what=$1 r0 w0 r1 w1
    r0=$(q new "SELECT sum(reservations) FROM chronoid_generators")
    w0=$(q new "SELECT pg_current_wal_insert_lsn()")
    sleep "$window"
    r1=$(q new "SELECT sum(reservations) FROM chronoid_generators")
    w1=$(q new "SELECT pg_current_wal_insert_lsn() - '$w0'")
    echo "{\"what\": \"$what\", \"reservations_per_hour\": $(( (r1 - r0) * 3600 / window )), \"wal_bytes_per_hour\": $(( ${w1%.*} * 3600 / window ))}"
}
echo "idle and busy writes" >&2
sleep 65    # past the default keep-warm of 60 s
write_rates idle >"$WORK/writes.jsonl"
"$CHRONOID_VENV/bin/python" - "$(dsn new)" "$window" <<'PY' &
import sys, time, psycopg
with psycopg.connect(sys.argv[1], autocommit=True) as c:
    end = time.monotonic() + float(sys.argv[2]) + 2
    while time.monotonic() < end:
        c.execute("SELECT gen_nanoflake()")
        time.sleep(0.01)
PY
busy=$!
sleep 1
write_rates "busy (gen_nanoflake() 100 times a second)" >>"$WORK/writes.jsonl"
wait $busy

# Replay: 100,000 records of each kind written with fsync off (writing is
# not what is measured), then the server killed and restarted: crash
# recovery replays them, and logs how long it took.
DATA[replay]=$WORK/data-replay
PORT[replay]=$(scripts/cluster.sh port)
replay_n=${CHRONOID_BENCH_REPLAY_N:-100000}
: >"$WORK/replay.jsonl"
for kind in marks setval; do
    rm -rf "${DATA[replay]}"
    PG_CONFIG=$WORK/pg-new/bin/pg_config scripts/cluster.sh start "${DATA[replay]}" "${PORT[replay]}" \
        "shared_buffers = '1GB'" "max_wal_size = '16GB'" "checkpoint_timeout = '1h'" "synchronous_commit = off"
    rq() { PG_CONFIG=$WORK/pg-new/bin/pg_config scripts/cluster.sh psql "${DATA[replay]}" "${PORT[replay]}" -At -q -c "$1"; }
    rq "CREATE EXTENSION chronoid; CREATE SEQUENCE s; CHECKPOINT"
    start=$(rq "SELECT pg_current_wal_insert_lsn()")
    if [ $kind = marks ]; then
        rq "SET client_min_messages = error; SELECT count(chronoid_set_high_water_mark('nanoflake', now() + make_interval(secs => i / 1000.0))) FROM generate_series(1, $replay_n) i" >/dev/null
    else
        rq "SELECT count(setval('s', i)) FROM generate_series(1, $replay_n) i" >/dev/null
    fi
    bytes=$(rq "SELECT pg_current_wal_insert_lsn() - '$start'")
    pid=$(head -1 "${DATA[replay]}/postmaster.pid")
    kill -9 "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
    sed -i 's/^fsync = off/fsync = on/' "${DATA[replay]}/postgresql.conf"
    : >"${DATA[replay]}/server.log"
    PG_CONFIG=$WORK/pg-new/bin/pg_config scripts/cluster.sh start "${DATA[replay]}" "${PORT[replay]}"
    line=$(grep -m1 'redo done at' "${DATA[replay]}/server.log")
    elapsed=$(sed -n 's/.*elapsed: \([0-9.]*\) s.*/\1/p' <<<"$line")
    echo "{\"kind\": \"$kind\", \"records\": $replay_n, \"wal_bytes\": ${bytes%.*}, \"elapsed_s\": ${elapsed:-null}}" >>"$WORK/replay.jsonl"
    PG_CONFIG=$WORK/pg-new/bin/pg_config scripts/cluster.sh stop "${DATA[replay]}"
done

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
pgv=$(q new "SHOW server_version")
python3 bench/reservation_report.py "$WORK" "$(nproc) cores ($cpu), PostgreSQL $pgv" \
    "$(git rev-parse --short "$BASE")" "${SETTINGS[*]}" "$SCALE" >"$WORK/block.md"
write_bench_block reservation "$WORK/block.md" "$OUT"
echo "wrote the reservation block of $OUT" >&2
