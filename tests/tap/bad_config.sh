#!/usr/bin/env bash
# A bad chronoid setting in the server's configuration stops the server at
# start, with the reason in its log, as PostgreSQL's own settings do: never
# a warning and a fallback to node 0 or the default epoch. Good spellings of
# the epoch start it; a reload cannot move the epoch.
source "$(dirname "$0")/lib.bash"

WORK=$CHRONOID_TEST_WORK/bad_config
rm -rf "$WORK" && mkdir -p "$WORK" && chown postgres: "$WORK"
as_postgres() { runuser -u postgres -- "$@"; }

# One initdb; every case starts from a copy of it.
scripts/cluster.sh start "$WORK/template" "$(free_port)" >/dev/null
scripts/cluster.sh stop "$WORK/template"

# starts CASE PORT [postgresql.conf lines...]: 0 if the server came up.
starts() {
    local dir=$WORK/$1 port=$2
    shift 2
    rm -rf "$dir" && cp -a "$WORK/template" "$dir"
    rm -f "$dir/postmaster.pid" "$dir/server.log"
    sed -i "s/^port = .*/port = $port/; s|^unix_socket_directories = .*|unix_socket_directories = '$dir'|" "$dir/postgresql.conf"
    for line in "$@"; do echo "$line" >>"$dir/postgresql.conf"; done
    as_postgres "$BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 30 start >/dev/null 2>&1
}
stop() { as_postgres "$BIN/pg_ctl" -D "$WORK/$1" -m fast -w stop >/dev/null 2>&1 || true; }
trap 'for d in "$WORK"/*/; do [ -f "$d/postmaster.pid" ] && as_postgres "$BIN/pg_ctl" -D "$d" -m immediate stop >/dev/null 2>&1; done' EXIT

# refuses NAME LOG_PATTERN LINE...: the server must not start, and say why.
refuses() {
    local name=$1 pattern=$2 port
    shift 2
    port=$(free_port)
    if starts "$name" "$port" "$@"; then
        ok 1 "refuses to start: $*"
        stop "$name"
        return
    fi
    ok 0 "refuses to start: $*"
    if grep -q "FATAL: .*$pattern" "$WORK/$name/server.log"; then
        ok 0 "$name: the log says why"
    else
        ok 1 "$name: the log says why"
        sed 's/^/#   /' "$WORK/$name/server.log" | tail -5
    fi
}

refuses node_id_range '2000 is outside the valid range for parameter "chronoid.node_id" (0 .. 1023)' \
    "chronoid.node_id = 2000"
refuses node_id_syntax 'invalid value for parameter "chronoid.node_id": "seven"' \
    "chronoid.node_id = 'seven'"
refuses misspelt 'unrecognized configuration parameter "chronoid.nodeid" in file ".*postgresql.conf" line' \
    "chronoid.nodeid = 7"
refuses epoch_garbage 'invalid value for parameter "chronoid.nanoflake_epoch": "garbage"' \
    "chronoid.nanoflake_epoch = 'garbage'"
refuses epoch_future 'invalid value for parameter "chronoid.nanoflake_epoch": "2999-01-01 00:00:00+00"' \
    "chronoid.nanoflake_epoch = '2999-01-01 00:00:00+00'"
grep -q "DETAIL:  The nanoflake epoch must not lie in the future." "$WORK/epoch_future/server.log"
ok $? "epoch_future: the detail says the epoch lies in the future"
refuses fraction_max 'invalid value for parameter "chronoid.codokey_fraction_max": 10' \
    "chronoid.codokey_fraction_max = 10"
refuses year_zero '0 is outside the valid range for parameter "chronoid.codokey_year_zero"' \
    "chronoid.codokey_year_zero = 0"
refuses precision '9 is outside the valid range for parameter "chronoid.codokey_precision"' \
    "chronoid.codokey_precision = 9"
# ALTER SYSTEM writes postgresql.auto.conf: the same rule.
port=$(free_port)
rm -rf "$WORK/auto_conf" && cp -a "$WORK/template" "$WORK/auto_conf"
sed -i "s/^port = .*/port = $port/; s|^unix_socket_directories = .*|unix_socket_directories = '$WORK/auto_conf'|" "$WORK/auto_conf/postgresql.conf"
echo "chronoid.node_id = 4096" >>"$WORK/auto_conf/postgresql.auto.conf"
if as_postgres "$BIN/pg_ctl" -D "$WORK/auto_conf" -l "$WORK/auto_conf/server.log" -w -t 30 start >/dev/null 2>&1; then
    ok 1 "refuses to start over postgresql.auto.conf"; stop auto_conf
else
    grep -q 'FATAL: .*4096 is outside the valid range for parameter "chronoid.node_id"' "$WORK/auto_conf/server.log"
    ok $? "refuses to start over a bad value in postgresql.auto.conf (ALTER SYSTEM), and says why"
fi
# On the command line too.
port=$(free_port)
rm -rf "$WORK/argv" && cp -a "$WORK/template" "$WORK/argv"
sed -i "s/^port = .*/port = $port/; s|^unix_socket_directories = .*|unix_socket_directories = '$WORK/argv'|" "$WORK/argv/postgresql.conf"
if as_postgres "$BIN/pg_ctl" -D "$WORK/argv" -l "$WORK/argv/server.log" -o "-c chronoid.nanoflake_epoch=yesterday" -w -t 30 start >/dev/null 2>&1; then
    ok 1 "refuses to start over a bad -c option"; stop argv
else
    grep -q 'FATAL: .*invalid value for parameter "chronoid.nanoflake_epoch": "yesterday"' "$WORK/argv/server.log"
    ok $? "refuses to start over a bad -c chronoid.nanoflake_epoch option, and says why"
fi

# The spellings of an absolute instant users type all start the server,
# with the same epoch whatever the server's TimeZone.
for epoch in "2024-01-01 00:00:00 UTC" "2024-01-01T00:00:00Z" "2024-01-01 00:00:00+00" "2024-01-01T09:00:00+09:00" "2024-01-01"; do
    port=$(free_port)
    if starts epoch_ok "$port" "chronoid.nanoflake_epoch = '$epoch'" "timezone = 'Asia/Tokyo'" "chronoid.node_id = 1023"; then
        got=$(sql_on "$port" "CREATE EXTENSION chronoid; SET TimeZone = 'UTC'; SELECT nanoflake_timestamp('0'::nanoflake), nanoflake_generator(gen_nanoflake())")
        is "$got" "2024-01-01 00:00:00+00|1023" "epoch '$epoch' starts the server and means 2024-01-01 00:00 UTC"
        stop epoch_ok
    else
        ok 1 "epoch '$epoch' starts the server"
        tail -3 "$WORK/epoch_ok/server.log"
    fi
done

# While it runs, a reload cannot move the epoch: the server keeps its own
# and says so; a bad node id in a reload is refused and the old one kept.
port=$(free_port)
starts reload "$port" "chronoid.node_id = 5"
ok $? "a server for the reload checks starts"
sql_on "$port" "CREATE EXTENSION chronoid"
before=$(sql_on "$port" "SELECT gen_nanoflake()")
echo "chronoid.nanoflake_epoch = '2021-01-01 00:00:00+00'" >>"$WORK/reload/postgresql.conf"
echo "chronoid.node_id = 2000" >>"$WORK/reload/postgresql.conf"
sql_on "$port" "SELECT pg_reload_conf()" >/dev/null
sleep 1
is "$(sql_on "$port" "SELECT current_setting('chronoid.nanoflake_epoch'), current_setting('chronoid.node_id')")" "2020-01-01 00:00:00+00|5" \
    "after a reload the epoch and the node id are unchanged"
grep -q 'parameter "chronoid.nanoflake_epoch" cannot be changed without restarting the server' "$WORK/reload/server.log"
ok $? "the log says the epoch needs a restart"
grep -q '2000 is outside the valid range for parameter "chronoid.node_id"' "$WORK/reload/server.log"
ok $? "the log says the reloaded node id is invalid"
is "$(sql_on "$port" "SELECT gen_nanoflake() > '$before'::nanoflake")" "t" "the server keeps generating, above the IDs before the reload"
stop reload

done_testing
