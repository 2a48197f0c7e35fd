#!/usr/bin/env bash
# Load: pgbench with as many clients as cores, each transaction one
# INSERT ... DEFAULT gen_X() into a primary-key table, for each generator and
# for bigint identity; prints a Markdown table of tps and errors.
# Usage (from scripts/bench.sh): bench/load.sh PSQL_DIR PORT SECONDS
set -euo pipefail
DATA=$1 PORT=$2 SECONDS_PER_RUN=${3:-60}
source "$(dirname "$0")/../scripts/lib.sh"
PG_CONFIG=${PG_CONFIG:-$SYSTEM_PG_CONFIG}
BIN=$("$PG_CONFIG" --bindir)
clients=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

q() { "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d chronoid_bench -X -q -At -v ON_ERROR_STOP=1 -c "$1"; }

echo "### Load: pgbench, $clients clients (one per core), ${SECONDS_PER_RUN} s each, one INSERT per transaction"
echo
echo "| key | tps | × identity | failed transactions |"
echo "|---|---:|---:|---:|"
ref=
for spec in "bigint identity|bigint GENERATED ALWAYS AS IDENTITY" \
            "nanoflake|nanoflake DEFAULT gen_nanoflake()" "scru160|scru160 DEFAULT gen_scru160()" \
            "caloriosa|caloriosa DEFAULT gen_caloriosa()" "uid60|uid60 DEFAULT gen_uid60()" \
            "uuid (gen_random_uuid)|uuid DEFAULT gen_random_uuid()"; do
    name=${spec%%|*} col=${spec#*|}
    q "DROP TABLE IF EXISTS load_t; CREATE TABLE load_t (id $col PRIMARY KEY, payload int)"
    echo "INSERT INTO load_t (payload) VALUES (1);" >"$work/insert.sql"
    out=$("$BIN/pgbench" -h 127.0.0.1 -p "$PORT" -U postgres -n -c "$clients" -j "$clients" -T "$SECONDS_PER_RUN" \
          -f "$work/insert.sql" chronoid_bench 2>&1)
    tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | head -1)
    failed=$(echo "$out" | sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p')
    [ -n "$ref" ] || ref=$tps
    rows=$(q "SELECT count(*) FROM load_t")
    dupes=$(q "SELECT count(*) - count(DISTINCT id) FROM load_t")
    printf '| %s | %.0f | %.2f | %s (%s rows, %s duplicates) |\n' "$name" "$tps" "$(awk -v a="$tps" -v b="$ref" 'BEGIN { print a / b }')" "${failed:-?}" "$rows" "$dupes"
done
q "DROP TABLE load_t"
