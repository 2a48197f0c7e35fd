-- Comparison, hashing and sort-support functions and the cast to bigint of
-- the 8-byte types whose datum is an int8 datum ordered like the bigint:
-- nanoflake (never negative), uid60 (0 .. 2^60-1) and caloriosa (its prefix
-- bit is the sign bit, so every value is negative and signed order is its
-- unsigned order). They are PostgreSQL's own int8 functions (LANGUAGE
-- internal): comparisons, hashing, sort support (btint8sortsupport) and
-- min/max cost exactly what they cost for bigint. One template, three types;
-- their operators and operator classes come from sql/operators.sql.

DO $template$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['nanoflake', 'caloriosa', 'uid60'] LOOP
        EXECUTE format($sql$
            CREATE FUNCTION %1$s_eq(%1$s, %1$s) RETURNS bool
                AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_ne(%1$s, %1$s) RETURNS bool
                AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_lt(%1$s, %1$s) RETURNS bool
                AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_le(%1$s, %1$s) RETURNS bool
                AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_gt(%1$s, %1$s) RETURNS bool
                AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_ge(%1$s, %1$s) RETURNS bool
                AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_cmp(%1$s, %1$s) RETURNS int4
                AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_sortsupport(internal) RETURNS void
                AS 'btint8sortsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
            CREATE FUNCTION %1$s_hash(%1$s) RETURNS int4
                AS 'hashint8' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_hash_extended(%1$s, int8) RETURNS int8
                AS 'hashint8extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
            CREATE FUNCTION %1$s_smaller(%1$s, %1$s) RETURNS %1$s
                AS 'int8smaller' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
            CREATE FUNCTION %1$s_larger(%1$s, %1$s) RETURNS %1$s
                AS 'int8larger' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

            -- Every value is a bigint with the same 64 bits: binary, and
            -- allowed in assignments (into a bigint column).
            CREATE CAST (%1$s AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;
        $sql$, t);
    END LOOP;
END
$template$;
