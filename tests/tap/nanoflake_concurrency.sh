#!/usr/bin/env bash
# Eight backends generate 200,000 nanoflakes each at the same time, all with
# the same chronoid.node_id: no value repeats, and each backend's IDs are
# strictly increasing in the order it generated them.
source "$(dirname "$0")/lib.bash"

sql "CREATE EXTENSION IF NOT EXISTS chronoid"
concurrent_generate nf_concurrent gen_nanoflake 8 200000
check_unique_and_ordered nf_concurrent 1600000
is "$(sql "SELECT count(DISTINCT nanoflake_generator(id)) FROM nf_concurrent")" "1" "all share one node id"
sql "DROP TABLE nf_concurrent"
done_testing
