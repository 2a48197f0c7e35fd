#!/usr/bin/env bash
# Without shared_preload_libraries there is no shared memory for the
# server-wide counters, so the generators whose uniqueness rests on one
# (nanoflake, caloriosa, uid60) refuse with an error and a hint rather than
# risk duplicates. gen_scru160() (random bits) and everything else work.
source "$(dirname "$0")/lib.bash"

DATA=$CHRONOID_TEST_WORK/nopreload
PORT=$(free_port)
scripts/cluster.sh stop "$DATA"; rm -rf "$DATA"
scripts/cluster.sh start "$DATA" "$PORT" "shared_preload_libraries = ''" "chronoid.nanoflake_epoch = '2024-01-01 00:00:00+00'"
trap 'scripts/cluster.sh stop "$DATA"' EXIT

sql_on "$PORT" "CREATE EXTENSION chronoid"
is "$(sql_on "$PORT" "SHOW shared_preload_libraries")" "" "the cluster does not preload chronoid"
is "$(sql_on "$PORT" "SELECT 'zz'::nanoflake::bigint")" "1295" "the types work without preload"
is "$(sql_on "$PORT" "SELECT length(gen_scru160()::text)")" "32" "gen_scru160() needs no preload"
# Loaded on demand, the library may not define a start-only setting; the
# epoch still comes from the server's configuration alone.
is "$(sql_on "$PORT" "SET TimeZone = 'UTC'; SELECT nanoflake_timestamp('0'::nanoflake)")" "2024-01-01 00:00:00+00" \
    "the configured epoch applies without preload"
out=$(sql_on "$PORT" "SELECT nanoflake_timestamp('0'::nanoflake); SET chronoid.nanoflake_epoch = '2021-01-01'" 2>&1 || true)
echo "$out" | grep -q 'parameter "chronoid.nanoflake_epoch" cannot be changed now'
ok $? "and no session can change it once the library is loaded"
is "$(sql_on "$PORT" "SET chronoid.nanoflake_epoch = '2021-01-01'; SET TimeZone = 'UTC'; SELECT nanoflake_timestamp('0'::nanoflake)" 2>/dev/null)" \
    "2024-01-01 00:00:00+00" "nor before it is loaded (the placeholder is dropped when it loads)"

for gen in gen_nanoflake gen_caloriosa gen_uid60; do
    out=$("${PSQL[@]}" -p "$PORT" -d postgres -v VERBOSITY=verbose -c "SELECT $gen()" 2>&1 || true)
    echo "$out" | sed 's/^/#   /'
    echo "$out" | grep -q "ERROR:  55000: $gen() requires chronoid to be loaded via shared_preload_libraries"
    ok $? "$gen() refuses with SQLSTATE 55000"
    echo "$out" | grep -q "HINT:  Add chronoid to shared_preload_libraries"
    ok $? "$gen(): the error carries a hint naming shared_preload_libraries"
done

done_testing
