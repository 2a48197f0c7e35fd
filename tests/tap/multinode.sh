#!/usr/bin/env bash
# Four servers on loopback ports, each with its own chronoid.node_id, all
# generating at once with every generator; everything merged into one table.
# nanoflake (distinct node ids) and scru160 (96 random bits) must not collide
# at all. caloriosa and uid60 carry no node id: only their random bits (12
# and 9) separate two servers' IDs of the same millisecond and counter, so
# collisions are expected; the test reports the number observed against the
# number the odds predict, and fails only if the observed number is far
# outside them. Then native logical replication, with binary = true and
# without, from two publishers to one subscriber: every row arrives equal.
source "$(dirname "$0")/lib.bash"

NODES=4
PER_NODE=50000
PORTS=(0)
for i in $(seq 1 "$NODES"); do PORTS+=("$(free_port)"); done
port() { echo "${PORTS[$1]}"; }
dir() { echo "$CHRONOID_TEST_WORK/node$1"; }
cleanup() { for i in $(seq 1 $NODES); do scripts/cluster.sh stop "$(dir "$i")"; done; }
trap cleanup EXIT
for i in $(seq 1 $NODES); do
    scripts/cluster.sh stop "$(dir "$i")"; rm -rf "$(dir "$i")"
    scripts/cluster.sh start "$(dir "$i")" "$(port "$i")" "chronoid.node_id = $i" "wal_level = logical" "shared_buffers = '64MB'"
    sql_on "$(port "$i")" "CREATE EXTENSION chronoid"
    sql_on "$(port "$i")" "CREATE TABLE gen (node int, nf nanoflake, s scru160, c caloriosa, u uid60)"
done
is "$(for i in $(seq 1 $NODES); do sql_on "$(port "$i")" "SHOW chronoid.node_id"; done | sort -u | wc -l)" "$NODES" \
    "$NODES servers, $NODES distinct node ids"

pids=()
for i in $(seq 1 $NODES); do
    for half in 1 2; do
        sql_on "$(port "$i")" "INSERT INTO gen SELECT $i, gen_nanoflake(), gen_scru160(), gen_caloriosa(), gen_uid60() FROM generate_series(1, $((PER_NODE / 2)))" &
        pids+=($!)
    done
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
ok "$status" "$NODES servers x 2 backends generated $PER_NODE rows per server at once"

# Merge everything into one table on node 1 (binary COPY between servers).
sql_on "$(port 1)" "CREATE TABLE merged (LIKE gen)"
for i in $(seq 1 $NODES); do
    "${PSQL[@]}" -p "$(port "$i")" -d postgres -c "COPY gen TO STDOUT (FORMAT binary)" |
        "${PSQL[@]}" -p "$(port 1)" -d postgres -c "COPY merged FROM STDIN (FORMAT binary)"
done
total=$((NODES * PER_NODE))
m() { sql_on "$(port 1)" "$@"; }
is "$(m "SELECT count(*) FROM merged")" "$total" "all $total rows merged"
is "$(m "SELECT count(*) - count(DISTINCT nf) FROM merged")" "0" "zero duplicate nanoflakes across servers"
is "$(m "SELECT count(*) - count(DISTINCT s) FROM merged")" "0" "zero duplicate scru160s across servers"
is "$(m "SELECT count(*) = count(DISTINCT (node, nf)) FROM merged")" "t" "(and none within a server)"

# caloriosa / uid60: observed collisions against the odds. Two servers'
# IDs collide only with the same millisecond and counter (then 1 in 4096,
# resp. 1 in 512, for the random bits): expected = sum over (ms, counter)
# of C(servers using it, 2) / 4096 (resp. / 512).
for t in caloriosa uid60; do
    if [ $t = caloriosa ]; then col=c; counter="caloriosa_increment(c)"; odds=4096; else col=u; counter="uid60_sequence(u)"; odds=512; fi
    observed=$(m "SELECT count(*) - count(DISTINCT $col) FROM merged")
    expected=$(m "SELECT round(coalesce(sum(n * (n - 1) / 2.0), 0) / $odds, 1) FROM (SELECT count(DISTINCT node) n FROM merged GROUP BY ${t}_timestamp($col), $counter) g")
    within=$(m "SELECT $observed <= $expected + 5 * sqrt($expected) + 3 AND $observed >= $expected - 5 * sqrt($expected) - 3")
    echo "# $t: $observed collisions observed between servers, $expected expected from the odds (1 in $odds per shared millisecond and counter)"
    is "$within" "t" "$t: observed collisions ($observed) within the odds (expected $expected)"
    is "$(m "SELECT count(*) = count(DISTINCT (node, $col)) FROM merged")" "t" "$t: zero duplicates within one server"
done

# Logical replication: nodes 1 and 2 publish, node 3 subscribes to node 1
# with binary = true and to node 2 in text.
for i in 1 2 3; do
    sql_on "$(port "$i")" "CREATE TABLE rep (src int, n int, nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60, PRIMARY KEY (src, n))"
done
for i in 1 2; do
    sql_on "$(port "$i")" "INSERT INTO rep SELECT $i, g, gen_nanoflake(), gen_scru160(), codokey(now() - g * interval '1 minute', g % 7), gen_caloriosa(), gen_uid60() FROM generate_series(1, 5000) g"
    sql_on "$(port "$i")" "CREATE PUBLICATION pub FOR TABLE rep"
done
sql_on "$(port 3)" "CREATE SUBSCRIPTION sub1 CONNECTION 'host=127.0.0.1 port=$(port 1) user=postgres dbname=postgres' PUBLICATION pub WITH (binary = true)"
sql_on "$(port 3)" "CREATE SUBSCRIPTION sub2 CONNECTION 'host=127.0.0.1 port=$(port 2) user=postgres dbname=postgres' PUBLICATION pub WITH (binary = false)"
# Rows written after the subscriptions exist go through the apply worker.
for i in 1 2; do
    sql_on "$(port "$i")" "INSERT INTO rep SELECT $i, g, gen_nanoflake(), gen_scru160(), codokey(now() - g * interval '1 minute', g % 7), gen_caloriosa(), gen_uid60() FROM generate_series(5001, 10000) g"
    sql_on "$(port "$i")" "UPDATE rep SET ck = codokey(now(), 6) WHERE n % 100 = 0"
done
# Wait until each subscription has applied everything its publisher wrote
# (as PostgreSQL's wait_for_catchup does): counting rows is not enough, the
# UPDATEs arrive after the last INSERT.
for i in 1 2; do
    target=$(sql_on "$(port "$i")" "SELECT pg_current_wal_lsn()")
    for _ in $(seq 1 240); do
        [ "$(sql_on "$(port "$i")" "SELECT coalesce(bool_and(replay_lsn >= '$target'), false) FROM pg_stat_replication WHERE application_name = 'sub$i'")" = t ] && break
        sleep 0.5
    done
done
fp() { sql_on "$1" "SELECT md5(string_agg(concat_ws('|', src, n, nf, s, ck, c, u), ',' ORDER BY src, n)) FROM rep WHERE src = $2"; }
is "$(sql_on "$(port 3)" "SELECT count(*) FROM rep")" "20000" "every row arrived at the subscriber"
is "$(fp "$(port 3)" 1)" "$(fp "$(port 1)" 1)" "binary = true: every value equal"
is "$(fp "$(port 3)" 2)" "$(fp "$(port 2)" 2)" "binary = false: every value equal"
is "$(sql_on "$(port 3)" "SELECT string_agg(subbinary::text, ',' ORDER BY subname) FROM pg_subscription")" "true,false" \
    "the subscriptions are binary and text"
sql_on "$(port 3)" "DROP SUBSCRIPTION sub1"
sql_on "$(port 3)" "DROP SUBSCRIPTION sub2"
done_testing
