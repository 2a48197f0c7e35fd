#!/usr/bin/env bash
# Installs chronoid 0.1.0 (the released script, sql/versions/), stores data
# of every type with btree, hash and BRIN indexes, runs ALTER EXTENSION
# chronoid UPDATE, and checks the data, the indexes and what 0.2.0 added.
source "$(dirname "$0")/lib.bash"

TAP_DB=postgres sql "DROP DATABASE IF EXISTS chronoid_upgrade"
TAP_DB=postgres sql "CREATE DATABASE chronoid_upgrade"
TAP_DB=chronoid_upgrade

sql "CREATE EXTENSION chronoid VERSION '0.1.0'"
is "$(sql "SELECT extversion FROM pg_extension WHERE extname = 'chronoid'")" "0.1.0" "chronoid 0.1.0 installed"
sql "$(cat <<'SQL'
CREATE TABLE t (n int PRIMARY KEY, nf nanoflake DEFAULT gen_nanoflake(), s scru160 DEFAULT gen_scru160(),
                ck codokey, c caloriosa DEFAULT gen_caloriosa(), u uid60 DEFAULT gen_uid60());
INSERT INTO t (n, ck) SELECT g, codokey(timestamptz '2001-01-01+00' + g * interval '5 hours', g % 7) FROM generate_series(1, 10000) g;
CREATE INDEX ON t (nf); CREATE INDEX ON t (s); CREATE INDEX ON t (ck); CREATE INDEX ON t (c); CREATE INDEX ON t (u);
CREATE INDEX ON t USING hash (s); CREATE INDEX ON t USING brin (nf);
SQL
)"
before=$(sql "SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u), ',' ORDER BY n)) FROM t")
is "$(sql "SELECT count(*) FROM pg_opclass WHERE opcname = 'codokey_minmax_ops'")" "0" "0.1.0 has no BRIN opclass for codokey"

sql "ALTER EXTENSION chronoid UPDATE"
is "$(sql "SELECT extversion FROM pg_extension WHERE extname = 'chronoid'")" "0.2.0" "updated to 0.2.0"
is "$(sql "SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u), ',' ORDER BY n)) FROM t")" "$before" "every stored value unchanged"
is "$(sql "CREATE EXTENSION amcheck; SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 't'::regclass AND a.amname = 'btree'")" \
    "6" "amcheck passes on the 6 btrees built under 0.1.0"
is "$(sql "SET enable_seqscan = off; SELECT count(*) FROM t a WHERE EXISTS (SELECT FROM t b WHERE b.s = a.s AND b.nf = a.nf AND b.ck = a.ck)")" "10000" \
    "the old indexes answer lookups"
is "$(sql "INSERT INTO t (n, ck) VALUES (10001, codokey(now())) RETURNING nanoflake_generator(nf) >= 0")" "t" "the generators work after the update"
is "$(sql "CREATE INDEX t_ck_brin ON t USING brin (ck); SELECT count(*) FROM pg_indexes WHERE indexname = 't_ck_brin'")" "1" \
    "0.2.0's BRIN opclass for codokey is there"
# The updated catalog matches a fresh 0.2.0 install, object for object.
TAP_DB=postgres sql "DROP DATABASE IF EXISTS chronoid_fresh"
TAP_DB=postgres sql "CREATE DATABASE chronoid_fresh"
objects() {
    TAP_DB=$1 sql "SELECT md5(string_agg(pg_describe_object(classid, objid, objsubid), ',' ORDER BY pg_describe_object(classid, objid, objsubid)))
                   FROM pg_depend WHERE refobjid = (SELECT oid FROM pg_extension WHERE extname = 'chronoid') AND deptype = 'e'"
}
TAP_DB=chronoid_fresh sql "CREATE EXTENSION chronoid"
is "$(objects chronoid_upgrade)" "$(objects chronoid_fresh)" "an updated 0.1.0 has exactly the objects of a fresh 0.2.0"

TAP_DB=postgres sql "DROP DATABASE chronoid_upgrade"
TAP_DB=postgres sql "DROP DATABASE chronoid_fresh"
done_testing
