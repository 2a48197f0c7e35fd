-- nanoflake against bigint: sorting, index builds and COPY (generation and
-- INSERT: bench/generate.sql, bench/insert.sql).
\if :{?N} \else \set N 10000000 \endif

-- Sorting and index builds over the same random 62-bit values in both types.
CREATE UNLOGGED TABLE IF NOT EXISTS sort_src AS
    SELECT v AS b, v::nanoflake AS f
    FROM (SELECT (random() * 4.6e18)::bigint AS v FROM generate_series(1, :N)) s;
VACUUM ANALYZE sort_src;
SELECT bench_interleaved('create index, shuffled', :N,
    ARRAY['bigint', 'nanoflake'],
    ARRAY['CREATE INDEX sort_src_b ON sort_src (b)', 'CREATE INDEX sort_src_f ON sort_src (f)'],
    ARRAY['DROP INDEX IF EXISTS sort_src_b', 'DROP INDEX IF EXISTS sort_src_f'],
    ARRAY['sort_src.b', 'sort_src.f']);
DROP INDEX IF EXISTS sort_src_b; DROP INDEX IF EXISTS sort_src_f;
SELECT bench_interleaved('order by, shuffled', :N,
    ARRAY['bigint', 'nanoflake'],
    ARRAY['SELECT b FROM sort_src ORDER BY b OFFSET ' || :N, 'SELECT f FROM sort_src ORDER BY f OFFSET ' || :N],
    orders => ARRAY['sort_src.b', 'sort_src.f']);

-- COPY text out (to a file the server writes) and back in.
CREATE UNLOGGED TABLE IF NOT EXISTS copy_b (b bigint);
CREATE UNLOGGED TABLE IF NOT EXISTS copy_f (f nanoflake);
SELECT bench_interleaved('copy out', :N,
    ARRAY['bigint', 'nanoflake'],
    ARRAY[format('COPY (SELECT b FROM sort_src) TO %L', current_setting('data_directory') || '/bench_b.txt'),
          format('COPY (SELECT f FROM sort_src) TO %L', current_setting('data_directory') || '/bench_f.txt')]);
SELECT bench_interleaved('copy in', :N,
    ARRAY['bigint', 'nanoflake'],
    ARRAY[format('COPY copy_b FROM %L', current_setting('data_directory') || '/bench_b.txt'),
          format('COPY copy_f FROM %L', current_setting('data_directory') || '/bench_f.txt')],
    ARRAY['TRUNCATE copy_b', 'TRUNCATE copy_f']);
