#!/usr/bin/env bash
# Users move between majors with pg_upgrade. A cluster of the old major
# (OLD_PG_CONFIG) holding every chronoid type - in primary keys, btree, hash
# and BRIN indexes, and a hash-partitioned table - is upgraded to the new
# major (NEW_PG_CONFIG, with that major's build of chronoid). Afterwards every
# value is equal byte for byte, amcheck passes on every btree, the indexes
# answer the same queries, rows stay in their hash partitions, and the
# generators continue strictly above the IDs minted before the upgrade.
# Run by scripts/test.sh once both majors have chronoid installed.
source "$(dirname "$0")/tap/lib.bash"

OLD_BIN=$("${OLD_PG_CONFIG:?}" --bindir)
NEW_BIN=$("${NEW_PG_CONFIG:?}" --bindir)
OLD=$CHRONOID_TEST_WORK/old NEW=$CHRONOID_TEST_WORK/new
OLD_PORT=$(free_port) NEW_PORT=$(free_port)
PSQL_OLD=("$OLD_BIN/psql" -h 127.0.0.1 -p "$OLD_PORT" -U postgres -X -q -v ON_ERROR_STOP=1 -At -d upgrade_me)
PSQL_NEW=("$NEW_BIN/psql" -h 127.0.0.1 -p "$NEW_PORT" -U postgres -X -q -v ON_ERROR_STOP=1 -At -d upgrade_me)
trap 'PG_CONFIG=$OLD_PG_CONFIG scripts/cluster.sh stop "$OLD"; PG_CONFIG=$NEW_PG_CONFIG scripts/cluster.sh stop "$NEW"' EXIT
old_version=$("$OLD_PG_CONFIG" --version) new_version=$("$NEW_PG_CONFIG" --version)

# pg_upgrade needs matching data-checksum settings; 18's initdb turns them on.
# (Reads the whole help text first: `initdb --help | grep -q` under pipefail
# fails at random when grep quits early and initdb gets SIGPIPE.)
checksums_off() { case "$("$1" --help)" in *--no-data-checksums*) echo --no-data-checksums ;; esac; }
PG_CONFIG=$OLD_PG_CONFIG INITDB_OPTS=$(checksums_off "$OLD_BIN/initdb") scripts/cluster.sh start "$OLD" "$OLD_PORT" "chronoid.node_id = 3"
"${PSQL_OLD[@]}" -d postgres -c "CREATE DATABASE upgrade_me"
"${PSQL_OLD[@]}" -c "$(cat <<'SQL'
CREATE EXTENSION chronoid;
CREATE TABLE t (
    nf nanoflake PRIMARY KEY DEFAULT gen_nanoflake(),
    s scru160 UNIQUE DEFAULT gen_scru160(),
    ck codokey NOT NULL,
    c caloriosa UNIQUE DEFAULT gen_caloriosa(),
    u uid60 UNIQUE DEFAULT gen_uid60(),
    n int NOT NULL);
INSERT INTO t (ck, n) SELECT CASE WHEN g % 2 = 0
        THEN codokey(timestamptz '1990-01-01+00' + g * interval '7 hours 1.25 seconds', g % 7)
        ELSE codokey(timestamptz '1990-01-01+00' + g * interval '7 hours 1.25 seconds', 6, 1970, 3265, 999999) END, g
FROM generate_series(1, 20000) g;
CREATE INDEX t_ck ON t (ck);
CREATE INDEX t_nf_hash ON t USING hash (nf); CREATE INDEX t_s_hash ON t USING hash (s);
CREATE INDEX t_ck_hash ON t USING hash (ck); CREATE INDEX t_c_hash ON t USING hash (c); CREATE INDEX t_u_hash ON t USING hash (u);
CREATE INDEX t_nf_brin ON t USING brin (nf); CREATE INDEX t_s_brin ON t USING brin (s); CREATE INDEX t_ck_brin ON t USING brin (ck);
CREATE INDEX t_c_brin ON t USING brin (c); CREATE INDEX t_u_brin ON t USING brin (u);
CREATE TABLE parts (s scru160, nf nanoflake, ck codokey) PARTITION BY HASH (s);
CREATE TABLE parts_0 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE parts_1 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE parts_2 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO parts SELECT s, nf, ck FROM t;
CREATE TABLE nf_parts (nf nanoflake PRIMARY KEY) PARTITION BY HASH (nf);
CREATE TABLE nf_parts_0 PARTITION OF nf_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE nf_parts_1 PARTITION OF nf_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO nf_parts SELECT nf FROM t;
SQL
)"
values="SELECT n, nanoflake_send(nf), scru160_send(s), codokey_send(ck), caloriosa_send(c), uid60_send(u) FROM t ORDER BY n"
placement="SELECT tableoid::regclass, scru160_send(s) FROM parts ORDER BY 2"
fp() { "${@}" -c "SELECT md5(string_agg(r::text, E'\n')) FROM ($query) r"; }
query=$values; before_values=$(fp "${PSQL_OLD[@]}")
query=$placement; before_parts=$(fp "${PSQL_OLD[@]}")
lookups="SET enable_seqscan = off; SET enable_bitmapscan = off;
         SELECT count(*) FROM t a WHERE EXISTS (SELECT FROM t b WHERE b.nf = a.nf AND b.s = a.s AND b.ck = a.ck AND b.c = a.c AND b.u = a.u)"
is "$("${PSQL_OLD[@]}" -c "$lookups")" "20000" "before: index lookups find every row"
max_before=$("${PSQL_OLD[@]}" -c "SELECT max(nf), max(s), max(u), max(caloriosa_timestamp(c)) FROM t")
PG_CONFIG=$OLD_PG_CONFIG scripts/cluster.sh stop "$OLD"

PG_CONFIG=$NEW_PG_CONFIG INITDB_OPTS=$(checksums_off "$NEW_BIN/initdb") scripts/cluster.sh start "$NEW" "$NEW_PORT" "chronoid.node_id = 3"
PG_CONFIG=$NEW_PG_CONFIG scripts/cluster.sh stop "$NEW"
status=0
upgrade_ports=(-p "$(free_port)" -P "$(free_port)")
(cd "$CHRONOID_TEST_WORK" && runuser -u postgres -- "$NEW_BIN/pg_upgrade" -b "$OLD_BIN" -B "$NEW_BIN" -d "$OLD" -D "$NEW" \
    "${upgrade_ports[@]}" >"$CHRONOID_TEST_WORK/pg_upgrade.log" 2>&1) || status=$?
ok $status "pg_upgrade from $old_version to $new_version"
if [ $status != 0 ]; then
    tail -20 "$CHRONOID_TEST_WORK/pg_upgrade.log"
    done_testing
fi
# chronoid's high-water marks live in the data directory, which pg_upgrade
# does not carry over: copied as docs/guarantees.md says, they keep the
# upgraded server from repeating an ID even with its clock 30 s behind (the
# server runs under libfaketime; the clock is set right again below).
cp -p "$OLD/chronoid.marks" "$NEW/chronoid.marks"
CLOCK=$CHRONOID_TEST_WORK/upgrade-clock.offset
echo "-30" >"$CLOCK" && chmod 644 "$CLOCK"
CLUSTER_ENV="LD_PRELOAD=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 FAKETIME_TIMESTAMP_FILE=$CLOCK FAKETIME_NO_CACHE=1 DONT_FAKE_MONOTONIC=1" \
    PG_CONFIG=$NEW_PG_CONFIG scripts/cluster.sh start "$NEW" "$NEW_PORT"
out=$("${PSQL_NEW[@]}" -c "SELECT gen_nanoflake()" 2>&1 || true)
echo "$out" | grep -q "system clock is [0-9]* ms behind the last nanoflake issued on this server" \
    && echo "$out" | grep -q "DETAIL:  The durable high-water mark of nanoflake is"
ok $? "upgraded with the old marks copied and the clock 30 s behind: gen_nanoflake() refuses (55000, naming the mark) rather than repeat"
grep -q "chronoid: at start, gen_nanoflake() resumes above its high-water mark .* behind it" "$NEW/server.log"
ok $? "the upgraded server's log says where gen_nanoflake() resumes and that the clock is behind"
echo "+0" >"$CLOCK"

is "$("${PSQL_NEW[@]}" -c "SHOW server_version_num" | cut -c1-2)" "$(major_of "$NEW_PG_CONFIG")" "the upgraded cluster runs $new_version"
query=$values; is "$(fp "${PSQL_NEW[@]}")" "$before_values" "every value of every type equal, byte for byte"
query=$placement; is "$(fp "${PSQL_NEW[@]}")" "$before_parts" "every row of the hash-partitioned table in the same partition"
is "$("${PSQL_NEW[@]}" -c "CREATE EXTENSION amcheck; SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                           JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace")" \
    "7" "amcheck bt_index_check(heapallindexed) passes on all 7 btrees (5 on t, one per partition of nf_parts)"
is "$("${PSQL_NEW[@]}" -c "$lookups")" "20000" "after: index lookups find every row"
for col in nf s ck c u; do
    plan=$("${PSQL_NEW[@]}" -c "SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN (COSTS OFF) SELECT * FROM t WHERE $col = (SELECT $col FROM t WHERE n = 77)")
    echo "$plan" | grep -q "Index Scan using"
    ok $? "an equality lookup on $col uses an index after the upgrade"
done
is "$("${PSQL_NEW[@]}" -c "SET enable_seqscan = off; SELECT count(*) FROM t WHERE nf BETWEEN nanoflake_floor(now() - interval '1 day') AND nanoflake_ceil(now())")" "20000" \
    "a range scan on the bounds finds every row"
is "$("${PSQL_NEW[@]}" -c "SELECT count(*) FROM nf_parts WHERE nf = (SELECT nf FROM t WHERE n = 5)")" "1" "partition pruning by hash finds a row"
after=$("${PSQL_NEW[@]}" -c "SELECT gen_nanoflake() > '$(echo "$max_before" | cut -d'|' -f1)'::nanoflake,
                                    gen_scru160() > '$(echo "$max_before" | cut -d'|' -f2)'::scru160,
                                    gen_uid60() > '$(echo "$max_before" | cut -d'|' -f3)'::uid60,
                                    caloriosa_timestamp(gen_caloriosa()) >= '$(echo "$max_before" | cut -d'|' -f4)',
                                    nanoflake_generator(gen_nanoflake())")
is "$after" "t|t|t|t|3" "the clock set right: the generators continue above every ID minted before the upgrade (caloriosa: by millisecond)"
is "$("${PSQL_NEW[@]}" -c "INSERT INTO t (ck, n) VALUES (codokey(now()), 20001) RETURNING n")" "20001" "new rows insert under every unique index"
done_testing
