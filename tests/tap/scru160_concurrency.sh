#!/usr/bin/env bash
# Eight backends generate 200,000 scru160s each at the same time: no value
# repeats, each backend's IDs strictly increase, and - the library being
# preloaded, so that a random state created in the postmaster would be
# inherited by every backend - no two backends share a random stream.
source "$(dirname "$0")/lib.bash"

sql "CREATE EXTENSION IF NOT EXISTS chronoid"
is "$(sql "SHOW shared_preload_libraries")" "chronoid" "chronoid is preloaded"
concurrent_generate s_concurrent gen_scru160 8 200000
check_unique_and_ordered s_concurrent 1600000

# Each backend's first ID: eight different random parts.
is "$(sql "SELECT count(DISTINCT scru160_random80(id)) FROM s_concurrent WHERE n = 1")" "8" \
    "the first IDs of eight backends have eight different random parts"
# And no 80-bit random part shows up twice anywhere (shared streams would
# repeat them across backends).
is "$(sql "SELECT count(DISTINCT scru160_random80(id)) FROM s_concurrent")" "1600000" \
    "no random part repeats across backends"

# Fresh connections (fresh forks of the postmaster) differ too.
firsts=$(for i in 1 2 3 4 5; do sql "SELECT scru160_random80(gen_scru160())"; done | sort -u | wc -l)
is "$firsts" "5" "five new sessions draw five different first random parts"
sql "DROP TABLE s_concurrent"
done_testing
