# TAP helpers for chronoid's shell tests. Sourced; expects CHRONOID_PORT (a
# running cluster with chronoid preloaded, from scripts/test.sh) and
# CHRONOID_TEST_WORK (a scratch directory).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

export PGOPTIONS="-c client_min_messages=warning"
TAP_N=0
TAP_FAILED=0
PSQL=(/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -U postgres -X -q -v ON_ERROR_STOP=1 -At)

# sql [PORT] QUERY: runs QUERY, prints the unaligned result.
sql_on() { local port=$1; shift; "${PSQL[@]}" -p "$port" -d "${TAP_DB:-postgres}" -c "$@"; }
sql() { sql_on "$CHRONOID_PORT" "$@"; }

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
