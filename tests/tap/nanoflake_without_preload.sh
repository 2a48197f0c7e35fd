#!/usr/bin/env bash
# Without shared_preload_libraries, gen_nanoflake() cannot coordinate its
# sequence across backends, so it refuses with an error and a hint rather
# than risk duplicates. The rest of the type works.
source "$(dirname "$0")/lib.bash"

DATA=$CHRONOID_TEST_WORK/nopreload
PORT=$((CHRONOID_PORT + 1))
scripts/cluster.sh start "$DATA" "$PORT" "shared_preload_libraries = ''"
trap 'scripts/cluster.sh stop "$DATA"' EXIT

sql_on "$PORT" "CREATE EXTENSION chronoid"
is "$(sql_on "$PORT" "SHOW shared_preload_libraries")" "" "the cluster does not preload chronoid"
is "$(sql_on "$PORT" "SELECT 'zz'::nanoflake::bigint")" "1295" "the type works without preload"

out=$("${PSQL[@]}" -p "$PORT" -d postgres -v VERBOSITY=verbose -c "SELECT gen_nanoflake()" 2>&1 || true)
echo "$out" | sed 's/^/#   /'
echo "$out" | grep -q "ERROR:  55000: gen_nanoflake() requires chronoid to be loaded via shared_preload_libraries"
ok $? "gen_nanoflake() refuses with SQLSTATE 55000"
echo "$out" | grep -q "HINT:  Add chronoid to shared_preload_libraries"
ok $? "the error carries a hint naming shared_preload_libraries"

done_testing
