# chronoid is a trusted extension: a database owner who is not a superuser
# can install it, and gains nothing more - the node id and the epoch stay
# superuser-only. No extension function runs SQL that a search_path could
# redirect: every function is C or internal.
# (Was tests/tap/security.sh: 12 checks, the same 12 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $node = chronoid_node('security');
$node->start;
$node->safe_psql('postgres', 'CREATE ROLE chronoid_owner LOGIN');
$node->safe_psql('postgres', 'CREATE DATABASE chronoid_sec OWNER chronoid_owner');
sub as_owner
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('chronoid_sec', $sql, extra_params => [ '-U', 'chronoid_owner' ]);
	return ($out, $err);
}

is($node->safe_psql('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = 'chronoid_owner'"), 'f',
	'the database owner is not a superuser');
my ($out, $err) = as_owner('CREATE EXTENSION chronoid');
is($err, '', 'a non-superuser database owner can CREATE EXTENSION chronoid (trusted)');
($out, $err) = as_owner('SELECT nanoflake_generator(gen_nanoflake()) >= 0, length(gen_scru160()::text)');
is($out, 't|32', 'and use its types and generators');
for my $set ('SET chronoid.node_id = 9', "SET chronoid.nanoflake_epoch = '2021-01-01'",
	'ALTER SYSTEM SET chronoid.node_id = 9', 'ALTER DATABASE chronoid_sec SET chronoid.node_id = 9',
	'ALTER ROLE chronoid_owner SET chronoid.node_id = 9')
{
	($out, $err) = as_owner($set);
	like($err, qr/permission denied|must be superuser|cannot be changed without restarting|cannot be changed now/,
		"refused to the owner: $set");
}
($out, $err) = as_owner("SELECT current_setting('chronoid.node_id')");
is($out, '-1', 'the node id is unchanged (not set)');

is($node->safe_psql('chronoid_sec', q{
	SELECT count(*) FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
	WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'chronoid') AND d.deptype = 'e'
	  AND d.classid = 'pg_proc'::regclass AND l.lanname NOT IN ('c', 'internal')
	  AND NOT coalesce(p.proconfig @> ARRAY['search_path=pg_catalog, pg_temp'], false)}),
	'0', 'every extension function is LANGUAGE C or internal, or pins its search_path to pg_catalog, pg_temp (no body to redirect through search_path)');
is($node->safe_psql('chronoid_sec', q{
	SELECT string_agg(p.oid::regprocedure::text, ', ') FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_language l ON l.oid = p.prolang
	WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'chronoid') AND d.deptype = 'e'
	  AND d.classid = 'pg_proc'::regclass AND l.lanname NOT IN ('c', 'internal')}),
	'chronoid_adopt_column(regclass,name,regtype,boolean)', 'the one that pins it is chronoid_adopt_column(), which runs as its caller (SECURITY INVOKER)');
# Objects created by the trusted install belong to the bootstrap superuser,
# not to the installing user, who therefore cannot redefine them.
is($node->safe_psql('chronoid_sec', q{
	SELECT count(*) FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'chronoid') AND d.deptype = 'e'
	  AND d.classid = 'pg_proc'::regclass AND p.proowner = 'chronoid_owner'::regrole}),
	'0', 'the installing user owns none of the functions');
($out, $err) = as_owner(
	"CREATE OR REPLACE FUNCTION gen_nanoflake() RETURNS nanoflake LANGUAGE sql AS 'SELECT 0::bigint::nanoflake'");
like($err, qr/must be owner/, 'the owner cannot replace gen_nanoflake()');

# A role that may create databases, minting in as many as it can (70,
# past the 64 databases 0.6.0's first builds judged), takes nothing from
# anyone: a database without Citus reads the server's one verdict, and
# another role's database mints beside them.
$node->safe_psql('postgres', 'CREATE ROLE creator LOGIN CREATEDB; CREATE ROLE other LOGIN CREATEDB');
my $minted = 0;
for my $i (1 .. 70)
{
	$node->safe_psql('postgres', "CREATE DATABASE many_$i", extra_params => [ '-U', 'creator' ]);
	my ($r, $o, $e) = $node->psql("many_$i", 'CREATE EXTENSION chronoid; SELECT gen_nanoflake() IS NOT NULL',
		extra_params => [ '-U', 'creator', '-v', 'VERBOSITY=verbose' ]);
	$minted++ if $r == 0 && $o eq 't';
	diag($e) if $r != 0;
}
is($minted, 70, 'a CREATEDB role mints in 70 databases of its own');
$node->safe_psql('postgres', 'CREATE DATABASE others', extra_params => [ '-U', 'other' ]);
is($node->safe_psql('others', 'CREATE EXTENSION chronoid; SELECT gen_nanoflake() IS NOT NULL', extra_params => [ '-U', 'other' ]), 't',
	'and another role\'s database still mints');
# The reserver connects to nothing, so pg_stat_activity does not list it.
is($node->safe_psql('postgres', q{SELECT string_agg(backend_type, ',') FROM pg_stat_activity WHERE backend_type LIKE 'chronoid%'}),
	'chronoid peer worker', 'chronoid starts no process per database: one peer worker, whatever the number of databases');

$node->stop;
done_testing();
