#!/usr/bin/env bash
# Settings applied in whatever order PostgreSQL applies them - parallel
# workers, role and database settings at login - reach the session intact;
# no session can move the nanoflake epoch; per-session node ids never
# repeat an ID of this server.
source "$(dirname "$0")/lib.bash"

PARALLEL="SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
          SET min_parallel_table_scan_size = 0; SET parallel_leader_participation = off;"

# 1. Parallel workers restore the leader's settings one by one, in their own
# order: a context valid as a pair must reach them, even in a database
# without the extension (the library is preloaded everywhere).
TAP_DB=postgres
sql "DROP TABLE IF EXISTS plain_rows; CREATE TABLE plain_rows AS SELECT g FROM generate_series(1, 100000) g; ANALYZE plain_rows"
plan=$(sql "SET chronoid.codokey_year_zero = 100; SET chronoid.codokey_max_year = 200; $PARALLEL
            EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM plain_rows" 2>&1)
echo "$plan" | grep -q "Workers Launched: 2"
ok $? "a database without chronoid: a parallel query under the context (100, 200) runs with 2 workers"
is "$(sql "SET chronoid.codokey_year_zero = 100; SET chronoid.codokey_max_year = 200; $PARALLEL SELECT count(*) FROM plain_rows")" "100000" \
    "and answers"
sql "DROP TABLE plain_rows"

TAP_DB=postgres sql "DROP DATABASE IF EXISTS ck_settings"
TAP_DB=postgres sql "CREATE DATABASE ck_settings"
TAP_DB=ck_settings
sql "CREATE EXTENSION chronoid"
sql "CREATE TABLE keys AS SELECT g, codokey(timestamptz '0100-01-01+00' + g * interval '8 hours', 3, 100, 200, 9) AS k FROM generate_series(1, 100000) g; ANALYZE keys"
# The workers decode with the session's context: it must be theirs too.
for order in "SET chronoid.codokey_year_zero = 100; SET chronoid.codokey_max_year = 200;" \
             "SET chronoid.codokey_max_year = 200; SET chronoid.codokey_year_zero = 100;"; do
    query="$order $PARALLEL SELECT count(*) FROM keys WHERE codokey_timestamp(k) < '0150-01-01+00'"
    plan=$(sql "$order $PARALLEL EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM keys WHERE codokey_timestamp(k) < '0150-01-01+00'" 2>&1)
    echo "$plan" | grep -q "Workers Launched: 2"
    ok $? "parallel decoding under ($order) runs with 2 workers"
    is "$(sql "$query")" "$(sql "SELECT count(*) FROM keys WHERE codokey_timestamp(k, 100, 200, 9) < '0150-01-01+00'")" \
        "and the workers decode in the session's context"
done

# 2. Role and database settings, stored in either order, arrive as a pair.
# (A pairwise check when set would reject the first of them at login with
# a WARNING, silently leaving (1970, 5000).)
TAP_DB=postgres sql "DROP ROLE IF EXISTS ck_role_a; DROP ROLE IF EXISTS ck_role_b; CREATE ROLE ck_role_a LOGIN; CREATE ROLE ck_role_b LOGIN"
sql "GRANT SELECT ON keys TO ck_role_a, ck_role_b"
TAP_DB=postgres sql "ALTER DATABASE ck_settings SET chronoid.codokey_year_zero = 4000; ALTER DATABASE ck_settings SET chronoid.codokey_max_year = 5000"
context="SELECT current_setting('chronoid.codokey_year_zero') || '..' || current_setting('chronoid.codokey_max_year')"
is "$(sql "$context")" "4000..5000" "database-level year zero, then max year: the session has (4000, 5000)"
is "$(sql "SELECT codokey(timestamptz '4500-06-15+00', 0), length(codokey(timestamptz '4500-06-15+00', 0)::text)")" "dw|2" \
    "and makes keys in it"
TAP_DB=postgres sql "ALTER DATABASE ck_settings RESET ALL"
TAP_DB=postgres sql "ALTER DATABASE ck_settings SET chronoid.codokey_max_year = 50; ALTER DATABASE ck_settings SET chronoid.codokey_year_zero = 10"
is "$(sql "$context")" "10..50" "database-level max year, then year zero: the session has (10, 50)"
TAP_DB=postgres sql "ALTER ROLE ck_role_a SET chronoid.codokey_year_zero = 100; ALTER ROLE ck_role_a SET chronoid.codokey_max_year = 200"
TAP_DB=postgres sql "ALTER ROLE ck_role_b SET chronoid.codokey_max_year = 200; ALTER ROLE ck_role_b SET chronoid.codokey_year_zero = 100"
for role in ck_role_a ck_role_b; do
    got=$("${PSQL[@]}" -p "$CHRONOID_PORT" -d ck_settings -U "$role" -c "$context" 2>&1)
    is "$got" "100..200" "$role: role settings (in its order) override the database's and arrive as a pair, with no warning"
    got=$("${PSQL[@]}" -p "$CHRONOID_PORT" -d ck_settings -U "$role" -c "SELECT codokey_timestamp(k) FROM keys WHERE g = 1" 2>&1)
    is "$got" "0100-01-01 08:00:00+00" "$role: decodes the (100, 200) keys in its context"
done
# A pair that is invalid as stored is an error where a key is made, 22023.
TAP_DB=postgres sql "ALTER ROLE ck_role_a SET chronoid.codokey_max_year = 50"
got=$("${PSQL[@]}" -p "$CHRONOID_PORT" -d ck_settings -U ck_role_a -v VERBOSITY=verbose -c "SELECT codokey(now())" 2>&1 || true)
echo "$got" | grep -q "ERROR:  22023: invalid codokey context (chronoid.codokey_year_zero = 100, chronoid.codokey_max_year = 50)"
ok $? "an invalid stored pair: 22023 naming both settings when a key is made"

# 3. The epoch is the server's: no session, option or setting moves it.
got=$(PGOPTIONS="-c chronoid.nanoflake_epoch=2021-01-01" "${PSQL[@]}" -p "$CHRONOID_PORT" -d ck_settings -c "SELECT 1" 2>&1 || true)
echo "$got" | grep -q 'parameter "chronoid.nanoflake_epoch" cannot be changed without restarting the server'
ok $? "PGOPTIONS cannot give a session another epoch"
for stmt in "SET chronoid.nanoflake_epoch = '2020-01-01 00:00:00.001+00'" \
            "ALTER DATABASE ck_settings SET chronoid.nanoflake_epoch = '2021-01-01'" \
            "ALTER ROLE ck_role_a SET chronoid.nanoflake_epoch = '2021-01-01'"; do
    got=$(sql "$stmt" 2>&1 || true)
    echo "$got" | grep -q "cannot be changed without restarting the server"
    ok $? "refused: $stmt"
done

# 4. Sessions with different node ids at once: the shared ticker gives each
# (ms, sequence) once, so no two IDs of this server are equal even with
# their node bits masked off.
sql "DROP TABLE IF EXISTS by_node; CREATE UNLOGGED TABLE by_node (node int, id nanoflake)"
pids=()
for node in 0 1 2 1023; do
    sql "SET chronoid.node_id = $node; INSERT INTO by_node SELECT $node, gen_nanoflake() FROM generate_series(1, 30000)" &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
ok "$status" "4 sessions with node ids 0, 1, 2, 1023 generated at once"
is "$(sql "SELECT count(*), count(DISTINCT id), count(DISTINCT id::bigint & ~(1023::bigint << 12)) FROM by_node")" "120000|120000|120000" \
    "0 duplicate IDs, and 0 duplicate (ms, sequence) ticks across node ids"
is "$(sql "SELECT bool_and(nanoflake_generator(id) = node) FROM by_node")" "t" "each ID carries its session's node id"

TAP_DB=postgres sql "DROP DATABASE ck_settings"
TAP_DB=postgres sql "DROP ROLE ck_role_a; DROP ROLE ck_role_b"
done_testing
