-- Tables partitioned by an ID column, a partition per month, bounds from
-- the types' floor functions of calendar instants (docs/partitioning.md):
-- rows land in the partition of their time; plan-time pruning where the
-- bound function is IMMUTABLE (scru160_floor, caloriosa_floor, uid60_floor,
-- nanoflake_floor with an explicit epoch: fixed layouts), run-time pruning
-- where it is STABLE (nanoflake_floor(ts): the server's configured epoch;
-- codokey_floor: the session's codokey context) or the instant is
-- now()-based; ATTACH and DETACH of a month.
SET TimeZone = 'UTC';

-- scru160: a month per partition.
CREATE TABLE upload (id scru160 NOT NULL, what text) PARTITION BY RANGE (id);
CREATE TABLE upload_2026_10 PARTITION OF upload FOR VALUES FROM (scru160_floor('2026-10-01')) TO (scru160_floor('2026-11-01'));
CREATE TABLE upload_2026_11 PARTITION OF upload FOR VALUES FROM (scru160_floor('2026-11-01')) TO (scru160_floor('2026-12-01'));
CREATE TABLE upload_2026_12 PARTITION OF upload FOR VALUES FROM (scru160_floor('2026-12-01')) TO (scru160_floor('2027-01-01'));
INSERT INTO upload SELECT gen_scru160(t), t::text
FROM unnest(ARRAY['2026-10-01 00:00:00', '2026-10-31 23:59:59.999', '2026-11-01 00:00:00', '2026-11-15 12:00:00',
                  '2026-11-30 23:59:59.999', '2026-12-01 00:00:00', '2026-12-31 23:59:59.999']::timestamptz[]) t;
SELECT tableoid::regclass AS partition, what FROM upload ORDER BY id;
-- An ID of a month no partition holds is refused (23514).
SELECT regress.sqlstate_of($$INSERT INTO upload VALUES (gen_scru160('2027-01-01'), 'january')$$);

-- Plan-time pruning: IMMUTABLE bounds of literal instants fold to constants.
SELECT regress.plan($$SELECT * FROM upload WHERE id >= scru160_floor('2026-11-01') AND id < scru160_floor('2026-12-01')$$);
SELECT count(*) FROM upload WHERE id >= scru160_floor('2026-11-01') AND id < scru160_floor('2026-12-01');
-- Run-time (initial) pruning: a parameter, as prepared statements and ORMs send it.
PREPARE since(timestamptz) AS SELECT count(*) FROM upload WHERE id >= scru160_floor($1);
SET plan_cache_mode = force_generic_plan;
SELECT regress.plan($$EXECUTE since('2026-12-01')$$);
EXECUTE since('2026-12-01');
RESET plan_cache_mode;

-- ATTACH a month loaded beside the table, DETACH the oldest.
CREATE TABLE upload_2027_01 (LIKE upload);
INSERT INTO upload_2027_01 VALUES (gen_scru160('2027-01-15'), 'january');
ALTER TABLE upload ATTACH PARTITION upload_2027_01 FOR VALUES FROM (scru160_floor('2027-01-01')) TO (scru160_floor('2027-02-01'));
ALTER TABLE upload DETACH PARTITION upload_2026_10;
SELECT tableoid::regclass::text AS partition, count(*) FROM upload GROUP BY 1 ORDER BY 1;
SELECT count(*) AS kept_apart FROM upload_2026_10;
-- A table with a row outside the month cannot be attached as that month.
CREATE TABLE upload_2027_02 (LIKE upload);
INSERT INTO upload_2027_02 VALUES (gen_scru160('2027-03-01'), 'march');
SELECT regress.sqlstate_of($$ALTER TABLE upload ATTACH PARTITION upload_2027_02 FOR VALUES FROM (scru160_floor('2027-02-01')) TO (scru160_floor('2027-03-01'))$$);

-- nanoflake: the one-argument floor is STABLE (the server's epoch), so its
-- literal bounds prune at executor start; with an explicit epoch it is
-- IMMUTABLE and prunes at plan time.
CREATE TABLE event (id nanoflake NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE event_2026_10 PARTITION OF event FOR VALUES FROM (nanoflake_floor('2026-10-01')) TO (nanoflake_floor('2026-11-01'));
CREATE TABLE event_2026_11 PARTITION OF event FOR VALUES FROM (nanoflake_floor('2026-11-01')) TO (nanoflake_floor('2026-12-01'));
CREATE TABLE event_2026_12 PARTITION OF event FOR VALUES FROM (nanoflake_floor('2026-12-01')) TO (nanoflake_floor('2027-01-01'));
INSERT INTO event SELECT nanoflake_floor(t) FROM unnest(ARRAY['2026-10-15', '2026-11-15', '2026-12-15']::timestamptz[]) t;
SELECT tableoid::regclass AS partition, nanoflake_timestamp(id) FROM event ORDER BY id;
SELECT regress.plan($$SELECT * FROM event WHERE id >= nanoflake_floor('2026-12-01')$$);
SELECT regress.plan($$SELECT * FROM event WHERE id >= nanoflake_floor('2026-12-01', '2020-01-01 00:00:00+00')$$);

-- now()-based bounds prune at executor start: partitions named for the
-- months around the current one.
CREATE TABLE recent (id uid60 NOT NULL) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE recent_%s PARTITION OF recent FOR VALUES FROM (uid60_floor(%L)) TO (uid60_floor(%L))',
              name, date_trunc('month', now()) + m * interval '1 month', date_trunc('month', now()) + (m + 1) * interval '1 month')
FROM (VALUES ('previous', -1), ('current', 0), ('next', 1)) v(name, m) \gexec
SELECT regress.plan($$SELECT * FROM recent WHERE id >= uid60_floor(date_trunc('month', now()))$$);

-- caloriosa and codokey: rows land by their time too. codokey keys count
-- down (newer sorts first), so a month's range runs from its own key up to
-- the previous month's.
CREATE TABLE device (id caloriosa NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE device_2026_11 PARTITION OF device FOR VALUES FROM (caloriosa_floor('2026-11-01')) TO (caloriosa_floor('2026-12-01'));
CREATE TABLE device_2026_12 PARTITION OF device FOR VALUES FROM (caloriosa_floor('2026-12-01')) TO (caloriosa_floor('2027-01-01'));
INSERT INTO device VALUES (caloriosa_ceil('2026-11-30 23:59:59.999')), (caloriosa_floor('2026-12-01'));
SELECT tableoid::regclass AS partition, caloriosa_timestamp(id) FROM device ORDER BY id;
CREATE TABLE daybook (day codokey NOT NULL) PARTITION BY RANGE (day);
CREATE TABLE daybook_2026_11 PARTITION OF daybook FOR VALUES FROM (codokey_floor(date '2026-11-01', 1)) TO (codokey_floor(date '2026-10-01', 1));
CREATE TABLE daybook_2026_12 PARTITION OF daybook FOR VALUES FROM (codokey_floor(date '2026-12-01', 1)) TO (codokey_floor(date '2026-11-01', 1));
INSERT INTO daybook SELECT codokey(d, p) FROM unnest(ARRAY[date '2026-11-01', '2026-11-30', '2026-12-01', '2026-12-31']) d, unnest(ARRAY[1, 2, 6]) p;
SELECT tableoid::regclass AS partition, day, codokey_timestamp(day) FROM daybook ORDER BY day;
