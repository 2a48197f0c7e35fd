# Crashes while generators run: kill -9 of a generating backend (the
# postmaster then restarts every backend and re-creates shared memory), and
# kill -9 of the postmaster itself. What is promised: after the restart the
# monotonic generators continue above every ID issued before the crash
# (nanoflake, uid60, scru160; caloriosa's timestamps never go back), and
# nothing repeats: the server-wide generators resume above their durable
# high-water marks (src/durable/marks.rs), scru160 restarts from the clock.
# Restarts with the clock stepped back, and failover, are
# 001_restart_clock_behind.pl and 002_failover.pl.
# (Was tests/tap/crash.sh: 7 checks, the same 7 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);
use Chronoid;

my $node = chronoid_node('crash');
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION chronoid;
	CREATE TABLE ids (phase int, nf nanoflake, s scru160, c caloriosa, u uid60)});

sub generate
{
	my ($phase, $rows) = @_;
	$node->safe_psql('postgres',
		"INSERT INTO ids SELECT $phase, gen_nanoflake(), gen_scru160(), gen_caloriosa(), gen_uid60() FROM generate_series(1, $rows)");
}

# Every ID of this phase lies above every earlier one.
sub check_after
{
	my ($phase) = @_;
	is($node->safe_psql('postgres', qq{
		SELECT bool_and(a.nf > b.max_nf AND a.s > b.max_s AND a.u > b.max_u
		                AND caloriosa_timestamp(a.c) >= b.max_c_ts)
		FROM ids a, (SELECT max(nf) max_nf, max(s) max_s, max(u) max_u, max(caloriosa_timestamp(c)) max_c_ts
		             FROM ids WHERE phase < $phase) b WHERE a.phase = $phase}),
		't', "phase $phase: IDs continue above everything issued before the crash");
}

# A long INSERT in the background, to crash in the middle of.
sub start_long_insert
{
	my ($phase) = @_;
	local %ENV = $node->_get_env();
	my ($in, $out, $err) = ('', '', '');
	return IPC::Run::start(
		[
			$node->installed_command('psql'), '-XAtq', '-d', $node->connstr('postgres'), '-c',
			"INSERT INTO ids SELECT $phase, gen_nanoflake(), gen_scru160(), gen_caloriosa(), gen_uid60() FROM generate_series(1, 3000000)"
		],
		\$in, \$out, \$err);
}

generate(1, 20000);
# A backend killed in the middle of generating.
my $long = start_long_insert(2);
$node->poll_query_until('postgres',
	"SELECT count(*) = 1 FROM pg_stat_activity WHERE query LIKE 'INSERT INTO ids SELECT 2%'");
usleep(500_000);
my $victim = $node->safe_psql('postgres',
	"SELECT pid FROM pg_stat_activity WHERE query LIKE 'INSERT INTO ids SELECT 2%' AND pid <> pg_backend_pid()");
my $log_at = -s $node->logfile;
ok(kill('KILL', $victim), 'a generating backend was killed with SIGKILL');
$long->finish;
$node->poll_query_until('postgres', 'SELECT true');
is($node->safe_psql('postgres', 'SELECT count(*) FROM ids WHERE phase = 2'), '0',
	"the killed backend's rows are gone (its transaction never committed)");
ok($node->log_contains(qr/terminated by signal 9/, $log_at), 'the postmaster saw the crash and reinitialized');
generate(3, 20000);
check_after(3);

# The postmaster itself killed: a cold start once its backends are gone.
$long = start_long_insert(4);
$node->poll_query_until('postgres',
	"SELECT count(*) = 1 FROM pg_stat_activity WHERE query LIKE 'INSERT INTO ids SELECT 4%'");
my @processes = cluster_processes($node);
$node->kill9;
wait_until_gone(60, @processes);
$long->finish;
ok($node->start(fail_ok => 1), 'the cluster starts again after SIGKILL of the postmaster');
generate(5, 20000);
check_after(5);
is($node->safe_psql('postgres', q{
	SELECT count(*) = count(DISTINCT nf) AND count(*) = count(DISTINCT s)
	   AND count(*) = count(DISTINCT c) AND count(*) = count(DISTINCT u) FROM ids}),
	't', 'zero duplicates of any type across both crashes');

$node->stop;
done_testing();
