-- caloriosa against random() and bigint identity. It rests on a server-wide
-- counter that issues at most 1,024 names per millisecond, so flat-out
-- generation measures that cap. (Pacing it below the cap takes over 2 us of
-- other work per row, whose run-to-run noise is larger than the call; its
-- code path is nanoflake's, whose paced cost the nanoflake suite measures.)
\if :{?N} \else \set N 2000000 \endif
\if :{?INSERT_N} \else \set INSERT_N 5000000 \endif

SELECT bench('generate', 'gen_caloriosa() [cap 1,024/ms]', :N, 'SELECT count(gen_caloriosa()) FROM generate_series(1, ' || :N || ') g');

CREATE UNLOGGED TABLE IF NOT EXISTS ins_caloriosa (id caloriosa PRIMARY KEY DEFAULT gen_caloriosa(), n int);
SELECT bench('insert', 'caloriosa DEFAULT gen_caloriosa()', :INSERT_N,
    'INSERT INTO ins_caloriosa (n) SELECT g FROM generate_series(1, ' || :INSERT_N || ') g',
    'TRUNCATE ins_caloriosa', size_of => 'ins_caloriosa');
