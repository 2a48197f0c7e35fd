-- Shared set-up for the regression tests (runs first, see schedule).
CREATE EXTENSION chronoid;
CREATE EXTENSION pageinspect;
CREATE EXTENSION amcheck;
CREATE SCHEMA regress;

-- Runs a statement; reports ok, or its SQLSTATE and message.
CREATE FUNCTION regress.sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE query;
    RETURN 'ok';
EXCEPTION WHEN others THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- Casts text to a type and back: the canonical text, or SQLSTATE: message.
CREATE FUNCTION regress.try_input(value text, type regtype) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    result text;
BEGIN
    EXECUTE format('SELECT %L::%s::text', value, type) INTO result;
    RETURN result;
EXCEPTION WHEN others THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- The plan of a query, as EXPLAIN (COSTS OFF) lines: for checks that must
-- read the same on every major (EXPLAIN's wording changes between them).
CREATE FUNCTION regress.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        RETURN NEXT line;
    END LOOP;
END $$;

-- Writes a query's result as COPY BINARY into the data directory, then reads
-- that file into `target` through the column type's receive function.
CREATE FUNCTION regress.binary_copy(source text, target regclass) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    file text := current_setting('data_directory') || '/chronoid_regress_' || target::oid || '.bin';
BEGIN
    EXECUTE format('COPY (%s) TO %L (FORMAT binary)', source, file);
    EXECUTE format('COPY %s FROM %L (FORMAT binary)', target, file);
    RETURN 'ok';
EXCEPTION WHEN others THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
