#!/usr/bin/env bash
# The wall clock stepped back and forward under running generators. The
# server runs under libfaketime, whose offset (read from a file on every
# clock reading) the test changes; CLOCK_MONOTONIC is left alone, so the
# generators' bounded waits are measured on real time. Shows: never a smaller
# ID from one server, the bounded wait, the clear error, and recovery.
source "$(dirname "$0")/lib.bash"

DATA=$CHRONOID_TEST_WORK/faketime
PORT=$(free_port)
OFFSET=$CHRONOID_TEST_WORK/faketime.offset
echo "+0" >"$OFFSET" && chmod 644 "$OFFSET"
scripts/cluster.sh stop "$DATA"; rm -rf "$DATA"
CLUSTER_ENV="LD_PRELOAD=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 FAKETIME_TIMESTAMP_FILE=$OFFSET FAKETIME_NO_CACHE=1 DONT_FAKE_MONOTONIC=1" \
    scripts/cluster.sh start "$DATA" "$PORT"
trap 'scripts/cluster.sh stop "$DATA"' EXIT
q() { sql_on "$PORT" "$@"; }
step_clock() { echo "$1" >"$OFFSET"; }

q "CREATE EXTENSION chronoid"
q "CREATE TABLE ids (phase text, n serial, nf nanoflake, u uid60, c caloriosa, s scru160)"
gen() { # phase rows: one statement, all four generators
    q "INSERT INTO ids (phase, nf, u, c, s) SELECT '$1', gen_nanoflake(), gen_uid60(), gen_caloriosa(), gen_scru160() FROM generate_series(1, $2)"
}
# The server-wide generators (nanoflake, uid60; caloriosa by millisecond)
# never go below anything issued on the server before. (scru160's state is
# per backend and each q is a new session: its order is checked within one
# session further down.)
above_all_before() { # phase: every ID of the phase is above every earlier ID
    q "SELECT bool_and(a.nf > b.nf AND a.u > b.u AND caloriosa_timestamp(a.c) >= b.c)
       FROM ids a, (SELECT max(nf) nf, max(u) u, max(caloriosa_timestamp(c)) c FROM ids WHERE n < (SELECT min(n) FROM ids WHERE phase = '$1')) b
       WHERE a.phase = '$1'"
}

gen start 1000
step_clock "-5"
behind=$(( $(date +%s) - $(q "SELECT extract(epoch FROM clock_timestamp())::bigint") ))
[ "$behind" -ge 4 ] && [ "$behind" -le 6 ]
ok $? "the server's clock now reads 5 s earlier (${behind} s)"
gen back5_small 200
is "$(above_all_before back5_small)" "t" "5 s back: a few IDs count on from the last millisecond, above every earlier ID"

t0=$(date +%s%N)
out=$("${PSQL[@]}" -p "$PORT" -d postgres -v VERBOSITY=verbose -c "SELECT count(gen_nanoflake()) FROM generate_series(1, 10000)" 2>&1 || true)
elapsed_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "$out" | sed 's/^/#   /'
echo "$out" | grep -qE "ERROR:  55000: system clock is [0-9]+ ms behind the last nanoflake issued on this server"
ok $? "5 s back, sequence used up: a clear error (55000), not a hang"
[ "$elapsed_ms" -lt 3000 ]
ok $? "the error came at once ($elapsed_ms ms): no point waiting 5 s for a 1 s bound"
for g in gen_uid60 gen_caloriosa; do
    out=$("${PSQL[@]}" -p "$PORT" -d postgres -c "SELECT count($g()) FROM generate_series(1, 10000)" 2>&1 || true)
    echo "$out" | grep -q "ERROR:  system clock is"
    ok $? "$g(): the same error when its counter runs out"
done
gen back5_scru 5000 2>/dev/null || true
is "$(q "SELECT count(*) FROM ids WHERE phase = 'back5_scru'")" "0" "(that statement failed as a whole)"
is "$(q "SELECT count(*) FROM (SELECT gen_scru160() FROM generate_series(1, 50000)) s")" "50000" \
    "gen_scru160() needs no wait: it counts on (its counter overflows into the next millisecond)"

step_clock "+0"
gen recovered 5000
is "$(above_all_before recovered)" "t" "clock back to normal: generation recovers, above every earlier ID"

# A small step back: the generators wait it out (bounded by 1 s).
gen before_small_step 100
step_clock "-0.4"
t0=$(date +%s%N)
status=0
gen after_small_step 20000 || status=$?
elapsed_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
ok $status "0.4 s back: 20,000 IDs still generated"
is "$(above_all_before after_small_step)" "t" "0.4 s back: every ID above the ones before"
[ "$elapsed_ms" -ge 300 ]
ok $? "the generators waited for the clock to catch up ($elapsed_ms ms for 20,000 IDs)"
step_clock "+0"

# scru160 keeps per-backend state: up to 10 s back it counts on; further
# back it starts over from the clock with a WARNING (uniqueness still rests
# on its 96 random bits). One session, the clock stepped from inside it.
out=$("${PSQL[@]}" -p "$PORT" -d postgres \
      -c "CREATE TEMP TABLE s (n serial, id scru160)" \
      -c "INSERT INTO s (id) SELECT gen_scru160() FROM generate_series(1, 10)" \
      -c "\\! echo -8 > $OFFSET" \
      -c "INSERT INTO s (id) SELECT gen_scru160() FROM generate_series(1, 10)" \
      -c "SELECT 'counted on: ' || bool_and(id > prev) FROM (SELECT id, lag(id) OVER (ORDER BY n) prev FROM s) x WHERE prev IS NOT NULL" \
      -c "\\! echo -30 > $OFFSET" \
      -c "INSERT INTO s (id) SELECT gen_scru160()" \
      -c "SELECT 'reset below: ' || (id < (SELECT min(id) FROM s WHERE n <= 20)) FROM s WHERE n = 21" 2>&1)
echo "$out" | sed 's/^/#   /'
echo "$out" | grep -q "counted on: true"
ok $? "scru160, 8 s back: IDs keep increasing"
echo "$out" | grep -q "WARNING:  system clock moved back"
ok $? "scru160, 30 s back: a WARNING that IDs restart from the clock"
echo "$out" | grep -q "reset below: true"
ok $? "scru160, 30 s back: the new ID sorts before the earlier ones, as warned"
step_clock "+0"

# The clock jumps forward: IDs jump with it and keep increasing; back from
# the future, the server-wide generators refuse rather than go below.
step_clock "+3600"
gen forward_hour 1000
is "$(above_all_before forward_hour)" "t" "an hour forward: IDs continue above"
is "$(q "SELECT bool_and(nanoflake_timestamp(nf) > (SELECT max(nanoflake_timestamp(nf)) + interval '50 minutes' FROM ids WHERE phase = 'recovered')) FROM ids WHERE phase = 'forward_hour'")" "t" \
    "and carry the new time"
step_clock "+0"
out=$("${PSQL[@]}" -p "$PORT" -d postgres -c "SELECT count(gen_nanoflake()) FROM generate_series(1, 10000)" 2>&1 || true)
echo "$out" | grep -q "ERROR:  system clock is"
ok $? "back from the future: gen_nanoflake() refuses rather than go below its last ID"
done_testing
