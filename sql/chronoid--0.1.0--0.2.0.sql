-- chronoid 0.1.0 -> 0.2.0
\echo Use "ALTER EXTENSION chronoid UPDATE TO '0.2.0'" to load this file. \quit

-- A default BRIN minmax operator class for codokey, as the other types have.
CREATE OPERATOR CLASS codokey_minmax_ops DEFAULT FOR TYPE codokey USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
