-- codokey: a calendar date as a short radix-36 key that sorts newest first.
--
-- Stored as a varlena with bytea's layout: one byte per base-36 digit, holding
-- the digit's value (a precision-2 key takes 5 bytes with its header). That
-- byte order is the key's text order, so comparison, hashing and sort support
-- (with abbreviated keys) are PostgreSQL's own bytea functions.
--
-- Text input and the binary receive validate against the session's codokey
-- context (chronoid.codokey_year_zero, _max_year, _fraction_max); output
-- needs no context.

CREATE TYPE codokey;

CREATE FUNCTION codokey_in(cstring) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_in_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_out(codokey) RETURNS cstring
    AS 'MODULE_PATHNAME', 'codokey_out_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_recv(internal) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_recv_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_send(codokey) RETURNS bytea
    AS 'byteasend' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE codokey (
    INPUT = codokey_in,
    OUTPUT = codokey_out,
    RECEIVE = codokey_recv,
    SEND = codokey_send,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = main
);
COMMENT ON TYPE codokey IS
    'Countdown date key in radix 36 (year .. fraction of a second) that sorts newest first';

-- Comparison: bytea's (operators and operator classes: sql/operators.sql) ------

CREATE FUNCTION codokey_eq(codokey, codokey) RETURNS bool
    AS 'byteaeq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_ne(codokey, codokey) RETURNS bool
    AS 'byteane' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_lt(codokey, codokey) RETURNS bool
    AS 'bytealt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_le(codokey, codokey) RETURNS bool
    AS 'byteale' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_gt(codokey, codokey) RETURNS bool
    AS 'byteagt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_ge(codokey, codokey) RETURNS bool
    AS 'byteage' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_cmp(codokey, codokey) RETURNS int4
    AS 'byteacmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_sortsupport(internal) RETURNS void
    AS 'bytea_sortsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_hash(codokey) RETURNS int4
    AS 'hashvarlena' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_hash_extended(codokey, int8) RETURNS int8
    AS 'hashvarlenaextended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

-- Making and reading keys -----------------------------------------------------
-- With the session's context (STABLE: they read GUCs), or with an explicit
-- context (IMMUTABLE, for applications that must not depend on session state).

CREATE FUNCTION codokey(timestamptz, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey(timestamp, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_local_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey(timestamptz, "precision" int, year_zero int, max_year int, fraction_max int) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey(key text, year_zero int, max_year int, fraction_max int) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_parse_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION codokey_timestamp(codokey) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'codokey_timestamp_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_timestamp(codokey, year_zero int, max_year int, fraction_max int) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'codokey_timestamp_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_precision(codokey) RETURNS int4
    AS 'MODULE_PATHNAME', 'codokey_precision_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_precision(codokey, year_zero int, max_year int, fraction_max int) RETURNS int4
    AS 'MODULE_PATHNAME', 'codokey_precision_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The smallest and largest key of the period (of the given precision) that
-- contains a timestamp: WHERE k BETWEEN codokey_floor(t, 0) AND codokey_ceil(t, 0)
-- finds every key, of any precision, dated in t's year.
CREATE FUNCTION codokey_floor(timestamptz, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_floor_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_ceil(timestamptz, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_ceil_wrapper' LANGUAGE C STABLE PARALLEL SAFE;

CREATE CAST (codokey AS timestamptz) WITH FUNCTION codokey_timestamp(codokey);
