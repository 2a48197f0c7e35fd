#!/usr/bin/env bash
# codokeys made in any context load back anywhere: explicit contexts (a
# microsecond fraction, a 3-digit year), a role-level and a database-level
# context survive pg_dump -Fc | pg_restore, plain pg_dump | psql and COPY
# BINARY, byte for byte, into databases whose sessions have yet another
# context; amcheck passes on the restored indexes.
source "$(dirname "$0")/lib.bash"

WORK=$CHRONOID_TEST_WORK/codokey_restore
mkdir -p "$WORK" && chmod 777 "$WORK"
for db in ck_src ck_custom ck_plain ck_copy; do
    TAP_DB=postgres sql "DROP DATABASE IF EXISTS $db"
    TAP_DB=postgres sql "CREATE DATABASE $db"
done
TAP_DB=postgres sql "DROP ROLE IF EXISTS ck_writer; CREATE ROLE ck_writer LOGIN"
# The source database's sessions make keys in the years 100 .. 200, the
# writer role's in 2000 .. 2035 with milliseconds. Role settings win over
# database settings at login.
TAP_DB=postgres sql "ALTER DATABASE ck_src SET chronoid.codokey_year_zero = 100; ALTER DATABASE ck_src SET chronoid.codokey_max_year = 200"
TAP_DB=postgres sql "ALTER ROLE ck_writer SET chronoid.codokey_year_zero = 2000; ALTER ROLE ck_writer SET chronoid.codokey_max_year = 2035;
                     ALTER ROLE ck_writer SET chronoid.codokey_fraction_max = 999"
# Every target session has yet another context, in which most of these keys
# are not even valid.
for db in ck_custom ck_plain ck_copy; do
    TAP_DB=postgres sql "ALTER DATABASE $db SET chronoid.codokey_year_zero = 4000; ALTER DATABASE $db SET chronoid.codokey_max_year = 5000"
done

TAP_DB=ck_src
sql "CREATE EXTENSION chronoid; CREATE EXTENSION amcheck"
sql "CREATE TABLE t (n int PRIMARY KEY, k codokey NOT NULL, made_in text); GRANT ALL ON t TO ck_writer"
sql "$(cat <<'SQL'
INSERT INTO t VALUES
    (1, codokey('2024-05-06 07:08:09.123456+00', 6, 1970, 3265, 999999), 'explicit, microseconds'),
    (2, codokey(timestamptz '2024-05-06 07:08:09+00', 2, 1970, 3265, 9), 'explicit, default context'),
    (3, codokey('0150-01-01 00:00:00+00'::timestamptz, 6, 1, 9999, 99), 'explicit, 3-digit year');
INSERT INTO t SELECT 100 + g, codokey(timestamptz '0100-01-01+00' + g * interval '17 days 3 hours 7.77 seconds', g % 7),
                     'database context 100..200'
FROM generate_series(1, 2000) g;
INSERT INTO t SELECT 10000 + g, codokey(timestamptz '1970-01-01+00' + g * interval '7 days 1 hour 3.3 seconds', g % 7, 1970, 3265, 999999),
                     'explicit, microseconds'
FROM generate_series(1, 2000) g;
SQL
)"
is "$(sql "SHOW chronoid.codokey_year_zero")" "100" "the source database's sessions have the database-level context"
"${PSQL[@]}" -p "$CHRONOID_PORT" -d ck_src -U ck_writer -c \
    "INSERT INTO t SELECT 20000 + g, codokey(timestamptz '2000-01-01+00' + g * interval '3 days 5 hours 1.234 seconds', g % 7), 'role context 2000..2035' FROM generate_series(1, 2000) g"
ok $? "the writer role made keys in its role-level context"
is "$(sql "SELECT k FROM t WHERE n = 1")" "yh7pg1f1eiscf" "the issue's microsecond key"
sql "CREATE INDEX t_k ON t (k); CREATE INDEX t_k_hash ON t USING hash (k); CREATE INDEX t_k_brin ON t USING brin (k)"
rows=$(sql "SELECT count(*) FROM t")
is "$rows" "6003" "6003 keys from five contexts"
# Byte for byte: the binary form of every key, in row order.
fingerprint() { TAP_DB=$1 rows_md5 "SELECT n, codokey_send(k) FROM t ORDER BY n"; }
src=$(fingerprint ck_src)
is "$(sql "SELECT count(*) FROM t WHERE k::text::codokey = k")" "$rows" "every key reads back through text input in its own session"

"$BIN/pg_dump" -h 127.0.0.1 -p "$CHRONOID_PORT" -U postgres -Fc -f "$WORK/src.dump" ck_src
ok $? "pg_dump -Fc"
"$BIN/pg_restore" -h 127.0.0.1 -p "$CHRONOID_PORT" -U postgres -d ck_custom --exit-on-error "$WORK/src.dump"
ok $? "pg_restore into a database with another context: no error"
"$BIN/pg_dump" -h 127.0.0.1 -p "$CHRONOID_PORT" -U postgres -Fp -f "$WORK/src.sql" ck_src
ok $? "plain pg_dump"
"${PSQL[@]}" -p "$CHRONOID_PORT" -d ck_plain -f "$WORK/src.sql" >/dev/null
ok $? "psql restore of the plain dump: no error"

sql "COPY t TO '$WORK/t.bin' (FORMAT binary)"
TAP_DB=ck_copy sql "CREATE EXTENSION chronoid; CREATE TABLE t (n int PRIMARY KEY, k codokey NOT NULL, made_in text);
                    CREATE INDEX t_k ON t (k); COPY t FROM '$WORK/t.bin' (FORMAT binary)"
ok $? "COPY BINARY into a database with another context: no error"

for db in ck_custom ck_plain ck_copy; do
    is "$(TAP_DB=$db sql "SHOW chronoid.codokey_year_zero")" "4000" "$db: the restoring sessions had another context"
    is "$(TAP_DB=$db sql "SELECT count(*) FROM t")" "$rows" "$db: every row restored"
    is "$(fingerprint $db)" "$src" "$db: every key equal, byte for byte"
    is "$(TAP_DB=$db sql "CREATE EXTENSION IF NOT EXISTS amcheck; SELECT bt_index_check('t_k', true)")" "" "$db: amcheck (heapallindexed) passes on the codokey btree"
    is "$(TAP_DB=$db sql "SET enable_seqscan = off; SELECT count(*) FROM t a WHERE EXISTS (SELECT FROM t b WHERE b.k = a.k)")" "$rows" \
        "$db: index lookups find every key"
done
# The keys decode in the context they were made in, wherever they are.
is "$(TAP_DB=ck_custom sql "SELECT codokey_timestamp(k, 1970, 3265, 999999) FROM t WHERE n = 1")" "2024-05-06 07:08:09.123456+00" \
    "a restored microsecond key decodes with its context"
is "$(TAP_DB=ck_custom sql "SELECT count(*) FROM t WHERE n > 20000 AND codokey_timestamp(k, 2000, 2035, 999) >= '2000-01-01+00'")" "2000" \
    "the role-context keys decode with their context"
out=$(TAP_DB=ck_custom sql "SELECT codokey_timestamp(k) FROM t WHERE n = 1" 2>&1 || true)
echo "$out" | grep -q 'is not a key of the context (year zero 4000'
ok $? "decoding in the wrong context is a clear error where the context is used"

for db in ck_src ck_custom ck_plain ck_copy; do TAP_DB=postgres sql "DROP DATABASE $db"; done
TAP_DB=postgres sql "DROP ROLE ck_writer"
done_testing
