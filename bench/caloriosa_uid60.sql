-- caloriosa and uid60 against random() and bigint identity. Both rest on a
-- server-wide counter: caloriosa issues at most 1,024 names per millisecond,
-- uid60 at most 512 IDs, so flat-out generation measures that cap. (Pacing
-- them below it takes over 2 us of other work per row, whose run-to-run noise
-- is larger than the call; their code path is nanoflake's, whose paced cost
-- the nanoflake suite measures.)
\set N 2000000
\set INSERT_N 5000000

SELECT bench('generate', 'gen_caloriosa() [cap 1,024/ms]', :N, 'SELECT count(gen_caloriosa()) FROM generate_series(1, ' || :N || ') g');
SELECT bench('generate', 'gen_uid60() [cap 512/ms]', :N, 'SELECT count(gen_uid60()) FROM generate_series(1, ' || :N || ') g');

CREATE UNLOGGED TABLE IF NOT EXISTS ins_caloriosa (id caloriosa PRIMARY KEY DEFAULT gen_caloriosa(), n int);
CREATE UNLOGGED TABLE IF NOT EXISTS ins_uid60 (id uid60 PRIMARY KEY DEFAULT gen_uid60(), n int);
SELECT bench('insert', 'caloriosa DEFAULT gen_caloriosa()', :INSERT_N,
    'INSERT INTO ins_caloriosa (n) SELECT g FROM generate_series(1, ' || :INSERT_N || ') g',
    'TRUNCATE ins_caloriosa', size_of => 'ins_caloriosa');
SELECT bench('insert', 'uid60 DEFAULT gen_uid60()', :INSERT_N,
    'INSERT INTO ins_uid60 (n) SELECT g FROM generate_series(1, ' || :INSERT_N || ') g',
    'TRUNCATE ins_uid60', size_of => 'ins_uid60');
