-- uid60: 60 bits, 0000 | ms_since_2018_03_01:42 | sequence:9 | random:9,
-- displayed as base 64 (A-Za-z0-9-_) with the last two digits moved to the
-- front. An int8 datum; its comparison functions, operators and operator
-- classes in sql/operators.sql.

CREATE TYPE uid60;

CREATE FUNCTION uid60_in(cstring) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_in_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_out(uid60) RETURNS cstring
    AS 'MODULE_PATHNAME', 'uid60_out_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_recv(internal) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_recv_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_send(uid60) RETURNS bytea
    AS 'int8send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE uid60 (
    INPUT = uid60_in,
    OUTPUT = uid60_out,
    RECEIVE = uid60_recv,
    SEND = uid60_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE uid60 IS
    '60-bit ID: 42-bit ms since 2018-03-01, 9-bit sequence, 9-bit random; rotated base-64 display';

CREATE FUNCTION uid60(bigint) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_from_bigint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bigint AS uid60) WITH FUNCTION uid60(bigint);
CREATE FUNCTION uid60(integer) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_from_integer_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (integer AS uid60) WITH FUNCTION uid60(integer);
CREATE FUNCTION uid60(smallint) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_from_smallint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (smallint AS uid60) WITH FUNCTION uid60(smallint);

-- PARALLEL SAFE: workers share the server-wide sequence in shared memory.
CREATE FUNCTION gen_uid60() RETURNS uid60
    AS 'MODULE_PATHNAME', 'gen_uid60_wrapper' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION uid60_timestamp(uid60) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'uid60_timestamp_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_sequence(uid60) RETURNS int4
    AS 'MODULE_PATHNAME', 'uid60_sequence_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_random(uid60) RETURNS int4
    AS 'MODULE_PATHNAME', 'uid60_random_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_floor(timestamptz) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_floor_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_ceil(timestamptz) RETURNS uid60
    AS 'MODULE_PATHNAME', 'uid60_ceil_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid60 AS timestamptz) WITH FUNCTION uid60_timestamp(uid60);
