-- nanoflake: a Snowflake-compatible, never-negative 64-bit ID,
-- ms_since_epoch << 22 | generator << 12 | sequence.
--
-- The datum is an int8 datum (8 bytes, by value); its operators and operator
-- classes are PostgreSQL's own int8 functions (sql/operators.sql).

CREATE TYPE nanoflake;

CREATE FUNCTION nanoflake_in(cstring) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_in_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_out(nanoflake) RETURNS cstring
    AS 'MODULE_PATHNAME', 'nanoflake_out_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_recv(internal) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_recv_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_send(nanoflake) RETURNS bytea
    AS 'int8send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE nanoflake (
    INPUT = nanoflake_in,
    OUTPUT = nanoflake_out,
    RECEIVE = nanoflake_recv,
    SEND = nanoflake_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE nanoflake IS
    'Snowflake-compatible 64-bit ID: 41-bit ms since chronoid.nanoflake_epoch, 10-bit generator, 12-bit sequence';

-- Casts ----------------------------------------------------------------------
-- nanoflake -> bigint is binary (sql/operators.sql); bigint -> nanoflake
-- rejects negatives. text casts are PostgreSQL's automatic I/O conversions.

CREATE FUNCTION nanoflake(bigint) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_from_bigint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bigint AS nanoflake) WITH FUNCTION nanoflake(bigint);
CREATE FUNCTION nanoflake(integer) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_from_integer_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (integer AS nanoflake) WITH FUNCTION nanoflake(integer);
CREATE FUNCTION nanoflake(smallint) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_from_smallint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (smallint AS nanoflake) WITH FUNCTION nanoflake(smallint);

-- Generation and fields ------------------------------------------------------

-- PARALLEL SAFE: parallel workers draw from the same shared-memory sequence,
-- inherit the leader's chronoid.node_id, and share the server's epoch.
CREATE FUNCTION gen_nanoflake() RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'gen_nanoflake_wrapper' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION gen_nanoflake() IS
    'A new nanoflake for chronoid.node_id; unique across the backends of this server (needs shared_preload_libraries)';

-- STABLE, not IMMUTABLE: the result depends on chronoid.nanoflake_epoch
-- (fixed while the server runs, but a restart may change it).
CREATE FUNCTION nanoflake_timestamp(nanoflake) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'nanoflake_timestamp_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_floor(timestamptz) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_floor_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_ceil(timestamptz) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_ceil_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
-- The same under an explicit epoch, for IDs minted by a server with another
-- epoch: IMMUTABLE.
CREATE FUNCTION nanoflake_timestamp(nanoflake, epoch timestamptz) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'nanoflake_timestamp_at_epoch_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_floor(timestamptz, epoch timestamptz) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_floor_at_epoch_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_ceil(timestamptz, epoch timestamptz) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_ceil_at_epoch_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION nanoflake_timestamp(nanoflake, timestamptz) IS
    'The millisecond a nanoflake minted under the given epoch was made in';
COMMENT ON FUNCTION nanoflake_floor(timestamptz, timestamptz) IS
    'The smallest nanoflake, under the given epoch, of the millisecond containing a timestamp';
COMMENT ON FUNCTION nanoflake_ceil(timestamptz, timestamptz) IS
    'The largest nanoflake, under the given epoch, of the millisecond containing a timestamp';
CREATE FUNCTION nanoflake_generator(nanoflake) RETURNS int4
    AS 'MODULE_PATHNAME', 'nanoflake_generator_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_sequence(nanoflake) RETURNS int4
    AS 'MODULE_PATHNAME', 'nanoflake_sequence_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (nanoflake AS timestamptz) WITH FUNCTION nanoflake_timestamp(nanoflake);
