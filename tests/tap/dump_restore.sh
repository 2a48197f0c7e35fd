#!/usr/bin/env bash
# A table with all five types, with btree, hash and BRIN indexes, survives
# pg_dump/pg_restore in custom and plain formats, with every value equal and
# every restored btree passing amcheck (heapallindexed); COPY BINARY out and
# back in gives the same rows.
source "$(dirname "$0")/lib.bash"

WORK=$CHRONOID_TEST_WORK/dump
mkdir -p "$WORK" && chmod 777 "$WORK"
for db in chronoid_dump_src chronoid_dump_custom chronoid_dump_plain; do
    TAP_DB=postgres sql "DROP DATABASE IF EXISTS $db"
    TAP_DB=postgres sql "CREATE DATABASE $db"
done

TAP_DB=chronoid_dump_src
sql "CREATE EXTENSION chronoid"
sql "$(cat <<'SQL'
CREATE TABLE every_type (
    n int PRIMARY KEY,
    nf nanoflake DEFAULT gen_nanoflake(),
    s scru160 DEFAULT gen_scru160(),
    ck codokey,
    c caloriosa DEFAULT gen_caloriosa(),
    u uid60 DEFAULT gen_uid60(),
    arr nanoflake[]
);
INSERT INTO every_type (n, ck, arr)
SELECT g, codokey(timestamptz '2000-01-01+00' + g * interval '1 hour 1 minute 1.1 second', g % 7),
       ARRAY[gen_nanoflake(), gen_nanoflake()]
FROM generate_series(1, 20000) g;
CREATE UNIQUE INDEX ON every_type (nf);
CREATE UNIQUE INDEX ON every_type (s);
CREATE INDEX ON every_type (ck);
CREATE UNIQUE INDEX ON every_type (c);
CREATE UNIQUE INDEX ON every_type (u);
CREATE INDEX ON every_type USING hash (nf);
CREATE INDEX ON every_type USING hash (s);
CREATE INDEX ON every_type USING hash (ck);
CREATE INDEX ON every_type USING hash (c);
CREATE INDEX ON every_type USING hash (u);
CREATE INDEX ON every_type USING brin (nf);
CREATE INDEX ON every_type USING brin (s);
CREATE INDEX ON every_type USING brin (c);
CREATE INDEX ON every_type USING brin (u);
SQL
)"
fingerprint() {
    TAP_DB=$1 sql "SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u, arr), ',' ORDER BY n)) FROM every_type"
}
src=$(fingerprint chronoid_dump_src)
is "$(sql "SELECT count(*) FROM pg_indexes WHERE tablename = 'every_type'")" "15" "source: 15 indexes on every_type"

"$BIN/pg_dump" -h 127.0.0.1 -p "$CHRONOID_PORT" -U postgres -Fc -f "$WORK/src.dump" chronoid_dump_src
ok $? "pg_dump custom format"
"$BIN/pg_restore" -h 127.0.0.1 -p "$CHRONOID_PORT" -U postgres -d chronoid_dump_custom --exit-on-error "$WORK/src.dump"
ok $? "pg_restore of the custom format"
"$BIN/pg_dump" -h 127.0.0.1 -p "$CHRONOID_PORT" -U postgres -Fp -f "$WORK/src.sql" chronoid_dump_src
ok $? "pg_dump plain format"
"${PSQL[@]}" -p "$CHRONOID_PORT" -d chronoid_dump_plain -f "$WORK/src.sql" >/dev/null
ok $? "psql restore of the plain format"

for db in chronoid_dump_custom chronoid_dump_plain; do
    is "$(fingerprint $db)" "$src" "$db: every value equal to the source"
    is "$(TAP_DB=$db sql "SELECT count(*) FROM pg_indexes WHERE tablename = 'every_type'")" "15" "$db: all 15 indexes restored"
    checked=$(TAP_DB=$db sql "CREATE EXTENSION amcheck; SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'every_type'::regclass AND a.amname = 'btree'")
    is "$checked" "6" "$db: amcheck bt_index_check(heapallindexed) passes on all 6 btrees"
    # The indexes answer queries: one lookup through each btree and hash index.
    is "$(TAP_DB=$db sql "SET enable_seqscan = off; SELECT count(*) FROM every_type a WHERE EXISTS (SELECT FROM every_type b WHERE b.nf = a.nf AND b.s = a.s AND b.c = a.c AND b.u = a.u AND b.ck = a.ck)")" "20000" \
        "$db: index lookups find every row"
done

# COPY BINARY out and back in.
TAP_DB=chronoid_dump_src sql "COPY every_type TO '$WORK/every_type.bin' (FORMAT binary)"
TAP_DB=chronoid_dump_src sql "CREATE TABLE every_type_copy (LIKE every_type); COPY every_type_copy FROM '$WORK/every_type.bin' (FORMAT binary)"
is "$(TAP_DB=chronoid_dump_src sql "SELECT count(*) FROM every_type a JOIN every_type_copy b USING (n) WHERE (a.nf, a.s, a.ck, a.c, a.u, a.arr) IS NOT DISTINCT FROM (b.nf, b.s, b.ck, b.c, b.u, b.arr)")" \
    "20000" "COPY BINARY out and in: every row equal"

for db in chronoid_dump_src chronoid_dump_custom chronoid_dump_plain; do TAP_DB=postgres sql "DROP DATABASE $db"; done
done_testing
