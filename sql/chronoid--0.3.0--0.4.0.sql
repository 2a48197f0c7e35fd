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
-- involved, so no operator call becomes ambiguous. The family also holds
-- the integers' own operators (for arrays of numbers in index scans), so it
-- is complete.
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
    FUNCTION 1 (smallint, nanoflake) nanoflake_cmp(smallint, nanoflake),
    OPERATOR 1 < (bigint, bigint), OPERATOR 2 <= (bigint, bigint), OPERATOR 3 = (bigint, bigint),
    OPERATOR 4 >= (bigint, bigint), OPERATOR 5 > (bigint, bigint),
    FUNCTION 1 (bigint, bigint) btint8cmp(bigint, bigint),
    OPERATOR 1 < (bigint, integer), OPERATOR 2 <= (bigint, integer), OPERATOR 3 = (bigint, integer),
    OPERATOR 4 >= (bigint, integer), OPERATOR 5 > (bigint, integer),
    FUNCTION 1 (bigint, integer) btint84cmp(bigint, integer),
    OPERATOR 1 < (bigint, smallint), OPERATOR 2 <= (bigint, smallint), OPERATOR 3 = (bigint, smallint),
    OPERATOR 4 >= (bigint, smallint), OPERATOR 5 > (bigint, smallint),
    FUNCTION 1 (bigint, smallint) btint82cmp(bigint, smallint),
    OPERATOR 1 < (integer, bigint), OPERATOR 2 <= (integer, bigint), OPERATOR 3 = (integer, bigint),
    OPERATOR 4 >= (integer, bigint), OPERATOR 5 > (integer, bigint),
    FUNCTION 1 (integer, bigint) btint48cmp(integer, bigint),
    OPERATOR 1 < (integer, integer), OPERATOR 2 <= (integer, integer), OPERATOR 3 = (integer, integer),
    OPERATOR 4 >= (integer, integer), OPERATOR 5 > (integer, integer),
    FUNCTION 1 (integer, integer) btint4cmp(integer, integer),
    OPERATOR 1 < (integer, smallint), OPERATOR 2 <= (integer, smallint), OPERATOR 3 = (integer, smallint),
    OPERATOR 4 >= (integer, smallint), OPERATOR 5 > (integer, smallint),
    FUNCTION 1 (integer, smallint) btint42cmp(integer, smallint),
    OPERATOR 1 < (smallint, bigint), OPERATOR 2 <= (smallint, bigint), OPERATOR 3 = (smallint, bigint),
    OPERATOR 4 >= (smallint, bigint), OPERATOR 5 > (smallint, bigint),
    FUNCTION 1 (smallint, bigint) btint28cmp(smallint, bigint),
    OPERATOR 1 < (smallint, integer), OPERATOR 2 <= (smallint, integer), OPERATOR 3 = (smallint, integer),
    OPERATOR 4 >= (smallint, integer), OPERATOR 5 > (smallint, integer),
    FUNCTION 1 (smallint, integer) btint24cmp(smallint, integer),
    OPERATOR 1 < (smallint, smallint), OPERATOR 2 <= (smallint, smallint), OPERATOR 3 = (smallint, smallint),
    OPERATOR 4 >= (smallint, smallint), OPERATOR 5 > (smallint, smallint),
    FUNCTION 1 (smallint, smallint) btint2cmp(smallint, smallint);

-- caloriosa compared with bigint, integer and smallint, both ways round, as its
-- bigint cast: `id = 5` means `id::bigint = 5` (a number, never a base-36
-- reading), by PostgreSQL's own int8, int84, int48, int82 and int28
-- functions. In the btree family of caloriosa_ops, so a caloriosa index serves
-- `WHERE id = 362387865620487` and ranges of numbers. No implicit cast is
-- involved, so no operator call becomes ambiguous. The family also holds
-- the integers' own operators (for arrays of numbers in index scans), so it
-- is complete.
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
    FUNCTION 1 (smallint, caloriosa) caloriosa_cmp(smallint, caloriosa),
    OPERATOR 1 < (bigint, bigint), OPERATOR 2 <= (bigint, bigint), OPERATOR 3 = (bigint, bigint),
    OPERATOR 4 >= (bigint, bigint), OPERATOR 5 > (bigint, bigint),
    FUNCTION 1 (bigint, bigint) btint8cmp(bigint, bigint),
    OPERATOR 1 < (bigint, integer), OPERATOR 2 <= (bigint, integer), OPERATOR 3 = (bigint, integer),
    OPERATOR 4 >= (bigint, integer), OPERATOR 5 > (bigint, integer),
    FUNCTION 1 (bigint, integer) btint84cmp(bigint, integer),
    OPERATOR 1 < (bigint, smallint), OPERATOR 2 <= (bigint, smallint), OPERATOR 3 = (bigint, smallint),
    OPERATOR 4 >= (bigint, smallint), OPERATOR 5 > (bigint, smallint),
    FUNCTION 1 (bigint, smallint) btint82cmp(bigint, smallint),
    OPERATOR 1 < (integer, bigint), OPERATOR 2 <= (integer, bigint), OPERATOR 3 = (integer, bigint),
    OPERATOR 4 >= (integer, bigint), OPERATOR 5 > (integer, bigint),
    FUNCTION 1 (integer, bigint) btint48cmp(integer, bigint),
    OPERATOR 1 < (integer, integer), OPERATOR 2 <= (integer, integer), OPERATOR 3 = (integer, integer),
    OPERATOR 4 >= (integer, integer), OPERATOR 5 > (integer, integer),
    FUNCTION 1 (integer, integer) btint4cmp(integer, integer),
    OPERATOR 1 < (integer, smallint), OPERATOR 2 <= (integer, smallint), OPERATOR 3 = (integer, smallint),
    OPERATOR 4 >= (integer, smallint), OPERATOR 5 > (integer, smallint),
    FUNCTION 1 (integer, smallint) btint42cmp(integer, smallint),
    OPERATOR 1 < (smallint, bigint), OPERATOR 2 <= (smallint, bigint), OPERATOR 3 = (smallint, bigint),
    OPERATOR 4 >= (smallint, bigint), OPERATOR 5 > (smallint, bigint),
    FUNCTION 1 (smallint, bigint) btint28cmp(smallint, bigint),
    OPERATOR 1 < (smallint, integer), OPERATOR 2 <= (smallint, integer), OPERATOR 3 = (smallint, integer),
    OPERATOR 4 >= (smallint, integer), OPERATOR 5 > (smallint, integer),
    FUNCTION 1 (smallint, integer) btint24cmp(smallint, integer),
    OPERATOR 1 < (smallint, smallint), OPERATOR 2 <= (smallint, smallint), OPERATOR 3 = (smallint, smallint),
    OPERATOR 4 >= (smallint, smallint), OPERATOR 5 > (smallint, smallint),
    FUNCTION 1 (smallint, smallint) btint2cmp(smallint, smallint);

-- uid60 compared with bigint, integer and smallint, both ways round, as its
-- bigint cast: `id = 5` means `id::bigint = 5` (a number, never a base-36
-- reading), by PostgreSQL's own int8, int84, int48, int82 and int28
-- functions. In the btree family of uid60_ops, so a uid60 index serves
-- `WHERE id = 362387865620487` and ranges of numbers. No implicit cast is
-- involved, so no operator call becomes ambiguous. The family also holds
-- the integers' own operators (for arrays of numbers in index scans), so it
-- is complete.
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
    FUNCTION 1 (smallint, uid60) uid60_cmp(smallint, uid60),
    OPERATOR 1 < (bigint, bigint), OPERATOR 2 <= (bigint, bigint), OPERATOR 3 = (bigint, bigint),
    OPERATOR 4 >= (bigint, bigint), OPERATOR 5 > (bigint, bigint),
    FUNCTION 1 (bigint, bigint) btint8cmp(bigint, bigint),
    OPERATOR 1 < (bigint, integer), OPERATOR 2 <= (bigint, integer), OPERATOR 3 = (bigint, integer),
    OPERATOR 4 >= (bigint, integer), OPERATOR 5 > (bigint, integer),
    FUNCTION 1 (bigint, integer) btint84cmp(bigint, integer),
    OPERATOR 1 < (bigint, smallint), OPERATOR 2 <= (bigint, smallint), OPERATOR 3 = (bigint, smallint),
    OPERATOR 4 >= (bigint, smallint), OPERATOR 5 > (bigint, smallint),
    FUNCTION 1 (bigint, smallint) btint82cmp(bigint, smallint),
    OPERATOR 1 < (integer, bigint), OPERATOR 2 <= (integer, bigint), OPERATOR 3 = (integer, bigint),
    OPERATOR 4 >= (integer, bigint), OPERATOR 5 > (integer, bigint),
    FUNCTION 1 (integer, bigint) btint48cmp(integer, bigint),
    OPERATOR 1 < (integer, integer), OPERATOR 2 <= (integer, integer), OPERATOR 3 = (integer, integer),
    OPERATOR 4 >= (integer, integer), OPERATOR 5 > (integer, integer),
    FUNCTION 1 (integer, integer) btint4cmp(integer, integer),
    OPERATOR 1 < (integer, smallint), OPERATOR 2 <= (integer, smallint), OPERATOR 3 = (integer, smallint),
    OPERATOR 4 >= (integer, smallint), OPERATOR 5 > (integer, smallint),
    FUNCTION 1 (integer, smallint) btint42cmp(integer, smallint),
    OPERATOR 1 < (smallint, bigint), OPERATOR 2 <= (smallint, bigint), OPERATOR 3 = (smallint, bigint),
    OPERATOR 4 >= (smallint, bigint), OPERATOR 5 > (smallint, bigint),
    FUNCTION 1 (smallint, bigint) btint28cmp(smallint, bigint),
    OPERATOR 1 < (smallint, integer), OPERATOR 2 <= (smallint, integer), OPERATOR 3 = (smallint, integer),
    OPERATOR 4 >= (smallint, integer), OPERATOR 5 > (smallint, integer),
    FUNCTION 1 (smallint, integer) btint24cmp(smallint, integer),
    OPERATOR 1 < (smallint, smallint), OPERATOR 2 <= (smallint, smallint), OPERATOR 3 = (smallint, smallint),
    OPERATOR 4 >= (smallint, smallint), OPERATOR 5 > (smallint, smallint),
    FUNCTION 1 (smallint, smallint) btint2cmp(smallint, smallint);

-- END GENERATED integer comparisons

-- BEGIN GENERATED comments (scripts/generate_sql.py)
-- GENERATED by scripts/generate_sql.py: COMMENT ON every function and
-- aggregate chronoid installs that is not commented where it is declared.

-- nanoflake
COMMENT ON FUNCTION nanoflake_in(cstring) IS 'I/O: nanoflake from its text form';
COMMENT ON FUNCTION nanoflake_out(nanoflake) IS 'I/O: the text form of a nanoflake';
COMMENT ON FUNCTION nanoflake_recv(internal) IS 'I/O: nanoflake from its binary form (checked)';
COMMENT ON FUNCTION nanoflake_send(nanoflake) IS 'I/O: the binary form of a nanoflake';
COMMENT ON FUNCTION nanoflake_eq(nanoflake, nanoflake) IS 'implementation of = operator';
COMMENT ON FUNCTION nanoflake_ne(nanoflake, nanoflake) IS 'implementation of <> operator';
COMMENT ON FUNCTION nanoflake_lt(nanoflake, nanoflake) IS 'implementation of < operator';
COMMENT ON FUNCTION nanoflake_le(nanoflake, nanoflake) IS 'implementation of <= operator';
COMMENT ON FUNCTION nanoflake_gt(nanoflake, nanoflake) IS 'implementation of > operator';
COMMENT ON FUNCTION nanoflake_ge(nanoflake, nanoflake) IS 'implementation of >= operator';
COMMENT ON FUNCTION nanoflake_cmp(nanoflake, nanoflake) IS 'less-equal-greater: btree comparison of nanoflake';
COMMENT ON FUNCTION nanoflake_sortsupport(internal) IS 'sort support for nanoflake';
COMMENT ON FUNCTION nanoflake_hash(nanoflake) IS 'hash of a nanoflake';
COMMENT ON FUNCTION nanoflake_hash_extended(nanoflake, int8) IS 'hash of a nanoflake with a seed (hash partitioning)';
COMMENT ON FUNCTION nanoflake_smaller(nanoflake, nanoflake) IS 'the smaller of two nanoflake values (for min)';
COMMENT ON FUNCTION nanoflake_larger(nanoflake, nanoflake) IS 'the larger of two nanoflake values (for max)';
COMMENT ON AGGREGATE min(nanoflake) IS 'minimum value of all nanoflake input values';
COMMENT ON AGGREGATE max(nanoflake) IS 'maximum value of all nanoflake input values';
COMMENT ON FUNCTION nanoflake_eq(nanoflake, bigint) IS 'implementation of = operator';
COMMENT ON FUNCTION nanoflake_ne(nanoflake, bigint) IS 'implementation of <> operator';
COMMENT ON FUNCTION nanoflake_lt(nanoflake, bigint) IS 'implementation of < operator';
COMMENT ON FUNCTION nanoflake_le(nanoflake, bigint) IS 'implementation of <= operator';
COMMENT ON FUNCTION nanoflake_gt(nanoflake, bigint) IS 'implementation of > operator';
COMMENT ON FUNCTION nanoflake_ge(nanoflake, bigint) IS 'implementation of >= operator';
COMMENT ON FUNCTION nanoflake_cmp(nanoflake, bigint) IS 'less-equal-greater: btree comparison of nanoflake and bigint';
COMMENT ON FUNCTION nanoflake_eq(bigint, nanoflake) IS 'implementation of = operator';
COMMENT ON FUNCTION nanoflake_ne(bigint, nanoflake) IS 'implementation of <> operator';
COMMENT ON FUNCTION nanoflake_lt(bigint, nanoflake) IS 'implementation of < operator';
COMMENT ON FUNCTION nanoflake_le(bigint, nanoflake) IS 'implementation of <= operator';
COMMENT ON FUNCTION nanoflake_gt(bigint, nanoflake) IS 'implementation of > operator';
COMMENT ON FUNCTION nanoflake_ge(bigint, nanoflake) IS 'implementation of >= operator';
COMMENT ON FUNCTION nanoflake_cmp(bigint, nanoflake) IS 'less-equal-greater: btree comparison of bigint and nanoflake';
COMMENT ON FUNCTION nanoflake_eq(nanoflake, integer) IS 'implementation of = operator';
COMMENT ON FUNCTION nanoflake_ne(nanoflake, integer) IS 'implementation of <> operator';
COMMENT ON FUNCTION nanoflake_lt(nanoflake, integer) IS 'implementation of < operator';
COMMENT ON FUNCTION nanoflake_le(nanoflake, integer) IS 'implementation of <= operator';
COMMENT ON FUNCTION nanoflake_gt(nanoflake, integer) IS 'implementation of > operator';
COMMENT ON FUNCTION nanoflake_ge(nanoflake, integer) IS 'implementation of >= operator';
COMMENT ON FUNCTION nanoflake_cmp(nanoflake, integer) IS 'less-equal-greater: btree comparison of nanoflake and integer';
COMMENT ON FUNCTION nanoflake_eq(integer, nanoflake) IS 'implementation of = operator';
COMMENT ON FUNCTION nanoflake_ne(integer, nanoflake) IS 'implementation of <> operator';
COMMENT ON FUNCTION nanoflake_lt(integer, nanoflake) IS 'implementation of < operator';
COMMENT ON FUNCTION nanoflake_le(integer, nanoflake) IS 'implementation of <= operator';
COMMENT ON FUNCTION nanoflake_gt(integer, nanoflake) IS 'implementation of > operator';
COMMENT ON FUNCTION nanoflake_ge(integer, nanoflake) IS 'implementation of >= operator';
COMMENT ON FUNCTION nanoflake_cmp(integer, nanoflake) IS 'less-equal-greater: btree comparison of integer and nanoflake';
COMMENT ON FUNCTION nanoflake_eq(nanoflake, smallint) IS 'implementation of = operator';
COMMENT ON FUNCTION nanoflake_ne(nanoflake, smallint) IS 'implementation of <> operator';
COMMENT ON FUNCTION nanoflake_lt(nanoflake, smallint) IS 'implementation of < operator';
COMMENT ON FUNCTION nanoflake_le(nanoflake, smallint) IS 'implementation of <= operator';
COMMENT ON FUNCTION nanoflake_gt(nanoflake, smallint) IS 'implementation of > operator';
COMMENT ON FUNCTION nanoflake_ge(nanoflake, smallint) IS 'implementation of >= operator';
COMMENT ON FUNCTION nanoflake_cmp(nanoflake, smallint) IS 'less-equal-greater: btree comparison of nanoflake and smallint';
COMMENT ON FUNCTION nanoflake_eq(smallint, nanoflake) IS 'implementation of = operator';
COMMENT ON FUNCTION nanoflake_ne(smallint, nanoflake) IS 'implementation of <> operator';
COMMENT ON FUNCTION nanoflake_lt(smallint, nanoflake) IS 'implementation of < operator';
COMMENT ON FUNCTION nanoflake_le(smallint, nanoflake) IS 'implementation of <= operator';
COMMENT ON FUNCTION nanoflake_gt(smallint, nanoflake) IS 'implementation of > operator';
COMMENT ON FUNCTION nanoflake_ge(smallint, nanoflake) IS 'implementation of >= operator';
COMMENT ON FUNCTION nanoflake_cmp(smallint, nanoflake) IS 'less-equal-greater: btree comparison of smallint and nanoflake';
COMMENT ON FUNCTION nanoflake(bigint) IS 'The nanoflake with these 64 bits (a negative bigint is an error)';
COMMENT ON FUNCTION nanoflake(integer) IS 'The nanoflake with this value (a negative integer is an error)';
COMMENT ON FUNCTION nanoflake(smallint) IS 'The nanoflake with this value (a negative smallint is an error)';
COMMENT ON FUNCTION nanoflake_timestamp(nanoflake) IS 'The millisecond a nanoflake was made in, under the server''s chronoid.nanoflake_epoch';
COMMENT ON FUNCTION nanoflake_floor(timestamptz) IS 'The smallest nanoflake of the millisecond containing a timestamp (server''s epoch), for range scans';
COMMENT ON FUNCTION nanoflake_ceil(timestamptz) IS 'The largest nanoflake of the millisecond containing a timestamp (server''s epoch), for range scans';
COMMENT ON FUNCTION nanoflake_generator(nanoflake) IS 'The generator (node) id field of a nanoflake, 0..1023';
COMMENT ON FUNCTION nanoflake_sequence(nanoflake) IS 'The sequence field of a nanoflake, 0..4095';

-- scru160
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

-- codokey
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

-- caloriosa
COMMENT ON FUNCTION caloriosa_in(cstring) IS 'I/O: caloriosa from its text form';
COMMENT ON FUNCTION caloriosa_out(caloriosa) IS 'I/O: the text form of a caloriosa';
COMMENT ON FUNCTION caloriosa_recv(internal) IS 'I/O: caloriosa from its binary form (checked)';
COMMENT ON FUNCTION caloriosa_send(caloriosa) IS 'I/O: the binary form of a caloriosa';
COMMENT ON FUNCTION caloriosa_eq(caloriosa, caloriosa) IS 'implementation of = operator';
COMMENT ON FUNCTION caloriosa_ne(caloriosa, caloriosa) IS 'implementation of <> operator';
COMMENT ON FUNCTION caloriosa_lt(caloriosa, caloriosa) IS 'implementation of < operator';
COMMENT ON FUNCTION caloriosa_le(caloriosa, caloriosa) IS 'implementation of <= operator';
COMMENT ON FUNCTION caloriosa_gt(caloriosa, caloriosa) IS 'implementation of > operator';
COMMENT ON FUNCTION caloriosa_ge(caloriosa, caloriosa) IS 'implementation of >= operator';
COMMENT ON FUNCTION caloriosa_cmp(caloriosa, caloriosa) IS 'less-equal-greater: btree comparison of caloriosa';
COMMENT ON FUNCTION caloriosa_sortsupport(internal) IS 'sort support for caloriosa';
COMMENT ON FUNCTION caloriosa_hash(caloriosa) IS 'hash of a caloriosa';
COMMENT ON FUNCTION caloriosa_hash_extended(caloriosa, int8) IS 'hash of a caloriosa with a seed (hash partitioning)';
COMMENT ON FUNCTION caloriosa_smaller(caloriosa, caloriosa) IS 'the smaller of two caloriosa values (for min)';
COMMENT ON FUNCTION caloriosa_larger(caloriosa, caloriosa) IS 'the larger of two caloriosa values (for max)';
COMMENT ON AGGREGATE min(caloriosa) IS 'minimum value of all caloriosa input values';
COMMENT ON AGGREGATE max(caloriosa) IS 'maximum value of all caloriosa input values';
COMMENT ON FUNCTION caloriosa_eq(caloriosa, bigint) IS 'implementation of = operator';
COMMENT ON FUNCTION caloriosa_ne(caloriosa, bigint) IS 'implementation of <> operator';
COMMENT ON FUNCTION caloriosa_lt(caloriosa, bigint) IS 'implementation of < operator';
COMMENT ON FUNCTION caloriosa_le(caloriosa, bigint) IS 'implementation of <= operator';
COMMENT ON FUNCTION caloriosa_gt(caloriosa, bigint) IS 'implementation of > operator';
COMMENT ON FUNCTION caloriosa_ge(caloriosa, bigint) IS 'implementation of >= operator';
COMMENT ON FUNCTION caloriosa_cmp(caloriosa, bigint) IS 'less-equal-greater: btree comparison of caloriosa and bigint';
COMMENT ON FUNCTION caloriosa_eq(bigint, caloriosa) IS 'implementation of = operator';
COMMENT ON FUNCTION caloriosa_ne(bigint, caloriosa) IS 'implementation of <> operator';
COMMENT ON FUNCTION caloriosa_lt(bigint, caloriosa) IS 'implementation of < operator';
COMMENT ON FUNCTION caloriosa_le(bigint, caloriosa) IS 'implementation of <= operator';
COMMENT ON FUNCTION caloriosa_gt(bigint, caloriosa) IS 'implementation of > operator';
COMMENT ON FUNCTION caloriosa_ge(bigint, caloriosa) IS 'implementation of >= operator';
COMMENT ON FUNCTION caloriosa_cmp(bigint, caloriosa) IS 'less-equal-greater: btree comparison of bigint and caloriosa';
COMMENT ON FUNCTION caloriosa_eq(caloriosa, integer) IS 'implementation of = operator';
COMMENT ON FUNCTION caloriosa_ne(caloriosa, integer) IS 'implementation of <> operator';
COMMENT ON FUNCTION caloriosa_lt(caloriosa, integer) IS 'implementation of < operator';
COMMENT ON FUNCTION caloriosa_le(caloriosa, integer) IS 'implementation of <= operator';
COMMENT ON FUNCTION caloriosa_gt(caloriosa, integer) IS 'implementation of > operator';
COMMENT ON FUNCTION caloriosa_ge(caloriosa, integer) IS 'implementation of >= operator';
COMMENT ON FUNCTION caloriosa_cmp(caloriosa, integer) IS 'less-equal-greater: btree comparison of caloriosa and integer';
COMMENT ON FUNCTION caloriosa_eq(integer, caloriosa) IS 'implementation of = operator';
COMMENT ON FUNCTION caloriosa_ne(integer, caloriosa) IS 'implementation of <> operator';
COMMENT ON FUNCTION caloriosa_lt(integer, caloriosa) IS 'implementation of < operator';
COMMENT ON FUNCTION caloriosa_le(integer, caloriosa) IS 'implementation of <= operator';
COMMENT ON FUNCTION caloriosa_gt(integer, caloriosa) IS 'implementation of > operator';
COMMENT ON FUNCTION caloriosa_ge(integer, caloriosa) IS 'implementation of >= operator';
COMMENT ON FUNCTION caloriosa_cmp(integer, caloriosa) IS 'less-equal-greater: btree comparison of integer and caloriosa';
COMMENT ON FUNCTION caloriosa_eq(caloriosa, smallint) IS 'implementation of = operator';
COMMENT ON FUNCTION caloriosa_ne(caloriosa, smallint) IS 'implementation of <> operator';
COMMENT ON FUNCTION caloriosa_lt(caloriosa, smallint) IS 'implementation of < operator';
COMMENT ON FUNCTION caloriosa_le(caloriosa, smallint) IS 'implementation of <= operator';
COMMENT ON FUNCTION caloriosa_gt(caloriosa, smallint) IS 'implementation of > operator';
COMMENT ON FUNCTION caloriosa_ge(caloriosa, smallint) IS 'implementation of >= operator';
COMMENT ON FUNCTION caloriosa_cmp(caloriosa, smallint) IS 'less-equal-greater: btree comparison of caloriosa and smallint';
COMMENT ON FUNCTION caloriosa_eq(smallint, caloriosa) IS 'implementation of = operator';
COMMENT ON FUNCTION caloriosa_ne(smallint, caloriosa) IS 'implementation of <> operator';
COMMENT ON FUNCTION caloriosa_lt(smallint, caloriosa) IS 'implementation of < operator';
COMMENT ON FUNCTION caloriosa_le(smallint, caloriosa) IS 'implementation of <= operator';
COMMENT ON FUNCTION caloriosa_gt(smallint, caloriosa) IS 'implementation of > operator';
COMMENT ON FUNCTION caloriosa_ge(smallint, caloriosa) IS 'implementation of >= operator';
COMMENT ON FUNCTION caloriosa_cmp(smallint, caloriosa) IS 'less-equal-greater: btree comparison of smallint and caloriosa';
COMMENT ON FUNCTION caloriosa(bigint) IS 'The caloriosa with these 64 bits (a bigint >= 0 lacks the prefix bit: an error)';
COMMENT ON FUNCTION caloriosa(integer) IS 'Always an error: every caloriosa is a negative bigint below the integer range (cast for uniformity)';
COMMENT ON FUNCTION caloriosa(smallint) IS 'Always an error: every caloriosa is a negative bigint below the smallint range (cast for uniformity)';
COMMENT ON FUNCTION caloriosa_to_numeric(caloriosa) IS 'The unsigned 64-bit number of a caloriosa, as numeric';
COMMENT ON FUNCTION gen_caloriosa() IS 'A new caloriosa name: unique on this server (a server-wide increment, needs shared_preload_libraries), ordered by millisecond';
COMMENT ON FUNCTION caloriosa_timestamp(caloriosa) IS 'The millisecond a caloriosa was made in (since 2017-01-01)';
COMMENT ON FUNCTION caloriosa_random(caloriosa) IS 'The 12-bit random field of a caloriosa';
COMMENT ON FUNCTION caloriosa_increment(caloriosa) IS 'The 10-bit increment field of a caloriosa';
COMMENT ON FUNCTION caloriosa_floor(timestamptz) IS 'The smallest caloriosa of the millisecond containing a timestamp, for range scans';
COMMENT ON FUNCTION caloriosa_ceil(timestamptz) IS 'The largest caloriosa of the millisecond containing a timestamp, for range scans';

-- uid60
COMMENT ON FUNCTION uid60_in(cstring) IS 'I/O: uid60 from its text form';
COMMENT ON FUNCTION uid60_out(uid60) IS 'I/O: the text form of a uid60';
COMMENT ON FUNCTION uid60_recv(internal) IS 'I/O: uid60 from its binary form (checked)';
COMMENT ON FUNCTION uid60_send(uid60) IS 'I/O: the binary form of a uid60';
COMMENT ON FUNCTION uid60_eq(uid60, uid60) IS 'implementation of = operator';
COMMENT ON FUNCTION uid60_ne(uid60, uid60) IS 'implementation of <> operator';
COMMENT ON FUNCTION uid60_lt(uid60, uid60) IS 'implementation of < operator';
COMMENT ON FUNCTION uid60_le(uid60, uid60) IS 'implementation of <= operator';
COMMENT ON FUNCTION uid60_gt(uid60, uid60) IS 'implementation of > operator';
COMMENT ON FUNCTION uid60_ge(uid60, uid60) IS 'implementation of >= operator';
COMMENT ON FUNCTION uid60_cmp(uid60, uid60) IS 'less-equal-greater: btree comparison of uid60';
COMMENT ON FUNCTION uid60_sortsupport(internal) IS 'sort support for uid60';
COMMENT ON FUNCTION uid60_hash(uid60) IS 'hash of a uid60';
COMMENT ON FUNCTION uid60_hash_extended(uid60, int8) IS 'hash of a uid60 with a seed (hash partitioning)';
COMMENT ON FUNCTION uid60_smaller(uid60, uid60) IS 'the smaller of two uid60 values (for min)';
COMMENT ON FUNCTION uid60_larger(uid60, uid60) IS 'the larger of two uid60 values (for max)';
COMMENT ON AGGREGATE min(uid60) IS 'minimum value of all uid60 input values';
COMMENT ON AGGREGATE max(uid60) IS 'maximum value of all uid60 input values';
COMMENT ON FUNCTION uid60_eq(uid60, bigint) IS 'implementation of = operator';
COMMENT ON FUNCTION uid60_ne(uid60, bigint) IS 'implementation of <> operator';
COMMENT ON FUNCTION uid60_lt(uid60, bigint) IS 'implementation of < operator';
COMMENT ON FUNCTION uid60_le(uid60, bigint) IS 'implementation of <= operator';
COMMENT ON FUNCTION uid60_gt(uid60, bigint) IS 'implementation of > operator';
COMMENT ON FUNCTION uid60_ge(uid60, bigint) IS 'implementation of >= operator';
COMMENT ON FUNCTION uid60_cmp(uid60, bigint) IS 'less-equal-greater: btree comparison of uid60 and bigint';
COMMENT ON FUNCTION uid60_eq(bigint, uid60) IS 'implementation of = operator';
COMMENT ON FUNCTION uid60_ne(bigint, uid60) IS 'implementation of <> operator';
COMMENT ON FUNCTION uid60_lt(bigint, uid60) IS 'implementation of < operator';
COMMENT ON FUNCTION uid60_le(bigint, uid60) IS 'implementation of <= operator';
COMMENT ON FUNCTION uid60_gt(bigint, uid60) IS 'implementation of > operator';
COMMENT ON FUNCTION uid60_ge(bigint, uid60) IS 'implementation of >= operator';
COMMENT ON FUNCTION uid60_cmp(bigint, uid60) IS 'less-equal-greater: btree comparison of bigint and uid60';
COMMENT ON FUNCTION uid60_eq(uid60, integer) IS 'implementation of = operator';
COMMENT ON FUNCTION uid60_ne(uid60, integer) IS 'implementation of <> operator';
COMMENT ON FUNCTION uid60_lt(uid60, integer) IS 'implementation of < operator';
COMMENT ON FUNCTION uid60_le(uid60, integer) IS 'implementation of <= operator';
COMMENT ON FUNCTION uid60_gt(uid60, integer) IS 'implementation of > operator';
COMMENT ON FUNCTION uid60_ge(uid60, integer) IS 'implementation of >= operator';
COMMENT ON FUNCTION uid60_cmp(uid60, integer) IS 'less-equal-greater: btree comparison of uid60 and integer';
COMMENT ON FUNCTION uid60_eq(integer, uid60) IS 'implementation of = operator';
COMMENT ON FUNCTION uid60_ne(integer, uid60) IS 'implementation of <> operator';
COMMENT ON FUNCTION uid60_lt(integer, uid60) IS 'implementation of < operator';
COMMENT ON FUNCTION uid60_le(integer, uid60) IS 'implementation of <= operator';
COMMENT ON FUNCTION uid60_gt(integer, uid60) IS 'implementation of > operator';
COMMENT ON FUNCTION uid60_ge(integer, uid60) IS 'implementation of >= operator';
COMMENT ON FUNCTION uid60_cmp(integer, uid60) IS 'less-equal-greater: btree comparison of integer and uid60';
COMMENT ON FUNCTION uid60_eq(uid60, smallint) IS 'implementation of = operator';
COMMENT ON FUNCTION uid60_ne(uid60, smallint) IS 'implementation of <> operator';
COMMENT ON FUNCTION uid60_lt(uid60, smallint) IS 'implementation of < operator';
COMMENT ON FUNCTION uid60_le(uid60, smallint) IS 'implementation of <= operator';
COMMENT ON FUNCTION uid60_gt(uid60, smallint) IS 'implementation of > operator';
COMMENT ON FUNCTION uid60_ge(uid60, smallint) IS 'implementation of >= operator';
COMMENT ON FUNCTION uid60_cmp(uid60, smallint) IS 'less-equal-greater: btree comparison of uid60 and smallint';
COMMENT ON FUNCTION uid60_eq(smallint, uid60) IS 'implementation of = operator';
COMMENT ON FUNCTION uid60_ne(smallint, uid60) IS 'implementation of <> operator';
COMMENT ON FUNCTION uid60_lt(smallint, uid60) IS 'implementation of < operator';
COMMENT ON FUNCTION uid60_le(smallint, uid60) IS 'implementation of <= operator';
COMMENT ON FUNCTION uid60_gt(smallint, uid60) IS 'implementation of > operator';
COMMENT ON FUNCTION uid60_ge(smallint, uid60) IS 'implementation of >= operator';
COMMENT ON FUNCTION uid60_cmp(smallint, uid60) IS 'less-equal-greater: btree comparison of smallint and uid60';
COMMENT ON FUNCTION uid60(bigint) IS 'The uid60 with this value (outside 0 .. 2^60-1 is an error)';
COMMENT ON FUNCTION uid60(integer) IS 'The uid60 with this value (a negative integer is an error)';
COMMENT ON FUNCTION uid60(smallint) IS 'The uid60 with this value (a negative smallint is an error)';
COMMENT ON FUNCTION gen_uid60() IS 'A new uid60: unique on this server (a server-wide sequence, needs shared_preload_libraries), increasing in each backend';
COMMENT ON FUNCTION uid60_timestamp(uid60) IS 'The millisecond a uid60 was made in (since 2018-03-01)';
COMMENT ON FUNCTION uid60_sequence(uid60) IS 'The 9-bit sequence field of a uid60';
COMMENT ON FUNCTION uid60_random(uid60) IS 'The 9-bit random field of a uid60';
COMMENT ON FUNCTION uid60_floor(timestamptz) IS 'The smallest uid60 of the millisecond containing a timestamp, for range scans';
COMMENT ON FUNCTION uid60_ceil(timestamptz) IS 'The largest uid60 of the millisecond containing a timestamp, for range scans';
-- END GENERATED comments
