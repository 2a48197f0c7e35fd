-- nanoflake: codec, casts, operators, operator classes, fields, bounds, GUCs.
SET TimeZone = 'UTC';

-- Conformance vectors (tests/vectors/nanoflake.json): text, integer and fields.
\getenv vectors_dir CHRONOID_VECTORS
\set vectors_file :vectors_dir '/nanoflake.json'
CREATE TEMP TABLE nf_vectors AS
SELECT v->>'text' AS text, (v->>'int64')::bigint AS int64, (v->>'ms_since_epoch')::bigint AS ms,
       (v->>'generator')::int AS generator, (v->>'sequence')::int AS sequence
FROM jsonb_array_elements(pg_read_file(:'vectors_file')::jsonb->'vectors') v;
SELECT text,
       text::nanoflake::bigint = int64 AS decodes,
       int64::nanoflake::text = text AS encodes,
       upper(text)::nanoflake::bigint = int64 AS any_case,
       nanoflake_generator(text::nanoflake) = generator AS generator_ok,
       nanoflake_sequence(text::nanoflake) = sequence AS sequence_ok,
       nanoflake_timestamp(text::nanoflake) = '2020-01-01 00:00:00+00'::timestamptz + ms * interval '1 ms' AS time_ok
FROM nf_vectors ORDER BY int64;

-- Edges: 0 and 2^63-1, leading zeros, upper case.
SELECT '0'::nanoflake, '1y2p0ij32e8e7'::nanoflake::bigint, '0000zz'::nanoflake, 'ZZ'::nanoflake;

-- Every class of bad text: 22P02 (syntax) or 22003 (out of range), naming the
-- type and value. ('1e3' and '0x1f' are plain base-36 digits.)
SELECT t AS input, regress.try_input(t, 'nanoflake') AS result FROM unnest(ARRAY[
    '', ' ', ' 1', '1 ', E'1\n', E'\t1', '+1', '-1', '1.5', '1e3', '0x1f', 'a_b', 'é', '１',
    '1y2p0ij32e8e8', '3w5e11264sgsf', '3w5e11264sgsg', 'zzzzzzzzzzzzzzzzzzzzzzzzz'
]) t;

-- Casts to and from bigint: lossless one way, negatives refused the other.
SELECT 362387865620487::bigint::nanoflake AS from_bigint, '3kgeoqm2h3'::nanoflake::bigint AS to_bigint;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    'SELECT (-1)::bigint::nanoflake',
    'SELECT (-9223372036854775808)::bigint::nanoflake']) q;
CREATE TEMP TABLE assign_target (b bigint);
INSERT INTO assign_target VALUES ('zz'::nanoflake);  -- nanoflake -> bigint is an assignment cast
SELECT b FROM assign_target;
SELECT 'zz'::nanoflake::text, 'ZZ'::text::nanoflake;

-- Binary send form is the 8-byte big-endian integer; receive checks it.
SELECT nanoflake_send('1y2p0ij32e8e7'), nanoflake_send('zz');
CREATE TABLE nf_bin (id nanoflake);
SELECT regress.binary_copy($$SELECT unnest(ARRAY['0', 'zz', '1y2p0ij32e8e7']::nanoflake[])$$, 'nf_bin');
SELECT id FROM nf_bin ORDER BY id;
-- Same layout as bigint, so other types' files exercise the receive checks.
SELECT source, regress.binary_copy(source, 'nf_bin') FROM unnest(ARRAY[
    'SELECT (-5)::bigint',
    'SELECT 5::int4',
    $$SELECT '\x000000000000000001'::bytea$$]) source;

-- Operators and their planner properties.
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge
FROM (VALUES ('zz'::nanoflake, '100'::nanoflake), ('100', 'zz'), ('zz', 'zz')) v(a, b);
SELECT o.oprname, c.oprname AS commutator, n.oprname AS negator, o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge
FROM pg_operator o
LEFT JOIN pg_operator c ON c.oid = o.oprcom
LEFT JOIN pg_operator n ON n.oid = o.oprnegate
WHERE o.oprleft = 'nanoflake'::regtype AND o.oprright = 'nanoflake'::regtype ORDER BY o.oprname;  -- with integers: integer_comparisons

-- The type: 8 bytes, by value, double-aligned, plain storage, with binary I/O.
SELECT typlen, typbyval, typalign, typstorage, typreceive::text, typsend::text
FROM pg_type WHERE oid = 'nanoflake'::regtype;

-- Operator classes: btree with compare (1), sortsupport (2) and equalimage (4);
-- hash with the 32-bit (1) and extended (2) hash; BRIN minmax.
SELECT am.amname, opc.opcname, opc.opcdefault, p.amprocnum, p.amproc::text
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_amproc p ON p.amprocfamily = opc.opcfamily
WHERE opc.opcintype = 'nanoflake'::regtype AND p.amproclefttype = opc.opcintype AND p.amprocrighttype = opc.opcintype
ORDER BY am.amname, p.amprocnum;

-- Volatility and parallel safety as declared.
SELECT proname, provolatile, proparallel, proisstrict, proleakproof
FROM pg_proc WHERE proname LIKE '%nanoflake%' AND pronamespace = (
    SELECT extnamespace FROM pg_extension WHERE extname = 'chronoid')
    AND NOT (proname ~ '_(eq|ne|lt|le|gt|ge|cmp)$' AND proargtypes[0] <> proargtypes[1])  -- with integers: integer_comparisons
ORDER BY proname, oid::regprocedure::text;

-- Fields and range-scan bounds.
SELECT nanoflake_floor('2020-01-02 00:00:00+00') AS floor, nanoflake_ceil('2020-01-02 00:00:00+00') AS ceil,
       nanoflake_floor('2020-01-02 00:00:00.0009+00') = nanoflake_floor('2020-01-02 00:00:00+00') AS same_ms,
       nanoflake_timestamp(nanoflake_ceil('2020-01-02 00:00:00.0009+00')) AS ceil_time;
SELECT nanoflake_floor('2020-01-01 00:00:00+00')::bigint AS first, nanoflake_ceil('2089-09-06 15:47:35.551+00')::bigint AS last;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT nanoflake_floor('2019-12-31 23:59:59.999+00')$$,
    $$SELECT nanoflake_ceil('2089-09-06 15:47:35.552+00')$$,
    $$SELECT nanoflake_floor('infinity')$$,
    $$SELECT nanoflake_ceil('-infinity')$$]) q;
SELECT 'zz'::nanoflake::timestamptz;

-- An index range scan for a time window.
CREATE TABLE nf_events (id nanoflake PRIMARY KEY, n int);
INSERT INTO nf_events SELECT nanoflake_floor('2024-01-01 00:00:00+00'::timestamptz + g * interval '1 second'), g
FROM generate_series(1, 20000) g;
ANALYZE nf_events;
EXPLAIN (COSTS OFF)
SELECT n FROM nf_events
WHERE id BETWEEN nanoflake_floor('2024-01-01 01:00:00+00') AND nanoflake_ceil('2024-01-01 01:00:09+00');
SELECT count(*), min(n), max(n) FROM nf_events
WHERE id BETWEEN nanoflake_floor('2024-01-01 01:00:00+00') AND nanoflake_ceil('2024-01-01 01:00:09+00');
EXPLAIN (COSTS OFF) SELECT id FROM nf_events ORDER BY id DESC LIMIT 3;
-- min/max are aggregates with a sort operator, so they use the index too.
SELECT bool_or(line ~ 'Index Only Scan Backward using nf_events_pkey') AS max_reads_the_index_backward
FROM regress.plan('SELECT max(id) FROM nf_events') line;
SELECT min(id), max(id), min(id) < max(id) AS ordered FROM nf_events;

-- btequalimage makes the btree eligible for deduplication: 1000 equal keys
-- fit in a handful of posting-list tuples on one leaf page.
CREATE TABLE nf_dups AS SELECT 'zz'::nanoflake AS id FROM generate_series(1, 1000);
CREATE INDEX nf_dups_id ON nf_dups (id);
SELECT allequalimage FROM bt_metap('nf_dups_id');
SELECT live_items < 10 AS deduplicated FROM bt_page_stats('nf_dups_id', 1);

-- Hash index, hash join, hash aggregate, hash partitioning, BRIN.
CREATE INDEX nf_events_hash ON nf_events USING hash (id);
CREATE INDEX nf_events_brin ON nf_events USING brin (id);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM nf_events WHERE id = '6xhdopig9m2o';
RESET enable_seqscan;
SET enable_mergejoin = off; SET enable_nestloop = off;
-- (Against a copy: PostgreSQL 18 removes a self-join on a unique key.)
CREATE TABLE nf_events_copy AS SELECT * FROM nf_events;
SELECT bool_or(line ~ 'Hash Join') AS hash_join
FROM regress.plan('SELECT count(*) FROM nf_events a JOIN nf_events_copy b USING (id)') line;
SELECT count(*) FROM nf_events a JOIN nf_events_copy b USING (id);
RESET enable_mergejoin; RESET enable_nestloop;
SET enable_sort = off;
SELECT count(*) FROM (SELECT id FROM nf_events GROUP BY id) g;
RESET enable_sort;
CREATE TABLE nf_parts (id nanoflake) PARTITION BY HASH (id);
CREATE TABLE nf_parts_0 PARTITION OF nf_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE nf_parts_1 PARTITION OF nf_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO nf_parts SELECT id FROM nf_events;
SELECT count(*) > 0 AS p0, (SELECT count(*) FROM nf_parts_1) > 0 AS p1, (SELECT count(*) FROM nf_parts) AS total FROM nf_parts_0;

-- Generation: a DEFAULT, strictly increasing, carrying the node id in
-- effect (none is set on this server: 0).
CREATE TABLE nf_gen (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), n int);
INSERT INTO nf_gen (n) SELECT g FROM generate_series(1, 50000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       bool_and(nanoflake_generator(id) = 0) AS node_id_0,
       bool_and(nanoflake_timestamp(id) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS recent
FROM nf_gen;
SELECT count(*) AS out_of_order FROM (
    SELECT id < lag(id) OVER (ORDER BY n) AS backwards FROM nf_gen) s WHERE backwards;
SELECT generator, node_id, node_id_source FROM chronoid_generators ORDER BY generator;
-- The peer worker's verdict on this database, which the generator read.
SELECT state, node_id, reason, hint, confirmed_at <= clock_timestamp() AS confirmed
FROM chronoid_node_verdicts WHERE database = current_database();

-- GUCs: the node id is the server's (postgresql.conf, ALTER SYSTEM): no
-- session, database or role may give it another (55P02), and its range is
-- -1 (not set) .. 1023; the epoch is fixed at server start, and IDs minted
-- under another epoch are read with an explicit one.
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    'SET chronoid.node_id = 513',
    $$SELECT set_config('chronoid.node_id', '6', false)$$,
    'ALTER DATABASE chronoid_regress SET chronoid.node_id = 5',
    'ALTER ROLE CURRENT_USER SET chronoid.node_id = 5',
    'SET chronoid.node_id_base = 100',
    'ALTER ROLE CURRENT_USER SET chronoid.node_id_base = 100']) q;
ALTER SYSTEM SET chronoid.node_id = 1024;
ALTER SYSTEM SET chronoid.node_id = -2;
ALTER SYSTEM SET chronoid.node_id_base = 1024;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SET chronoid.nanoflake_epoch = '2024-01-01 00:00:00+00'$$,
    $$SELECT set_config('chronoid.nanoflake_epoch', '2024-01-01 00:00:00+00', false)$$,
    $$ALTER DATABASE chronoid_regress SET chronoid.nanoflake_epoch = '2024-01-01 00:00:00+00'$$,
    $$ALTER ROLE CURRENT_USER SET chronoid.nanoflake_epoch = '2024-01-01 00:00:00+00'$$,
    $$RESET chronoid.nanoflake_epoch$$]) q;
SELECT nanoflake_timestamp('0'::nanoflake) AS server_epoch,
       nanoflake_timestamp('0'::nanoflake, '2024-01-01 00:00:00+00') AS explicit_epoch,
       nanoflake_timestamp('2hwcg'::nanoflake, '2023-12-31 19:00:00-05') AS one_ms_after,
       nanoflake_floor('2024-01-01 00:00:00.001+00', '2024-01-01 00:00:00+00') AS floor_at_epoch,
       nanoflake_ceil('2024-01-01 00:00:00.001+00', '2024-01-01 00:00:00+00') AS ceil_at_epoch;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT nanoflake_floor('2023-12-31 23:59:59.999+00', '2024-01-01 00:00:00+00')$$,
    $$SELECT nanoflake_timestamp('1'::nanoflake, 'infinity')$$]) q;
SELECT provolatile, count(*) FROM pg_proc
WHERE proname IN ('nanoflake_timestamp', 'nanoflake_floor', 'nanoflake_ceil') GROUP BY provolatile ORDER BY 1;

-- From integer and smallint as from bigint.
SELECT 12345::nanoflake AS from_integer, 7::smallint::nanoflake AS from_smallint,
       12345::nanoflake = 12345::bigint::nanoflake AS same_as_bigint;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    'SELECT (-1)::nanoflake', 'SELECT (-1)::smallint::nanoflake']) q;
SELECT name, setting, context FROM pg_settings WHERE name LIKE 'chronoid.%' AND name NOT IN ('chronoid.node_ids_seen', 'chronoid.handover') ORDER BY name;
-- What this server tells a peer: itself first (system identifier, since,
-- node id -1, age 0, name); nobody may set it.
SELECT context, setting ~ E'^[0-9]+\t[0-9]+\t-1\t0\t' AS itself_first FROM pg_settings WHERE name = 'chronoid.node_ids_seen';
-- What it tells a standby of it that asks to take its place: itself alone,
-- having handed over to no one.
SELECT context, setting ~ E'^[0-9]+\t[0-9]+\t-1\t0\t[^\n]*$' AS itself_alone FROM pg_settings WHERE name = 'chronoid.handover';

-- No session may change the node id or the epoch.
CREATE ROLE chronoid_regress_user;
GRANT USAGE ON SCHEMA regress TO chronoid_regress_user;
SET ROLE chronoid_regress_user;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    'SET chronoid.node_id = 5',
    $$SET chronoid.nanoflake_epoch = '2021-01-01 00:00:00+00'$$,
    $$SELECT set_config('chronoid.node_id', '6', false)$$]) q;
SELECT current_setting('chronoid.node_id'), nanoflake_generator(gen_nanoflake());
RESET ROLE;
REVOKE USAGE ON SCHEMA regress FROM chronoid_regress_user;
DROP ROLE chronoid_regress_user;
