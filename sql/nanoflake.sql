-- nanoflake: a Snowflake-compatible, never-negative 64-bit ID,
-- ms_since_epoch << 22 | generator << 12 | sequence.
--
-- The datum is an int8 datum (8 bytes, by value), so comparison, hashing,
-- sort support and the binary send form are PostgreSQL's own int8
-- functions: index builds and sorts run exactly as fast as for bigint.

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

-- Comparison -----------------------------------------------------------------

CREATE FUNCTION nanoflake_eq(nanoflake, nanoflake) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ne(nanoflake, nanoflake) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_lt(nanoflake, nanoflake) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_le(nanoflake, nanoflake) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_gt(nanoflake, nanoflake) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ge(nanoflake, nanoflake) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_cmp(nanoflake, nanoflake) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_sortsupport(internal) RETURNS void
    AS 'btint8sortsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_hash(nanoflake) RETURNS int4
    AS 'hashint8' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_hash_extended(nanoflake, int8) RETURNS int8
    AS 'hashint8extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (
    LEFTARG = nanoflake, RIGHTARG = nanoflake, FUNCTION = nanoflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = nanoflake, RIGHTARG = nanoflake, FUNCTION = nanoflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = nanoflake, RIGHTARG = nanoflake, FUNCTION = nanoflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = nanoflake, RIGHTARG = nanoflake, FUNCTION = nanoflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = nanoflake, RIGHTARG = nanoflake, FUNCTION = nanoflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = nanoflake, RIGHTARG = nanoflake, FUNCTION = nanoflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS nanoflake_ops DEFAULT FOR TYPE nanoflake USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 nanoflake_cmp(nanoflake, nanoflake),
    FUNCTION 2 nanoflake_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);

CREATE OPERATOR CLASS nanoflake_hash_ops DEFAULT FOR TYPE nanoflake USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 nanoflake_hash(nanoflake),
    FUNCTION 2 nanoflake_hash_extended(nanoflake, int8);

CREATE OPERATOR CLASS nanoflake_minmax_ops DEFAULT FOR TYPE nanoflake USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);

CREATE FUNCTION nanoflake_smaller(nanoflake, nanoflake) RETURNS nanoflake
    AS 'int8smaller' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_larger(nanoflake, nanoflake) RETURNS nanoflake
    AS 'int8larger' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(nanoflake) (
    SFUNC = nanoflake_smaller, STYPE = nanoflake, COMBINEFUNC = nanoflake_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(nanoflake) (
    SFUNC = nanoflake_larger, STYPE = nanoflake, COMBINEFUNC = nanoflake_larger,
    SORTOP = >, PARALLEL = SAFE
);

-- Casts ----------------------------------------------------------------------
-- Every nanoflake is a valid bigint with the same bits, so that direction is
-- binary and allowed in assignments; the other direction rejects negatives.
-- text casts are PostgreSQL's automatic I/O conversions.

CREATE FUNCTION nanoflake(bigint) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_from_bigint_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (bigint AS nanoflake) WITH FUNCTION nanoflake(bigint);
CREATE CAST (nanoflake AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;

-- Generation and fields ------------------------------------------------------

-- PARALLEL SAFE: parallel workers draw from the same shared-memory sequence
-- and inherit the leader's chronoid.node_id and chronoid.nanoflake_epoch.
CREATE FUNCTION gen_nanoflake() RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'gen_nanoflake_wrapper' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION gen_nanoflake() IS
    'A new nanoflake for chronoid.node_id; unique across the backends of this server (needs shared_preload_libraries)';

-- STABLE, not IMMUTABLE: the result depends on chronoid.nanoflake_epoch.
CREATE FUNCTION nanoflake_timestamp(nanoflake) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'nanoflake_timestamp_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_floor(timestamptz) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_floor_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_ceil(timestamptz) RETURNS nanoflake
    AS 'MODULE_PATHNAME', 'nanoflake_ceil_wrapper' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_generator(nanoflake) RETURNS int4
    AS 'MODULE_PATHNAME', 'nanoflake_generator_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION nanoflake_sequence(nanoflake) RETURNS int4
    AS 'MODULE_PATHNAME', 'nanoflake_sequence_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (nanoflake AS timestamptz) WITH FUNCTION nanoflake_timestamp(nanoflake);
