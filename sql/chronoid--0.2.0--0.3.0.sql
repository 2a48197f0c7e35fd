-- chronoid 0.2.0 -> 0.3.0
\echo Use "ALTER EXTENSION chronoid UPDATE TO '0.3.0'" to load this file. \quit

-- codokey storage no longer depends on the session's context: input and
-- receive accept every key some valid context can make, so they are
-- IMMUTABLE (the library's functions changed with the same symbols).
ALTER FUNCTION codokey_in(cstring) IMMUTABLE;
ALTER FUNCTION codokey_recv(internal) IMMUTABLE;

-- min(codokey) and max(codokey).
CREATE FUNCTION codokey_smaller(codokey, codokey) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_smaller_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_larger(codokey, codokey) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_larger_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(codokey) (
    SFUNC = codokey_smaller, STYPE = codokey, COMBINEFUNC = codokey_smaller, SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(codokey) (
    SFUNC = codokey_larger, STYPE = codokey, COMBINEFUNC = codokey_larger, SORTOP = >, PARALLEL = SAFE);

-- Keys of dates, and of wall-clock timestamps under an explicit context, and
-- their bounds: no implicit conversion through the session's TimeZone.
CREATE FUNCTION codokey(date, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_date_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey(timestamp, "precision" int, year_zero int, max_year int, fraction_max int) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_local_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey(date, "precision" int, year_zero int, max_year int, fraction_max int) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_date_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_floor(timestamp, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_floor_local_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_ceil(timestamp, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_ceil_local_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_floor(date, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_floor_date_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_ceil(date, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_ceil_date_wrapper' LANGUAGE C STABLE PARALLEL SAFE;

-- The nanoflake epoch is fixed per server; IDs minted under another epoch
-- are read with an explicit one.
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

-- Casts from integer and smallint wherever bigint casts.
CREATE FUNCTION nanoflake(integer) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_from_integer_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (integer AS nanoflake) WITH FUNCTION nanoflake(integer);
CREATE FUNCTION nanoflake(smallint) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_from_smallint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (smallint AS nanoflake) WITH FUNCTION nanoflake(smallint);
CREATE FUNCTION caloriosa(integer) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_from_integer_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (integer AS caloriosa) WITH FUNCTION caloriosa(integer);
CREATE FUNCTION caloriosa(smallint) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_from_smallint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (smallint AS caloriosa) WITH FUNCTION caloriosa(smallint);
CREATE FUNCTION uid60(integer) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_from_integer_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (integer AS uid60) WITH FUNCTION uid60(integer);
CREATE FUNCTION uid60(smallint) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_from_smallint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (smallint AS uid60) WITH FUNCTION uid60(smallint);
