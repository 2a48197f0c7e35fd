-- chronoid 0.4.0 -> 0.5.0: the chronoid_generators view and function (the
-- objects of sql/generators.sql, as a fresh 0.5.0 install creates them;
-- tests/t/018_extension_upgrade.pl checks that the two catalogs are equal). The durable
-- high-water marks need no SQL: they are the library's.
\echo Use "ALTER EXTENSION chronoid UPDATE TO '0.5.0'" to load this file. \quit

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
    OUT epoch timestamptz,
    OUT since timestamptz)
RETURNS SETOF record
LANGUAGE c VOLATILE STRICT PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'chronoid_generators_wrapper';
COMMENT ON FUNCTION chronoid_generators() IS
    'One row per server-wide generator (nanoflake, caloriosa, uid60): last ID, durable high-water mark, counters since start; needs chronoid preloaded';

CREATE VIEW chronoid_generators AS SELECT * FROM chronoid_generators();
COMMENT ON VIEW chronoid_generators IS
    'The server-wide generators: last ID, durable high-water mark, IDs minted, waits, clock-behind events and errors since start';

REVOKE ALL ON FUNCTION chronoid_generators() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION chronoid_generators() TO pg_monitor;
REVOKE ALL ON chronoid_generators FROM PUBLIC;
GRANT SELECT ON chronoid_generators TO pg_monitor;
