# A bad chronoid setting in the server's configuration stops the server at
# start, with the reason in its log, as PostgreSQL's own settings do: never
# a warning and a fallback to node 0 or the default epoch. Good spellings of
# the epoch start it; a reload cannot move the epoch.
# (Was tests/tap/bad_config.sh: 29 checks, the same 29 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use Chronoid;

my $node = chronoid_node('config');
my $conf = 'postgresql.conf';

# With these settings added: did the server start? (It is stopped again,
# and the settings removed, before returning.) The log from the attempt
# stays readable through $log_at.
my $log_at;
sub starts_with
{
	my (%set) = @_;
	$node->append_conf($conf, join('', map { "$_ = $set{$_}\n" } sort keys %set));
	$log_at = -s $node->logfile // 0;
	my $up = $node->start(fail_ok => 1);
	$node->stop('fast') if $up;
	$node->adjust_conf($conf, $_, undef) for keys %set;
	return $up;
}

# The server must not start, and must say why.
sub refuses
{
	my ($name, $pattern, %set) = @_;
	my $what = join ', ', map { "$_ = $set{$_}" } sort keys %set;
	ok(!starts_with(%set), "refuses to start: $what");
	ok($node->log_contains(qr/FATAL: .*$pattern/, $log_at), "$name: the log says why");
}

refuses('node_id_range', qr/2000 is outside the valid range for parameter "chronoid.node_id" \(-1 .. 1023\)/,
	'chronoid.node_id' => '2000');
refuses('node_id_base_range', qr/1024 is outside the valid range for parameter "chronoid.node_id_base" \(0 .. 1023\)/,
	'chronoid.node_id_base' => '1024');
refuses('node_ids_seen', qr/parameter "chronoid.node_ids_seen" cannot be changed/,
	'chronoid.node_ids_seen' => "'1\t7\t0\tforged'");
refuses('node_id_syntax', qr/invalid value for parameter "chronoid.node_id": "seven"/, 'chronoid.node_id' => "'seven'");
refuses('misspelt', qr/unrecognized configuration parameter "chronoid.nodeid" in file ".*postgresql.conf" line/,
	'chronoid.nodeid' => '7');
refuses('epoch_garbage', qr/invalid value for parameter "chronoid.nanoflake_epoch": "garbage"/,
	'chronoid.nanoflake_epoch' => "'garbage'");
# An epoch ahead of the clock is no bad setting (issue 35): a machine booted
# before its clock is set must not lose every table. The server starts, and
# its log says why gen_nanoflake() refuses until the clock passes the epoch
# (028_clock_edges.pl steps the clock itself).
ok(starts_with('chronoid.nanoflake_epoch' => "'2999-01-01 00:00:00+00'"),
	'starts with an epoch ahead of the clock');
ok($node->log_contains(qr/WARNING:  chronoid: the system clock \(.*\) reads before chronoid.nanoflake_epoch \(2999-01-01 00:00:00\+00\): gen_nanoflake\(\) refuses/, $log_at),
	'epoch_future: the log says gen_nanoflake() refuses until the clock passes it');
refuses('fraction_max', qr/invalid value for parameter "chronoid.codokey_fraction_max": 10/,
	'chronoid.codokey_fraction_max' => '10');
refuses('year_zero', qr/0 is outside the valid range for parameter "chronoid.codokey_year_zero"/,
	'chronoid.codokey_year_zero' => '0');
refuses('precision', qr/9 is outside the valid range for parameter "chronoid.codokey_precision"/,
	'chronoid.codokey_precision' => '9');

# ALTER SYSTEM writes postgresql.auto.conf: the same rule.
$node->append_conf('postgresql.auto.conf', "chronoid.node_id = 4096\n");
$log_at = -s $node->logfile;
if ($node->start(fail_ok => 1))
{
	ok(0, 'refuses to start over postgresql.auto.conf');
	$node->stop('fast');
}
else
{
	ok($node->log_contains(qr/FATAL: .*4096 is outside the valid range for parameter "chronoid.node_id"/, $log_at),
		'refuses to start over a bad value in postgresql.auto.conf (ALTER SYSTEM), and says why');
}
$node->adjust_conf('postgresql.auto.conf', 'chronoid.node_id', undef);

# On the command line too.
$log_at = -s $node->logfile;
{
	local %ENV = $node->_get_env();
	my $started = PostgreSQL::Test::Utils::system_log('pg_ctl', '-D', $node->data_dir, '-l', $node->logfile,
		'-o', '-c chronoid.nanoflake_epoch=yesterday', '-w', '-t', '30', 'start') == 0;
	if ($started)
	{
		ok(0, 'refuses to start over a bad -c option');
		PostgreSQL::Test::Utils::system_log('pg_ctl', '-D', $node->data_dir, '-m', 'fast', '-w', 'stop');
	}
	else
	{
		ok($node->log_contains(qr/FATAL: .*invalid value for parameter "chronoid.nanoflake_epoch": "yesterday"/, $log_at),
			'refuses to start over a bad -c chronoid.nanoflake_epoch option, and says why');
	}
}

# The spellings of an absolute instant users type all start the server,
# with the same epoch whatever the server's TimeZone.
for my $epoch ('2024-01-01 00:00:00 UTC', '2024-01-01T00:00:00Z', '2024-01-01 00:00:00+00', '2024-01-01T09:00:00+09:00', '2024-01-01')
{
	my %set = ('chronoid.nanoflake_epoch' => "'$epoch'", timezone => "'Asia/Tokyo'", 'chronoid.node_id' => '1023');
	$node->append_conf($conf, join('', map { "$_ = $set{$_}\n" } sort keys %set));
	if ($node->start(fail_ok => 1))
	{
		is($node->safe_psql('postgres',
				"CREATE EXTENSION IF NOT EXISTS chronoid; SET TimeZone = 'UTC'; SELECT nanoflake_timestamp('0'::nanoflake), nanoflake_generator(gen_nanoflake())"),
			'2024-01-01 00:00:00+00|1023', "epoch '$epoch' starts the server and means 2024-01-01 00:00 UTC");
		$node->stop('fast');
	}
	else
	{
		ok(0, "epoch '$epoch' starts the server");
	}
	$node->adjust_conf($conf, $_, undef) for keys %set;
}

# While it runs, a reload cannot move the epoch: the server keeps its own
# and says so; a bad node id in a reload is refused and the old one kept.
$node->append_conf($conf, "chronoid.node_id = 5\n");
ok($node->start(fail_ok => 1), 'a server for the reload checks starts');
my $before = $node->safe_psql('postgres', 'SELECT gen_nanoflake()');
$log_at = -s $node->logfile;
$node->append_conf($conf, "chronoid.nanoflake_epoch = '2021-01-01 00:00:00+00'\nchronoid.node_id = 2000\n");
$node->safe_psql('postgres', 'SELECT pg_reload_conf()');
$node->wait_for_log(qr/2000 is outside the valid range for parameter "chronoid.node_id"/, $log_at);
is($node->safe_psql('postgres', "SELECT current_setting('chronoid.nanoflake_epoch'), current_setting('chronoid.node_id')"),
	'2020-01-01 00:00:00+00|5', 'after a reload the epoch and the node id are unchanged');
ok($node->log_contains(qr/parameter "chronoid.nanoflake_epoch" cannot be changed without restarting the server/, $log_at),
	'the log says the epoch needs a restart');
ok($node->log_contains(qr/2000 is outside the valid range for parameter "chronoid.node_id"/, $log_at),
	'the log says the reloaded node id is invalid');
is($node->safe_psql('postgres', "SELECT gen_nanoflake() > '$before'::nanoflake"), 't',
	'the server keeps generating, above the IDs before the reload');
$node->stop;

# chronoid's processes are registered at start (its reserver and peer
# worker), as the logical replication launcher is: PostgreSQL's defaults
# leave them their slots whatever parallel query takes, and a server whose
# max_worker_processes is below the workers registered says so at start.
$node->adjust_conf($conf, $_, undef) for qw(chronoid.nanoflake_epoch chronoid.node_id);
ok(starts_with(), 'PostgreSQL\'s default worker settings: the server starts');
ok(!$node->log_contains(qr/chronoid: max_worker_processes/, $log_at), 'and logs nothing of worker slots');
ok(starts_with(max_worker_processes => 2), 'max_worker_processes = 2: the server starts');
ok($node->log_contains(qr/LOG:  chronoid: max_worker_processes \(2\) is below the 3 background workers registered at start \(chronoid's reserver and peer worker, and the logical replication launcher\); set it to at least 3/, $log_at),
	'and logs that it is below the workers registered at start, and what to set');

done_testing();
