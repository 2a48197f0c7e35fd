-- codokey: encoding against to_char, decoding, and sorting against timestamptz.
\set N 10000000

CREATE UNLOGGED TABLE IF NOT EXISTS ck_src AS
    SELECT t, codokey(t, 6) AS k
    FROM (SELECT timestamptz '1990-01-01 00:00:00+00' + random() * interval '60 years' AS t
          FROM generate_series(1, :N)) s;
VACUUM ANALYZE ck_src;

SELECT bench('codokey encode', $$to_char(t, 'YYYYMMDDHH24MISS')$$, :N, $$SELECT count(to_char(t, 'YYYYMMDDHH24MISS')) FROM ck_src$$);
SELECT bench('codokey encode', 'codokey(t, 6)', :N, 'SELECT count(codokey(t, 6)) FROM ck_src');
SELECT bench('codokey decode', 'extract(epoch FROM t) (reference: reading a timestamptz)', :N, 'SELECT count(extract(epoch FROM t)) FROM ck_src');
SELECT bench('codokey decode', 'codokey_timestamp(k)', :N, 'SELECT count(codokey_timestamp(k)) FROM ck_src');
SELECT bench('codokey order by', 'timestamptz', :N, 'SELECT t FROM ck_src ORDER BY t DESC OFFSET ' || :N);
SELECT bench('codokey order by', 'codokey', :N, 'SELECT k FROM ck_src ORDER BY k OFFSET ' || :N);
