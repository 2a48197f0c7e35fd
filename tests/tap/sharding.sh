#!/usr/bin/env bash
# Sharding on PostgreSQL's own parts: a coordinator and three shard servers,
# each with its own chronoid.node_id; a table hash-partitioned by a
# nanoflake key whose partitions are postgres_fdw foreign tables on the
# shards (server OPTIONS (extensions 'chronoid'), so chronoid's operators and
# immutable functions may be shipped). Checks: four concurrent writers
# through the coordinator, no duplicates, every row on the shard the
# coordinator's hash routes it to (and both sides hash a key alike); ranges
# and comparisons pushed down (EXPLAIN VERBOSE); ORDER BY id LIMIT n as on
# one server; IDs generated on the shards themselves never collide.
source "$(dirname "$0")/lib.bash"

SHARDS=3
PORTS=()
for i in $(seq 0 "$SHARDS"); do PORTS+=("$(free_port)"); done
dir() { echo "$CHRONOID_TEST_WORK/shard$1"; }
cleanup() { for i in $(seq 0 $SHARDS); do scripts/cluster.sh stop "$(dir "$i")"; done; }
trap cleanup EXIT
# Server 0 is the coordinator (node id 100); shards 1..3 have node ids 1..3.
for i in $(seq 0 $SHARDS); do
    scripts/cluster.sh stop "$(dir "$i")"; rm -rf "$(dir "$i")"
    node=$i; [ "$i" = 0 ] && node=100
    scripts/cluster.sh start "$(dir "$i")" "${PORTS[$i]}" "chronoid.node_id = $node" "shared_buffers = '64MB'"
    sql_on "${PORTS[$i]}" "CREATE EXTENSION chronoid"
done
C=${PORTS[0]}
coord() { sql_on "$C" "$@"; }

coord "CREATE EXTENSION postgres_fdw"
coord "CREATE TABLE events (id nanoflake NOT NULL DEFAULT gen_nanoflake(), writer int, what text) PARTITION BY HASH (id)"
for i in $(seq 1 $SHARDS); do
    r=$((i - 1))
    sql_on "${PORTS[$i]}" "CREATE TABLE events_p$r (id nanoflake PRIMARY KEY, writer int, what text);
        CREATE TABLE local_ids (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake())"
    coord "CREATE SERVER shard$i FOREIGN DATA WRAPPER postgres_fdw
               OPTIONS (host '127.0.0.1', port '${PORTS[$i]}', dbname 'postgres', extensions 'chronoid');
           CREATE USER MAPPING FOR postgres SERVER shard$i OPTIONS (user 'postgres');
           CREATE FOREIGN TABLE events_p$r PARTITION OF events FOR VALUES WITH (MODULUS $SHARDS, REMAINDER $r)
               SERVER shard$i OPTIONS (table_name 'events_p$r');
           CREATE FOREIGN TABLE local_ids_$i (id nanoflake) SERVER shard$i OPTIONS (table_name 'local_ids')"
done

# Four concurrent writers through the coordinator.
pids=()
for w in 1 2 3 4; do
    coord "INSERT INTO events (writer, what) SELECT $w, 'row ' || g FROM generate_series(1, 5000) g" &
    pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
ok "$status" "4 concurrent writers inserted 5,000 rows each through the coordinator"
is "$(coord "SELECT count(*), count(DISTINCT id) FROM events")" "20000|20000" "20,000 rows, no duplicate id"
counts=$(for i in $(seq 1 $SHARDS); do sql_on "${PORTS[$i]}" "SELECT count(*) FROM events_p$((i - 1))"; done | awk '{s += $1} END {print s}')
is "$counts" "20000" "the shards hold every row"
is "$(for i in $(seq 1 $SHARDS); do sql_on "${PORTS[$i]}" "SELECT count(*) > 5000 FROM events_p$((i - 1))"; done | sort -u)" "t" \
    "every shard got its share"
# Routing: each shard's rows are exactly those the coordinator's hash sends
# there (OFFSET 0 keeps the check on the coordinator), and a key hashes
# alike on every server.
misrouted=0
for r in $(seq 0 $((SHARDS - 1))); do
    n=$(coord "SELECT count(*) FROM (SELECT id FROM events_p$r OFFSET 0) s WHERE NOT satisfies_hash_partition('events'::regclass, $SHARDS, $r, id)")
    misrouted=$((misrouted + n))
done
is "$misrouted" "0" "every row is on the shard the coordinator's hash names"
key=$(coord "SELECT id FROM events ORDER BY id LIMIT 1")
hashes=$(for i in $(seq 0 $SHARDS); do sql_on "${PORTS[$i]}" "SELECT nanoflake_hash_extended('$key', 8816678312871386365)"; done | sort -u | wc -l)
is "$hashes" "1" "the coordinator and the shards hash a key alike"

# Pushdown: comparisons and immutable bounds travel in the remote WHERE.
plan=$(coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= '$key'::nanoflake AND id < nanoflake_ceil('2030-01-01+00', '2020-01-01+00')")
ceil=$(coord "SELECT nanoflake_ceil('2030-01-01+00', '2020-01-01+00')")
echo "$plan" | grep -qF "WHERE ((id OPERATOR(public.>=) '$key')) AND ((id OPERATOR(public.<) '$ceil'))" && r=0 || r=1
ok $r "comparisons and nanoflake_ceil(t, epoch) are pushed down to the shards"
[ $r = 0 ] || echo "$plan" | sed 's/^/# /'
plan=$(coord "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= nanoflake_floor(now())")
echo "$plan" | grep -qE "Filter: \(\w+\.id >= nanoflake_floor\(now\(\)\)\)" && r=0 || r=1
ok $r "a STABLE bound (the server's epoch, now()) is filtered on the coordinator, as documented"
[ $r = 0 ] || echo "$plan" | sed 's/^/# /'

# ORDER BY id LIMIT n through the shards equals the same on one server.
coord "CREATE TABLE events_single AS SELECT * FROM events"
is "$(rows_md5_on() { :; }; coord "SELECT md5(string_agg(id::text || writer || what, ',' ORDER BY id)) FROM (SELECT * FROM events ORDER BY id LIMIT 100) s")" \
    "$(coord "SELECT md5(string_agg(id::text || writer || what, ',' ORDER BY id)) FROM (SELECT * FROM events_single ORDER BY id LIMIT 100) s")" \
    "ORDER BY id LIMIT 100 through the shards returns the single server's rows"
is "$(coord "SELECT count(*) FROM ((SELECT id FROM events ORDER BY id DESC LIMIT 100) EXCEPT (SELECT id FROM events_single ORDER BY id DESC LIMIT 100)) s")" \
    "0" "and so does ORDER BY id DESC LIMIT 100"

# Shards generating their own IDs (their own node ids) never collide.
pids=()
for i in $(seq 1 $SHARDS); do
    sql_on "${PORTS[$i]}" "INSERT INTO local_ids SELECT FROM generate_series(1, 20000)" &
    pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
ok "$status" "each shard generated 20,000 ids locally at once"
union=$(for i in $(seq 1 $SHARDS); do echo "SELECT id FROM local_ids_$i"; done | paste -sd'|' | sed 's/|/ UNION ALL /g')
is "$(coord "SELECT count(*), count(DISTINCT id), count(DISTINCT nanoflake_generator(id)) FROM ($union) s")" \
    "60000|60000|3" "60,000 shard-local ids: no collision, three node ids"
done_testing
