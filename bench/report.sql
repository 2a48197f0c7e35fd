-- Renders bench_result as the Markdown tables of BENCHMARKS.md.
\pset format unaligned
\pset tuples_only on
\pset footer off

-- Generators. Flat out: net cost per call = (median - the baseline row) /
-- rows. Paced: the rows already hold the median paired difference.
WITH base AS (
    SELECT section, median_ms AS base_ms FROM bench_result WHERE label LIKE 'baseline:%'
), net AS (
    SELECT r.section, r.ordinal, r.label, r.rows, r.median_ms, r.runs_ms, base.base_ms IS NULL AS paired,
           (r.median_ms - coalesce(base.base_ms, 0)) * 1e6 / r.rows AS net_ns,
           ((SELECT max(x) FROM unnest(r.runs_ms) x) - (SELECT min(x) FROM unnest(r.runs_ms) x)) * 1e6 / r.rows AS spread_ns
    FROM bench_result r LEFT JOIN base USING (section)
    WHERE r.section LIKE 'generate%'
), refs AS (
    SELECT section,
           max(net_ns) FILTER (WHERE label = 'random()') AS random_ns,
           max(net_ns) FILTER (WHERE label = 'nextval()') AS nextval_ns
    FROM net GROUP BY section
)
SELECT E'### ' || CASE section
        WHEN 'generate' THEN 'Generation, flat out (median of 5 interleaved rounds; net = minus the baseline)'
        WHEN 'generate at a counter''s cap' THEN 'Generation of the counter-capped types, flat out (median of 5 interleaved rounds; net = minus the baseline)'
        WHEN 'generate paired' THEN 'Generation, each statement paired with the bare generate_series (median of 7 differences)'
        ELSE 'Generation paced below nanoflake''s 4,096-per-ms cap: md5 per row (median of 15 paired differences)' END
    || ', ' || to_char(max(rows), 'FM999,999,999') || E' calls per statement\n\n'
    || E'| generator | ms | net ns per call | spread of the runs, ns per call | × random() | × nextval() |\n'
    || E'|---|---:|---:|---:|---:|---:|\n'
    || string_agg(format('| `%s` | %s | %s | %s | %s | %s |', label, round(median_ms::numeric),
           CASE WHEN label LIKE 'baseline:%' THEN '(baseline)' ELSE round(net_ns::numeric, 1)::text END,
           round(spread_ns::numeric, 1),
           CASE WHEN label LIKE 'baseline:%' OR random_ns <= 0 THEN '' ELSE round((net_ns / random_ns)::numeric, 2)::text END,
           CASE WHEN label LIKE 'baseline:%' THEN '' ELSE round((net_ns / nextval_ns)::numeric, 3)::text END),
        E'\n' ORDER BY ordinal) || E'\n'
FROM net JOIN refs USING (section)
GROUP BY section ORDER BY min(ordinal);

\echo
-- Everything else: ratio against the first (reference) row of each section,
-- with the spread of the runs and the stored order of the input.
WITH r AS (
    -- per row, so rows of one operation measured at different sizes compare
    SELECT *, first_value(median_ms / rows) OVER (PARTITION BY section ORDER BY ordinal) * rows AS ref_ms,
           min(ordinal) OVER (PARTITION BY section) AS section_order,
           (SELECT min(x) FROM unnest(runs_ms) x) AS min_ms, (SELECT max(x) FROM unnest(runs_ms) x) AS max_ms,
           array_length(runs_ms, 1) AS runs
    FROM bench_result WHERE section NOT LIKE 'generate%'
)
SELECT E'### Storage, indexing and I/O (median of 5 runs, min-max; the statements of a section run interleaved; ratio per row against the first row of each operation)\n\n'
    || E'| operation | rows | type | median ms | min-max ms | ratio | heap MB | index MB | input stored |\n'
    || E'|---|---:|---|---:|---:|---:|---:|---:|---|\n'
    || string_agg(format('| %s | %s | %s | %s | %s-%s | %s | %s | %s | %s |', section, to_char(rows, 'FM999,999,999'), label,
           round(median_ms::numeric), round(min_ms::numeric), round(max_ms::numeric), round((median_ms / ref_ms)::numeric, 3),
           coalesce(round(heap_bytes / 1048576.0, 1)::text, ''),
           coalesce(round(index_bytes / 1048576.0, 1)::text, ''),
           coalesce(input_order, '')),
        E'\n' ORDER BY section_order, ordinal)
FROM r;
