#!/usr/bin/env bash
# chronoid is a trusted extension: a database owner who is not a superuser
# can install it, and gains nothing more - the node id and the epoch stay
# superuser-only. No extension function runs SQL that a search_path could
# redirect: every function is C or internal.
source "$(dirname "$0")/lib.bash"

TAP_DB=postgres
sql "DROP DATABASE IF EXISTS chronoid_sec"
sql "DROP ROLE IF EXISTS chronoid_owner"
sql "CREATE ROLE chronoid_owner LOGIN"
sql "CREATE DATABASE chronoid_sec OWNER chronoid_owner"
as_owner() { "${PSQL[@]}" -p "$CHRONOID_PORT" -d chronoid_sec -U chronoid_owner -c "$1" 2>&1 || true; }

is "$(sql "SELECT rolsuper FROM pg_roles WHERE rolname = 'chronoid_owner'")" "f" "the database owner is not a superuser"
out=$(as_owner "CREATE EXTENSION chronoid")
is "$out" "" "a non-superuser database owner can CREATE EXTENSION chronoid (trusted)"
is "$(as_owner "SELECT nanoflake_generator(gen_nanoflake()) >= 0, length(gen_scru160()::text)")" "t|32" "and use its types and generators"
for set in "SET chronoid.node_id = 9" "SET chronoid.nanoflake_epoch = '2021-01-01'" "ALTER SYSTEM SET chronoid.node_id = 9" \
           "ALTER DATABASE chronoid_sec SET chronoid.node_id = 9" "ALTER ROLE chronoid_owner SET chronoid.node_id = 9"; do
    out=$(as_owner "$set")
    echo "$out" | grep -qE "permission denied|must be superuser|cannot be changed without restarting"
    ok $? "refused to the owner: $set"
done
is "$(as_owner "SELECT current_setting('chronoid.node_id')")" "0" "the node id is unchanged"

TAP_DB=chronoid_sec
is "$(sql "SELECT count(*) FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
           WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'chronoid') AND d.deptype = 'e'
             AND d.classid = 'pg_proc'::regclass AND l.lanname NOT IN ('c', 'internal')")" \
    "0" "every extension function is LANGUAGE C or internal (no SQL body to redirect through search_path)"
# Objects created by the trusted install belong to the bootstrap superuser,
# not to the installing user, who therefore cannot redefine them.
is "$(sql "SELECT count(*) FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
           WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'chronoid') AND d.deptype = 'e'
             AND d.classid = 'pg_proc'::regclass AND p.proowner = 'chronoid_owner'::regrole")" \
    "0" "the installing user owns none of the functions"
out=$(as_owner "CREATE OR REPLACE FUNCTION gen_nanoflake() RETURNS nanoflake LANGUAGE sql AS 'SELECT 0::bigint::nanoflake'")
echo "$out" | grep -q "must be owner"
ok $? "the owner cannot replace gen_nanoflake()"

TAP_DB=postgres sql "DROP DATABASE chronoid_sec"
TAP_DB=postgres sql "DROP ROLE chronoid_owner"
done_testing
