-- chronoid 0.3.0 -> 0.4.0
\echo Use "ALTER EXTENSION chronoid UPDATE TO '0.4.0'" to load this file. \quit

-- scru160 for a given instant (backfills, imports, tests): unique through
-- its random bits. The counter formats have none to spare, so they get no
-- such generator (README, "IDs for a given instant").
CREATE FUNCTION gen_scru160(timestamptz) RETURNS scru160
    AS 'MODULE_PATHNAME', 'gen_scru160_at_wrapper' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION gen_scru160(timestamptz) IS
    'A new scru160 whose timestamp is the given instant; unique through 96 random bits';

-- codokey <-> bytea, its storage: one byte per base-36 digit.
CREATE FUNCTION codokey_from_bytea(bytea) RETURNS codokey
    AS 'MODULE_PATHNAME', 'codokey_from_bytea_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION codokey_from_bytea(bytea) IS
    'The codokey whose digits are these bytes (as binary receive accepts them)';
CREATE CAST (bytea AS codokey) WITH FUNCTION codokey_from_bytea(bytea);
CREATE CAST (codokey AS bytea) WITHOUT FUNCTION;

-- codokey sorts with its own sort support: bytea's order, abbreviated keys
-- packing ten digit values. Same function, same opclass entry; stored keys
-- and indexes are unchanged (the order is the same).
CREATE OR REPLACE FUNCTION codokey_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'codokey_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- BEGIN GENERATED integer comparisons (scripts/generate_sql.py)
-- nanoflake compared with bigint, integer and smallint, both ways round, as its
-- bigint cast: `id = 5` means `id::bigint = 5` (a number, never a base-36
-- reading), by PostgreSQL's own int8, int84, int48, int82 and int28
-- functions. In the btree family of nanoflake_ops, so a nanoflake index serves
-- `WHERE id = 362387865620487` and ranges of numbers. No implicit cast is
-- involved, so no operator call becomes ambiguous. (The int-int pairs stay
-- in integer_ops: amvalidate() reports this family as missing them.)
CREATE FUNCTION nanoflake_eq(nanoflake, bigint) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ne(nanoflake, bigint) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_lt(nanoflake, bigint) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_le(nanoflake, bigint) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_gt(nanoflake, bigint) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ge(nanoflake, bigint) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_cmp(nanoflake, bigint) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = nanoflake, RIGHTARG = bigint, FUNCTION = nanoflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = nanoflake, RIGHTARG = bigint, FUNCTION = nanoflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = nanoflake, RIGHTARG = bigint, FUNCTION = nanoflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = nanoflake, RIGHTARG = bigint, FUNCTION = nanoflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = nanoflake, RIGHTARG = bigint, FUNCTION = nanoflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = nanoflake, RIGHTARG = bigint, FUNCTION = nanoflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION nanoflake_eq(bigint, nanoflake) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ne(bigint, nanoflake) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_lt(bigint, nanoflake) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_le(bigint, nanoflake) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_gt(bigint, nanoflake) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ge(bigint, nanoflake) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_cmp(bigint, nanoflake) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = bigint, RIGHTARG = nanoflake, FUNCTION = nanoflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = bigint, RIGHTARG = nanoflake, FUNCTION = nanoflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = bigint, RIGHTARG = nanoflake, FUNCTION = nanoflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = bigint, RIGHTARG = nanoflake, FUNCTION = nanoflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = bigint, RIGHTARG = nanoflake, FUNCTION = nanoflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = bigint, RIGHTARG = nanoflake, FUNCTION = nanoflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION nanoflake_eq(nanoflake, integer) RETURNS bool
    AS 'int84eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ne(nanoflake, integer) RETURNS bool
    AS 'int84ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_lt(nanoflake, integer) RETURNS bool
    AS 'int84lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_le(nanoflake, integer) RETURNS bool
    AS 'int84le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_gt(nanoflake, integer) RETURNS bool
    AS 'int84gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ge(nanoflake, integer) RETURNS bool
    AS 'int84ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_cmp(nanoflake, integer) RETURNS int4
    AS 'btint84cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = nanoflake, RIGHTARG = integer, FUNCTION = nanoflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = nanoflake, RIGHTARG = integer, FUNCTION = nanoflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = nanoflake, RIGHTARG = integer, FUNCTION = nanoflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = nanoflake, RIGHTARG = integer, FUNCTION = nanoflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = nanoflake, RIGHTARG = integer, FUNCTION = nanoflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = nanoflake, RIGHTARG = integer, FUNCTION = nanoflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION nanoflake_eq(integer, nanoflake) RETURNS bool
    AS 'int48eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ne(integer, nanoflake) RETURNS bool
    AS 'int48ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_lt(integer, nanoflake) RETURNS bool
    AS 'int48lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_le(integer, nanoflake) RETURNS bool
    AS 'int48le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_gt(integer, nanoflake) RETURNS bool
    AS 'int48gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ge(integer, nanoflake) RETURNS bool
    AS 'int48ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_cmp(integer, nanoflake) RETURNS int4
    AS 'btint48cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = integer, RIGHTARG = nanoflake, FUNCTION = nanoflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = integer, RIGHTARG = nanoflake, FUNCTION = nanoflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = integer, RIGHTARG = nanoflake, FUNCTION = nanoflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = integer, RIGHTARG = nanoflake, FUNCTION = nanoflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = integer, RIGHTARG = nanoflake, FUNCTION = nanoflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = integer, RIGHTARG = nanoflake, FUNCTION = nanoflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION nanoflake_eq(nanoflake, smallint) RETURNS bool
    AS 'int82eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ne(nanoflake, smallint) RETURNS bool
    AS 'int82ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_lt(nanoflake, smallint) RETURNS bool
    AS 'int82lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_le(nanoflake, smallint) RETURNS bool
    AS 'int82le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_gt(nanoflake, smallint) RETURNS bool
    AS 'int82gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ge(nanoflake, smallint) RETURNS bool
    AS 'int82ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_cmp(nanoflake, smallint) RETURNS int4
    AS 'btint82cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = nanoflake, RIGHTARG = smallint, FUNCTION = nanoflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = nanoflake, RIGHTARG = smallint, FUNCTION = nanoflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = nanoflake, RIGHTARG = smallint, FUNCTION = nanoflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = nanoflake, RIGHTARG = smallint, FUNCTION = nanoflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = nanoflake, RIGHTARG = smallint, FUNCTION = nanoflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = nanoflake, RIGHTARG = smallint, FUNCTION = nanoflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION nanoflake_eq(smallint, nanoflake) RETURNS bool
    AS 'int28eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ne(smallint, nanoflake) RETURNS bool
    AS 'int28ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_lt(smallint, nanoflake) RETURNS bool
    AS 'int28lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_le(smallint, nanoflake) RETURNS bool
    AS 'int28le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_gt(smallint, nanoflake) RETURNS bool
    AS 'int28gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_ge(smallint, nanoflake) RETURNS bool
    AS 'int28ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION nanoflake_cmp(smallint, nanoflake) RETURNS int4
    AS 'btint28cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = smallint, RIGHTARG = nanoflake, FUNCTION = nanoflake_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = smallint, RIGHTARG = nanoflake, FUNCTION = nanoflake_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = smallint, RIGHTARG = nanoflake, FUNCTION = nanoflake_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = smallint, RIGHTARG = nanoflake, FUNCTION = nanoflake_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = smallint, RIGHTARG = nanoflake, FUNCTION = nanoflake_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = smallint, RIGHTARG = nanoflake, FUNCTION = nanoflake_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
ALTER OPERATOR FAMILY nanoflake_ops USING btree ADD
    OPERATOR 1 < (nanoflake, bigint), OPERATOR 2 <= (nanoflake, bigint), OPERATOR 3 = (nanoflake, bigint),
    OPERATOR 4 >= (nanoflake, bigint), OPERATOR 5 > (nanoflake, bigint),
    FUNCTION 1 (nanoflake, bigint) nanoflake_cmp(nanoflake, bigint),
    OPERATOR 1 < (bigint, nanoflake), OPERATOR 2 <= (bigint, nanoflake), OPERATOR 3 = (bigint, nanoflake),
    OPERATOR 4 >= (bigint, nanoflake), OPERATOR 5 > (bigint, nanoflake),
    FUNCTION 1 (bigint, nanoflake) nanoflake_cmp(bigint, nanoflake),
    OPERATOR 1 < (nanoflake, integer), OPERATOR 2 <= (nanoflake, integer), OPERATOR 3 = (nanoflake, integer),
    OPERATOR 4 >= (nanoflake, integer), OPERATOR 5 > (nanoflake, integer),
    FUNCTION 1 (nanoflake, integer) nanoflake_cmp(nanoflake, integer),
    OPERATOR 1 < (integer, nanoflake), OPERATOR 2 <= (integer, nanoflake), OPERATOR 3 = (integer, nanoflake),
    OPERATOR 4 >= (integer, nanoflake), OPERATOR 5 > (integer, nanoflake),
    FUNCTION 1 (integer, nanoflake) nanoflake_cmp(integer, nanoflake),
    OPERATOR 1 < (nanoflake, smallint), OPERATOR 2 <= (nanoflake, smallint), OPERATOR 3 = (nanoflake, smallint),
    OPERATOR 4 >= (nanoflake, smallint), OPERATOR 5 > (nanoflake, smallint),
    FUNCTION 1 (nanoflake, smallint) nanoflake_cmp(nanoflake, smallint),
    OPERATOR 1 < (smallint, nanoflake), OPERATOR 2 <= (smallint, nanoflake), OPERATOR 3 = (smallint, nanoflake),
    OPERATOR 4 >= (smallint, nanoflake), OPERATOR 5 > (smallint, nanoflake),
    FUNCTION 1 (smallint, nanoflake) nanoflake_cmp(smallint, nanoflake);

-- caloriosa compared with bigint, integer and smallint, both ways round, as its
-- bigint cast: `id = 5` means `id::bigint = 5` (a number, never a base-36
-- reading), by PostgreSQL's own int8, int84, int48, int82 and int28
-- functions. In the btree family of caloriosa_ops, so a caloriosa index serves
-- `WHERE id = 362387865620487` and ranges of numbers. No implicit cast is
-- involved, so no operator call becomes ambiguous. (The int-int pairs stay
-- in integer_ops: amvalidate() reports this family as missing them.)
CREATE FUNCTION caloriosa_eq(caloriosa, bigint) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ne(caloriosa, bigint) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_lt(caloriosa, bigint) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_le(caloriosa, bigint) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_gt(caloriosa, bigint) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ge(caloriosa, bigint) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_cmp(caloriosa, bigint) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = caloriosa, RIGHTARG = bigint, FUNCTION = caloriosa_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = caloriosa, RIGHTARG = bigint, FUNCTION = caloriosa_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = caloriosa, RIGHTARG = bigint, FUNCTION = caloriosa_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = caloriosa, RIGHTARG = bigint, FUNCTION = caloriosa_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = caloriosa, RIGHTARG = bigint, FUNCTION = caloriosa_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = caloriosa, RIGHTARG = bigint, FUNCTION = caloriosa_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION caloriosa_eq(bigint, caloriosa) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ne(bigint, caloriosa) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_lt(bigint, caloriosa) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_le(bigint, caloriosa) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_gt(bigint, caloriosa) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ge(bigint, caloriosa) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_cmp(bigint, caloriosa) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = bigint, RIGHTARG = caloriosa, FUNCTION = caloriosa_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = bigint, RIGHTARG = caloriosa, FUNCTION = caloriosa_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = bigint, RIGHTARG = caloriosa, FUNCTION = caloriosa_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = bigint, RIGHTARG = caloriosa, FUNCTION = caloriosa_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = bigint, RIGHTARG = caloriosa, FUNCTION = caloriosa_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = bigint, RIGHTARG = caloriosa, FUNCTION = caloriosa_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION caloriosa_eq(caloriosa, integer) RETURNS bool
    AS 'int84eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ne(caloriosa, integer) RETURNS bool
    AS 'int84ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_lt(caloriosa, integer) RETURNS bool
    AS 'int84lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_le(caloriosa, integer) RETURNS bool
    AS 'int84le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_gt(caloriosa, integer) RETURNS bool
    AS 'int84gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ge(caloriosa, integer) RETURNS bool
    AS 'int84ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_cmp(caloriosa, integer) RETURNS int4
    AS 'btint84cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = caloriosa, RIGHTARG = integer, FUNCTION = caloriosa_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = caloriosa, RIGHTARG = integer, FUNCTION = caloriosa_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = caloriosa, RIGHTARG = integer, FUNCTION = caloriosa_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = caloriosa, RIGHTARG = integer, FUNCTION = caloriosa_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = caloriosa, RIGHTARG = integer, FUNCTION = caloriosa_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = caloriosa, RIGHTARG = integer, FUNCTION = caloriosa_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION caloriosa_eq(integer, caloriosa) RETURNS bool
    AS 'int48eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ne(integer, caloriosa) RETURNS bool
    AS 'int48ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_lt(integer, caloriosa) RETURNS bool
    AS 'int48lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_le(integer, caloriosa) RETURNS bool
    AS 'int48le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_gt(integer, caloriosa) RETURNS bool
    AS 'int48gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ge(integer, caloriosa) RETURNS bool
    AS 'int48ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_cmp(integer, caloriosa) RETURNS int4
    AS 'btint48cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = integer, RIGHTARG = caloriosa, FUNCTION = caloriosa_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = integer, RIGHTARG = caloriosa, FUNCTION = caloriosa_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = integer, RIGHTARG = caloriosa, FUNCTION = caloriosa_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = integer, RIGHTARG = caloriosa, FUNCTION = caloriosa_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = integer, RIGHTARG = caloriosa, FUNCTION = caloriosa_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = integer, RIGHTARG = caloriosa, FUNCTION = caloriosa_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION caloriosa_eq(caloriosa, smallint) RETURNS bool
    AS 'int82eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ne(caloriosa, smallint) RETURNS bool
    AS 'int82ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_lt(caloriosa, smallint) RETURNS bool
    AS 'int82lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_le(caloriosa, smallint) RETURNS bool
    AS 'int82le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_gt(caloriosa, smallint) RETURNS bool
    AS 'int82gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ge(caloriosa, smallint) RETURNS bool
    AS 'int82ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_cmp(caloriosa, smallint) RETURNS int4
    AS 'btint82cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = caloriosa, RIGHTARG = smallint, FUNCTION = caloriosa_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = caloriosa, RIGHTARG = smallint, FUNCTION = caloriosa_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = caloriosa, RIGHTARG = smallint, FUNCTION = caloriosa_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = caloriosa, RIGHTARG = smallint, FUNCTION = caloriosa_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = caloriosa, RIGHTARG = smallint, FUNCTION = caloriosa_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = caloriosa, RIGHTARG = smallint, FUNCTION = caloriosa_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION caloriosa_eq(smallint, caloriosa) RETURNS bool
    AS 'int28eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ne(smallint, caloriosa) RETURNS bool
    AS 'int28ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_lt(smallint, caloriosa) RETURNS bool
    AS 'int28lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_le(smallint, caloriosa) RETURNS bool
    AS 'int28le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_gt(smallint, caloriosa) RETURNS bool
    AS 'int28gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_ge(smallint, caloriosa) RETURNS bool
    AS 'int28ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION caloriosa_cmp(smallint, caloriosa) RETURNS int4
    AS 'btint28cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = smallint, RIGHTARG = caloriosa, FUNCTION = caloriosa_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = smallint, RIGHTARG = caloriosa, FUNCTION = caloriosa_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = smallint, RIGHTARG = caloriosa, FUNCTION = caloriosa_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = smallint, RIGHTARG = caloriosa, FUNCTION = caloriosa_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = smallint, RIGHTARG = caloriosa, FUNCTION = caloriosa_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = smallint, RIGHTARG = caloriosa, FUNCTION = caloriosa_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
ALTER OPERATOR FAMILY caloriosa_ops USING btree ADD
    OPERATOR 1 < (caloriosa, bigint), OPERATOR 2 <= (caloriosa, bigint), OPERATOR 3 = (caloriosa, bigint),
    OPERATOR 4 >= (caloriosa, bigint), OPERATOR 5 > (caloriosa, bigint),
    FUNCTION 1 (caloriosa, bigint) caloriosa_cmp(caloriosa, bigint),
    OPERATOR 1 < (bigint, caloriosa), OPERATOR 2 <= (bigint, caloriosa), OPERATOR 3 = (bigint, caloriosa),
    OPERATOR 4 >= (bigint, caloriosa), OPERATOR 5 > (bigint, caloriosa),
    FUNCTION 1 (bigint, caloriosa) caloriosa_cmp(bigint, caloriosa),
    OPERATOR 1 < (caloriosa, integer), OPERATOR 2 <= (caloriosa, integer), OPERATOR 3 = (caloriosa, integer),
    OPERATOR 4 >= (caloriosa, integer), OPERATOR 5 > (caloriosa, integer),
    FUNCTION 1 (caloriosa, integer) caloriosa_cmp(caloriosa, integer),
    OPERATOR 1 < (integer, caloriosa), OPERATOR 2 <= (integer, caloriosa), OPERATOR 3 = (integer, caloriosa),
    OPERATOR 4 >= (integer, caloriosa), OPERATOR 5 > (integer, caloriosa),
    FUNCTION 1 (integer, caloriosa) caloriosa_cmp(integer, caloriosa),
    OPERATOR 1 < (caloriosa, smallint), OPERATOR 2 <= (caloriosa, smallint), OPERATOR 3 = (caloriosa, smallint),
    OPERATOR 4 >= (caloriosa, smallint), OPERATOR 5 > (caloriosa, smallint),
    FUNCTION 1 (caloriosa, smallint) caloriosa_cmp(caloriosa, smallint),
    OPERATOR 1 < (smallint, caloriosa), OPERATOR 2 <= (smallint, caloriosa), OPERATOR 3 = (smallint, caloriosa),
    OPERATOR 4 >= (smallint, caloriosa), OPERATOR 5 > (smallint, caloriosa),
    FUNCTION 1 (smallint, caloriosa) caloriosa_cmp(smallint, caloriosa);

-- uid60 compared with bigint, integer and smallint, both ways round, as its
-- bigint cast: `id = 5` means `id::bigint = 5` (a number, never a base-36
-- reading), by PostgreSQL's own int8, int84, int48, int82 and int28
-- functions. In the btree family of uid60_ops, so a uid60 index serves
-- `WHERE id = 362387865620487` and ranges of numbers. No implicit cast is
-- involved, so no operator call becomes ambiguous. (The int-int pairs stay
-- in integer_ops: amvalidate() reports this family as missing them.)
CREATE FUNCTION uid60_eq(uid60, bigint) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ne(uid60, bigint) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_lt(uid60, bigint) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_le(uid60, bigint) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_gt(uid60, bigint) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ge(uid60, bigint) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_cmp(uid60, bigint) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = uid60, RIGHTARG = bigint, FUNCTION = uid60_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = uid60, RIGHTARG = bigint, FUNCTION = uid60_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = uid60, RIGHTARG = bigint, FUNCTION = uid60_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = uid60, RIGHTARG = bigint, FUNCTION = uid60_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = uid60, RIGHTARG = bigint, FUNCTION = uid60_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = uid60, RIGHTARG = bigint, FUNCTION = uid60_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION uid60_eq(bigint, uid60) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ne(bigint, uid60) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_lt(bigint, uid60) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_le(bigint, uid60) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_gt(bigint, uid60) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ge(bigint, uid60) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_cmp(bigint, uid60) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = bigint, RIGHTARG = uid60, FUNCTION = uid60_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = bigint, RIGHTARG = uid60, FUNCTION = uid60_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = bigint, RIGHTARG = uid60, FUNCTION = uid60_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = bigint, RIGHTARG = uid60, FUNCTION = uid60_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = bigint, RIGHTARG = uid60, FUNCTION = uid60_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = bigint, RIGHTARG = uid60, FUNCTION = uid60_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION uid60_eq(uid60, integer) RETURNS bool
    AS 'int84eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ne(uid60, integer) RETURNS bool
    AS 'int84ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_lt(uid60, integer) RETURNS bool
    AS 'int84lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_le(uid60, integer) RETURNS bool
    AS 'int84le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_gt(uid60, integer) RETURNS bool
    AS 'int84gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ge(uid60, integer) RETURNS bool
    AS 'int84ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_cmp(uid60, integer) RETURNS int4
    AS 'btint84cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = uid60, RIGHTARG = integer, FUNCTION = uid60_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = uid60, RIGHTARG = integer, FUNCTION = uid60_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = uid60, RIGHTARG = integer, FUNCTION = uid60_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = uid60, RIGHTARG = integer, FUNCTION = uid60_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = uid60, RIGHTARG = integer, FUNCTION = uid60_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = uid60, RIGHTARG = integer, FUNCTION = uid60_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION uid60_eq(integer, uid60) RETURNS bool
    AS 'int48eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ne(integer, uid60) RETURNS bool
    AS 'int48ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_lt(integer, uid60) RETURNS bool
    AS 'int48lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_le(integer, uid60) RETURNS bool
    AS 'int48le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_gt(integer, uid60) RETURNS bool
    AS 'int48gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ge(integer, uid60) RETURNS bool
    AS 'int48ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_cmp(integer, uid60) RETURNS int4
    AS 'btint48cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = integer, RIGHTARG = uid60, FUNCTION = uid60_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = integer, RIGHTARG = uid60, FUNCTION = uid60_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = integer, RIGHTARG = uid60, FUNCTION = uid60_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = integer, RIGHTARG = uid60, FUNCTION = uid60_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = integer, RIGHTARG = uid60, FUNCTION = uid60_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = integer, RIGHTARG = uid60, FUNCTION = uid60_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION uid60_eq(uid60, smallint) RETURNS bool
    AS 'int82eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ne(uid60, smallint) RETURNS bool
    AS 'int82ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_lt(uid60, smallint) RETURNS bool
    AS 'int82lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_le(uid60, smallint) RETURNS bool
    AS 'int82le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_gt(uid60, smallint) RETURNS bool
    AS 'int82gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ge(uid60, smallint) RETURNS bool
    AS 'int82ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_cmp(uid60, smallint) RETURNS int4
    AS 'btint82cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = uid60, RIGHTARG = smallint, FUNCTION = uid60_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = uid60, RIGHTARG = smallint, FUNCTION = uid60_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = uid60, RIGHTARG = smallint, FUNCTION = uid60_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = uid60, RIGHTARG = smallint, FUNCTION = uid60_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = uid60, RIGHTARG = smallint, FUNCTION = uid60_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = uid60, RIGHTARG = smallint, FUNCTION = uid60_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE FUNCTION uid60_eq(smallint, uid60) RETURNS bool
    AS 'int28eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ne(smallint, uid60) RETURNS bool
    AS 'int28ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_lt(smallint, uid60) RETURNS bool
    AS 'int28lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_le(smallint, uid60) RETURNS bool
    AS 'int28le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_gt(smallint, uid60) RETURNS bool
    AS 'int28gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_ge(smallint, uid60) RETURNS bool
    AS 'int28ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uid60_cmp(smallint, uid60) RETURNS int4
    AS 'btint28cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR = (
    LEFTARG = smallint, RIGHTARG = uid60, FUNCTION = uid60_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES);
CREATE OPERATOR <> (
    LEFTARG = smallint, RIGHTARG = uid60, FUNCTION = uid60_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (
    LEFTARG = smallint, RIGHTARG = uid60, FUNCTION = uid60_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (
    LEFTARG = smallint, RIGHTARG = uid60, FUNCTION = uid60_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (
    LEFTARG = smallint, RIGHTARG = uid60, FUNCTION = uid60_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (
    LEFTARG = smallint, RIGHTARG = uid60, FUNCTION = uid60_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);
ALTER OPERATOR FAMILY uid60_ops USING btree ADD
    OPERATOR 1 < (uid60, bigint), OPERATOR 2 <= (uid60, bigint), OPERATOR 3 = (uid60, bigint),
    OPERATOR 4 >= (uid60, bigint), OPERATOR 5 > (uid60, bigint),
    FUNCTION 1 (uid60, bigint) uid60_cmp(uid60, bigint),
    OPERATOR 1 < (bigint, uid60), OPERATOR 2 <= (bigint, uid60), OPERATOR 3 = (bigint, uid60),
    OPERATOR 4 >= (bigint, uid60), OPERATOR 5 > (bigint, uid60),
    FUNCTION 1 (bigint, uid60) uid60_cmp(bigint, uid60),
    OPERATOR 1 < (uid60, integer), OPERATOR 2 <= (uid60, integer), OPERATOR 3 = (uid60, integer),
    OPERATOR 4 >= (uid60, integer), OPERATOR 5 > (uid60, integer),
    FUNCTION 1 (uid60, integer) uid60_cmp(uid60, integer),
    OPERATOR 1 < (integer, uid60), OPERATOR 2 <= (integer, uid60), OPERATOR 3 = (integer, uid60),
    OPERATOR 4 >= (integer, uid60), OPERATOR 5 > (integer, uid60),
    FUNCTION 1 (integer, uid60) uid60_cmp(integer, uid60),
    OPERATOR 1 < (uid60, smallint), OPERATOR 2 <= (uid60, smallint), OPERATOR 3 = (uid60, smallint),
    OPERATOR 4 >= (uid60, smallint), OPERATOR 5 > (uid60, smallint),
    FUNCTION 1 (uid60, smallint) uid60_cmp(uid60, smallint),
    OPERATOR 1 < (smallint, uid60), OPERATOR 2 <= (smallint, uid60), OPERATOR 3 = (smallint, uid60),
    OPERATOR 4 >= (smallint, uid60), OPERATOR 5 > (smallint, uid60),
    FUNCTION 1 (smallint, uid60) uid60_cmp(smallint, uid60);

-- END GENERATED integer comparisons
