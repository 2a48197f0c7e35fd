# TAP helpers for chronoid's shell tests. Sourced; expects CHRONOID_PORT (a
# running cluster with chronoid preloaded, from scripts/test.sh) and
# CHRONOID_TEST_WORK (a scratch directory).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

export PGOPTIONS="-c client_min_messages=warning -c TimeZone=UTC"
TAP_N=0
TAP_FAILED=0
source scripts/lib.sh
PG_CONFIG=${PG_CONFIG:?the PostgreSQL under test (scripts/test.sh sets it)}
BIN=$("$PG_CONFIG" --bindir)
PSQL=("$BIN/psql" -h 127.0.0.1 -U postgres -X -q -v ON_ERROR_STOP=1 -At)

# sql_on PORT QUERY / sql QUERY (on CHRONOID_PORT): runs QUERY, prints the
# unaligned result.
sql_on() { local port=$1; shift; "${PSQL[@]}" -p "$port" -d "${TAP_DB:-postgres}" -c "$@"; }
sql() { sql_on "$CHRONOID_PORT" "$@"; }

# A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick).
free_port() { scripts/cluster.sh port; }

# Fingerprint of a query's rows (md5 of their text, in the query's order).
rows_md5() { sql "SELECT md5(coalesce(string_agg(r::text, E'\\n'), '')) FROM ($1) r"; }

# open_session PORT: a psql session that stays open (a coproc), for checks
# across an event (an install, an upgrade); ask QUERY sends it one query and
# prints the one-line answer; close_session ends it.
open_session() { coproc SESSION { "${PSQL[@]}" -p "$1" -d postgres 2>&1; }; }
ask() {
    local line
    echo "$1" >&"${SESSION[1]}"
    read -r -t 30 line <&"${SESSION[0]}" || line="(no answer)"
    echo "$line"
}
close_session() { echo '\q' >&"${SESSION[1]}"; wait "$SESSION_PID" 2>/dev/null || true; }

ok() {
    TAP_N=$((TAP_N + 1))
    if [ "$1" = 0 ]; then echo "ok $TAP_N - $2"; else echo "not ok $TAP_N - $2"; TAP_FAILED=1; fi
}

# is GOT WANT NAME
is() {
    if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; fi
}

done_testing() {
    echo "1..$TAP_N"
    exit "$TAP_FAILED"
}


