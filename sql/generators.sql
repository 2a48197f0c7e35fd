-- The chronoid_generators view: what the server-wide generators have done
-- since shared memory was last built, for operators (docs/reference.md,
-- "chronoid_generators"). Readable by pg_monitor, like pg_stat_statements.

CREATE FUNCTION chronoid_generators(
    OUT generator text,
    OUT last_issued timestamptz,
    OUT last_sequence integer,
    OUT high_water_mark timestamptz,
    OUT minted bigint,
    OUT sequence_waits bigint,
    OUT clock_behind_events bigint,
    OUT max_clock_lag_ms bigint,
    OUT clock_behind_errors bigint,
    OUT node_id integer,
    OUT node_id_source text,
    OUT epoch timestamptz,
    OUT since timestamptz,
    OUT reservations bigint,
    OUT reservation_waits bigint,
    OUT reservation_wait_time double precision)
RETURNS SETOF record
LANGUAGE c VOLATILE STRICT PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'chronoid_generators_wrapper';
COMMENT ON FUNCTION chronoid_generators() IS
    'One row per server-wide generator (nanoflake, caloriosa, uid60): last ID, durable high-water mark, counters and reservations since start; needs chronoid preloaded';

CREATE VIEW chronoid_generators AS SELECT * FROM chronoid_generators();
COMMENT ON VIEW chronoid_generators IS
    'The server-wide generators: last ID, durable high-water mark, IDs minted, waits, clock-behind events and errors, reservations and the time callers waited for them (ms), since start';

REVOKE ALL ON FUNCTION chronoid_generators() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION chronoid_generators() TO pg_monitor;
REVOKE ALL ON chronoid_generators FROM PUBLIC;
GRANT SELECT ON chronoid_generators TO pg_monitor;

-- Whether this server may mint, per database, as the peer worker judged it
-- (docs/across-servers.md, "Watching the verdicts"): what a counter
-- generator reads before it mints, with the refusal's reason and hint.
CREATE FUNCTION chronoid_node_verdicts(
    OUT database text,
    OUT node_id integer,
    OUT state text,
    OUT reason text,
    OUT hint text,
    OUT confirmed_at timestamptz)
RETURNS SETOF record
LANGUAGE c VOLATILE STRICT PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'chronoid_node_verdicts_wrapper';
COMMENT ON FUNCTION chronoid_node_verdicts() IS
    'One row per database the peer worker judges: the node id judged, whether the server mints there (mints, refuses, being judged), the reason and hint, when last confirmed; needs chronoid preloaded';

CREATE VIEW chronoid_node_verdicts AS SELECT * FROM chronoid_node_verdicts();
COMMENT ON VIEW chronoid_node_verdicts IS
    'Per database: whether this server may mint IDs there, for which node id, why not, and when the peer worker last confirmed it';

REVOKE ALL ON FUNCTION chronoid_node_verdicts() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION chronoid_node_verdicts() TO pg_monitor;
REVOKE ALL ON chronoid_node_verdicts FROM PUBLIC;
GRANT SELECT ON chronoid_node_verdicts TO pg_monitor;

-- The way out of a high-water mark left in the future (a clock that jumped
-- forward), as setval() is for a sequence: superuser only, WAL-logged and
-- replayed by standbys (docs/guarantees.md says when it is safe).
CREATE FUNCTION chronoid_set_high_water_mark(generator text, mark timestamptz)
RETURNS void
LANGUAGE c VOLATILE STRICT PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'chronoid_set_high_water_mark_wrapper';
COMMENT ON FUNCTION chronoid_set_high_water_mark(text, timestamptz) IS
    'Moves a generator''s (nanoflake, caloriosa, uid60) durable high-water mark and ticker to mark, down as well as up; IDs at or above it may be issued again; superuser only';
REVOKE ALL ON FUNCTION chronoid_set_high_water_mark(text, timestamptz) FROM PUBLIC;
