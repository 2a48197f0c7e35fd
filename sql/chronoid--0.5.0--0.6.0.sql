-- chronoid 0.5.0 -> 0.6.0: the chronoid_generators view gains the
-- reservation counters (reservations, reservation_waits,
-- reservation_wait_time) and node_id_source (where the node id in effect
-- comes from: chronoid.node_id, a Citus group, or none), and these arrive:
-- the chronoid_node_verdicts view, chronoid_set_high_water_mark()
-- (the objects of sql/generators.sql), caloriosa_to_core_name() and
-- caloriosa_from_core_name() (sql/caloriosa.sql), chronoid_adopt_column()
-- (sql/adopt.sql), as a fresh 0.6.0 install creates them
-- (tests/t/018_extension_upgrade.pl checks that the two catalogs are equal).
-- The reserver, the read-only refusal and the new WAL records are the
-- library's.
\echo Use "ALTER EXTENSION chronoid UPDATE TO '0.6.0'" to load this file. \quit

DROP VIEW chronoid_generators;
DROP FUNCTION chronoid_generators();

CREATE FUNCTION chronoid_generators(
    OUT generator text,
    OUT last_issued timestamptz,
    OUT last_sequence integer,
    OUT high_water_mark timestamptz,
    OUT minted bigint,
    OUT sequence_waits bigint,
    OUT clock_behind_events bigint,
    OUT max_clock_lag_ms bigint,
    OUT clock_behind_errors bigint,
    OUT node_id integer,
    OUT node_id_source text,
    OUT epoch timestamptz,
    OUT since timestamptz,
    OUT reservations bigint,
    OUT reservation_waits bigint,
    OUT reservation_wait_time double precision)
RETURNS SETOF record
LANGUAGE c VOLATILE STRICT PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'chronoid_generators_wrapper';
COMMENT ON FUNCTION chronoid_generators() IS
    'One row per server-wide generator (nanoflake, caloriosa, uid60): last ID, durable high-water mark, counters and reservations since start; needs chronoid preloaded';

CREATE VIEW chronoid_generators AS SELECT * FROM chronoid_generators();
COMMENT ON VIEW chronoid_generators IS
    'The server-wide generators: last ID, durable high-water mark, IDs minted, waits, clock-behind events and errors, reservations and the time callers waited for them (ms), since start';

REVOKE ALL ON FUNCTION chronoid_generators() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION chronoid_generators() TO pg_monitor;
REVOKE ALL ON chronoid_generators FROM PUBLIC;
GRANT SELECT ON chronoid_generators TO pg_monitor;

-- Whether this server may mint, per database, as the peer worker judged it
-- (docs/across-servers.md, "Watching the verdicts"): what a counter
-- generator reads before it mints, with the refusal's reason and hint.
CREATE FUNCTION chronoid_node_verdicts(
    OUT database text,
    OUT node_id integer,
    OUT state text,
    OUT reason text,
    OUT hint text,
    OUT confirmed_at timestamptz)
RETURNS SETOF record
LANGUAGE c VOLATILE STRICT PARALLEL RESTRICTED
AS 'MODULE_PATHNAME', 'chronoid_node_verdicts_wrapper';
COMMENT ON FUNCTION chronoid_node_verdicts() IS
    'One row per database the peer worker judges: the node id judged, whether the server mints there (mints, refuses, being judged), the reason and hint, when last confirmed; needs chronoid preloaded';

CREATE VIEW chronoid_node_verdicts AS SELECT * FROM chronoid_node_verdicts();
COMMENT ON VIEW chronoid_node_verdicts IS
    'Per database: whether this server may mint IDs there, for which node id, why not, and when the peer worker last confirmed it';

REVOKE ALL ON FUNCTION chronoid_node_verdicts() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION chronoid_node_verdicts() TO pg_monitor;
REVOKE ALL ON chronoid_node_verdicts FROM PUBLIC;
GRANT SELECT ON chronoid_node_verdicts TO pg_monitor;

-- The way out of a high-water mark left in the future (a clock that jumped
-- forward), as setval() is for a sequence: superuser only, WAL-logged and
-- replayed by standbys (docs/guarantees.md says when it is safe).
CREATE FUNCTION chronoid_set_high_water_mark(generator text, mark timestamptz)
RETURNS void
LANGUAGE c VOLATILE STRICT PARALLEL UNSAFE
AS 'MODULE_PATHNAME', 'chronoid_set_high_water_mark_wrapper';
COMMENT ON FUNCTION chronoid_set_high_water_mark(text, timestamptz) IS
    'Moves a generator''s (nanoflake, caloriosa, uid60) durable high-water mark and ticker to mark, down as well as up; IDs at or above it may be issued again; superuser only';
REVOKE ALL ON FUNCTION chronoid_set_high_water_mark(text, timestamptz) FROM PUBLIC;

-- The spelling of Caloriosa's own code (Caloriosa/core): the same 11
-- digits in the alphabet 0-9A-Za-z, the case-swap of the type's text.
CREATE FUNCTION caloriosa_to_core_name(caloriosa) RETURNS text
    AS 'MODULE_PATHNAME', 'caloriosa_to_core_name_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION caloriosa_to_core_name(caloriosa) IS
    'A caloriosa as Caloriosa''s own code (Caloriosa/core) writes it: alphabet 0-9A-Za-z, the case-swap of the type''s text';
CREATE FUNCTION caloriosa_from_core_name(text) RETURNS caloriosa
    AS 'MODULE_PATHNAME', 'caloriosa_from_core_name_wrapper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION caloriosa_from_core_name(text) IS
    'Reads a name written by Caloriosa''s own code (Caloriosa/core, alphabet 0-9A-Za-z)';

-- Moving an existing key onto the nanoflake generator (docs/adopting.md).
--
-- A table that exists has a bigint key fed by an identity, a serial's owned
-- sequence or a DEFAULT nextval(...), with foreign keys, views and
-- publications around it. chronoid_adopt_column() does what a hand-made
-- attempt gets wrong, in the caller's transaction, and returns each
-- statement it ran (or, with dry_run, would run):
--
--   as_type => 'bigint'     the column stays bigint, DEFAULT
--                           gen_nanoflake()::bigint: no application change,
--                           and logical-replication subscribers keep
--                           receiving numbers;
--   as_type => 'nanoflake'  the column becomes a nanoflake, with every
--                           foreign-key column that references it.
--
-- It refuses, before changing anything, what would go wrong later: a key
-- whose existing values do not all sort below the first new ID (22003), a
-- column that is not bigint (42804), a key kept bigint that a smallint or
-- integer column references (42804), a default that is not a sequence's
-- (55000), and for a change of type the objects PostgreSQL cannot carry
-- across one (views, rules, triggers and policies on a column, a column in a
-- partition key, a published table, a multi-column foreign key: 55000 with
-- what to do in the HINT). The statements are built here, at call time,
-- from quoted identifiers (format %I / %s of regclass, which quotes).
CREATE FUNCTION chronoid_adopt_column(
    table_name regclass,
    column_name name,
    as_type regtype DEFAULT 'bigint',
    dry_run boolean DEFAULT false)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $adopt$
DECLARE
    nanoflake_type regtype := '@extschema@.nanoflake'::regtype;
    generator text := '@extschema@.gen_nanoflake()';
    key_att int2;
    col_type regtype;
    identity "char";
    default_expr text;
    default_is_generator boolean;
    owned_sequence regclass;
    to_nanoflake boolean;
    max_existing bigint;
    min_existing bigint;
    first_new bigint;
    blockers text;
    statements text[] := '{}';
    columns_to_change record;
    s text;
BEGIN
    IF table_name IS NULL OR column_name IS NULL OR as_type IS NULL OR dry_run IS NULL THEN
        RAISE EXCEPTION 'chronoid_adopt_column() takes no NULL argument'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    -- The check of the existing values reads them under the lock: a snapshot
    -- taken before it (REPEATABLE READ, SERIALIZABLE) would miss rows
    -- committed while the lock was awaited.
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'chronoid_adopt_column() runs in a READ COMMITTED transaction, not %', current_setting('transaction_isolation')
            USING ERRCODE = 'invalid_transaction_state',
                  HINT = 'Its check that every existing value sorts below the first new ID needs a snapshot taken after its lock.';
    END IF;
    IF as_type NOT IN ('bigint'::regtype, nanoflake_type) THEN
        RAISE EXCEPTION 'chronoid_adopt_column() adopts a column as bigint or nanoflake, not %', as_type
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    to_nanoflake := as_type = nanoflake_type;

    IF (SELECT relkind FROM pg_class WHERE oid = table_name) NOT IN ('r', 'p') THEN
        RAISE EXCEPTION '% is not a table', table_name USING ERRCODE = 'wrong_object_type';
    END IF;
    -- The whole change under one lock, taken before the column and its
    -- values are read: no row with an old sequence's value, and no other
    -- adoption, can come between the checks and the change.
    EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', table_name);

    SELECT a.attnum, a.atttypid::regtype, a.attidentity, pg_get_expr(d.adbin, d.adrelid)
      INTO key_att, col_type, identity, default_expr
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attrelid = table_name AND a.attname = column_name AND a.attnum > 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'column "%" of relation % does not exist', column_name, table_name
            USING ERRCODE = 'undefined_column';
    END IF;
    -- The two forms an adopted column's default takes.
    default_is_generator := coalesce(default_expr IN (generator, format('(%s)::bigint', generator)), false);
    IF (SELECT relispartition FROM pg_class WHERE oid = table_name) THEN
        RAISE EXCEPTION '% is a partition', table_name
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = format('Adopt the column of the partitioned table %s: its default and type reach every partition.',
                                pg_partition_root(table_name));
    END IF;
    IF col_type = nanoflake_type AND NOT to_nanoflake THEN
        RAISE EXCEPTION 'column "%" of % is already a nanoflake', column_name, table_name
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Adopt it as nanoflake (as_type => ''nanoflake'').';
    END IF;
    IF col_type NOT IN ('bigint'::regtype, nanoflake_type) THEN
        RAISE EXCEPTION 'column "%" of % is %, not bigint', column_name, table_name, col_type
            USING ERRCODE = 'datatype_mismatch',
                  HINT = 'A nanoflake needs 64 bits: change the column to bigint first (ALTER TABLE ... ALTER COLUMN ... TYPE bigint).';
    END IF;

    -- Where the column's values come from now.
    IF identity <> '' THEN
        statements := statements || format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY', table_name, column_name);
    ELSIF default_expr IS NULL OR default_is_generator THEN
        NULL;
    ELSIF default_expr LIKE 'nextval(%' THEN
        owned_sequence := pg_get_serial_sequence(table_name::text, column_name)::regclass;
    ELSE
        RAISE EXCEPTION 'column "%" of % has DEFAULT %, not an identity or a sequence', column_name, table_name, default_expr
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'chronoid_adopt_column() replaces an identity, a serial or a DEFAULT nextval(...); drop this default first if the generator is to replace it.';
    END IF;

    -- Every existing value must sort below every new one: a key that does
    -- not is refused, as no later ID could be told apart by its order.
    -- ORDER BY, which finds the type's btree class wherever it lives (max()
    -- of a nanoflake is an aggregate of chronoid's schema), with its index.
    EXECUTE format('SELECT (SELECT %1$I::bigint FROM %2$s WHERE %1$I IS NOT NULL ORDER BY %1$I DESC LIMIT 1),
                           (SELECT %1$I::bigint FROM %2$s WHERE %1$I IS NOT NULL ORDER BY %1$I LIMIT 1)', column_name, table_name)
        INTO max_existing, min_existing;
    first_new := @extschema@.gen_nanoflake()::bigint;
    IF max_existing >= first_new THEN
        RAISE EXCEPTION 'the largest value of %.% (%) does not sort below the first new nanoflake (%)',
            table_name, column_name, max_existing, first_new
            USING ERRCODE = 'numeric_value_out_of_range',
                  DETAIL = 'New IDs would sort among, or repeat, the existing ones.',
                  HINT = 'Keep this key on its sequence, or renumber the existing rows below the first new nanoflake.';
    END IF;
    IF to_nanoflake AND min_existing < 0 THEN
        RAISE EXCEPTION 'column "%" of % holds negative values (the least is %), which no nanoflake is', column_name, table_name, min_existing
            USING ERRCODE = 'numeric_value_out_of_range',
                  HINT = 'Adopt it as bigint (as_type => ''bigint''), which keeps the existing values as they are.';
    END IF;

    -- A key kept bigint takes IDs near 2^60: a smallint or integer column
    -- that references it (or references such a reference) could store none
    -- of them, and the first row pointing at a new ID would fail with 22003.
    -- (A change of type changes those columns too, and is not concerned.)
    IF NOT to_nanoflake THEN
        WITH RECURSIVE tree(rel, top) AS (
            SELECT oid, oid FROM pg_class WHERE relkind IN ('r', 'p')
            UNION ALL
            SELECT i.inhrelid, tree.top FROM pg_inherits i JOIN tree ON i.inhparent = tree.rel
        ), cols(rel, att) AS (
            SELECT table_name::oid, key_att
            UNION
            SELECT c.conrelid, c.conkey[1]
              FROM cols
              JOIN pg_attribute k ON k.attrelid = cols.rel AND k.attnum = cols.att
              JOIN tree t ON t.top = cols.rel
              JOIN pg_constraint c ON c.confrelid = t.rel AND c.contype = 'f' AND cardinality(c.conkey) = 1 AND c.conparentid = 0
              JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = c.confkey[1] AND r.attname = k.attname
        )
        SELECT string_agg(DISTINCT format('%s.%I (%s)', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod)), ', ')
          INTO blockers
          FROM cols JOIN pg_attribute a ON a.attrelid = cols.rel AND a.attnum = cols.att
         WHERE a.atttypid IN ('smallint'::regtype, 'integer'::regtype);
        IF blockers IS NOT NULL THEN
            RAISE EXCEPTION 'cannot adopt %.%: foreign keys too narrow for its new IDs reference it: %', table_name, column_name, blockers
                USING ERRCODE = 'datatype_mismatch',
                      DETAIL = format('New IDs (%s and up) do not fit in smallint or integer: a row that references one would fail with 22003.', first_new),
                      HINT = 'Change each referencing column to bigint first (ALTER TABLE ... ALTER COLUMN ... TYPE bigint), then adopt.';
        END IF;
    END IF;

    IF to_nanoflake AND col_type <> nanoflake_type THEN
        -- A bigint default (a sequence's, or gen_nanoflake()::bigint) has no
        -- automatic cast to nanoflake: it goes first, and the generator's
        -- default comes after the type.
        IF identity = '' AND default_expr IS NOT NULL THEN
            statements := statements || format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', table_name, column_name);
        END IF;
        -- The key and every single-column foreign key that references it or
        -- one of its partitions or inheritance children, following
        -- references of references (the top constraints: those of
        -- partitions follow their parents'), each with its partitions and
        -- children: rel, att is a column to change, root the table an ALTER
        -- names.
        CREATE TEMP TABLE chronoid_adopt_columns ON COMMIT DROP AS
        WITH RECURSIVE tree(rel, top) AS (
            SELECT oid, oid FROM pg_class WHERE relkind IN ('r', 'p')
            UNION ALL
            SELECT i.inhrelid, tree.top FROM pg_inherits i JOIN tree ON i.inhparent = tree.rel
        ), cols(rel, att) AS (
            SELECT table_name::oid, key_att
            UNION
            SELECT c.conrelid, c.conkey[1]
              FROM cols
              JOIN pg_attribute k ON k.attrelid = cols.rel AND k.attnum = cols.att
              JOIN tree t ON t.top = cols.rel
              JOIN pg_constraint c ON c.confrelid = t.rel AND c.contype = 'f' AND cardinality(c.conkey) = 1 AND c.conparentid = 0
              JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = c.confkey[1] AND r.attname = k.attname
        )
        SELECT DISTINCT t.rel, a.attnum AS att, a.attname, cols.rel AS root
          FROM cols
          JOIN pg_attribute k ON k.attrelid = cols.rel AND k.attnum = cols.att
          JOIN tree t ON t.top = cols.rel
          JOIN pg_attribute a ON a.attrelid = t.rel AND a.attname = k.attname;

        SELECT string_agg(DISTINCT format('%s (on %s.%I)', what, rel::regclass, attname), ', ') INTO blockers FROM (
            SELECT CASE WHEN v.relkind = 'm' THEN 'materialized view ' || v.oid::regclass
                        WHEN v.relkind = 'v' THEN 'view ' || v.oid::regclass
                        ELSE 'rule ' || quote_ident(r.rulename) END AS what, c.rel, c.attname
              FROM chronoid_adopt_columns c
              JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass AND d.refobjid = c.rel AND d.refobjsubid = c.att
                              AND d.classid = 'pg_rewrite'::regclass
              JOIN pg_rewrite r ON r.oid = d.objid
              JOIN pg_class v ON v.oid = r.ev_class
             WHERE v.oid <> c.rel OR r.rulename <> '_RETURN'
            UNION ALL
            SELECT 'trigger ' || quote_ident(tg.tgname), c.rel, c.attname
              FROM chronoid_adopt_columns c
              JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass AND d.refobjid = c.rel AND d.refobjsubid = c.att
                              AND d.classid = 'pg_trigger'::regclass
              JOIN pg_trigger tg ON tg.oid = d.objid
            UNION ALL
            SELECT 'policy ' || quote_ident(p.polname), c.rel, c.attname
              FROM chronoid_adopt_columns c
              JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass AND d.refobjid = c.rel AND d.refobjsubid = c.att
                              AND d.classid = 'pg_policy'::regclass
              JOIN pg_policy p ON p.oid = d.objid
            UNION ALL
            SELECT 'generated column ' || quote_ident(g.attname), c.rel, c.attname
              FROM chronoid_adopt_columns c
              JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass AND d.refobjid = c.rel AND d.refobjsubid = c.att
                              AND d.classid = 'pg_class'::regclass AND d.objid = c.rel AND d.objsubid > 0
              JOIN pg_attribute g ON g.attrelid = c.rel AND g.attnum = d.objsubid AND g.attgenerated <> ''
            UNION ALL
            -- (before PostgreSQL 16, the expression's pg_attrdef row depends on the column)
            SELECT 'generated column ' || quote_ident(g.attname), c.rel, c.attname
              FROM chronoid_adopt_columns c
              JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass AND d.refobjid = c.rel AND d.refobjsubid = c.att
                              AND d.classid = 'pg_attrdef'::regclass
              JOIN pg_attrdef ad ON ad.oid = d.objid
              JOIN pg_attribute g ON g.attrelid = ad.adrelid AND g.attnum = ad.adnum AND g.attgenerated <> ''
            UNION ALL
            SELECT CASE WHEN a.attidentity <> '' THEN 'its identity' ELSE 'its default' END, c.rel, c.attname
              FROM chronoid_adopt_columns c JOIN pg_attribute a ON a.attrelid = c.rel AND a.attnum = c.att
             WHERE c.rel = c.root AND NOT (c.rel = table_name AND c.att = key_att)
               AND (a.attidentity <> '' OR a.atthasdef)
        ) b;
        IF blockers IS NOT NULL THEN
            RAISE EXCEPTION 'cannot change the type of %.% to nanoflake: it is used by %', table_name, column_name, blockers
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'In one transaction: drop them, call chronoid_adopt_column() again, and create them again (their definitions: pg_get_viewdef, pg_get_ruledef, pg_get_triggerdef); or adopt the column as bigint (as_type => ''bigint''), which no object notices.';
        END IF;

        SELECT string_agg(DISTINCT format('%s.%I', c.rel::regclass, c.attname), ', ') INTO blockers
          FROM chronoid_adopt_columns c JOIN pg_partitioned_table p ON p.partrelid = c.rel
         WHERE c.att = ANY (p.partattrs::int2[]);
        IF blockers IS NOT NULL THEN
            RAISE EXCEPTION 'cannot change the type of %.% to nanoflake: % is in a partition key', table_name, column_name, blockers
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'PostgreSQL cannot change the type of a partition key column: adopt it as bigint (as_type => ''bigint''), or create a table partitioned by a nanoflake and move the rows into it.';
        END IF;

        SELECT string_agg(DISTINCT format('%I (%s)', p.pubname, c.rel::regclass), ', ') INTO blockers
          FROM chronoid_adopt_columns c
          JOIN pg_class k ON k.oid = c.rel
          JOIN pg_publication_tables p ON p.schemaname = k.relnamespace::regnamespace::name AND p.tablename = k.relname;
        IF blockers IS NOT NULL THEN
            RAISE EXCEPTION 'cannot change the type of %.% to nanoflake: published by %', table_name, column_name, blockers
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      DETAIL = 'Subscribers would receive its values as nanoflake text, which a bigint column refuses and a nanoflake column changed before would read as other numbers.',
                      HINT = 'Adopt it as bigint (as_type => ''bigint''), which subscribers receive as before; or take the tables out of the publication, adopt on the publisher and each subscriber, and add them back (docs/adopting.md).';
        END IF;

        SELECT string_agg(DISTINCT format('%I (%s)', sub.subname, c.rel::regclass), ', ') INTO blockers
          FROM chronoid_adopt_columns c
          JOIN pg_subscription_rel r ON r.srrelid = c.rel
          JOIN pg_subscription sub ON sub.oid = r.srsubid;
        IF blockers IS NOT NULL THEN
            RAISE EXCEPTION 'cannot change the type of %.% to nanoflake: subscribed to by %', table_name, column_name, blockers
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      DETAIL = 'The publisher sends its values as bigint text, which a nanoflake column reads as base 36: as other numbers.',
                      HINT = 'Adopt it as bigint (as_type => ''bigint''); or take the tables out of the publication and refresh the subscription first (docs/adopting.md).';
        END IF;

        SELECT string_agg(format('%I on %s', c.conname, c.conrelid::regclass), ', ') INTO blockers
          FROM pg_constraint c JOIN chronoid_adopt_columns k ON c.confrelid = k.rel AND k.att = ANY (c.confkey)
         WHERE c.contype = 'f' AND cardinality(c.conkey) > 1 AND c.conparentid = 0;
        IF blockers IS NOT NULL THEN
            RAISE EXCEPTION 'cannot change the type of %.% to nanoflake: the multi-column foreign keys % reference it', table_name, column_name, blockers
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      HINT = 'Adopt it as bigint (as_type => ''bigint''), or change those columns by hand.';
        END IF;

        FOR columns_to_change IN
            SELECT c.rel::regclass AS rel, string_agg(format('ALTER COLUMN %I TYPE %s USING %I::%s', c.attname, nanoflake_type, c.attname, nanoflake_type), ', ' ORDER BY c.att) AS alters
              FROM chronoid_adopt_columns c WHERE c.rel = c.root
             GROUP BY c.rel ORDER BY c.rel = table_name::oid DESC, c.rel::regclass::text
        LOOP
            statements := statements || format('ALTER TABLE %s %s', columns_to_change.rel, columns_to_change.alters);
        END LOOP;
        DROP TABLE chronoid_adopt_columns;
    END IF;

    IF NOT default_is_generator OR (to_nanoflake AND col_type <> nanoflake_type) THEN
        statements := statements || format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', table_name, column_name,
            CASE WHEN to_nanoflake THEN generator ELSE generator || '::bigint' END);
    END IF;
    -- An owned sequence another table's default also uses (a serial's,
    -- copied) is kept for that table, no longer owned by this column.
    IF owned_sequence IS NOT NULL AND EXISTS (
        SELECT FROM pg_depend d JOIN pg_attrdef ad ON ad.oid = d.objid
         WHERE d.classid = 'pg_attrdef'::regclass AND d.refobjid = owned_sequence
           AND ad.adrelid NOT IN (WITH RECURSIVE tree(rel) AS (
                   SELECT table_name::oid UNION ALL
                   SELECT i.inhrelid FROM pg_inherits i JOIN tree ON i.inhparent = tree.rel)
               SELECT rel FROM tree)) THEN
        statements := statements || format('ALTER SEQUENCE %s OWNED BY NONE', owned_sequence);
        RAISE NOTICE 'the sequence % is also used by another table''s default: it is kept', owned_sequence;
    ELSIF owned_sequence IS NOT NULL THEN
        statements := statements || format('DROP SEQUENCE %s', owned_sequence);
    END IF;

    IF cardinality(statements) = 0 THEN
        RAISE NOTICE '%.% already takes its values from gen_nanoflake()', table_name, column_name;
    END IF;
    IF default_expr LIKE 'nextval(%' AND owned_sequence IS NULL THEN
        RAISE NOTICE 'the sequence of % is not owned by %.%: it is kept', default_expr, table_name, column_name;
    END IF;
    -- PostgreSQL rebuilds the indexes and constraints over a changed column
    -- from their text (a CHECK (id > 0), a partial index): it must find
    -- nanoflake's operators, which live in chronoid's schema.
    PERFORM set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
    FOREACH s IN ARRAY statements LOOP
        IF NOT dry_run THEN
            EXECUTE s;
        END IF;
        RETURN NEXT s;
    END LOOP;
    RETURN;
END
$adopt$;
COMMENT ON FUNCTION chronoid_adopt_column(regclass, name, regtype, boolean) IS
    'Moves an existing bigint key (identity, serial, DEFAULT nextval) onto gen_nanoflake(), as bigint or as nanoflake with its foreign keys; returns the statements it ran';
