-- Bulk loads that skip bad rows (PostgreSQL 17+): COPY ... (ON_ERROR ignore)
-- loads every good row of a file of 10,000 rows per type with 1 % bad
-- values (each class of bad input in turn) and says how many it skipped;
-- LOG_VERBOSITY verbose names each skipped value; PostgreSQL 18's
-- REJECT_LIMIT stops where it should. On 15 and 16 (no ON_ERROR) the file
-- says so and stops (expected/copy_on_error_2.out; 17: _1.out).
SELECT current_setting('server_version_num')::int >= 170000 AS on_error,
       current_setting('server_version_num')::int >= 180000 AS reject_limit \gset
\if :on_error
CREATE TEMP TABLE source (type text, n int, v text);
-- Good values from each type's casts; every 100th row bad.
INSERT INTO source
SELECT t, n, CASE WHEN n % 100 <> 0 THEN CASE t
        WHEN 'nanoflake' THEN (n::bigint * 1000003)::nanoflake::text
        WHEN 'scru160' THEN scru160(decode(lpad(to_hex(n * 7919), 40, '0'), 'hex'))::text
        WHEN 'codokey' THEN codokey('2020-01-01 00:00:00+00'::timestamptz + n * interval '1 hour', 3)::text
        WHEN 'caloriosa' THEN (-(n::bigint * 1000003) - 1)::caloriosa::text
        WHEN 'uid60' THEN (n::bigint * 1000003)::uid60::text END
    ELSE (CASE t
        WHEN 'nanoflake' THEN ARRAY['', '-1', '1.5', 'zzzzzzzzzzzzzz', 'é', '0x 1']
        WHEN 'scru160' THEN ARRAY['', 'x', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIPW1', '017c083c130732153679e83c4fc65664e6a964ag']
        WHEN 'codokey' THEN ARRAY['', '!!', 'yjbv', 'zzzzz', 'yj-0']
        WHEN 'caloriosa' THEN ARRAY['', 'katjjMQN', 'zzzzzzzzzzz', 'aZl8N0y58M-']
        WHEN 'uid60' THEN ARRAY['', 'A', 'ABAAA', 'xinaS8QBh=', 'AAAAAAAAAAA'] END)[1 + (n / 100) % 4] END
FROM unnest(ARRAY['nanoflake', 'scru160', 'codokey', 'caloriosa', 'uid60']) t, generate_series(1, 10000) n;

-- Per type: the rows written to a file, loaded back with ON_ERROR ignore.
CREATE FUNCTION pg_temp.load(t text, options text) RETURNS TABLE (type text, rows_loaded bigint, equal bigint)
LANGUAGE plpgsql AS $$
DECLARE file text := current_setting('data_directory') || '/chronoid_on_error_' || t || '.copy';
BEGIN
    EXECUTE format('COPY (SELECT n, v FROM source WHERE type = %L ORDER BY n) TO %L', t, file);
    IF to_regclass('pg_temp.loaded') IS NOT NULL THEN
        DROP TABLE loaded;
    END IF;
    EXECUTE format('CREATE TEMP TABLE loaded (n int, v %s)', t);
    EXECUTE format('COPY loaded FROM %L (%s)', file, options);
    RETURN QUERY EXECUTE format(
        'SELECT %L, count(*), count(*) FILTER (WHERE s.v::%s = l.v) FROM loaded l JOIN source s ON s.type = %L AND s.n = l.n',
        t, t, t);
END $$;
SELECT l.* FROM unnest(ARRAY['nanoflake', 'scru160', 'codokey', 'caloriosa', 'uid60']) t,
    pg_temp.load(t, 'ON_ERROR ignore') l;

-- Without ON_ERROR the first bad value fails the whole load.
SELECT regress.sqlstate_of($$SELECT pg_temp.load('uid60', 'ON_ERROR stop')$$);

-- LOG_VERBOSITY verbose names each skipped value, with its line and column.
CREATE TEMP TABLE five (n int, nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60);
COPY five FROM STDIN (ON_ERROR ignore, LOG_VERBOSITY verbose);
1	zz	05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51	yla0	b8MpZ6ZrkE9	xinaS8QBh
2	-1	05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51	yla0	b8MpZ6ZrkE9	xinaS8QBh
3	zz	x	yla0	b8MpZ6ZrkE9	xinaS8QBh
4	zz	05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51	yjbv	b8MpZ6ZrkE9	xinaS8QBh
5	zz	05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51	yla0	katjjMQN	xinaS8QBh
6	zz	05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51	yla0	b8MpZ6ZrkE9	ABAAA
7	3kgeoqm2h3	017c083c130732153679e83c4fc65664e6a964a1	YJBU	b8MpZ6ZrkE9	XINAS8QBH
\.
SELECT * FROM five ORDER BY n;

\if :reject_limit
-- REJECT_LIMIT: 100 bad rows pass a limit of 100 and fail one of 99.
SELECT regress.sqlstate_of($$SELECT pg_temp.load('codokey', 'ON_ERROR ignore, REJECT_LIMIT 99')$$);
SELECT * FROM pg_temp.load('codokey', 'ON_ERROR ignore, REJECT_LIMIT 100');
\else
\echo 'REJECT_LIMIT is PostgreSQL 18''s: skipped'
\endif
\else
\echo 'COPY ... ON_ERROR is PostgreSQL 17''s: skipped'
\endif
