#!/usr/bin/env bash
# Crashes while generators run: kill -9 of a generating backend (the
# postmaster then restarts every backend and re-creates shared memory), and
# kill -9 of the postmaster itself. What is promised: after the restart, the
# monotonic generators continue above every ID issued before the crash
# (nanoflake, uid60, scru160; caloriosa's timestamps never go back), and
# nothing repeats: the server-wide generators resume above their durable
# high-water marks (src/pg/high_water.rs), scru160 restarts from the clock.
# Restarts with the clock stepped back, and failover, are
# tests/t/001_restart_clock_behind.pl and tests/t/002_failover.pl.
source "$(dirname "$0")/lib.bash"

DATA=$CHRONOID_TEST_WORK/crash
PORT=$(free_port)
scripts/cluster.sh stop "$DATA"; rm -rf "$DATA"
scripts/cluster.sh start "$DATA" "$PORT" "restart_after_crash = on"
trap 'scripts/cluster.sh stop "$DATA"' EXIT
q() { sql_on "$PORT" "$@"; }

q "CREATE EXTENSION chronoid"
q "CREATE TABLE ids (phase int, nf nanoflake, s scru160, c caloriosa, u uid60)"
generate() { # phase rows
    q "INSERT INTO ids SELECT $1, gen_nanoflake(), gen_scru160(), gen_caloriosa(), gen_uid60() FROM generate_series(1, $2)"
}

check_after() { # phase: every ID of this phase lies above every earlier one
    local p=$1
    is "$(q "SELECT bool_and(a.nf > b.max_nf AND a.s > b.max_s AND a.u > b.max_u
                       AND caloriosa_timestamp(a.c) >= b.max_c_ts)
             FROM ids a, (SELECT max(nf) max_nf, max(s) max_s, max(u) max_u, max(caloriosa_timestamp(c)) max_c_ts
                          FROM ids WHERE phase < $p) b WHERE a.phase = $p")" "t" \
        "phase $p: IDs continue above everything issued before the crash"
}

generate 1 20000
# A backend killed in the middle of generating.
q "INSERT INTO ids SELECT 2, gen_nanoflake(), gen_scru160(), gen_caloriosa(), gen_uid60() FROM generate_series(1, 3000000)" >/dev/null 2>&1 &
sleep 1
victim=$(q "SELECT pid FROM pg_stat_activity WHERE query LIKE 'INSERT INTO ids SELECT 2%' AND pid <> pg_backend_pid()")
kill -9 "$victim"
wait 2>/dev/null
ok $? "a generating backend was killed with SIGKILL"
for _ in $(seq 1 60); do q "SELECT 1" >/dev/null 2>&1 && break; sleep 0.5; done
is "$(q "SELECT count(*) FROM ids WHERE phase = 2")" "0" "the killed backend's rows are gone (its transaction never committed)"
grep -q "terminated by signal 9" "$DATA/server.log"
ok $? "the postmaster saw the crash and reinitialized"
generate 3 20000
check_after 3

# The postmaster itself killed: a cold start.
pm=$(head -1 "$DATA/postmaster.pid")
q "INSERT INTO ids SELECT 4, gen_nanoflake(), gen_scru160(), gen_caloriosa(), gen_uid60() FROM generate_series(1, 3000000)" >/dev/null 2>&1 &
sleep 1
kill -9 "$pm"
wait 2>/dev/null
for _ in $(seq 1 50); do pgrep -u postgres -f "$DATA" >/dev/null || break; sleep 0.2; done
scripts/cluster.sh start "$DATA" "$PORT"
ok $? "the cluster starts again after SIGKILL of the postmaster"
generate 5 20000
check_after 5
is "$(q "SELECT count(*) = count(DISTINCT nf) AND count(*) = count(DISTINCT s) AND count(*) = count(DISTINCT c) AND count(*) = count(DISTINCT u) FROM ids")" \
    "t" "zero duplicates of any type across both crashes"
done_testing
