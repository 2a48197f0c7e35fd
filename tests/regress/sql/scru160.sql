-- scru160: codec, casts, operators, operator classes, fields, bounds, generator.
SET TimeZone = 'UTC';

-- Conformance vectors (tests/vectors/scru160.json).
\getenv vectors_dir CHRONOID_VECTORS
\set vectors_file :vectors_dir '/scru160.json'
CREATE TEMP TABLE s_vectors AS
SELECT v->>'input' AS hex, v->>'canonical' AS b32, (v->>'timestamp')::bigint AS ts,
       (v->>'counter')::int AS counter, (v->>'random16')::int AS random16, (v->>'random80')::numeric AS random80
FROM jsonb_array_elements(pg_read_file(:'vectors_file')::jsonb->'authoritative_inspect') v
UNION ALL
SELECT v->>'hex', v->>'b32', (v->>'timestamp')::bigint, (v->>'counter')::int,
       (v->>'random16')::int, (v->>'random80')::numeric
FROM jsonb_array_elements(pg_read_file(:'vectors_file')::jsonb->'spec_examples_decoded') v
UNION ALL
SELECT v->>'hex', v->>'b32', (v->>'timestamp')::bigint, (v->>'counter')::int, NULL, NULL
FROM jsonb_array_elements(pg_read_file(:'vectors_file')::jsonb->'python_readme_examples_decoded') v
UNION ALL
SELECT v->>'hex', v->>'b32', NULL, NULL, NULL, NULL
FROM jsonb_array_elements(pg_read_file(:'vectors_file')::jsonb->'boundary_derived') v;
SELECT b32,
       hex::scru160::text = b32 AS hex_in,
       lower(b32)::scru160 = b32::scru160 AS any_case,
       scru160_to_hex(b32::scru160) = hex AS hex_out,
       scru160_timestamp(b32::scru160) = to_timestamp(ts / 1000.0) AS ts_ok,
       scru160_counter(b32::scru160) = counter AS counter_ok,
       scru160_random16(b32::scru160) = random16 AS random16_ok,
       scru160_random80(b32::scru160) = random80 AS random80_ok
FROM s_vectors ORDER BY b32;

-- Every class of bad text is 22P02, naming the type and the value.
SELECT t AS input, regress.try_input(t, 'scru160') AS result FROM unnest(ARRAY[
    '', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP511',
    '05U0GF0J0SP1ADJPT0U4VHIMCJJAIPW1', ' 05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5 ',
    '017c083c130732153679e83c4fc65664e6a964ag', '017c083c-30732153679e83c4fc65664e6a964a1',
    '{017c083c130732153679e83c4fc65664e6a964}', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5é'
]) t;

-- Text order is binary order, for random values sharing long prefixes.
CREATE TEMP TABLE s_random AS
SELECT ('\x' || repeat('17', (g % 3) * 4) ||
        substr(md5(g::text) || md5((g * 7)::text), 1, 40 - (g % 3) * 8))::bytea::scru160 AS id
FROM generate_series(1, 3000) g;
SELECT count(*) AS values,
       bool_and(id::text::scru160 = id) AS text_round_trip,
       bool_and(scru160_to_hex(id)::scru160 = id) AS hex_round_trip,
       bool_and(id::bytea::scru160 = id) AS bytea_round_trip
FROM s_random;
SELECT count(*) AS order_mismatches FROM (
    SELECT id::text AS t, lag(id::text) OVER (ORDER BY id) AS prev FROM s_random) s
WHERE prev COLLATE "C" > t COLLATE "C";

-- bytea casts: exactly 20 bytes.
SELECT '\x017c083c130732153679e83c4fc65664e6a964a1'::bytea::scru160;
SELECT '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51'::scru160::bytea;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT '\xdeadbeef'::bytea::scru160$$,
    $$SELECT ''::bytea::scru160$$,
    $$SELECT '\x017c083c130732153679e83c4fc65664e6a964a100'::bytea::scru160$$]) q;

-- Binary I/O: the 20 raw bytes; anything shorter or longer is refused.
CREATE TABLE s_bin (id scru160);
SELECT regress.binary_copy($$SELECT '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51'::scru160$$, 's_bin');
SELECT id FROM s_bin;
SELECT source, regress.binary_copy(source, 's_bin') FROM unnest(ARRAY[
    $$SELECT '\x0102'::bytea$$,
    $$SELECT '\x017c083c130732153679e83c4fc65664e6a964a100'::bytea$$]) source;
SELECT scru160_send('05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51');

-- Operators, planner properties, catalog.
SELECT a < b AS lt, a <= b AS le, a = b AS eq, a <> b AS ne, a >= b AS ge, a > b AS gt
FROM (VALUES ('05TTUP1HNCPNA1QHTDHRTCU3V32PD7C6'::scru160, '05TTUP1HNCPNCOI15PL5EM490SQS6F1B'::scru160),
             ('05TTUP1HNCPNCOI15PL5EM490SQS6F1B', '05TTUP1HNCPNA1QHTDHRTCU3V32PD7C6'),
             ('05TTUP1HNCPNA1QHTDHRTCU3V32PD7C6', '05TTUP1HNCPNA1QHTDHRTCU3V32PD7C6')) v(a, b);
SELECT o.oprname, c.oprname AS commutator, n.oprname AS negator, o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge
FROM pg_operator o
LEFT JOIN pg_operator c ON c.oid = o.oprcom
LEFT JOIN pg_operator n ON n.oid = o.oprnegate
WHERE o.oprleft = 'scru160'::regtype ORDER BY o.oprname;
SELECT typlen, typbyval, typalign, typstorage, typreceive::text, typsend::text
FROM pg_type WHERE oid = 'scru160'::regtype;
SELECT am.amname, opc.opcname, opc.opcdefault, p.amprocnum, p.amproc::text
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_amproc p ON p.amprocfamily = opc.opcfamily
WHERE opc.opcintype = 'scru160'::regtype
ORDER BY am.amname, p.amprocnum;
SELECT proname, provolatile, proparallel, proisstrict, proleakproof
FROM pg_proc WHERE proname LIKE '%scru160%' AND pronamespace = (
    SELECT extnamespace FROM pg_extension WHERE extname = 'chronoid')
ORDER BY proname, oid::regprocedure::text;

-- Bounds, and an index range scan for a time window.
SELECT scru160_floor('2021-09-21 12:02:07.239+00') AS floor, scru160_ceil('2021-09-21 12:02:07.239+00') AS ceil;
SELECT '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51'::scru160
       BETWEEN scru160_floor('2021-09-21 12:02:07.239+00') AND scru160_ceil('2021-09-21 12:02:07.2399+00') AS inside;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT scru160_floor('1969-12-31 23:59:59.999+00')$$,
    $$SELECT scru160_ceil('infinity')$$]) q;
CREATE TABLE s_events (id scru160 PRIMARY KEY, n int);
INSERT INTO s_events SELECT scru160_floor('2024-01-01 00:00:00+00'::timestamptz + g * interval '1 second'), g
FROM generate_series(1, 20000) g;
ANALYZE s_events;
EXPLAIN (COSTS OFF)
SELECT n FROM s_events
WHERE id BETWEEN scru160_floor('2024-01-01 01:00:00+00') AND scru160_ceil('2024-01-01 01:00:09+00');
SELECT count(*), min(n), max(n) FROM s_events
WHERE id BETWEEN scru160_floor('2024-01-01 01:00:00+00') AND scru160_ceil('2024-01-01 01:00:09+00');
SELECT bool_or(line ~ 'Index Only Scan Backward using s_events_pkey') AS max_reads_the_index_backward
FROM regress.plan('SELECT max(id) FROM s_events') line;
SELECT min(id), max(id) FROM s_events;

-- Sorting with abbreviated keys gives the same order as the full comparison:
-- where half the values share their first 8 bytes (abbreviation pays), and
-- where all do (the cardinality check abandons abbreviation mid-sort).
SET work_mem = '64MB';
CREATE TEMP TABLE s_sort AS
SELECT ('\x' || CASE WHEN g % 2 = 0 OR shared THEN '0123456789abcdef' ELSE lpad(to_hex(g * 7919), 16, '0') END
        || substr(md5(g::text), 1, 24))::bytea::scru160 AS id, shared
FROM generate_series(1, 50000) g, (VALUES (false), (true)) v(shared);
-- (A plain Sort node, whose order the window then reads as it comes.)
SELECT shared, sum((scru160_to_hex(prev) >= scru160_to_hex(id))::int) AS misordered
FROM (SELECT shared, id, lag(id) OVER () AS prev
      FROM (SELECT shared, id FROM s_sort WHERE NOT shared ORDER BY id OFFSET 0) o
      UNION ALL
      SELECT shared, id, lag(id) OVER () AS prev
      FROM (SELECT shared, id FROM s_sort WHERE shared ORDER BY id OFFSET 0) o) s
GROUP BY shared ORDER BY shared;
SELECT shared, count(*) AS rows, count(DISTINCT id) AS distinct_ids FROM s_sort GROUP BY shared ORDER BY shared;
CREATE INDEX s_sort_id ON s_sort (id);
SELECT allequalimage FROM bt_metap('s_sort_id');
SELECT bt_index_check('s_sort_id', true);
RESET work_mem;

-- Hash index, hash join, hash partitioning, BRIN.
CREATE INDEX s_events_hash ON s_events USING hash (id);
CREATE INDEX s_events_brin ON s_events USING brin (id);
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT count(*) FROM s_events a JOIN s_events b USING (id);
RESET enable_mergejoin; RESET enable_nestloop;
CREATE TABLE s_parts (id scru160) PARTITION BY HASH (id);
CREATE TABLE s_parts_0 PARTITION OF s_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE s_parts_1 PARTITION OF s_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO s_parts SELECT id FROM s_events;
SELECT (SELECT count(*) FROM s_parts_0) > 0 AS p0, (SELECT count(*) FROM s_parts_1) > 0 AS p1;

-- Generation: a DEFAULT, strictly increasing in this backend, recent.
CREATE TABLE s_gen (id scru160 PRIMARY KEY DEFAULT gen_scru160(), n int);
INSERT INTO s_gen (n) SELECT g FROM generate_series(1, 100000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       bool_and(scru160_timestamp(id) BETWEEN now() - interval '1 minute' AND clock_timestamp() + interval '1 second') AS recent,
       count(DISTINCT scru160_random16(id)) > 30000 AS random16_varies
FROM s_gen;
SELECT count(*) AS out_of_order FROM (
    SELECT id <= lag(id) OVER (ORDER BY n) AS backwards FROM s_gen) s WHERE backwards;

-- gen_scru160(timestamptz): an ID for a given instant (since 0.4.0).
SELECT scru160_timestamp(gen_scru160('2020-01-01 00:00:00.123+00')) AS instant,
       gen_scru160('2020-01-01 00:00:00.123+00')
           BETWEEN scru160_floor('2020-01-01 00:00:00.123+00') AND scru160_ceil('2020-01-01 00:00:00.123+00') AS in_bounds,
       gen_scru160(NULL) IS NULL AS strict;
-- A run for one instant: unique, increasing in call order, all of that
-- millisecond (the counter starts below 2^15, so at least 32768 count up).
CREATE TEMP TABLE s_instant AS
SELECT n, gen_scru160('1999-12-31 23:59:59.999+00') AS id FROM generate_series(1, 32768) n;
SELECT count(DISTINCT id) AS distinct_ids,
       count(DISTINCT scru160_timestamp(id)) AS instants,
       bool_and(scru160_counter(id) BETWEEN 0 AND 65535) AS counters
FROM s_instant;
SELECT count(*) AS out_of_order FROM (
    SELECT id <= lag(id) OVER (ORDER BY n) AS backwards FROM s_instant) s WHERE backwards;
-- The live generator keeps its own state: an instant in the year 3000 does
-- not move it.
SELECT gen_scru160('3000-01-01+00') > gen_scru160() AS future_instant_sorts_later;
SELECT scru160_timestamp(gen_scru160()) < now() + interval '1 minute' AS live_generator_unmoved;
-- Instants outside the 48-bit field (and its reserved 0): 22008.
SELECT t AS instant, regress.sqlstate_of(format('SELECT gen_scru160(%L::timestamptz)', t)) AS result FROM unnest(ARRAY[
    '1970-01-01 00:00:00+00', '1970-01-01 00:00:00.001+00', '1969-12-31 23:59:59.999+00',
    '10889-08-02 05:31:50.654+00', '10889-08-02 05:31:50.655+00', 'infinity', '-infinity']) t;
SELECT provolatile, proparallel, proisstrict FROM pg_proc WHERE oid = 'gen_scru160(timestamptz)'::regprocedure;

-- No cast to uuid: 160 bits do not fit in 128 (README, "uuid").
SELECT regress.sqlstate_of('SELECT gen_scru160()::uuid') AS to_uuid;
