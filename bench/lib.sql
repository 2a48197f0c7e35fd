-- Timing helpers for bench/*.sql. Every statement is timed inside the server
-- (clock_timestamp around EXECUTE), so client round trips do not count; each
-- is run `reps` times after its setup (untimed) and the median is kept.
CREATE TABLE IF NOT EXISTS bench_result (
    section text, label text, rows bigint, median_ms float8, runs_ms float8[],
    heap_bytes bigint, index_bytes bigint, input_order text, ordinal serial
);

-- How a column is stored, as the planner sees it: pg_stats.correlation
-- between the rows' physical order and the column's sort order (1 = stored
-- in order, -1 = in reverse order, about 0 = shuffled). A benchmark "over
-- randomly ordered values" must show about 0 here. ANALYZE first.
CREATE OR REPLACE FUNCTION stored_order(tbl regclass, col name) RETURNS text LANGUAGE sql AS $$
    SELECT format('%s.%s: correlation %s', tbl, col, round(correlation::numeric, 3))
    FROM pg_stats s JOIN pg_class c ON c.relname = s.tablename
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = s.schemaname
    WHERE c.oid = tbl AND s.attname = col
$$;

-- Several statements timed against each other: an untimed warm-up round,
-- then `reps` rounds, each running every statement once in turn (after its
-- untimed setup), so that drift in
-- the machine's speed hits them alike; each keeps its median and all runs
-- (the report shows min-max). `orders` names each statement's input column
-- ('table.column') for stored_order(); `sizes` the table whose heap and
-- index sizes to record after its last run.
CREATE OR REPLACE FUNCTION bench_interleaved(section text, rows bigint, labels text[], queries text[],
                                             setups text[] DEFAULT NULL, orders text[] DEFAULT NULL,
                                             reps int DEFAULT 5, sizes regclass[] DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    runs float8[] := array_fill(0::float8, ARRAY[array_length(labels, 1), reps]);
    one float8[];
    t0 timestamptz;
    med float8;
BEGIN
    -- One untimed round first: caches, the relations' pages and the
    -- generators' state are warm for every timed one.
    FOR j IN 1..array_length(labels, 1) LOOP
        IF setups[j] IS NOT NULL THEN EXECUTE setups[j]; END IF;
        EXECUTE queries[j];
    END LOOP;
    FOR r IN 1..reps LOOP
        FOR j IN 1..array_length(labels, 1) LOOP
            IF setups[j] IS NOT NULL THEN EXECUTE setups[j]; END IF;
            t0 := clock_timestamp();
            EXECUTE queries[j];
            runs[j][r] := extract(epoch FROM clock_timestamp() - t0) * 1000;
        END LOOP;
    END LOOP;
    FOR j IN 1..array_length(labels, 1) LOOP
        one := ARRAY(SELECT runs[j][r] FROM generate_series(1, reps) r);
        SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) INTO med FROM unnest(one) x;
        INSERT INTO bench_result (section, label, rows, median_ms, runs_ms, heap_bytes, index_bytes, input_order)
        VALUES (section, labels[j], rows, med, one,
                CASE WHEN sizes[j] IS NOT NULL THEN pg_table_size(sizes[j]) END,
                CASE WHEN sizes[j] IS NOT NULL THEN pg_indexes_size(sizes[j]) END,
                CASE WHEN orders[j] IS NOT NULL
                     THEN stored_order(split_part(orders[j], '.', 1)::regclass, split_part(orders[j], '.', 2)) END);
        RAISE NOTICE '% / %: % ms (runs %)', section, labels[j], round(med::numeric, 1), one;
    END LOOP;
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
    EXECUTE baseline;  -- untimed, as in bench_interleaved
    EXECUTE query;
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
