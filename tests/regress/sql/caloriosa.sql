-- caloriosa: codec, the bigint sign, casts, operators, fields, bounds, generator.
SET TimeZone = 'UTC';

-- Conformance vectors (tests/vectors/caloriosa.json).
\getenv vectors_dir CHRONOID_VECTORS
\set vectors_file :vectors_dir '/caloriosa.json'
CREATE TEMP TABLE c_vectors AS
SELECT v->>'text' AS text, (v->>'uint64')::numeric AS uint64, (v->>'ms_since_2017')::bigint AS ms,
       (v->>'random12')::int AS random, (v->>'increment10')::int AS increment, v->>'note' AS note
FROM jsonb_array_elements(pg_read_file(:'vectors_file')::jsonb->'vectors') v;
SELECT text, regress.try_input(text, 'caloriosa') = text AS round_trip,
       caloriosa_to_numeric(text::caloriosa) = uint64 AS number_ok,
       caloriosa_timestamp(text::caloriosa) = '2017-01-01 00:00:00+00'::timestamptz + ms * interval '1 ms' AS time_ok,
       caloriosa_random(text::caloriosa) = random AS random_ok,
       caloriosa_increment(text::caloriosa) = increment AS increment_ok
FROM c_vectors WHERE note IS NULL ORDER BY uint64;

-- The seed's own example is in the old 48-bit layout, without the prefix bit:
-- refused, with a hint that says so.
SELECT 'katjjMQN'::caloriosa;

-- Bad text is 22P02 naming the type and value.
SELECT t AS input, regress.try_input(t, 'caloriosa') AS result FROM unnest(ARRAY[
    '', 'aZl8N0y58M', 'aZl8N0y58M80', 'aZl8N0y58M-', ' aZl8N0y58M8', 'zzzzzzzzzzz', 'ZZZZZZZZZZZ', '00000000001'
]) t;

-- bigint carries the same 64 bits: every caloriosa is a negative bigint.
SELECT 'aZl8N0y58M8'::caloriosa::bigint AS smallest, 'lYGhA16ahyf'::caloriosa::bigint AS largest,
       (-9223372036854775808)::bigint::caloriosa AS from_min, (-1)::bigint::caloriosa AS from_minus_one;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    'SELECT 0::bigint::caloriosa', 'SELECT 9223372036854775807::bigint::caloriosa']) q;
SELECT count(*) AS values, bool_and(c::bigint::caloriosa = c) AS bigint_round_trip,
       bool_and(c::text::caloriosa = c) AS text_round_trip
FROM (SELECT (-1 - (random() * 9.2e18)::bigint)::caloriosa AS c FROM generate_series(1, 10000)) s;

-- Order is the number's, not the text's (the alphabet does not sort).
SELECT a, b, a < b AS lt, a::text < b::text COLLATE "C" AS text_lt
FROM (VALUES ('aZl8N0y58Mz'::caloriosa, 'aZl8N0y58MA'::caloriosa), ('b8MpZ6ZrkE9', 'lYGhA16ahyf')) v(a, b);

-- Binary I/O: 8 bytes; a value without the prefix bit is refused.
CREATE TABLE c_bin (c caloriosa);
SELECT regress.binary_copy($$SELECT 'b8MpZ6ZrkE9'::caloriosa$$, 'c_bin');
SELECT c FROM c_bin;
SELECT regress.binary_copy('SELECT 5::bigint', 'c_bin');

-- Catalog: 8 bytes by value; btree (1, 2, 4), hash (1, 2), BRIN.
SELECT typlen, typbyval, typalign FROM pg_type WHERE oid = 'caloriosa'::regtype;
SELECT am.amname, p.amprocnum, p.amproc::text
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_amproc p ON p.amprocfamily = opc.opcfamily
WHERE opc.opcintype = 'caloriosa'::regtype AND p.amproclefttype = opc.opcintype AND p.amprocrighttype = opc.opcintype ORDER BY am.amname, p.amprocnum;

-- Bounds and an index range scan.
SELECT caloriosa_floor('2017-01-01 00:00:00+00'), caloriosa_ceil('2017-01-01 00:00:00+00'),
       caloriosa_ceil('2086-09-07 15:47:35.551+00');
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT caloriosa_floor('2016-12-31 23:59:59.999+00')$$,
    $$SELECT caloriosa_ceil('2086-09-07 15:47:35.552+00')$$]) q;
CREATE TABLE c_events (id caloriosa PRIMARY KEY, n int);
INSERT INTO c_events SELECT caloriosa_floor('2024-01-01 00:00:00+00'::timestamptz + g * interval '1 second'), g
FROM generate_series(1, 20000) g;
ANALYZE c_events;
EXPLAIN (COSTS OFF)
SELECT n FROM c_events WHERE id BETWEEN caloriosa_floor('2024-01-01 01:00:00+00') AND caloriosa_ceil('2024-01-01 01:00:09+00');
SELECT count(*), min(n), max(n), min(id) < max(id) AS ordered FROM c_events
WHERE id BETWEEN caloriosa_floor('2024-01-01 01:00:00+00') AND caloriosa_ceil('2024-01-01 01:00:09+00');
CREATE INDEX c_events_hash ON c_events USING hash (id);
CREATE INDEX c_events_brin ON c_events USING brin (id);

-- Generation: a DEFAULT; the increment is server-wide and wraps 1023 -> 0,
-- so no (millisecond, increment) pair repeats; at most 1024 per millisecond.
CREATE TABLE c_gen (id caloriosa PRIMARY KEY DEFAULT gen_caloriosa(), n int);
INSERT INTO c_gen (n) SELECT g FROM generate_series(1, 20000) g;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT (caloriosa_timestamp(id), caloriosa_increment(id))) AS distinct_ms_increment,
       bool_and(caloriosa_timestamp(id) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS recent
FROM c_gen;
SELECT max(per_ms) <= 1024 AS at_most_1024_per_ms
FROM (SELECT count(*) AS per_ms FROM c_gen GROUP BY caloriosa_timestamp(id)) m;
SELECT count(*) AS increment_steps_other_than_plus_one FROM (
    SELECT caloriosa_increment(id) AS i, lag(caloriosa_increment(id)) OVER (ORDER BY n) AS prev FROM c_gen) s
WHERE prev IS NOT NULL AND i <> (prev + 1) % 1024;
SELECT count(*) AS backwards FROM (
    SELECT caloriosa_timestamp(id) < lag(caloriosa_timestamp(id)) OVER (ORDER BY n) AS b FROM c_gen) s WHERE b;
SELECT proname, provolatile, proparallel FROM pg_proc WHERE proname = 'gen_caloriosa';

-- Caloriosa's own code (Caloriosa/core) writes the same digits in the
-- alphabet 0-9A-Za-z: names made that way (tests/vectors/
-- caloriosa_core_names.json) are read and written by two functions, and
-- the type's own text refuses them with a hint rather than misreading them.
SELECT core_name, caloriosa_from_core_name(core_name) AS name,
       caloriosa_from_core_name(core_name) = text::caloriosa AS same,
       caloriosa_to_core_name(text::caloriosa) = core_name AS written_back
FROM (VALUES
    ('AzL8n0Y58m8', 'aZl8N0y58M8'),
    ('AzL8n0Y58m9', 'aZl8N0y58M9'),
    ('LygHa16AHYF', 'lYGhA16ahyf'),
    ('J6pwgTkHLQf', 'j6PWGtKhlqF'),
    ('CGI7fFFrsPu', 'cgi7FffRSpU'),
    ('CixpWYpChFB', 'cIXPwyPcHfb')) v(core_name, text);
SELECT 'AzL8n0Y58m8'::caloriosa;
SELECT caloriosa_from_core_name('aZl8N0y58M8');
SELECT caloriosa_from_core_name('0000000000A');
SELECT caloriosa_from_core_name('AzL8n0Y58m_');
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT caloriosa_from_core_name('')$$,
    $$SELECT caloriosa_from_core_name('AzL8n0Y58m')$$,
    $$SELECT caloriosa_from_core_name('AzL8n0Y58m88')$$,
    $$SELECT caloriosa_from_core_name('zzzzzzzzzzz')$$,
    $$SELECT caloriosa_from_core_name(' AzL8n0Y58m8')$$]) q;
