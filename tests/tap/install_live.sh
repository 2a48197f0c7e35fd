#!/usr/bin/env bash
# Installing chronoid next to a running server that has it loaded must not
# crash that server: the project's install step (scripts/install.sh) and
# the way the tests make room for cargo pgrx test's in-place copy both leave
# the mapped library alone. A preloaded server keeps answering
# gen_nanoflake() on an open connection and on new ones, and no backend
# dies of a signal.
source "$(dirname "$0")/lib.bash"

LIB=$("$PG_CONFIG" --pkglibdir)/chronoid.so
DATA=$CHRONOID_TEST_WORK/install_live
PORT=$(free_port)
scripts/cluster.sh stop "$DATA"; rm -rf "$DATA"
scripts/cluster.sh start "$DATA" "$PORT"
trap 'scripts/cluster.sh stop "$DATA"' EXIT
sql_on "$PORT" "CREATE EXTENSION chronoid"

# A connection that stays open across the installs.
open_session "$PORT"
first=$(ask "SELECT gen_nanoflake();")
is "$(ask "SELECT gen_nanoflake() > '$first'::nanoflake;")" "t" "an open session generates before the install"

# The file the server runs is the inode its postmaster mapped; an install
# must leave that inode alone and put a new one at the library's path.
postmaster=$(head -1 "$DATA/postmaster.pid")
inode() { stat -c %i "$LIB"; }
mapped() { awk '/chronoid\.so/ { print $5; exit }' "/proc/$postmaster/maps"; }
is "$(mapped)" "$(inode)" "the server has the installed library mapped"
running=$(mapped)
scripts/install.sh >/dev/null
ok $? "scripts/install.sh installs while the server runs"
[ "$(inode)" != "$running" ]
ok $? "the installed library is a new file (renamed into place), not the mapped one rewritten"
is "$(ask "SELECT gen_nanoflake() > '$first'::nanoflake;")" "t" "the open session still generates"
is "$(sql_on "$PORT" "SELECT gen_nanoflake() > '$first'::nanoflake")" "t" "a new connection generates"

# What scripts/test.sh does before cargo pgrx test: unlink, then a copy in
# place (as cargo pgrx install does) creates a new file.
scripts/install.sh --detach
cp "$(ls target/"${CHRONOID_INSTALL_PROFILE:-release}"/chronoid-pg*/"$(dirname "$LIB")"/chronoid.so | head -1)" "$LIB"
[ "$(inode)" != "$running" ] && [ "$(mapped)" = "$running" ]
ok $? "after --detach, an in-place copy writes a new file; the server still maps its own"
is "$(ask "SELECT gen_nanoflake() > '$first'::nanoflake;")" "t" "the open session still generates after it"
is "$(sql_on "$PORT" "SELECT count(gen_nanoflake()) FROM generate_series(1, 1000)")" "1000" "and new connections too"

close_session
if grep -E "terminated by signal|server process .* was terminated" "$DATA/server.log"; then
    ok 1 "no backend was terminated by a signal"
else
    ok 0 "no backend was terminated by a signal"
fi

# The restart picks up the new build.
scripts/cluster.sh stop "$DATA"
scripts/cluster.sh start "$DATA" "$PORT"
is "$(sql_on "$PORT" "SELECT gen_nanoflake() > '$first'::nanoflake")" "t" "after a restart the server runs the new build"
done_testing
