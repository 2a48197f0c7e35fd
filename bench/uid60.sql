-- uid60 against random() and bigint identity. It rests on a server-wide
-- sequence that issues at most 512 IDs per millisecond, so flat-out
-- generation measures that cap (see bench/caloriosa.sql on pacing).
\if :{?N} \else \set N 2000000 \endif
\if :{?INSERT_N} \else \set INSERT_N 5000000 \endif

SELECT bench('generate', 'gen_uid60() [cap 512/ms]', :N, 'SELECT count(gen_uid60()) FROM generate_series(1, ' || :N || ') g');

CREATE UNLOGGED TABLE IF NOT EXISTS ins_uid60 (id uid60 PRIMARY KEY DEFAULT gen_uid60(), n int);
SELECT bench('insert', 'uid60 DEFAULT gen_uid60()', :INSERT_N,
    'INSERT INTO ins_uid60 (n) SELECT g FROM generate_series(1, ' || :INSERT_N || ') g',
    'TRUNCATE ins_uid60', size_of => 'ins_uid60');
