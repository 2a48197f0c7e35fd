-- codokey: encoding against to_char, decoding, and sorting and index builds
-- against timestamptz over the same instants, stored shuffled and stored in
-- time order (keys sort newest first, so in time order they are stored in
-- reverse key order: correlation -1).
\if :{?N} \else \set N 10000000 \endif

CREATE UNLOGGED TABLE IF NOT EXISTS ck_src AS
    SELECT t, codokey(t, 6) AS k
    FROM (SELECT timestamptz '1990-01-01 00:00:00+00' + random() * interval '60 years' AS t
          FROM generate_series(1, :N)) s;
CREATE UNLOGGED TABLE IF NOT EXISTS ck_in_order AS SELECT t, k FROM ck_src ORDER BY t;
VACUUM ANALYZE ck_src; VACUUM ANALYZE ck_in_order;

SELECT bench_interleaved('codokey encode', :N,
    ARRAY[$$to_char(t, 'YYYYMMDDHH24MISS')$$, 'codokey(t, 6)'],
    ARRAY[$$SELECT count(to_char(t, 'YYYYMMDDHH24MISS')) FROM ck_src$$, 'SELECT count(codokey(t, 6)) FROM ck_src']);
SELECT bench_interleaved('codokey decode', :N,
    ARRAY['extract(epoch FROM t) (reference: reading a timestamptz)', 'codokey_timestamp(k)'],
    ARRAY['SELECT count(extract(epoch FROM t)) FROM ck_src', 'SELECT count(codokey_timestamp(k)) FROM ck_src']);
SELECT bench_interleaved('codokey order by, shuffled', :N,
    ARRAY['timestamptz', 'codokey'],
    ARRAY['SELECT t FROM ck_src ORDER BY t DESC OFFSET ' || :N, 'SELECT k FROM ck_src ORDER BY k OFFSET ' || :N],
    orders => ARRAY['ck_src.t', 'ck_src.k']);
SELECT bench_interleaved('codokey order by, stored in time order', :N,
    ARRAY['timestamptz', 'codokey'],
    ARRAY['SELECT t FROM ck_in_order ORDER BY t DESC OFFSET ' || :N, 'SELECT k FROM ck_in_order ORDER BY k OFFSET ' || :N],
    orders => ARRAY['ck_in_order.t', 'ck_in_order.k']);
-- The same sorts carrying a second column. PostgreSQL sorts a lone by-value
-- column (timestamptz, bigint) as bare Datums and a by-reference one
-- (codokey, uuid, text, numeric) as tuples; with two columns both sort
-- tuples, so these rows compare the sorts themselves.
SELECT bench_interleaved('codokey order by with a second column, shuffled', :N,
    ARRAY['timestamptz', 'codokey'],
    ARRAY['SELECT t, k FROM ck_src ORDER BY t DESC OFFSET ' || :N, 'SELECT t, k FROM ck_src ORDER BY k OFFSET ' || :N],
    orders => ARRAY['ck_src.t', 'ck_src.k']);
SELECT bench_interleaved('codokey order by with a second column, stored in time order', :N,
    ARRAY['timestamptz', 'codokey'],
    ARRAY['SELECT t, k FROM ck_in_order ORDER BY t DESC OFFSET ' || :N, 'SELECT t, k FROM ck_in_order ORDER BY k OFFSET ' || :N],
    orders => ARRAY['ck_in_order.t', 'ck_in_order.k']);
SELECT bench_interleaved('codokey create index, shuffled', :N,
    ARRAY['timestamptz', 'codokey'],
    ARRAY['CREATE INDEX ck_src_t ON ck_src (t DESC)', 'CREATE INDEX ck_src_k ON ck_src (k)'],
    ARRAY['DROP INDEX IF EXISTS ck_src_t', 'DROP INDEX IF EXISTS ck_src_k'],
    ARRAY['ck_src.t', 'ck_src.k']);
SELECT bench_interleaved('codokey create index, stored in time order', :N,
    ARRAY['timestamptz', 'codokey'],
    ARRAY['CREATE INDEX ck_in_order_t ON ck_in_order (t DESC)', 'CREATE INDEX ck_in_order_k ON ck_in_order (k)'],
    ARRAY['DROP INDEX IF EXISTS ck_in_order_t', 'DROP INDEX IF EXISTS ck_in_order_k'],
    ARRAY['ck_in_order.t', 'ck_in_order.k']);
DROP INDEX IF EXISTS ck_src_t; DROP INDEX IF EXISTS ck_src_k;
DROP INDEX IF EXISTS ck_in_order_t; DROP INDEX IF EXISTS ck_in_order_k;
