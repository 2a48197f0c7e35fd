-- caloriosa: a Caloriosa device name, unsigned 64 bits
-- 1 | ms_since_2017:41 | random:12 | increment:10, shown as 11 base-62
-- characters (0-9a-zA-Z). An int8 datum whose sign bit is the prefix bit;
-- its comparison functions, operators and operator classes in sql/operators.sql.

CREATE TYPE caloriosa;

CREATE FUNCTION caloriosa_in(cstring) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_in_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION caloriosa_out(caloriosa) RETURNS cstring
    AS 'MODULE_PATHNAME', 'caloriosa_out_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION caloriosa_recv(internal) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_recv_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION caloriosa_send(caloriosa) RETURNS bytea
    AS 'int8send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE caloriosa (
    INPUT = caloriosa_in,
    OUTPUT = caloriosa_out,
    RECEIVE = caloriosa_recv,
    SEND = caloriosa_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE caloriosa IS
    'Caloriosa device name: prefix bit, 41-bit ms since 2017, 12-bit random, 10-bit increment; 11 base-62 characters';

-- bigint -> caloriosa takes the same 64 bits, so only negative bigints (the
-- sign bit is the prefix bit) are caloriosa names.
CREATE FUNCTION caloriosa(bigint) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_from_bigint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bigint AS caloriosa) WITH FUNCTION caloriosa(bigint);
-- From integer and smallint as from bigint (always an error for caloriosa,
-- whose every value is a negative bigint below -2^63 + 2^62; kept so that
-- every 64-bit type casts from every integer type alike).
CREATE FUNCTION caloriosa(integer) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_from_integer_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (integer AS caloriosa) WITH FUNCTION caloriosa(integer);
CREATE FUNCTION caloriosa(smallint) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_from_smallint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (smallint AS caloriosa) WITH FUNCTION caloriosa(smallint);
CREATE FUNCTION caloriosa_to_numeric(caloriosa) RETURNS numeric
    AS 'MODULE_PATHNAME', 'caloriosa_to_numeric_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- PARALLEL SAFE: workers share the server-wide increment in shared memory.
CREATE FUNCTION gen_caloriosa() RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'gen_caloriosa_wrapper' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION caloriosa_timestamp(caloriosa) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'caloriosa_timestamp_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION caloriosa_random(caloriosa) RETURNS int4
    AS 'MODULE_PATHNAME', 'caloriosa_random_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION caloriosa_increment(caloriosa) RETURNS int4
    AS 'MODULE_PATHNAME', 'caloriosa_increment_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION caloriosa_floor(timestamptz) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_floor_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION caloriosa_ceil(timestamptz) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_ceil_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (caloriosa AS timestamptz) WITH FUNCTION caloriosa_timestamp(caloriosa);
