-- scru160: a 160-bit SCRU160 ID, stored as its 20 big-endian bytes (a
-- fixed-length type passed by reference, like uuid). Byte order is the order
-- of generation and the order of both text forms.

CREATE TYPE scru160;

CREATE FUNCTION scru160_in(cstring) RETURNS scru160
    AS 'MODULE_PATHNAME', 'scru160_in_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_out(scru160) RETURNS cstring
    AS 'MODULE_PATHNAME', 'scru160_out_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_recv(internal) RETURNS scru160
    AS 'MODULE_PATHNAME', 'scru160_recv_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_send(scru160) RETURNS bytea
    AS 'MODULE_PATHNAME', 'scru160_send_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE scru160 (
    INPUT = scru160_in,
    OUTPUT = scru160_out,
    RECEIVE = scru160_recv,
    SEND = scru160_send,
    INTERNALLENGTH = 20,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE scru160 IS
    'SCRU160: 48-bit unix ms, 16-bit counter, 96 random bits; 32-char base32hex text';

-- Comparison (operators and operator classes: sql/operators.sql) ---------------

CREATE FUNCTION scru160_eq(scru160, scru160) RETURNS bool
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_ne(scru160, scru160) RETURNS bool
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_lt(scru160, scru160) RETURNS bool
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_le(scru160, scru160) RETURNS bool
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_gt(scru160, scru160) RETURNS bool
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_ge(scru160, scru160) RETURNS bool
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_cmp(scru160, scru160) RETURNS int4
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_hash(scru160) RETURNS int4
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION scru160_hash_extended(scru160, int8) RETURNS int8
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION scru160_smaller(scru160, scru160) RETURNS scru160
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_larger(scru160, scru160) RETURNS scru160
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- Casts ----------------------------------------------------------------------

CREATE FUNCTION scru160(bytea) RETURNS scru160
    AS 'MODULE_PATHNAME', 'scru160_from_bytea_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_to_bytea(scru160) RETURNS bytea
    AS 'MODULE_PATHNAME', 'scru160_to_bytea_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bytea AS scru160) WITH FUNCTION scru160(bytea);
CREATE CAST (scru160 AS bytea) WITH FUNCTION scru160_to_bytea(scru160);

-- Generation and fields ------------------------------------------------------

-- PARALLEL SAFE: each worker has its own state and its own random stream;
-- uniqueness rests on 96 random bits, order on the per-process counter.
CREATE FUNCTION gen_scru160() RETURNS scru160
    AS 'MODULE_PATHNAME', 'gen_scru160_wrapper' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION gen_scru160() IS
    'A new SCRU160: strictly increasing within this backend, 96 random bits from a per-backend CSPRNG';
-- For a given instant (backfills, imports, tests): unique through its random
-- bits like any scru160; a run for one millisecond counts up; the live
-- generator's order is untouched. The counter formats have no random bits to
-- spare, so they get no such generator (README, "IDs for a given instant").
CREATE FUNCTION gen_scru160(timestamptz) RETURNS scru160
    AS 'MODULE_PATHNAME', 'gen_scru160_at_wrapper' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gen_scru160(timestamptz) IS
    'A new scru160 whose timestamp is the given instant; unique through 96 random bits';

CREATE FUNCTION scru160_to_hex(scru160) RETURNS text
    AS 'MODULE_PATHNAME', 'scru160_to_hex_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_timestamp(scru160) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'scru160_timestamp_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_counter(scru160) RETURNS int4
    AS 'MODULE_PATHNAME', 'scru160_counter_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_random16(scru160) RETURNS int4
    AS 'MODULE_PATHNAME', 'scru160_random16_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_random80(scru160) RETURNS numeric
    AS 'MODULE_PATHNAME', 'scru160_random80_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_floor(timestamptz) RETURNS scru160
    AS 'MODULE_PATHNAME', 'scru160_floor_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_ceil(timestamptz) RETURNS scru160
    AS 'MODULE_PATHNAME', 'scru160_ceil_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (scru160 AS timestamptz) WITH FUNCTION scru160_timestamp(scru160);
