-- uid60: display codec, casts, operators, fields, bounds, generator.
SET TimeZone = 'UTC';

-- Conformance vectors (tests/vectors/uid60.json).
\getenv vectors_dir CHRONOID_VECTORS
\set vectors_file :vectors_dir '/uid60.json'
CREATE TEMP TABLE u_vectors AS
SELECT v->>'display' AS display, (v->>'storage')::bigint AS storage, (v->>'ts_ms_since_2018_03_01')::bigint AS ms,
       (v->>'seq')::int AS seq, (v->>'rand')::int AS rand
FROM jsonb_array_elements(pg_read_file(:'vectors_file')::jsonb->'vectors') v;
SELECT display, storage::uid60::text = display AS encodes, display::uid60::bigint = storage AS decodes,
       uid60_timestamp(display::uid60) = '2018-03-01 00:00:00+00'::timestamptz + ms * interval '1 ms' AS time_ok,
       uid60_sequence(display::uid60) = seq AS seq_ok, uid60_random(display::uid60) = rand AS rand_ok
FROM u_vectors ORDER BY storage;

-- Values under 2^18 are padded to four digits before the rotation; every
-- value 0 .. 2^60-1 round-trips.
SELECT v, v::uid60 AS display FROM unnest(ARRAY[0, 1, 63, 64, 262143, 262144, 1152921504606846975]::bigint[]) v;
SELECT count(*) AS values, bool_and(u::text::uid60 = u) AS text_round_trip
FROM (SELECT (random() * 1.15e18)::bigint::uid60 AS u FROM generate_series(1, 10000)
      UNION ALL SELECT g::bigint::uid60 FROM generate_series(0, 5000) g) s;

-- Strict input: alphabet, length, canonical form, 60 bits (22P02).
SELECT t AS input, regress.try_input(t, 'uid60') AS result FROM unnest(ARRAY[
    'xinaS8QBh', 'XINAS8QBH', '', 'A', 'AAA', 'AAAAA', 'ABAAA', 'xinaS8QBh=', 'xina S8QBh', 'AAAAAAAAAAA', 'xinaS8QBhé'
]) t;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    'SELECT (-1)::bigint::uid60', 'SELECT 1152921504606846976::bigint::uid60']) q;

-- Order is the number's; the display is deliberately not sortable.
SELECT a, b, a < b AS lt, a::text < b::text COLLATE "C" AS text_lt
FROM (VALUES ('ABAA'::uid60, 'AABA'::uid60), ('SJBOju5_oA', '__BOju5_o_')) v(a, b);

-- Binary I/O, catalog.
CREATE TABLE u_bin (u uid60);
SELECT regress.binary_copy($$SELECT 'xinaS8QBh'::uid60$$, 'u_bin');
SELECT u FROM u_bin;
SELECT regress.binary_copy('SELECT 1152921504606846976::bigint', 'u_bin');
SELECT typlen, typbyval, typalign FROM pg_type WHERE oid = 'uid60'::regtype;
SELECT am.amname, p.amprocnum, p.amproc::text
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_amproc p ON p.amprocfamily = opc.opcfamily
WHERE opc.opcintype = 'uid60'::regtype AND p.amproclefttype = opc.opcintype AND p.amprocrighttype = opc.opcintype ORDER BY am.amname, p.amprocnum;

-- Bounds and an index range scan.
SELECT uid60_floor('2018-03-01 00:00:00.001+00'), uid60_ceil('2018-03-01 00:00:00.001+00');
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT uid60_floor('2018-02-28 23:59:59.999+00')$$, $$SELECT uid60_ceil('infinity')$$]) q;
CREATE TABLE u_events (id uid60 PRIMARY KEY, n int);
INSERT INTO u_events SELECT uid60_floor('2024-01-01 00:00:00+00'::timestamptz + g * interval '1 second'), g
FROM generate_series(1, 20000) g;
ANALYZE u_events;
EXPLAIN (COSTS OFF)
SELECT n FROM u_events WHERE id BETWEEN uid60_floor('2024-01-01 01:00:00+00') AND uid60_ceil('2024-01-01 01:00:09+00');
SELECT count(*), min(n), max(n) FROM u_events
WHERE id BETWEEN uid60_floor('2024-01-01 01:00:00+00') AND uid60_ceil('2024-01-01 01:00:09+00');

-- Generation: a DEFAULT; the sequence is server-wide, 0 .. 511 per
-- millisecond, and IDs from one backend increase.
CREATE TABLE u_gen (id uid60 PRIMARY KEY DEFAULT gen_uid60(), n int);
INSERT INTO u_gen (n) SELECT g FROM generate_series(1, 20000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT (uid60_timestamp(id), uid60_sequence(id))) AS distinct_ms_sequence,
       max(uid60_sequence(id)) <= 511 AS sequence_in_range,
       bool_and(uid60_timestamp(id) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS recent
FROM u_gen;
SELECT count(*) AS out_of_order FROM (
    SELECT id <= lag(id) OVER (ORDER BY n) AS b FROM u_gen) s WHERE b;
