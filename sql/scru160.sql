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
    LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (
    LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = scru160, RIGHTARG = scru160, FUNCTION = scru160_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE OPERATOR CLASS scru160_ops DEFAULT FOR TYPE scru160 USING btree AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 scru160_cmp(scru160, scru160),
    FUNCTION 2 scru160_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
CREATE OPERATOR CLASS scru160_hash_ops DEFAULT FOR TYPE scru160 USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 scru160_hash(scru160),
    FUNCTION 2 scru160_hash_extended(scru160, int8);
CREATE OPERATOR CLASS scru160_minmax_ops DEFAULT FOR TYPE scru160 USING brin AS
    OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);

CREATE AGGREGATE min(scru160) (
    SFUNC = scru160_smaller, STYPE = scru160, COMBINEFUNC = scru160_smaller, SORTOP = <, PARALLEL = SAFE);
CREATE AGGREGATE max(scru160) (
    SFUNC = scru160_larger, STYPE = scru160, COMBINEFUNC = scru160_larger, SORTOP = >, PARALLEL = SAFE);
-- END GENERATED operators

-- BEGIN GENERATED comments (scripts/generate_sql.py)
-- Generated by scripts/generate_sql.py: COMMENT ON every function and
-- aggregate of the type that is not commented where it is declared.
COMMENT ON FUNCTION scru160_in(cstring) IS 'I/O: scru160 from its text form';
COMMENT ON FUNCTION scru160_out(scru160) IS 'I/O: the text form of a scru160';
COMMENT ON FUNCTION scru160_recv(internal) IS 'I/O: scru160 from its binary form (checked)';
COMMENT ON FUNCTION scru160_send(scru160) IS 'I/O: the binary form of a scru160';
COMMENT ON FUNCTION scru160_eq(scru160, scru160) IS 'implementation of = operator';
COMMENT ON FUNCTION scru160_ne(scru160, scru160) IS 'implementation of <> operator';
COMMENT ON FUNCTION scru160_lt(scru160, scru160) IS 'implementation of < operator';
COMMENT ON FUNCTION scru160_le(scru160, scru160) IS 'implementation of <= operator';
COMMENT ON FUNCTION scru160_gt(scru160, scru160) IS 'implementation of > operator';
COMMENT ON FUNCTION scru160_ge(scru160, scru160) IS 'implementation of >= operator';
COMMENT ON FUNCTION scru160_cmp(scru160, scru160) IS 'less-equal-greater: btree comparison of scru160';
COMMENT ON FUNCTION scru160_sortsupport(internal) IS 'sort support for scru160';
COMMENT ON FUNCTION scru160_hash(scru160) IS 'hash of a scru160';
COMMENT ON FUNCTION scru160_hash_extended(scru160, int8) IS 'hash of a scru160 with a seed (hash partitioning)';
COMMENT ON FUNCTION scru160_smaller(scru160, scru160) IS 'the smaller of two scru160 values (for min)';
COMMENT ON FUNCTION scru160_larger(scru160, scru160) IS 'the larger of two scru160 values (for max)';
COMMENT ON AGGREGATE min(scru160) IS 'minimum value of all scru160 input values';
COMMENT ON AGGREGATE max(scru160) IS 'maximum value of all scru160 input values';
COMMENT ON FUNCTION scru160(bytea) IS 'The scru160 with these 20 bytes (any other length is an error)';
COMMENT ON FUNCTION scru160_to_bytea(scru160) IS 'The 20 bytes of a scru160, big-endian';
COMMENT ON FUNCTION scru160_to_hex(scru160) IS 'A scru160 as 40 lowercase hex digits';
COMMENT ON FUNCTION scru160_timestamp(scru160) IS 'The millisecond a scru160 was made in (its 48-bit timestamp)';
COMMENT ON FUNCTION scru160_counter(scru160) IS 'The 16-bit counter field of a scru160';
COMMENT ON FUNCTION scru160_random16(scru160) IS 'The 16-bit random field of a scru160';
COMMENT ON FUNCTION scru160_random80(scru160) IS 'The 80-bit random field of a scru160';
COMMENT ON FUNCTION scru160_floor(timestamptz) IS 'The smallest scru160 of the millisecond containing a timestamp, for range scans';
COMMENT ON FUNCTION scru160_ceil(timestamptz) IS 'The largest scru160 of the millisecond containing a timestamp, for range scans';
-- END GENERATED comments
