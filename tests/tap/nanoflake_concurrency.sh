#!/usr/bin/env bash
# Eight backends generate 200,000 nanoflakes each at the same time, all with
# the same chronoid.node_id: no value repeats, and each backend's IDs are
# strictly increasing in the order it generated them.
source "$(dirname "$0")/lib.bash"

BACKENDS=8
PER_BACKEND=200000
TAP_DB=postgres

sql "CREATE EXTENSION IF NOT EXISTS chronoid"
sql "DROP TABLE IF EXISTS nf_concurrent; CREATE UNLOGGED TABLE nf_concurrent (backend int, n int, id nanoflake)"

pids=()
for b in $(seq 1 "$BACKENDS"); do
    sql "INSERT INTO nf_concurrent SELECT $b, n, gen_nanoflake() FROM generate_series(1, $PER_BACKEND) n" &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
ok "$status" "$BACKENDS backends x $PER_BACKEND gen_nanoflake() calls succeeded"

is "$(sql "SELECT count(*) FROM nf_concurrent")" "$((BACKENDS * PER_BACKEND))" "every row arrived"
is "$(sql "SELECT count(DISTINCT id) FROM nf_concurrent")" "$((BACKENDS * PER_BACKEND))" "zero duplicate IDs"
is "$(sql "SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY backend ORDER BY n) AS bad FROM nf_concurrent) s WHERE bad")" \
    "0" "each backend's IDs strictly increase"
is "$(sql "SELECT count(DISTINCT nanoflake_generator(id)) FROM nf_concurrent")" "1" "all share one node id"
# The windows overlap in time: the backends really ran at once.
overlap=$(sql "SELECT max(lo) < min(hi) FROM (SELECT backend, min(id) lo, max(id) hi FROM nf_concurrent GROUP BY backend) s")
is "$overlap" "t" "the backends' generation windows overlap"

sql "DROP TABLE nf_concurrent"
done_testing
