-- Operators, operator classes and min/max of every chronoid type, from the
-- functions each type's file declares (TYPE_eq ... TYPE_cmp, TYPE_sortsupport,
-- TYPE_hash, TYPE_hash_extended, and TYPE_smaller / TYPE_larger where the type
-- has them). The same in every type: a default btree class with compare (1),
-- sort support (2) and btequalimage (4, so btree deduplication works); a
-- default hash class with the extended hash (2, for hash partitioning); a
-- default BRIN minmax class.

DO $template$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['nanoflake', 'scru160', 'codokey', 'caloriosa', 'uid60'] LOOP
        EXECUTE format($sql$
            CREATE OPERATOR = (
                LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = %1$s_eq,
                COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
            CREATE OPERATOR <> (
                LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = %1$s_ne,
                COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
            CREATE OPERATOR < (
                LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = %1$s_lt,
                COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
            CREATE OPERATOR <= (
                LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = %1$s_le,
                COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
            CREATE OPERATOR > (
                LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = %1$s_gt,
                COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
            CREATE OPERATOR >= (
                LEFTARG = %1$s, RIGHTARG = %1$s, FUNCTION = %1$s_ge,
                COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

            CREATE OPERATOR CLASS %1$s_ops DEFAULT FOR TYPE %1$s USING btree AS
                OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
                FUNCTION 1 %1$s_cmp(%1$s, %1$s),
                FUNCTION 2 %1$s_sortsupport(internal),
                FUNCTION 4 btequalimage(oid);
            CREATE OPERATOR CLASS %1$s_hash_ops DEFAULT FOR TYPE %1$s USING hash AS
                OPERATOR 1 =,
                FUNCTION 1 %1$s_hash(%1$s),
                FUNCTION 2 %1$s_hash_extended(%1$s, int8);
            CREATE OPERATOR CLASS %1$s_minmax_ops DEFAULT FOR TYPE %1$s USING brin AS
                OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
                FUNCTION 1 brin_minmax_opcinfo(internal),
                FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
                FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
                FUNCTION 4 brin_minmax_union(internal, internal, internal);
        $sql$, t);
        IF to_regprocedure(format('%1$s_smaller(%1$s, %1$s)', t)) IS NOT NULL THEN
            EXECUTE format($sql$
                CREATE AGGREGATE min(%1$s) (
                    SFUNC = %1$s_smaller, STYPE = %1$s, COMBINEFUNC = %1$s_smaller, SORTOP = <, PARALLEL = SAFE);
                CREATE AGGREGATE max(%1$s) (
                    SFUNC = %1$s_larger, STYPE = %1$s, COMBINEFUNC = %1$s_larger, SORTOP = >, PARALLEL = SAFE);
            $sql$, t);
        END IF;
    END LOOP;
END
$template$;
