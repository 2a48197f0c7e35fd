-- scru160 against core uuid: sorting, index builds and COPY (generation and
-- INSERT: bench/generate.sql, bench/insert.sql).
\if :{?N} \else \set N 10000000 \endif

-- Sorting, index builds and COPY, scru160 against uuid, over the same rows
-- stored two ways. The generators run inside a subquery: in a plain
-- `SELECT gen_scru160() ... ORDER BY random()` PostgreSQL evaluates the
-- volatile target list after the sort, which stores the IDs in generation
-- order, whatever the ORDER BY says. Each row of the report names the
-- stored order it measured (pg_stats.correlation).
CREATE UNLOGGED TABLE IF NOT EXISTS wide_shuffled AS
    SELECT u, s FROM (SELECT gen_random_uuid() AS u, gen_scru160() AS s FROM generate_series(1, :N)) g
    ORDER BY random();
CREATE UNLOGGED TABLE IF NOT EXISTS wide_in_order AS
    SELECT gen_random_uuid() AS u, gen_scru160() AS s FROM generate_series(1, :N);
VACUUM ANALYZE wide_shuffled; VACUUM ANALYZE wide_in_order;
SELECT bench_interleaved('create index 128/160-bit, both shuffled', :N,
    ARRAY['uuid', 'scru160'],
    ARRAY['CREATE INDEX wide_shuffled_u ON wide_shuffled (u)', 'CREATE INDEX wide_shuffled_s ON wide_shuffled (s)'],
    ARRAY['DROP INDEX IF EXISTS wide_shuffled_u', 'DROP INDEX IF EXISTS wide_shuffled_s'],
    ARRAY['wide_shuffled.u', 'wide_shuffled.s']);
SELECT bench_interleaved('create index 128/160-bit, scru160 stored in generation order', :N,
    ARRAY['uuid (random values)', 'scru160'],
    ARRAY['CREATE INDEX wide_in_order_u ON wide_in_order (u)', 'CREATE INDEX wide_in_order_s ON wide_in_order (s)'],
    ARRAY['DROP INDEX IF EXISTS wide_in_order_u', 'DROP INDEX IF EXISTS wide_in_order_s'],
    ARRAY['wide_in_order.u', 'wide_in_order.s']);
DROP INDEX IF EXISTS wide_shuffled_u; DROP INDEX IF EXISTS wide_shuffled_s;
DROP INDEX IF EXISTS wide_in_order_u; DROP INDEX IF EXISTS wide_in_order_s;
SELECT bench_interleaved('order by 128/160-bit, both shuffled', :N,
    ARRAY['uuid', 'scru160'],
    ARRAY['SELECT u FROM wide_shuffled ORDER BY u OFFSET ' || :N, 'SELECT s FROM wide_shuffled ORDER BY s OFFSET ' || :N],
    orders => ARRAY['wide_shuffled.u', 'wide_shuffled.s']);
SELECT bench_interleaved('order by 128/160-bit, scru160 stored in generation order', :N,
    ARRAY['uuid (random values)', 'scru160'],
    ARRAY['SELECT u FROM wide_in_order ORDER BY u OFFSET ' || :N, 'SELECT s FROM wide_in_order ORDER BY s OFFSET ' || :N],
    orders => ARRAY['wide_in_order.u', 'wide_in_order.s']);

CREATE UNLOGGED TABLE IF NOT EXISTS copy_u (u uuid);
CREATE UNLOGGED TABLE IF NOT EXISTS copy_s (s scru160);
SELECT bench_interleaved('copy out 128/160-bit', :N,
    ARRAY['uuid', 'scru160'],
    ARRAY[format('COPY (SELECT u FROM wide_shuffled) TO %L', current_setting('data_directory') || '/bench_u.txt'),
          format('COPY (SELECT s FROM wide_shuffled) TO %L', current_setting('data_directory') || '/bench_s.txt')]);
SELECT bench_interleaved('copy in 128/160-bit', :N,
    ARRAY['uuid', 'scru160'],
    ARRAY[format('COPY copy_u FROM %L', current_setting('data_directory') || '/bench_u.txt'),
          format('COPY copy_s FROM %L', current_setting('data_directory') || '/bench_s.txt')],
    ARRAY['TRUNCATE copy_u', 'TRUNCATE copy_s']);
