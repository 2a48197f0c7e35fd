-- codokey: the reference implementation's 320 assertions, the seed's tables,
-- contexts, strict input, time-zone independence, order, operator classes.
SET TimeZone = 'UTC';

-- The reference implementation's test assertions (tests/vectors/codokey.json):
-- 160 encodings and 160 decodings; 'input'/'timestamp' are {unix seconds,
-- milliseconds with up to three decimals}.
\getenv vectors_dir CHRONOID_VECTORS
\set vectors_file :vectors_dir '/codokey.json'
CREATE TEMP TABLE ck_vectors AS
SELECT v->>'kind' AS kind, v->>'key' AS key,
       array_position(ARRAY['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'SPLIT'], v->>'precision') - 1 AS precision,
       (v->>'untilSplit')::int AS fraction_max,
       to_timestamp(0) + (coalesce(
           coalesce((v->>'input_ms')::numeric, (v->>'time_ms')::numeric) * 1000,
           (coalesce(v->'input', v->'timestamp')->>'value')::numeric * 1000000
           + round((coalesce(v->'input', v->'timestamp')->>'split')::numeric * 1000)) || ' microseconds')::interval AS t
FROM jsonb_array_elements(pg_read_file(:'vectors_file')::jsonb->'vectors') v;
SELECT kind, fraction_max, count(*) AS assertions,
       count(*) FILTER (WHERE CASE kind
           WHEN 'encode' THEN codokey(t, precision, 1970, 3265, fraction_max)::text = key
           ELSE codokey_timestamp(codokey(key, 1970, 3265, fraction_max), 1970, 3265, fraction_max) = t
                AND codokey_precision(codokey(key, 1970, 3265, fraction_max), 1970, 3265, fraction_max) = precision
           END) AS passed
FROM ck_vectors GROUP BY kind, fraction_max ORDER BY kind, fraction_max;

-- The same through the session context (GUCs) for the default fraction.
SELECT count(*) FILTER (WHERE codokey(t, precision)::text = key) AS encode_passed,
       count(*) FILTER (WHERE codokey_timestamp(key::codokey) = t) AS decode_passed
FROM ck_vectors WHERE fraction_max = 9;

-- The seed's table (default context), every precision.
SELECT p, codokey('2022-12-31 23:59:59.9+00'::timestamptz, p) AS late_2022,
       codokey('1970-01-01 00:00:00+00'::timestamptz, p) AS epoch,
       codokey_timestamp(codokey('2022-12-31 23:59:59.9+00'::timestamptz, p)) AS decoded
FROM generate_series(0, 6) p;
SELECT codokey('2022-01-01 00:00:00+00'::timestamptz, 0) AS y2022,
       codokey('2020-02-01+00'::timestamptz) AS feb1, codokey('2020-02-29+00'::timestamptz) AS feb29,
       codokey('2021-02-28+00'::timestamptz) AS feb28, codokey('2022-01-31+00'::timestamptz) AS jan31;
SET chronoid.codokey_fraction_max = 999999;
SELECT codokey('2022-12-31 23:59:59.999999+00'::timestamptz, 6) AS micro_late,
       codokey('1970-01-01+00'::timestamptz, 6) AS micro_epoch;
SELECT fm, codokey('2022-12-31 23:59:59.123456+00'::timestamptz, 6, 1970, 3265, fm) AS key,
       codokey_timestamp(codokey('2022-12-31 23:59:59.123456+00'::timestamptz, 6, 1970, 3265, fm), 1970, 3265, fm) AS truncated
FROM unnest(ARRAY[9, 99, 999, 9999, 99999, 999999]) fm;
RESET chronoid.codokey_fraction_max;

-- A custom context: the twenty-first century, hundredths.
SET chronoid.codokey_max_year = 2099;
SET chronoid.codokey_year_zero = 2000;
SET chronoid.codokey_fraction_max = 99;
SELECT codokey('2099-12-31 23:59:59.99+00'::timestamptz, 6) AS last, codokey('2000-01-01+00'::timestamptz, 0) AS first,
       codokey_timestamp('2r'::codokey) AS decoded;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT codokey('1999-12-31 23:00:00+00'::timestamptz)$$,
    $$SELECT codokey('2100-01-01 00:00:00+00'::timestamptz)$$,
    $$SELECT 'zz'::codokey$$,
    $$SELECT codokey_timestamp('zz'::codokey)$$,
    $$SELECT codokey_precision('zz'::codokey)$$]) q;
RESET chronoid.codokey_year_zero;
RESET chronoid.codokey_max_year;
RESET chronoid.codokey_fraction_max;

-- Each setting is checked alone when set; the pair where a key is made or
-- read (22023). Settings arrive in any order (logins, parallel workers,
-- restores), so a pair invalid for a moment is no error.
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    'SET chronoid.codokey_year_zero = 0',
    'SET chronoid.codokey_max_year = 294277',
    'SET chronoid.codokey_fraction_max = 10',
    'SET chronoid.codokey_fraction_max = 1000000',
    'SET chronoid.codokey_precision = 7',
    'SET chronoid.codokey_precision = -1',
    $$SELECT codokey(now(), 2, 2000, 1999, 9)$$,
    $$SELECT codokey(now(), 2, 1970, 3265, 50)$$,
    $$SELECT codokey(now(), 7)$$,
    $$SELECT codokey('infinity'::timestamptz)$$,
    $$SELECT codokey('infinity'::date)$$]) q;
SET chronoid.codokey_year_zero = 4000;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT codokey(now())$$,
    $$SELECT codokey_timestamp('yj'::codokey)$$,
    $$SELECT codokey_floor(now())$$,
    $$SELECT 'yj'::codokey$$]) q;
SET chronoid.codokey_max_year = 5000;
SELECT codokey('4321-01-02+00'::timestamptz) AS year_4321, codokey_timestamp(codokey('4321-01-02+00'::timestamptz));
RESET chronoid.codokey_year_zero;
SELECT regress.sqlstate_of('SELECT codokey(now())') AS default_year_zero_with_max_5000;
RESET chronoid.codokey_max_year;

-- Precision: explicit, NULL (the session's), the GUC.
SELECT codokey('2022-06-15 12:34:56.7+00'::timestamptz) AS default_day,
       codokey('2022-06-15 12:34:56.7+00'::timestamptz, NULL) AS null_is_default;
SET chronoid.codokey_precision = 4;
SELECT codokey('2022-06-15 12:34:56.7+00'::timestamptz) AS minute, codokey_precision(codokey('2022-06-15 12:34:56.7+00'::timestamptz));
RESET chronoid.codokey_precision;
SELECT codokey(NULL::timestamptz), codokey(NULL::timestamptz, 3);

-- Text input needs no context: it takes every key some valid context can
-- make (1..15 digits, every field in range for some year and fraction
-- width), whatever the session's context. Decoding in a context is strict:
-- length, alphabet and every field's range (22P02).
SELECT t AS input, regress.try_input(t, 'codokey') AS stored,
       regress.sqlstate_of(format('SELECT codokey_timestamp(%L::codokey)', t)) AS decoded_in_the_default_context
FROM unnest(ARRAY[
    'yjbu', 'YJBU', '', 'y', 'yj0000', 'yj00000000000', 'yj-0', 'yj 0', ' yjb', 'yjé', '0123456789abcdef',
    'zz', 'yjc', 'yjbv', 'ylas', 'ylat', 'ykar', 'ykas', 'yj00o', 'yj0001o', 'yj000001o', 'yj0000000a', 'yj0000000z',
    'zzzz', 'zzzzz', 'yjczz'
]) t;
-- Input and receive are IMMUTABLE now that no setting reaches them.
SELECT proname, provolatile FROM pg_proc WHERE proname IN ('codokey_in', 'codokey_recv', 'codokey_out') ORDER BY 1;
-- A session with another context stores and prints the same keys.
SET chronoid.codokey_year_zero = 2000; SET chronoid.codokey_max_year = 2035; SET chronoid.codokey_fraction_max = 999999;
SELECT 'yjbu'::codokey AS default_context_key, 'yj00000000000'::codokey AS micro_key, 'zz'::codokey AS year_1970;
RESET chronoid.codokey_year_zero; RESET chronoid.codokey_max_year; RESET chronoid.codokey_fraction_max;
-- codokey(text, context) checks the key against that context.
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT codokey('yjbu', 1970, 3265, 9)$$,
    $$SELECT codokey('yj00000000000', 1970, 3265, 9)$$,
    $$SELECT codokey('yj00000000000', 1970, 3265, 999999)$$]) q;

-- Dates are calendar dates and timestamps wall-clock readings: no
-- conversion through the session's TimeZone moves a key to another day.
SET TimeZone = 'Asia/Tokyo';
SELECT codokey('2022-06-15'::date) AS date_key, codokey('2022-06-15'::date, 0) AS date_year,
       codokey('2022-06-15'::date, 2, 1970, 3265, 9) AS date_in_context,
       codokey('2022-06-15 00:30'::timestamp, 2, 1970, 3265, 9) AS wall_clock_in_context,
       codokey_floor('2022-06-15'::date, 2) AS date_floor, codokey_ceil('2022-06-15'::date, 2) AS date_ceil,
       codokey_floor('2022-06-15 00:30'::timestamp, 2) AS wall_clock_floor,
       codokey_ceil('2022-06-15 00:30'::timestamp, 2) AS wall_clock_ceil;
SELECT codokey('2022-06-15'::date) = codokey('2022-06-15 00:00:00+00'::timestamptz) AS date_is_its_utc_day,
       codokey('2022-06-15 00:00:00+09'::timestamptz) AS tokyo_midnight_is_june_14_utc;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT codokey('-infinity'::date, 2, 1970, 3265, 9)$$,
    $$SELECT codokey_floor('infinity'::timestamp)$$,
    $$SELECT codokey('0044-03-15 BC'::date, 2)$$]) q;
SET TimeZone = 'UTC';

-- The last instants PostgreSQL can hold (years 294247 .. 294276 overflow
-- 64-bit microseconds since 1970): every function, exactly.
SELECT p, codokey('294276-12-31 23:59:59.999999+00'::timestamptz, p, 1, 294276, 999999) AS key,
       codokey_timestamp(codokey('294276-12-31 23:59:59.999999+00'::timestamptz, p, 1, 294276, 999999), 1, 294276, 999999) AS decoded
FROM generate_series(0, 6) p;
SELECT codokey('294247-06-01+00'::timestamptz, 0, 1, 294276, 9) AS year_294247,
       codokey('294276-12-31'::date, 2, 1, 294276, 9) AS last_date,
       codokey('294276-12-31 23:59:59.999999'::timestamp, 6, 1, 294276, 999999) AS last_wall_clock,
       codokey('0001-01-01 00:00:00+00'::timestamptz, 6, 1, 294276, 999999) AS first_instant,
       codokey_timestamp(codokey('0001-01-01 00:00:00+00'::timestamptz, 6, 1, 294276, 999999), 1, 294276, 999999) AS first_decoded;
SET chronoid.codokey_year_zero = 1; SET chronoid.codokey_max_year = 294276;
SELECT codokey_floor('294276-12-31 23:59:59.999999+00'::timestamptz, 0) AS floor_last_year,
       codokey_ceil('294276-12-31 23:59:59.999999+00'::timestamptz, 0) AS ceil_last_year,
       codokey_timestamp('0000'::codokey) AS year_294276, codokey_timestamp('6b2b'::codokey) AS year_1;
RESET chronoid.codokey_year_zero; RESET chronoid.codokey_max_year;

-- min and max, ordered like the keys (newest first).
SELECT min(k), max(k) FROM (VALUES ('yjbu'::codokey), ('zz'), ('yj'), ('a0')) v(k);

-- The session's TimeZone changes neither a key nor a decoded instant: the
-- key is the UTC calendar date. (East of UTC, the reference gets the day wrong.)
CREATE TEMP TABLE ck_tz AS
SELECT t, codokey(t, 6) AS utc_key, codokey_timestamp(codokey(t, 6)) AS utc_back
FROM (VALUES ('2022-01-31 23:30:00+00'::timestamptz), ('2022-02-28 16:00:00+00'), ('2021-12-31 15:00:00.5+00')) v(t);
SET TimeZone = 'Asia/Tokyo';
SELECT utc_key, codokey(t, 6) = utc_key AS same_key, codokey_timestamp(utc_key) = utc_back AS same_instant,
       codokey(t, 2) AS day_key_in_tokyo_session
FROM ck_tz ORDER BY t;
-- A key for a local calendar date is asked for explicitly.
SELECT codokey('2022-01-31 23:30:00+00'::timestamptz AT TIME ZONE 'Asia/Tokyo', 2) AS tokyo_day,
       codokey('2022-01-31 23:30:00+00'::timestamptz, 2) AS utc_day;
SET TimeZone = 'America/Los_Angeles';
SELECT bool_and(codokey(t, 6) = utc_key) AS same_key_in_los_angeles FROM ck_tz;
SET TimeZone = 'UTC';

-- Order: ORDER BY sorts newest first, exactly as the keys' text (C collation),
-- across precisions; the stored form is one byte per digit.
CREATE TEMP TABLE ck_order AS
SELECT codokey(t, p) AS k
FROM generate_series('1970-01-01'::timestamptz, '2100-01-01', interval '1 day 7 hours 13 minutes 17.3 seconds') t,
     generate_series(0, 6) p;
SELECT count(*) AS keys, count(DISTINCT k) AS distinct_keys FROM ck_order;
SELECT count(*) AS text_order_mismatches FROM (
    SELECT k::text AS t, lag(k::text) OVER (ORDER BY k) AS prev FROM ck_order) s
WHERE prev COLLATE "C" > t COLLATE "C";
SELECT count(*) AS time_order_mismatches FROM (
    SELECT k, lag(k) OVER (ORDER BY k) AS prev FROM ck_order WHERE length(k::text) = 10) s
WHERE codokey_timestamp(prev) < codokey_timestamp(k);
SELECT codokey_send('yjbu');

-- Binary I/O round trip; receive accepts what text input accepts.
CREATE TABLE ck_bin (k codokey);
SELECT regress.binary_copy($$SELECT 'yjbu'::codokey UNION ALL SELECT 'zzbun1n1n9'::codokey$$, 'ck_bin');
-- On disk: a 1-byte header and one byte per digit.
SELECT k, pg_column_size(k) AS bytes_on_disk FROM ck_bin ORDER BY k;
SELECT source, regress.binary_copy(source, 'ck_bin') FROM unnest(ARRAY[
    $$SELECT '\x2213'::bytea$$,  -- 'yj', a year key
    $$SELECT '\x2213ff0b'::bytea$$,
    $$SELECT '\x22130c'::bytea$$,  -- 'yjc', a key of a 3-digit-year context
    $$SELECT '\x23232323'::bytea$$]) source;  -- 'zzzz', a key of no context

-- A period's keys with an index: all keys dated in 2022, of any precision.
CREATE TABLE ck_events (k codokey, t timestamptz);
INSERT INTO ck_events SELECT codokey(t, (extract(epoch FROM t)::bigint % 7)::int), t
FROM generate_series('2020-01-01'::timestamptz, '2024-12-31', interval '3 hours 17 minutes') t;
CREATE INDEX ON ck_events (k);
ANALYZE ck_events;
SELECT codokey_floor('2022-06-15+00'::timestamptz, 0) AS year_floor, codokey_ceil('2022-06-15+00'::timestamptz, 0) AS year_ceil,
       codokey_floor('2022-06-15+00'::timestamptz, 1) AS month_floor, codokey_ceil('2022-06-15+00'::timestamptz, 1) AS month_ceil;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM ck_events WHERE k BETWEEN codokey_floor('2022-06-15+00', 0) AND codokey_ceil('2022-06-15+00', 0);
SELECT (SELECT count(*) FROM ck_events WHERE k BETWEEN codokey_floor('2022-06-15+00', 0) AND codokey_ceil('2022-06-15+00', 0))
     = (SELECT count(*) FROM ck_events WHERE extract(year FROM t) = 2022) AS year_range_exact,
       (SELECT count(*) FROM ck_events WHERE k BETWEEN codokey_floor('2022-06-15+00', 1) AND codokey_ceil('2022-06-15+00', 1))
     = (SELECT count(*) FROM ck_events WHERE date_trunc('month', t) = '2022-06-01+00' AND codokey_precision(k) >= 1)
       AS month_range_exact;  -- (a year-only key does not say its month)

-- Catalog: operator classes, hash join, hash partitioning, deduplication.
SELECT am.amname, opc.opcname, p.amprocnum, p.amproc::text
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_amproc p ON p.amprocfamily = opc.opcfamily
WHERE opc.opcintype = 'codokey'::regtype ORDER BY am.amname, p.amprocnum;
SELECT typlen, typbyval, typstorage FROM pg_type WHERE oid = 'codokey'::regtype;
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT count(*) FROM ck_events a JOIN ck_events b USING (k) WHERE a.t < '2020-03-01';
RESET enable_mergejoin; RESET enable_nestloop;
CREATE TABLE ck_parts (k codokey) PARTITION BY HASH (k);
CREATE TABLE ck_parts_0 PARTITION OF ck_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE ck_parts_1 PARTITION OF ck_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO ck_parts SELECT k FROM ck_events;
SELECT (SELECT count(*) FROM ck_parts_0) > 0 AS p0, (SELECT count(*) FROM ck_parts_1) > 0 AS p1;
CREATE TABLE ck_dups AS SELECT 'yjbu'::codokey AS k FROM generate_series(1, 1000);
CREATE INDEX ck_dups_k ON ck_dups (k);
SELECT allequalimage FROM bt_metap('ck_dups_k');
SELECT live_items < 10 AS deduplicated FROM bt_page_stats('ck_dups_k', 1);

-- codokey <-> bytea (since 0.4.0): bytea is the storage and the binary form,
-- one byte per digit value; bytea -> codokey checks what receive checks.
SELECT codokey('2022-06-15+00'::timestamptz)::bytea AS storage,
       codokey('2022-06-15+00'::timestamptz)::bytea = codokey_send(codokey('2022-06-15+00'::timestamptz)) AS is_binary_form,
       '\x2213'::bytea::codokey AS year_key,
       '\x2213060f'::bytea::codokey::bytea = '\x2213060f'::bytea AS round_trip;
SELECT count(*) AS keys, count(*) FILTER (WHERE k::bytea::codokey = k) AS round_trips FROM ck_events;
SELECT b AS bytes, regress.sqlstate_of(format('SELECT %L::bytea::codokey', b)) AS result FROM unnest(ARRAY[
    '\x', '\x22', '\x2213ff0b', '\x23232323', '\x000000000000000000000000000000']) b;
SELECT castmethod, castcontext FROM pg_cast
WHERE (castsource, casttarget) IN (('codokey'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'codokey'::regtype))
ORDER BY castsource::regtype::text;
-- Sort support (since 0.4.0): chronoid's abbreviated keys (ten digit values
-- packed into one integer) give bytea's order, on keys of every length (1 to
-- 15 digits: every context's years, every precision) and on keys that tie
-- on their first ten digits, in sorts and in index builds.
SELECT l.lanname, p.prosrc FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.oid = 'codokey_sortsupport(internal)'::regprocedure;
CREATE TABLE ck_sort AS
SELECT codokey(timestamptz '1971-01-01+00' + (g * 7919 % 30000) * interval '9 hours 17.123457 seconds',
               g % 7, c.year_zero, c.max_year, c.fraction_max) AS k
FROM generate_series(1, 20000) g,
     (VALUES (1970, 2005, 9), (1970, 3265, 99), (1000, 9999, 999999), (1970, 3265, 999999)) c(year_zero, max_year, fraction_max)
UNION ALL  -- near-ties: 3,000 microseconds of one second share their first ten digits
SELECT codokey(timestamptz '2022-06-15 12:34:56.7+00' + g * interval '1 microsecond', 6, 1970, 3265, 999999)
FROM generate_series(1, 3000) g;
SELECT count(*) AS keys, count(DISTINCT length(k::text)) AS lengths FROM ck_sort;
SET work_mem = '64MB';
SELECT (SELECT md5(string_agg(k::text, ',' ORDER BY k)) FROM ck_sort)
     = (SELECT md5(string_agg(k::text, ',' ORDER BY k::bytea)) FROM ck_sort) AS sort_is_bytea_order,
       (SELECT md5(string_agg(k::text, ',' ORDER BY k DESC)) FROM ck_sort)
     = (SELECT md5(string_agg(k::text, ',' ORDER BY k::bytea DESC)) FROM ck_sort) AS descending_too;
RESET work_mem;
CREATE INDEX ck_sort_k ON ck_sort (k);
SELECT bt_index_check('ck_sort_k', true) IS NOT NULL AS index_in_bytea_order;
