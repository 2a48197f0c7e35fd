-- Soft input errors (PostgreSQL 16+): pg_input_is_valid and
-- pg_input_error_info ask each type's input function about a text without
-- an error; the answer carries the SQLSTATE, message and hint the cast
-- raises. Every bad-input class of the types' own tests, valid inputs too.
-- On PostgreSQL 15 (no soft errors) the file says so and stops
-- (expected/soft_input_1.out).
SELECT current_setting('server_version_num')::int >= 160000 AS soft_errors \gset
\if :soft_errors
CREATE TEMP TABLE inputs (type regtype, input text);
INSERT INTO inputs SELECT 'nanoflake', t FROM unnest(ARRAY[
    '3kgeoqm2h3', 'ZZ', '', ' ', ' 1', '1 ', E'1\n', E'\t1', '+1', '-1', '1.5', '1e3', '0x1f', 'a_b', 'é', '１',
    '1y2p0ij32e8e8', '3w5e11264sgsf', '3w5e11264sgsg', 'zzzzzzzzzzzzzzzzzzzzzzzzz']) t;
INSERT INTO inputs SELECT 'scru160', t FROM unnest(ARRAY[
    '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51', '017c083c130732153679e83c4fc65664e6a964a1',
    '', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP511',
    '05U0GF0J0SP1ADJPT0U4VHIMCJJAIPW1', ' 05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5 ',
    '017c083c130732153679e83c4fc65664e6a964ag', '017c083c-30732153679e83c4fc65664e6a964a1',
    '{017c083c130732153679e83c4fc65664e6a964}', '05U0GF0J0SP1ADJPT0U4VHIMCJJAIP5é']) t;
INSERT INTO inputs SELECT 'codokey', t FROM unnest(ARRAY[
    'yjbu', 'YJBU', '', 'y', 'yj0000', 'yj00000000000', 'yj-0', 'yj 0', ' yjb', 'yjé', '0123456789abcdef',
    'zz', 'yjc', 'yjbv', 'ylat', 'zzzzz']) t;
INSERT INTO inputs SELECT 'caloriosa', t FROM unnest(ARRAY[
    'b8MpZ6ZrkE9', '', 'aZl8N0y58M', 'aZl8N0y58M80', 'aZl8N0y58M-', ' aZl8N0y58M8', 'zzzzzzzzzzz', 'ZZZZZZZZZZZ',
    '00000000001', 'katjjMQN']) t;
INSERT INTO inputs SELECT 'uid60', t FROM unnest(ARRAY[
    'xinaS8QBh', 'XINAS8QBH', '', 'A', 'AAA', 'AAAAA', 'ABAAA', 'xinaS8QBh=', 'xina S8QBh', 'AAAAAAAAAAA', 'xinaS8QBhé']) t;

-- What the soft path says, input by input.
SELECT type, input, pg_input_is_valid(input, type::text) AS valid, e.sql_error_code, e.message, e.detail, e.hint
FROM inputs, pg_input_error_info(input, type::text) e
ORDER BY type::text, input COLLATE "C";

-- The soft error is the raised one: same SQLSTATE and message, for every
-- input (and no input is valid one way and invalid the other).
SELECT type, count(*) AS inputs,
       count(*) FILTER (WHERE regress.try_input(input, type) LIKE '_____: %') AS raised,
       count(*) FILTER (WHERE NOT pg_input_is_valid(input, type::text)) AS soft,
       count(*) FILTER (WHERE CASE WHEN pg_input_is_valid(input, type::text)
                                   THEN regress.try_input(input, type) NOT LIKE '_____: %'
                                   ELSE regress.try_input(input, type) =
                                        (SELECT e.sql_error_code || ': ' || e.message FROM pg_input_error_info(input, type::text) e)
                              END) AS agree
FROM inputs GROUP BY type ORDER BY type::text;

-- The hint survives too (caloriosa's old 48-bit layout).
CREATE FUNCTION pg_temp.raised_hint(input text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE h text;
BEGIN
    PERFORM input::caloriosa;
    RETURN NULL;
EXCEPTION WHEN others THEN
    GET STACKED DIAGNOSTICS h = PG_EXCEPTION_HINT;
    RETURN h;
END $$;
SELECT pg_temp.raised_hint('katjjMQN') = (pg_input_error_info('katjjMQN', 'caloriosa')).hint AS same_hint;

-- Functions taking text that are not input functions raise as before.
SELECT regress.sqlstate_of($$SELECT codokey('!!', 1970, 3265, 9)$$);
\else
\echo 'PostgreSQL 15 has no soft input errors: skipped'
\endif
