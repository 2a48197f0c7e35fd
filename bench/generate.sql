-- Generators against core generators (random(), nextval(), gen_random_uuid()),
-- every one of a section timed interleaved in the same rounds (baseline, a,
-- b, ..., baseline, a, b, ...), so that drift in the machine's speed hits
-- them alike.
\if :{?N} \else \set N 10000000 \endif
\if :{?CAPPED_N} \else \set CAPPED_N 2000000 \endif
CREATE SEQUENCE IF NOT EXISTS bench_seq;

-- Flat out: net cost per call = (median - the baseline's median) / rows.
-- A nanoflake server issues at most 4,096 IDs per millisecond (12-bit
-- sequence, then it waits for the next millisecond), so 10M calls take at
-- least 2.44 s whatever the code costs.
SELECT bench_interleaved('generate', :N,
    ARRAY['baseline: generate_series', 'random()', 'nextval()', 'gen_random_uuid()', 'gen_scru160()',
          'gen_nanoflake() [cap 4,096/ms]'],
    ARRAY['SELECT count(*) FROM generate_series(1, ' || :N || ') g',
          'SELECT count(random()) FROM generate_series(1, ' || :N || ') g',
          $$SELECT count(nextval('bench_seq')) FROM generate_series(1, $$ || :N || ') g',
          'SELECT count(gen_random_uuid()) FROM generate_series(1, ' || :N || ') g',
          'SELECT count(gen_scru160()) FROM generate_series(1, ' || :N || ') g',
          'SELECT count(gen_nanoflake()) FROM generate_series(1, ' || :N || ') g']);

-- caloriosa and uid60 rest on a server-wide counter that issues at most
-- 1,024 resp. 512 IDs per millisecond, so flat out they measure that cap.
-- (Pacing them below it takes over 2 us of other work per row, whose
-- run-to-run noise is larger than the call; their code path is nanoflake's,
-- whose paced cost is measured below.)
SELECT bench_interleaved('generate at a counter''s cap', :CAPPED_N,
    ARRAY['baseline: generate_series', 'random()', 'nextval()',
          'gen_caloriosa() [cap 1,024/ms]', 'gen_uid60() [cap 512/ms]'],
    ARRAY['SELECT count(*) FROM generate_series(1, ' || :CAPPED_N || ') g',
          'SELECT count(random()) FROM generate_series(1, ' || :CAPPED_N || ') g',
          $$SELECT count(nextval('bench_seq')) FROM generate_series(1, $$ || :CAPPED_N || ') g',
          'SELECT count(gen_caloriosa()) FROM generate_series(1, ' || :CAPPED_N || ') g',
          'SELECT count(gen_uid60()) FROM generate_series(1, ' || :CAPPED_N || ') g']);

-- The same costs paired: each generator's statement alternates with the
-- bare generate_series (7 times), and the median difference is its own
-- cost, so drift between statements cancels out.
\set PAIRED_BASE 'SELECT count(*) FROM generate_series(1, ' :N ') g'
SELECT bench_net('generate paired', 'random()', :N, :'PAIRED_BASE',
    'SELECT count(random()) FROM generate_series(1, ' || :N || ') g');
SELECT bench_net('generate paired', 'gen_scru160()', :N, :'PAIRED_BASE',
    'SELECT count(gen_scru160()) FROM generate_series(1, ' || :N || ') g');
SELECT bench_net('generate paired', 'gen_random_uuid()', :N, :'PAIRED_BASE',
    'SELECT count(gen_random_uuid()) FROM generate_series(1, ' || :N || ') g');

-- Paced below nanoflake's cap: each row also computes an md5 (about 650 ns),
-- so the generator never waits; paired with the same statement without it,
-- 15 times (the md5 rows' own run-to-run noise is of the order of the call).
\set PACED_N 4000000
\set PACED_BASE 'SELECT count(md5(g::text)), count(*) FROM generate_series(1, ' :PACED_N ') g'
SELECT bench_net('generate paced', 'random()', :PACED_N, :'PACED_BASE',
    'SELECT count(md5(g::text)), count(random()) FROM generate_series(1, ' || :PACED_N || ') g', 15);
SELECT bench_net('generate paced', 'nextval()', :PACED_N, :'PACED_BASE',
    $$SELECT count(md5(g::text)), count(nextval('bench_seq')) FROM generate_series(1, $$ || :PACED_N || ') g', 15);
SELECT bench_net('generate paced', 'gen_nanoflake()', :PACED_N, :'PACED_BASE',
    'SELECT count(md5(g::text)), count(gen_nanoflake()) FROM generate_series(1, ' || :PACED_N || ') g', 15);
