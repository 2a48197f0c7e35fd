-- Timing helpers for bench/*.sql. Every statement is timed inside the server
-- (clock_timestamp around EXECUTE), so client round trips do not count; each
-- is run `reps` times after `setup` (untimed) and the median is kept.
CREATE TABLE IF NOT EXISTS bench_result (
    section text, label text, rows bigint, median_ms float8, runs_ms float8[],
    heap_bytes bigint, index_bytes bigint, ordinal serial
);

CREATE OR REPLACE FUNCTION bench(section text, label text, rows bigint, query text,
                                 setup text DEFAULT NULL, reps int DEFAULT 3,
                                 size_of regclass DEFAULT NULL)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    runs float8[] := '{}';
    t0 timestamptz;
    med float8;
BEGIN
    FOR i IN 1..reps LOOP
        IF setup IS NOT NULL THEN EXECUTE setup; END IF;
        t0 := clock_timestamp();
        EXECUTE query;
        runs := runs || (extract(epoch FROM clock_timestamp() - t0) * 1000)::float8;
    END LOOP;
    SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY r) INTO med FROM unnest(runs) r;
    INSERT INTO bench_result (section, label, rows, median_ms, runs_ms, heap_bytes, index_bytes)
    VALUES (section, label, rows, med, runs,
            CASE WHEN size_of IS NOT NULL THEN pg_table_size(size_of) END,
            CASE WHEN size_of IS NOT NULL THEN pg_indexes_size(size_of) END);
    RAISE NOTICE '% / %: % ms (runs %)', section, label, round(med::numeric, 1), runs;
    RETURN med;
END $$;

-- The net cost of what `query` adds to `baseline`: both run alternately
-- (baseline, query, baseline, query, ...) so that drift in the machine's
-- speed hits both alike; the result is the median of the differences.
CREATE OR REPLACE FUNCTION bench_net(section text, label text, rows bigint, baseline text, query text,
                                     reps int DEFAULT 7)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    diffs float8[] := '{}';
    t0 timestamptz;
    base_ms float8;
    med float8;
BEGIN
    FOR i IN 1..reps LOOP
        t0 := clock_timestamp();
        EXECUTE baseline;
        base_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
        t0 := clock_timestamp();
        EXECUTE query;
        diffs := diffs || (extract(epoch FROM clock_timestamp() - t0) * 1000 - base_ms)::float8;
    END LOOP;
    SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY d) INTO med FROM unnest(diffs) d;
    INSERT INTO bench_result (section, label, rows, median_ms, runs_ms) VALUES (section, label, rows, med, diffs);
    RAISE NOTICE '% / %: net % ms (differences %)', section, label, round(med::numeric, 1), diffs;
    RETURN med;
END $$;
