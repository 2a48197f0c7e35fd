#!/usr/bin/env bash
# Eight backends generate 200,000 caloriosas and, separately, 200,000 uid60s
# each at the same time. Both formats rest on a server-wide counter (the
# caloriosa increment, the uid60 sequence) kept in shared memory: no value
# and no (millisecond, counter) pair repeats on one server.
source "$(dirname "$0")/lib.bash"

sql "CREATE EXTENSION IF NOT EXISTS chronoid"

concurrent_generate u_concurrent gen_uid60 8 200000
check_unique_and_ordered u_concurrent 1600000
is "$(sql "SELECT count(DISTINCT (uid60_timestamp(id), uid60_sequence(id))) FROM u_concurrent")" "1600000" \
    "u_concurrent: no (millisecond, sequence) pair repeats across backends"
is "$(sql "SELECT max(c) <= 512 FROM (SELECT count(*) c FROM u_concurrent GROUP BY uid60_timestamp(id)) s")" "t" \
    "u_concurrent: at most 512 IDs per millisecond on the server"

concurrent_generate c_concurrent gen_caloriosa 8 200000
is "$(sql "SELECT count(DISTINCT id) FROM c_concurrent")" "1600000" "c_concurrent: zero duplicate names"
is "$(sql "SELECT count(DISTINCT (caloriosa_timestamp(id), caloriosa_increment(id))) FROM c_concurrent")" "1600000" \
    "c_concurrent: no (millisecond, increment) pair repeats across backends"
is "$(sql "SELECT max(c) <= 1024 FROM (SELECT count(*) c FROM c_concurrent GROUP BY caloriosa_timestamp(id)) s")" "t" \
    "c_concurrent: at most 1024 names per millisecond on the server"
# The salt sits above the increment: a backend's names are ordered by
# millisecond only, which never goes back.
is "$(sql "SELECT count(*) FROM (SELECT caloriosa_timestamp(id) < lag(caloriosa_timestamp(id)) OVER (PARTITION BY backend ORDER BY n) AS bad FROM c_concurrent) s WHERE bad")" \
    "0" "c_concurrent: each backend's timestamps never go back"

sql "DROP TABLE u_concurrent, c_concurrent"
done_testing
