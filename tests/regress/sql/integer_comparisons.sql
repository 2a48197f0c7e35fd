-- nanoflake, caloriosa and uid60 compared with bigint, integer and smallint
-- (since 0.4.0): as their bigint cast, both ways round, served by their
-- btree indexes; text stays base 36 (or base 62/64).
SET TimeZone = 'UTC';

SELECT 362387865620487::nanoflake = 362387865620487 AS nf_eq_bigint,
       362387865620487 = 362387865620487::nanoflake AS bigint_eq_nf,
       5::nanoflake = 5 AS nf_eq_int, 5 = 5::nanoflake AS int_eq_nf,
       5::nanoflake = 5::smallint AS nf_eq_smallint, 5::smallint = 5::nanoflake AS smallint_eq_nf,
       '10'::nanoflake = 10 AS text_10_is_ten, '10'::nanoflake = 36 AS text_10_is_36;
-- Every operator, every integer type, both sides, against the bigint answer.
CREATE TEMP TABLE nums AS
SELECT a, b FROM unnest(ARRAY[0, 1, 5, 32767, 2147483647, 4294967296, 362387865620487]::bigint[]) a,
                 unnest(ARRAY[-32768, -1, 0, 1, 5, 32767]::int[]) b;
SELECT count(*) AS pairs,
       bool_and((a::nanoflake = b) = (a = b) AND (a::nanoflake <> b) = (a <> b) AND (a::nanoflake < b) = (a < b)
            AND (a::nanoflake <= b) = (a <= b) AND (a::nanoflake > b) = (a > b) AND (a::nanoflake >= b) = (a >= b)) AS nf_int,
       bool_and((b = a::nanoflake) = (b = a) AND (b <> a::nanoflake) = (b <> a) AND (b < a::nanoflake) = (b < a)
            AND (b <= a::nanoflake) = (b <= a) AND (b > a::nanoflake) = (b > a) AND (b >= a::nanoflake) = (b >= a)) AS int_nf,
       bool_and((a::nanoflake = b::bigint) = (a = b) AND (a::nanoflake < b::bigint) = (a < b)
            AND (b::bigint >= a::nanoflake) = (b >= a)) AS nf_bigint,
       bool_and((a::nanoflake = b::smallint) = (a = b) AND (a::nanoflake > b::smallint) = (a > b)
            AND (b::smallint <= a::nanoflake) = (b <= a)) AS nf_smallint,
       bool_and((a::uid60 = b) = (a = b) AND (a::uid60 < b) = (a < b) AND (b >= a::uid60) = (b >= a)
            AND (a::uid60 <> b::smallint) = (a <> b) AND (b::bigint > a::uid60) = (b > a)) AS uid60_all
FROM nums;
-- caloriosa compares as its (negative) bigint.
SELECT c::bigint < 0 AS negative, c = c::bigint AS eq, c < 0 AS lt_zero, -1 > c AS int_gt, c > (-9223372036854775807 - 1) AS gt_min
FROM (SELECT gen_caloriosa() AS c) s;

-- Which operator a call resolves to: the exact cross-type one; an untyped
-- literal is still read as the type's text; no implicit cast, so nothing is
-- ambiguous and other numeric types still need a cast.
SELECT oprleft::regtype AS left, string_agg(oprright::regtype::text, ', ' ORDER BY oprright::regtype::text) AS right
FROM pg_operator WHERE oprname = '=' AND 'nanoflake'::regtype IN (oprleft, oprright) GROUP BY oprleft ORDER BY 1;
SELECT q, regress.sqlstate_of(q) FROM unnest(ARRAY[
    $$SELECT 'zz'::nanoflake = 'zz'$$,
    $$SELECT 'zz'::nanoflake IN (1295, 5)$$,
    $$SELECT 'zz'::nanoflake = ANY ('{1295}'::bigint[])$$,
    $$SELECT 'zz'::nanoflake = 1295.0$$,
    $$SELECT 'zz'::nanoflake = '1295'::text$$,
    $$SELECT 'zz'::nanoflake = 'AABA'::uid60$$,
    $$SELECT 5::caloriosa = 5$$]) q;
SELECT 'zz'::nanoflake = 'zz' AS unknown_literal_is_base36, 'zz'::nanoflake IN (1295, 5) AS in_list;

-- Indexes serve numbers: equality, ranges, IN lists, either side.
CREATE TABLE ic (nf nanoflake, c caloriosa, u uid60, n int);
INSERT INTO ic SELECT (g::bigint * 4194304)::nanoflake, (-9223372036854775807 + g * 1024)::caloriosa, (g::bigint * 262144)::uid60, g
FROM generate_series(1, 20000) g;
CREATE INDEX ic_nf ON ic (nf); CREATE INDEX ic_c ON ic (c); CREATE INDEX ic_u ON ic (u);
ANALYZE ic;
SELECT count(*) FROM ic WHERE nf = 41943040;
SELECT count(*) FROM ic WHERE nf BETWEEN 4194304 AND 41943040;
SELECT count(*) FROM ic WHERE 41943040 >= nf;
SELECT count(*) FROM ic WHERE u = 262144 OR u = 524288::int;
SELECT count(*) FROM ic WHERE c < -9223372036854775807 + 10240;
-- Arrays of numbers through the index (btree sorts the array with the
-- element type's comparison from the index's family): ANY of bigint[],
-- integer[] and smallint[], IN lists, and ORs (PostgreSQL 18 makes those one
-- ANY), executed with the index forced.
SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT count(*) AS any_bigint FROM ic WHERE nf = ANY ('{4194304,8388608,41943040,1}'::bigint[]);
SELECT count(*) AS any_int FROM ic WHERE nf = ANY ('{8388608,4194304}'::int[]);
SELECT count(*) AS any_smallint FROM ic WHERE u = ANY ('{0,1,2}'::smallint[]);
SELECT count(*) AS in_list FROM ic WHERE u IN (262144, 524288, 262144);
SELECT count(*) AS ors FROM ic WHERE u = 262144 OR u = 524288::int;
SELECT count(*) AS two_arrays FROM ic WHERE nf = ANY ('{4194304,8388608}'::bigint[]) AND nf = ANY ('{8388608}'::int[]);
SELECT count(*) AS caloriosa_any FROM ic WHERE c = ANY (ARRAY[-9223372036854765567, -9223372036854774783]);
SELECT count(*) AS above_any FROM ic WHERE nf > ANY ('{83886080000,4194304}'::bigint[]);
RESET enable_seqscan; RESET enable_bitmapscan;
SELECT q, line FROM unnest(ARRAY[
    'SELECT n FROM ic WHERE nf = 41943040',
    'SELECT n FROM ic WHERE nf = 4194304::bigint',
    'SELECT n FROM ic WHERE nf > 83886080::bigint AND nf <= 88080384',
    'SELECT n FROM ic WHERE 41943040 = nf',
    'SELECT n FROM ic WHERE nf = ANY (''{4194304,8388608}''::bigint[])',
    'SELECT n FROM ic WHERE nf = 7::smallint',
    'SELECT n FROM ic WHERE c = -9223372036854765567',
    'SELECT n FROM ic WHERE u = 262144']) q,
LATERAL regress.plan(q) line WHERE line ~ 'Index|Seq Scan';

-- The family: each type's own operators and the six cross-type sets.
SELECT opf.opfname, count(*) FILTER (WHERE amop.amoplefttype <> amop.amoprighttype) AS cross_type_operators,
       count(*) AS operators,
       (SELECT count(*) FROM pg_amproc p WHERE p.amprocfamily = opf.oid AND p.amproclefttype <> p.amprocrighttype) AS cross_type_cmp
FROM pg_opfamily opf JOIN pg_am am ON am.oid = opf.opfmethod AND am.amname = 'btree'
JOIN pg_amop amop ON amop.amopfamily = opf.oid
WHERE opf.opfname IN ('nanoflake_ops', 'caloriosa_ops', 'uid60_ops') GROUP BY opf.oid, opf.opfname ORDER BY opf.opfname;
-- amvalidate: each family is complete (the type, bigint, integer, smallint:
-- every pair).
SELECT opcname, amvalidate(oid) FROM pg_opclass WHERE opcname IN ('nanoflake_ops', 'caloriosa_ops', 'uid60_ops') ORDER BY opcname;
-- The integers' own plans are unchanged by these families also holding
-- their operators: a bigint index still serves ORDER BY, equality, ranges
-- and arrays, and two bigint columns still merge-join.
CREATE TABLE plain_ints (b bigint, i int);
INSERT INTO plain_ints SELECT g, g FROM generate_series(1, 20000) g;
CREATE INDEX plain_ints_b ON plain_ints (b); CREATE INDEX plain_ints_i ON plain_ints (i);
ANALYZE plain_ints;
SELECT q, line FROM unnest(ARRAY[
    'SELECT b FROM plain_ints ORDER BY b LIMIT 3',
    'SELECT b FROM plain_ints ORDER BY b DESC LIMIT 3',
    'SELECT i FROM plain_ints WHERE b = 5',
    'SELECT i FROM plain_ints WHERE b > 19990 AND b < 19995::int',
    'SELECT i FROM plain_ints WHERE i = ANY (''{1,2,3}''::bigint[])']) q,
LATERAL regress.plan(q) line WHERE line ~ 'Index|Seq Scan|Sort';
SELECT (SELECT array_agg(b) FROM (SELECT b FROM plain_ints ORDER BY b LIMIT 3) s) AS lowest,
       (SELECT count(*) FROM plain_ints WHERE i = ANY ('{1,2,3}'::bigint[])) AS any_count;
SET enable_hashjoin = off; SET enable_nestloop = off;
SELECT line FROM regress.plan('SELECT count(*) FROM plain_ints x JOIN plain_ints y ON x.b = y.b') line WHERE line ~ 'Join';
SELECT count(*) AS merge_joined FROM plain_ints x JOIN plain_ints y ON x.b = y.b;
RESET enable_hashjoin; RESET enable_nestloop;
-- Every index still checks out with the new operators in the family.
SELECT count(bt_index_check(i::regclass, true)) FROM unnest(ARRAY['ic_nf', 'ic_c', 'ic_u']) i;
