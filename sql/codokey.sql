-- codokey: a calendar date as a short radix-36 key that sorts newest first.
--
-- Stored as a varlena with bytea's layout: one byte per base-36 digit, holding
-- the digit's value (a precision-2 key takes 5 bytes with its header). That
-- byte order is the key's text order, so comparison, hashing and sort support
-- (with abbreviated keys) are PostgreSQL's own bytea functions.
--
-- Storing a key never depends on a context: text input and binary receive
-- accept every key that some valid context can make (1 to 15 digits 0-9a-z,
-- upper case folded, each field in range for some year and fraction width),
-- so pg_dump, COPY and parallel workers load back whatever was stored, in
-- any session. They are IMMUTABLE. A context (the session's
-- chronoid.codokey_* settings, or explicit arguments) is checked where it is
-- used: making keys, codokey_timestamp, codokey_precision, the bounds.

CREATE TYPE codokey;

CREATE FUNCTION codokey_in(cstring) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_in_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_out(codokey) RETURNS cstring
    AS 'MODULE_PATHNAME', 'codokey_out_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_recv(internal) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_recv_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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
-- Sort support is chronoid's own (since 0.4.0): the same order as bytea's,
-- with abbreviated keys that pack the first ten digit values into one
-- integer (src/types/codokey.rs), so sorts and index builds cost what
-- timestamptz's do.
CREATE FUNCTION codokey_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'codokey_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_hash(codokey) RETURNS int4
    AS 'hashvarlena' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION codokey_hash_extended(codokey, int8) RETURNS int8
    AS 'hashvarlenaextended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
-- For min(codokey) and max(codokey) (sql/operators.sql).
CREATE FUNCTION codokey_smaller(codokey, codokey) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_smaller_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey_larger(codokey, codokey) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_larger_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Making and reading keys -----------------------------------------------------
-- With the session's context (STABLE: they read GUCs), or with an explicit
-- context (IMMUTABLE, for applications that must not depend on session state).
-- A key is made from a timestamptz (its UTC calendar), a timestamp (its
-- wall-clock fields) or a date (that calendar date): each type has its own
-- overload, so no implicit conversion through the session's TimeZone ever
-- moves a key to another day. codokey('2024-01-01') with one untyped
-- literal is not a call but PostgreSQL's function-style cast to codokey
-- (text input); write codokey(date '2024-01-01') or
-- codokey(timestamptz '2024-01-01 00:00:00+00') to make a key.

CREATE FUNCTION codokey(timestamptz, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey(timestamp, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_local_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey(date, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_date_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey(timestamptz, "precision" int, year_zero int, max_year int, fraction_max int) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey(timestamp, "precision" int, year_zero int, max_year int, fraction_max int) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_local_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION codokey(date, "precision" int, year_zero int, max_year int, fraction_max int) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_encode_date_in_context_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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
-- contains a timestamp: WHERE k BETWEEN codokey_floor(t, p) AND codokey_ceil(t, p)
-- finds every key of precision p or finer dated in that period. A coarser
-- key (the year key 'yj' for a day of 2022) names a longer period, not one
-- inside it, and sorts before the range: it is not found. Overloads for
-- timestamp and date as for codokey().
CREATE FUNCTION codokey_floor(timestamptz, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_floor_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_ceil(timestamptz, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_ceil_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_floor(timestamp, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_floor_local_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_ceil(timestamp, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_ceil_local_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_floor(date, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_floor_date_wrapper' LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION codokey_ceil(date, "precision" int DEFAULT NULL) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_ceil_date_wrapper' LANGUAGE C STABLE PARALLEL SAFE;

CREATE CAST (codokey AS timestamptz) WITH FUNCTION codokey_timestamp(codokey);

-- bytea is the storage and the binary form (one byte per digit value), so
-- codokey -> bytea is binary; bytea -> codokey accepts exactly what binary
-- receive accepts. (Not an overload of codokey(), which makes keys of times:
-- codokey($1) with an untyped parameter would turn ambiguous.)
CREATE FUNCTION codokey_from_bytea(bytea) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_from_bytea_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION codokey_from_bytea(bytea) IS
    'The codokey whose digits are these bytes (as binary receive accepts them)';
CREATE CAST (bytea AS codokey) WITH FUNCTION codokey_from_bytea(bytea);
CREATE CAST (codokey AS bytea) WITHOUT FUNCTION;

-- BEGIN GENERATED operators (scripts/generate_sql.py)
-- Generated by scripts/generate_sql.py from one template: edit that script
-- and run it; `make test` fails when this block differs from its output.
--
-- Operators, operator classes and min/max of the type, from the
-- functions each type declares (TYPE_eq ... TYPE_cmp, TYPE_sortsupport,
-- TYPE_hash, TYPE_hash_extended, TYPE_smaller, TYPE_larger). The same in
-- every type: a default btree class with compare (1), sort support (2) and
-- btequalimage (4, so btree deduplication works); a default hash class with
-- the extended hash (2, for hash partitioning); a default BRIN minmax class.
--
-- nanoflake, caloriosa and uid60 are int8 datums ordered like the bigint
-- (nanoflake is never negative, uid60 is 0 .. 2^60-1, and caloriosa's prefix
-- bit is the sign bit, so every value is negative and signed order is its
-- unsigned order): their functions are PostgreSQL's own int8 functions
-- (LANGUAGE internal), so comparisons, hashing, sort support and min/max
-- cost exactly what they cost for bigint.

CREATE OPERATOR = (
    LEFTARG = codokey, RIGHTARG = codokey, FUNCTION = codokey_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (
    LEFTARG = codokey, RIGHTARG = codokey, FUNCTION = codokey_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = codokey, RIGHTARG = codokey, FUNCTION = codokey_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = codokey, RIGHTARG = codokey, FUNCTION = codokey_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = codokey, RIGHTARG = codokey, FUNCTION = codokey_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = codokey, RIGHTARG = codokey, FUNCTION = codokey_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE OPERATOR CLASS codokey_ops DEFAULT FOR TYPE codokey USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 codokey_cmp(codokey, codokey),
    FUNCTION 2 codokey_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
CREATE OPERATOR CLASS codokey_hash_ops DEFAULT FOR TYPE codokey USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 codokey_hash(codokey),
    FUNCTION 2 codokey_hash_extended(codokey, int8);
CREATE OPERATOR CLASS codokey_minmax_ops DEFAULT FOR TYPE codokey USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);

CREATE AGGREGATE min(codokey) (
    SFUNC = codokey_smaller, STYPE = codokey, COMBINEFUNC = codokey_smaller, SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(codokey) (
    SFUNC = codokey_larger, STYPE = codokey, COMBINEFUNC = codokey_larger, SORTOP = >, PARALLEL = SAFE);
-- END GENERATED operators

-- BEGIN GENERATED comments (scripts/generate_sql.py)
-- Generated by scripts/generate_sql.py: COMMENT ON every function and
-- aggregate of the type that is not commented where it is declared.
COMMENT ON FUNCTION codokey_in(cstring) IS 'I/O: codokey from its text form';
COMMENT ON FUNCTION codokey_out(codokey) IS 'I/O: the text form of a codokey';
COMMENT ON FUNCTION codokey_recv(internal) IS 'I/O: codokey from its binary form (checked)';
COMMENT ON FUNCTION codokey_send(codokey) IS 'I/O: the binary form of a codokey';
COMMENT ON FUNCTION codokey_eq(codokey, codokey) IS 'implementation of = operator';
COMMENT ON FUNCTION codokey_ne(codokey, codokey) IS 'implementation of <> operator';
COMMENT ON FUNCTION codokey_lt(codokey, codokey) IS 'implementation of < operator';
COMMENT ON FUNCTION codokey_le(codokey, codokey) IS 'implementation of <= operator';
COMMENT ON FUNCTION codokey_gt(codokey, codokey) IS 'implementation of > operator';
COMMENT ON FUNCTION codokey_ge(codokey, codokey) IS 'implementation of >= operator';
COMMENT ON FUNCTION codokey_cmp(codokey, codokey) IS 'less-equal-greater: btree comparison of codokey';
COMMENT ON FUNCTION codokey_sortsupport(internal) IS 'sort support for codokey';
COMMENT ON FUNCTION codokey_hash(codokey) IS 'hash of a codokey';
COMMENT ON FUNCTION codokey_hash_extended(codokey, int8) IS 'hash of a codokey with a seed (hash partitioning)';
COMMENT ON FUNCTION codokey_smaller(codokey, codokey) IS 'the smaller of two codokey values (for min)';
COMMENT ON FUNCTION codokey_larger(codokey, codokey) IS 'the larger of two codokey values (for max)';
COMMENT ON AGGREGATE min(codokey) IS 'minimum value of all codokey input values';
COMMENT ON AGGREGATE max(codokey) IS 'maximum value of all codokey input values';
COMMENT ON FUNCTION codokey(timestamptz, integer) IS 'The key of an instant''s UTC calendar date and time, in the session''s context, at a precision (NULL: chronoid.codokey_precision)';
COMMENT ON FUNCTION codokey(timestamp, integer) IS 'The key of a wall-clock date and time, in the session''s context, at a precision (NULL: chronoid.codokey_precision)';
COMMENT ON FUNCTION codokey(date, integer) IS 'The key of a calendar date, in the session''s context, at a precision (NULL: chronoid.codokey_precision)';
COMMENT ON FUNCTION codokey(timestamptz, integer, integer, integer, integer) IS 'The key of an instant''s UTC calendar date and time, at a precision, in the context (year_zero, max_year, fraction_max)';
COMMENT ON FUNCTION codokey(timestamp, integer, integer, integer, integer) IS 'The key of a wall-clock date and time, at a precision, in the context (year_zero, max_year, fraction_max)';
COMMENT ON FUNCTION codokey(date, integer, integer, integer, integer) IS 'The key of a calendar date, at a precision, in the context (year_zero, max_year, fraction_max)';
COMMENT ON FUNCTION codokey(text, integer, integer, integer) IS 'A key read from text and checked against the context (year_zero, max_year, fraction_max)';
COMMENT ON FUNCTION codokey_timestamp(codokey) IS 'The UTC instant a key names, truncated to its precision, read in the session''s context';
COMMENT ON FUNCTION codokey_timestamp(codokey, integer, integer, integer) IS 'The UTC instant a key names, truncated to its precision, read in the context (year_zero, max_year, fraction_max)';
COMMENT ON FUNCTION codokey_precision(codokey) IS 'The precision of a key (0 = year .. 6 = fraction of a second), read in the session''s context';
COMMENT ON FUNCTION codokey_precision(codokey, integer, integer, integer) IS 'The precision of a key (0 = year .. 6 = fraction of a second), read in the context (year_zero, max_year, fraction_max)';
COMMENT ON FUNCTION codokey_floor(timestamptz, integer) IS 'The smallest key of the period of this precision containing an instant (session''s context), for range scans';
COMMENT ON FUNCTION codokey_ceil(timestamptz, integer) IS 'The largest key of the period of this precision containing an instant (session''s context), for range scans';
COMMENT ON FUNCTION codokey_floor(timestamp, integer) IS 'The smallest key of the period of this precision containing a wall-clock time (session''s context), for range scans';
COMMENT ON FUNCTION codokey_ceil(timestamp, integer) IS 'The largest key of the period of this precision containing a wall-clock time (session''s context), for range scans';
COMMENT ON FUNCTION codokey_floor(date, integer) IS 'The smallest key of the period of this precision containing a date (session''s context), for range scans';
COMMENT ON FUNCTION codokey_ceil(date, integer) IS 'The largest key of the period of this precision containing a date (session''s context), for range scans';
-- END GENERATED comments
