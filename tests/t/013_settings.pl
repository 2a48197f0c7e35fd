# Settings applied in whatever order PostgreSQL applies them - parallel
# workers, role and database settings at login - reach the session intact;
# no session can move the nanoflake epoch; per-session node ids never
# repeat an ID of this server.
# (Was tests/tap/settings.sh: 21 checks, the same 21 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Chronoid;

$ENV{PGOPTIONS} = '-c client_min_messages=warning -c TimeZone=UTC';
my $node = chronoid_node('settings');
$node->start;
sub sql { my ($db, $q) = @_; return $node->safe_psql($db, $q) }
# psql as a role: stdout and stderr.
sub as_role
{
	my ($role, $q) = @_;
	my ($ret, $out, $err) = $node->psql('ck_settings', $q, extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
	return ($out, $err);
}
my $PARALLEL = 'SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
                SET min_parallel_table_scan_size = 0; SET parallel_leader_participation = off;';

# 1. Parallel workers restore the leader's settings one by one, in their own
# order: a context valid as a pair must reach them, even in a database
# without the extension (the library is preloaded everywhere).
sql('postgres', 'CREATE TABLE plain_rows AS SELECT g FROM generate_series(1, 100000) g; ANALYZE plain_rows');
like(sql('postgres', "SET chronoid.codokey_year_zero = 100; SET chronoid.codokey_max_year = 200; $PARALLEL
                      EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM plain_rows"),
	qr/Workers Launched: 2/, 'a database without chronoid: a parallel query under the context (100, 200) runs with 2 workers');
is(sql('postgres', "SET chronoid.codokey_year_zero = 100; SET chronoid.codokey_max_year = 200; $PARALLEL SELECT count(*) FROM plain_rows"),
	'100000', 'and answers');

sql('postgres', 'CREATE DATABASE ck_settings');
sql('ck_settings', 'CREATE EXTENSION chronoid');
sql('ck_settings', "CREATE TABLE keys AS SELECT g, codokey(timestamptz '0100-01-01+00' + g * interval '8 hours', 3, 100, 200, 9) AS k FROM generate_series(1, 100000) g; ANALYZE keys");
# The workers decode with the session's context: it must be theirs too.
for my $order ('SET chronoid.codokey_year_zero = 100; SET chronoid.codokey_max_year = 200;',
	'SET chronoid.codokey_max_year = 200; SET chronoid.codokey_year_zero = 100;')
{
	like(sql('ck_settings', "$order $PARALLEL EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM keys WHERE codokey_timestamp(k) < '0150-01-01+00'"),
		qr/Workers Launched: 2/, "parallel decoding under ($order) runs with 2 workers");
	is(sql('ck_settings', "$order $PARALLEL SELECT count(*) FROM keys WHERE codokey_timestamp(k) < '0150-01-01+00'"),
		sql('ck_settings', "SELECT count(*) FROM keys WHERE codokey_timestamp(k, 100, 200, 9) < '0150-01-01+00'"),
		"and the workers decode in the session's context");
}

# 2. Role and database settings, stored in either order, arrive as a pair.
# (A pairwise check when set would reject the first of them at login with
# a WARNING, silently leaving (1970, 5000).)
sql('postgres', 'CREATE ROLE ck_role_a LOGIN; CREATE ROLE ck_role_b LOGIN');
sql('ck_settings', 'GRANT SELECT ON keys TO ck_role_a, ck_role_b');
sql('postgres', 'ALTER DATABASE ck_settings SET chronoid.codokey_year_zero = 4000; ALTER DATABASE ck_settings SET chronoid.codokey_max_year = 5000');
my $context = "SELECT current_setting('chronoid.codokey_year_zero') || '..' || current_setting('chronoid.codokey_max_year')";
is(sql('ck_settings', $context), '4000..5000', 'database-level year zero, then max year: the session has (4000, 5000)');
is(sql('ck_settings', "SELECT codokey(timestamptz '4500-06-15+00', 0), length(codokey(timestamptz '4500-06-15+00', 0)::text)"),
	'dw|2', 'and makes keys in it');
sql('postgres', 'ALTER DATABASE ck_settings RESET ALL');
sql('postgres', 'ALTER DATABASE ck_settings SET chronoid.codokey_max_year = 50; ALTER DATABASE ck_settings SET chronoid.codokey_year_zero = 10');
is(sql('ck_settings', $context), '10..50', 'database-level max year, then year zero: the session has (10, 50)');
sql('postgres', 'ALTER ROLE ck_role_a SET chronoid.codokey_year_zero = 100; ALTER ROLE ck_role_a SET chronoid.codokey_max_year = 200');
sql('postgres', 'ALTER ROLE ck_role_b SET chronoid.codokey_max_year = 200; ALTER ROLE ck_role_b SET chronoid.codokey_year_zero = 100');
for my $role (qw(ck_role_a ck_role_b))
{
	my ($out, $err) = as_role($role, $context);
	is("$out$err", '100..200', "$role: role settings (in its order) override the database's and arrive as a pair, with no warning");
	($out, $err) = as_role($role, 'SELECT codokey_timestamp(k) FROM keys WHERE g = 1');
	is("$out$err", '0100-01-01 08:00:00+00', "$role: decodes the (100, 200) keys in its context");
}
# A pair that is invalid as stored is an error where a key is made, 22023.
sql('postgres', 'ALTER ROLE ck_role_a SET chronoid.codokey_max_year = 50');
my ($out, $err) = as_role('ck_role_a', 'SELECT codokey(now())');
like($err, qr/ERROR:  22023: invalid codokey context \(chronoid.codokey_year_zero = 100, chronoid.codokey_max_year = 50\)/,
	'an invalid stored pair: 22023 naming both settings when a key is made');

# 3. The epoch is the server's: no session, option or setting moves it.
{
	# psql -c, not the query on stdin: the connection fails before psql
	# would read it.
	local %ENV = $node->_get_env();
	local $ENV{PGOPTIONS} = '-c chronoid.nanoflake_epoch=2021-01-01';
	my ($o, $e) = ('', '');
	IPC::Run::run([ $node->installed_command('psql'), '-XAtq', '-d', $node->connstr('ck_settings'), '-c', 'SELECT 1' ],
		'<', \undef, '>', \$o, '2>', \$e);
	like($e, qr/parameter "chronoid.nanoflake_epoch" cannot be changed without restarting the server/,
		'PGOPTIONS cannot give a session another epoch');
}
for my $stmt ("SET chronoid.nanoflake_epoch = '2020-01-01 00:00:00.001+00'",
	"ALTER DATABASE ck_settings SET chronoid.nanoflake_epoch = '2021-01-01'",
	"ALTER ROLE ck_role_a SET chronoid.nanoflake_epoch = '2021-01-01'")
{
	my ($ret, $o, $e) = $node->psql('ck_settings', $stmt);
	like($e, qr/cannot be changed without restarting the server/, "refused: $stmt");
}

# 4. The node id is the server's too (PGC_SIGHUP): a server is one node,
# and a role's setting is what Citus hands every node alike. No session,
# database, role or connection option gives a session another (55P02).
for my $stmt ('SET chronoid.node_id = 5', "SELECT set_config('chronoid.node_id', '5', false)",
	'ALTER DATABASE ck_settings SET chronoid.node_id = 5', 'ALTER ROLE ck_role_a SET chronoid.node_id = 5',
	'SET chronoid.node_id_base = 5', 'ALTER ROLE ck_role_a SET chronoid.node_id_base = 5')
{
	my ($ret, $o, $e) = $node->psql('ck_settings', $stmt);
	like($e, qr/parameter "chronoid.node_id(_base)?" cannot be changed now/, "refused: $stmt");
}
{
	local %ENV = $node->_get_env();
	local $ENV{PGOPTIONS} = '-c chronoid.node_id=5';
	my ($o, $e) = ('', '');
	IPC::Run::run([ $node->installed_command('psql'), '-XAtq', '-d', $node->connstr('ck_settings'), '-c',
			'SELECT nanoflake_generator(gen_nanoflake())' ],
		'<', \undef, '>', \$o, '2>', \$e);
	isnt($o, '5', 'PGOPTIONS cannot give a session another node id');
	like($e, qr/parameter "chronoid.node_id" cannot be changed now/, 'and says so');
}
is(sql('ck_settings', "SELECT count(*) FROM pg_db_role_setting s, unnest(s.setconfig) c WHERE c LIKE 'chronoid.node_id%'"),
	'0', 'no database or role holds a node id');

# Sessions at once, each with the server's node id (postgresql.conf, on
# reload): no two IDs equal.
$node->append_conf('postgresql.conf', "chronoid.node_id = 9\n");
$node->reload;
$node->poll_query_until('ck_settings', "SELECT current_setting('chronoid.node_id') = '9'") or die 'node id 9 not loaded';
sql('ck_settings', 'CREATE UNLOGGED TABLE by_node (session int, id nanoflake)');
my $failed = at_once(map { [ $node, "INSERT INTO by_node SELECT $_, gen_nanoflake() FROM generate_series(1, 30000)", 'ck_settings' ] }
	1 .. 4);
is($failed, 0, '4 sessions generated at once');
is(sql('ck_settings', 'SELECT count(*), count(DISTINCT id) FROM by_node'), '120000|120000', '0 duplicate IDs');
is(sql('ck_settings', 'SELECT bool_and(nanoflake_generator(id) = 9) FROM by_node'), 't', "each ID carries the server's node id");

$node->stop;
done_testing();
