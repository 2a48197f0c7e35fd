#!/usr/bin/env bash
# Eight backends call each generator 200,000 times at the same time. For
# every type: every row arrives, no value repeats, and the backends really
# ran at once. Then what each type's uniqueness rests on:
# - nanoflake, uid60, caloriosa: a server-wide (millisecond, counter) ticker
#   in shared memory, so no (millisecond, counter) pair repeats on the
#   server and no millisecond holds more than the counter's range;
# - scru160: a per-backend generator and CSPRNG, so - the library being
#   preloaded, where a random state made in the postmaster would be
#   inherited by every backend - no two backends share a random stream.
source "$(dirname "$0")/lib.bash"

BACKENDS=8 PER=200000 TOTAL=1600000
sql "CREATE EXTENSION IF NOT EXISTS chronoid"
is "$(sql "SHOW shared_preload_libraries")" "chronoid" "chronoid is preloaded"

# generate TYPE: fills TYPE_concurrent and checks what every generator must.
# ORDERED=yes: each backend's IDs also strictly increase in generation order.
generate() {
    local type=$1 ordered=$2 table=${1}_concurrent
    concurrent_generate "$table" "gen_$type" $BACKENDS $PER
    is "$(sql "SELECT count(*) FROM $table")" "$TOTAL" "$table: every row arrived"
    is "$(sql "SELECT count(DISTINCT id) FROM $table")" "$TOTAL" "$table: zero duplicate IDs"
    is "$(sql "SELECT max(lo) < min(hi) FROM (SELECT backend, min(${type}_timestamp(id)) lo, max(${type}_timestamp(id)) hi FROM $table GROUP BY backend) s")" \
        "t" "$table: the backends' generation windows overlap"
    if [ "$ordered" = yes ]; then
        is "$(sql "SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY backend ORDER BY n) AS bad FROM $table) s WHERE bad")" \
            "0" "$table: each backend's IDs strictly increase"
    else
        # The random salt sits above the counter: a backend's IDs are
        # ordered by millisecond only, which never goes back.
        is "$(sql "SELECT count(*) FROM (SELECT ${type}_timestamp(id) < lag(${type}_timestamp(id)) OVER (PARTITION BY backend ORDER BY n) AS bad FROM $table) s WHERE bad")" \
            "0" "$table: each backend's timestamps never go back"
    fi
}

# counter_id TYPE COUNTER_FUNCTION PER_MS: the checks of a ticker-backed type.
counter_id() {
    local type=$1 counter=$2 per_ms=$3 table=${1}_concurrent
    is "$(sql "SELECT count(DISTINCT (${type}_timestamp(id), $counter(id))) FROM $table")" "$TOTAL" \
        "$table: no (millisecond, counter) pair repeats across backends"
    is "$(sql "SELECT max(c) <= $per_ms FROM (SELECT count(*) c FROM $table GROUP BY ${type}_timestamp(id)) s")" "t" \
        "$table: at most $per_ms IDs per millisecond on the server"
    sql "DROP TABLE $table"
}

generate nanoflake yes
is "$(sql "SELECT count(DISTINCT nanoflake_generator(id)) FROM nanoflake_concurrent")" "1" \
    "nanoflake_concurrent: all share one node id"
counter_id nanoflake nanoflake_sequence 4096

generate uid60 yes
counter_id uid60 uid60_sequence 512

generate caloriosa no
counter_id caloriosa caloriosa_increment 1024

generate scru160 yes
# Each backend's first ID: eight different random parts; and no 80-bit
# random part anywhere twice (shared streams would repeat them).
is "$(sql "SELECT count(DISTINCT scru160_random80(id)) FROM scru160_concurrent WHERE n = 1")" "$BACKENDS" \
    "the first IDs of $BACKENDS backends have $BACKENDS different random parts"
is "$(sql "SELECT count(DISTINCT scru160_random80(id)) FROM scru160_concurrent")" "$TOTAL" \
    "no random part repeats across backends"
# Fresh connections (fresh forks of the postmaster) differ too.
firsts=$(for i in 1 2 3 4 5; do sql "SELECT scru160_random80(gen_scru160())"; done | sort -u | wc -l)
is "$firsts" "5" "five new sessions draw five different first random parts"
sql "DROP TABLE scru160_concurrent"
done_testing
