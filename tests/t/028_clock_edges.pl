# The edges of the marks (issue 35), each as an operator met it on 0.6.0,
# on real servers whose clocks libfaketime moves:
# 1. the escape hatch: a caller waiting for a reservation an hour ahead (the
#    clock jumped, the synchronous standby gone) is not handed that pair
#    after chronoid_set_high_water_mark() moves the generator back: it takes
#    a new one at the true clock, and the move warns;
# 2. a standby whose nanoflake epoch is 5 s later than its primary's,
#    promoted, makes no ID equal to or below a replicated one;
# 3. a clock past a format's range is refused (22008), never wrapped or
#    waited on forever, and a refused call moves nothing; the reserver does
#    not spin at the end of what a ticker holds;
# 4. a forward clock glitch with no calls leaves the marks where they were:
#    a restart afterwards generates at once;
# 5. a clock before the nanoflake epoch starts the server: gen_nanoflake()
#    refuses (22023, with a hint) and the log says why;
# 6. the marks file has the data directory's mode (0640 under initdb -g),
#    a start without it warns unless the cluster is new, a flipped digit
#    stops the server (its checksum);
# 7. a clean restart resumes at once, even with the clock 0.8 s behind;
#    a crash restart with the clock 0.3 s behind waits, never refuses.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep time);
use IPC::Run;
use Chronoid;

sub err_of
{
	my ($node, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return $err;
}

sub view
{
	my ($node, $cols, $generator) = @_;
	return $node->safe_psql('postgres',
		"SELECT $cols FROM chronoid_generators WHERE generator = '$generator'");
}

# ---------------------------------------------------------------------
# 3. Past the formats' range.
my $node = chronoid_node('edges');
$node->append_conf('postgresql.conf', "chronoid.reserve_keep_warm = 10\n");
my $clock = start_with_clock($node);
$node->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE c (c caloriosa)');
$node->safe_psql('postgres', 'INSERT INTO c SELECT gen_caloriosa() FROM generate_series(1, 1000)');
my $last_before = view($node, 'last_issued', 'caloriosa');
set_clock($clock, '@2305-08-22 00:00:00');
for my $g (qw(gen_caloriosa gen_nanoflake gen_uid60))
{
	my $t0 = time;
	my $err = err_of($node, "SET statement_timeout = '10s'; SELECT $g() FROM generate_series(1, 1000)");
	like($err, qr/ERROR:  22008: (the system clock is outside the \w+ range|nanoflake timestamp overflow: \d+ ms since)/,
		"2305-08-22: $g() refuses with 22008 (0.6.0: caloriosa wrapped, the others waited until cancelled)");
	cmp_ok(time - $t0, '<', 5, "... at once");
}
is(view($node, 'last_issued', 'caloriosa'), $last_before, 'the refused calls moved no ticker');
set_clock($clock, '+0');
$node->safe_psql('postgres', 'INSERT INTO c SELECT gen_caloriosa() FROM generate_series(1, 1000)');
is($node->safe_psql('postgres', 'SELECT count(*) - count(DISTINCT c) FROM c'), 0, 'back at the true clock: no caloriosa repeated');
$node->stop;

# The end of what a ticker holds (2248-09-26): an epoch of 2200 puts the
# nanoflake range past it. A day before it generates; a day past it
# refuses, and the reserver does not spin.
my $late = chronoid_node('late');
$late->append_conf('postgresql.conf', "chronoid.nanoflake_epoch = '2200-01-01 00:00:00+00'\n");
my $late_clock = $late->basedir . '/clock.offset';
set_clock($late_clock, '@2248-09-25 00:00:00');
start_with_clock($late);
$late->safe_psql('postgres', 'CREATE EXTENSION chronoid');
is($late->safe_psql('postgres', 'SELECT count(DISTINCT gen_nanoflake()) FROM generate_series(1, 10000)'), 10000,
	'a day before the last millisecond a ticker holds: gen_nanoflake() generates');
set_clock($late_clock, '@2248-09-27 00:00:00');
like(err_of($late, "SET statement_timeout = '10s'; SELECT gen_nanoflake()"), qr/ERROR:  22008/,
	'a day past it: refused (22008), not waited on');
# A process may end between the listing and the reading (a backend, a
# worker's short-lived asker): it is simply not the reserver.
my ($reserver) = grep {
	my $cmd = '';
	if (open my $fh, '<', "/proc/$_/cmdline") { $cmd = <$fh> // '' }
	$cmd =~ /chronoid reserver/
} cluster_processes($late);
ok($reserver, 'the reserver runs');
sub cpu_ticks
{
	open my $fh, '<', "/proc/$_[0]/stat" or return 0;
	my @f = split ' ', (<$fh> =~ s/^.*\) //r);
	return $f[11] + $f[12];
}
# Callers keep asking, as in 0.6.0's spin, for 3 s.
my $t0 = cpu_ticks($reserver);
for (1 .. 10)
{
	err_of($late, "SET statement_timeout = '1s'; SELECT gen_nanoflake()");
	usleep(300_000);
}
my $used = (cpu_ticks($reserver) - $t0) / 100;
cmp_ok($used, '<', 0.5, "the reserver used ${used} s of CPU in 3 s (0.6.0 spun at 60 %)");
$late->stop;

# ---------------------------------------------------------------------
# 5. A clock before the epoch: the server starts; gen_nanoflake() refuses.
my $early = chronoid_node('early');
my $early_clock = $early->basedir . '/clock.offset';
set_clock($early_clock, '@2019-12-31 00:00:00');
my (undef, $up) = start_with_clock($early, fail_ok => 1);
ok($up, 'the clock at 2019-12-31, before the nanoflake epoch: the server starts (0.6.0: FATAL)');
ok($early->log_contains(qr/WARNING:  chronoid: the system clock \(2019-12-31 .*\) reads before chronoid.nanoflake_epoch \(2020-01-01 00:00:00\+00\): gen_nanoflake\(\) refuses/),
	'the log says why gen_nanoflake() will refuse');
$early->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE t (u uid60 DEFAULT gen_uid60(), c caloriosa DEFAULT gen_caloriosa())');
# Before caloriosa's and uid60's own epochs (2017, 2018), as before
# nanoflake's: refused, and no ticker moves.
set_clock($early_clock, '@2016-06-01 00:00:00');
for my $g (qw(caloriosa uid60))
{
	like(err_of($early, "SELECT gen_$g()"), qr/ERROR:  22008: the system clock is outside the $g range/,
		"2016: gen_$g() refuses (22008)");
	is(view($early, 'last_issued IS NULL', $g), 't', "... and its ticker did not move");
}
set_clock($early_clock, '@2019-12-31 00:00:00');
my $err = err_of($early, 'SELECT gen_nanoflake()');
like($err, qr/ERROR:  22023: chronoid.nanoflake_epoch \(2020-01-01 .*\) lies after the current time \(2019-12-31/,
	'gen_nanoflake() refuses with 22023');
like($err, qr/HINT:  gen_nanoflake\(\) makes IDs once the system clock passes the epoch/, '... with a hint');
$early->safe_psql('postgres', 'INSERT INTO t DEFAULT VALUES');
pass('every other table, and the other generators, work');
is(view($early, 'last_issued IS NULL', 'nanoflake'), 't', 'the refused calls moved no ticker');
set_clock($early_clock, '+0');
like($early->safe_psql('postgres', 'SELECT nanoflake_timestamp(gen_nanoflake()) > now() - interval \'1 minute\''), qr/^t$/,
	'the clock set right: gen_nanoflake() generates, at the true clock');
$early->stop;

# ---------------------------------------------------------------------
# 4. A forward glitch with no calls, then a restart.
my $glitch = chronoid_node('glitch');
$glitch->append_conf('postgresql.conf', "chronoid.reserve_keep_warm = 30\n");
my $glitch_clock = start_with_clock($glitch);
$glitch->safe_psql('postgres', 'CREATE EXTENSION chronoid');
for my $case ([ '+3600', 1.5 ], [ '+30', 0.4 ])
{
	my ($offset, $for) = @$case;
	# Warm: calls for 2 s, then none.
	$glitch->safe_psql('postgres', join ';', map { 'SELECT pg_sleep(0.25), gen_nanoflake(), gen_uid60(), gen_caloriosa()' } 1 .. 8);
	set_clock($glitch_clock, $offset);
	usleep($for * 1_000_000);
	set_clock($glitch_clock, '+0');
	usleep(1_000_000);
	for my $g (qw(nanoflake uid60 caloriosa))
	{
		cmp_ok(view($glitch, 'extract(epoch FROM high_water_mark - now())', $g), '<', 5,
			"a $offset s glitch of $for s with no calls: $g\'s mark stayed near the clock");
	}
	$glitch->stop;
	start_with_clock($glitch);
	for my $g (qw(gen_nanoflake gen_uid60 gen_caloriosa))
	{
		is(err_of($glitch, "SELECT $g()"), '', "... and after a restart $g() generates at once (0.6.0: 55000 for the glitch's size)");
	}
}
# One generator called during the glitch, the others not (found by the
# review): only the one called covers the glitched time; after a crash
# restart (a clean one would bring the marks down) the others generate at
# once, and the one that handed out an hour-ahead ID refuses until then.
$glitch->safe_psql('postgres', join ';', map { 'SELECT pg_sleep(0.25), gen_nanoflake(), gen_uid60(), gen_caloriosa()' } 1 .. 8);
set_clock($glitch_clock, '+3600');
usleep(300_000);
$glitch->safe_psql('postgres', 'SELECT gen_uid60()');
usleep(1_500_000);
set_clock($glitch_clock, '+0');
usleep(1_000_000);
crash_cluster($glitch);
start_with_clock($glitch);
for my $g (qw(gen_nanoflake gen_caloriosa))
{
	is(err_of($glitch, "SELECT $g()"), '', "a glitch during which only gen_uid60() was called: after a crash restart $g() generates at once");
}
like(err_of($glitch, 'SELECT gen_uid60()'), qr/ERROR:  55000: system clock is \d+ ms behind the last uid60 issued/,
	'... while gen_uid60(), which handed out an ID an hour ahead, refuses until the clock passes it');
$glitch->safe_psql('postgres', q{SET client_min_messages = error; SELECT chronoid_set_high_water_mark('uid60', now())});
# The escape hatch: no mark past what the generator's IDs can hold, and a
# mark moved up is what the refusal names.
like(err_of($glitch, q{SELECT chronoid_set_high_water_mark('uid60', '2200-01-01')}),
	qr/ERROR:  22008: a high-water mark of uid60 must lie after 1970-01-01 00:00:00(\.001)? UTC and no later than 2157-/,
	'a mark past the end of uid60\'s range is refused (22008; 0.6.0 took it, and the generator was dead)');
my $to = $glitch->safe_psql('postgres', q{SELECT to_char((clock_timestamp() + interval '30 s') AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')});
$glitch->safe_psql('postgres', "SELECT chronoid_set_high_water_mark('nanoflake', '$to+00')");
like(err_of($glitch, 'SELECT gen_nanoflake()'), qr/DETAIL:  The durable high-water mark of nanoflake is \Q$to\E\+00/,
	'a mark moved up: the refusal names it');
$glitch->stop;

# ---------------------------------------------------------------------
# 7. Restarts with the clock a little behind.
my $restart = chronoid_node('restart');
my $restart_clock = start_with_clock($restart);
$restart->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE r (nf nanoflake, u uid60, c caloriosa)');
for my $round (1 .. 3)
{
	$restart->safe_psql('postgres', 'INSERT INTO r SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa() FROM generate_series(1, 20000)');
	my $log_at = -s $restart->logfile;
	$restart->stop('fast');
	ok($restart->log_contains(qr/chronoid: at shutdown, gen_nanoflake\(\)'s high-water mark comes down from .* just above the last ID it handed out/, $log_at),
		"$round: a clean shutdown records the last nanoflake handed out");
	set_clock($restart_clock, '-0.8');
	start_with_clock($restart);
	is(err_of($restart, 'INSERT INTO r SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa()'), '',
		"$round: after a clean restart with the clock 0.8 s behind, the first call generates (0.6.0: waited up to 1 s, or 55000)");
	set_clock($restart_clock, '+0');
}
$restart->safe_psql('postgres', 'INSERT INTO r SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa() FROM generate_series(1, 20000)');
crash_cluster($restart);
set_clock($restart_clock, '-0.3');
start_with_clock($restart);
is(err_of($restart, 'INSERT INTO r SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa()'), '',
	'after a crash with the clock 0.3 s behind, the first call waits for the mark, never refuses');
set_clock($restart_clock, '+0');
is($restart->safe_psql('postgres', 'SELECT count(*) - count(DISTINCT nf) + count(*) - count(DISTINCT u) + count(*) - count(DISTINCT c) FROM r'),
	0, 'no ID repeated across the restarts');
$restart->stop;

# ---------------------------------------------------------------------
# 6. The marks file: its mode, its absence, its checksum.
my $group = chronoid_node('group', extra => [ '--allow-group-access' ]);
$group->start;
$group->safe_psql('postgres', 'CREATE EXTENSION chronoid; SELECT gen_nanoflake()');
my $marks = $group->data_dir . '/chronoid.marks';
is(sprintf('%04o', (stat $marks)[2] & 07777), '0640', 'under initdb -g, chronoid.marks is 0640 as the cluster\'s files are (0.6.0: 0600)');
$group->stop;
chmod 0600, $marks;
$group->start;
is(sprintf('%04o', (stat $marks)[2] & 07777), '0640', 'a file made 0600 before is given the cluster\'s mode at start');
$group->stop;
unlink $marks;
my $log_at = -s $group->logfile;
$group->start;
ok($group->log_contains(qr/WARNING:  chronoid: file "chronoid.marks" is missing: the generators' high-water marks start from 0/, $log_at),
	'a cluster that ran chronoid, started without its marks file: the log says so loudly');
ok($group->log_contains(qr/HINT:  Stop the server and restore chronoid.marks/, $log_at), '... and what to do');
ok(-f $marks, 'the file is written again, so the next start is quiet');
$group->stop;
my $fresh = chronoid_node('fresh');
$fresh->start;
$fresh->stop;
ok(!$fresh->log_contains(qr/chronoid.marks" is missing/), 'a new cluster starts without the warning');
# A digit flipped in place.
my $text = slurp_file($marks);
$text =~ s/^(nanoflake \d*)(\d)$/$1 . (($2 + 1) % 10)/me;
open my $fh, '>', $marks or die;
print $fh $text;
close $fh;
$log_at = -s $group->logfile;
ok(!$group->start(fail_ok => 1), 'a digit flipped in chronoid.marks: the server does not start (0.6.0 read it)');
ok($group->log_contains(qr/FATAL:  file "chronoid.marks" is not a chronoid marks file: its checksum does not match its contents/, $log_at),
	'... and says the checksum does not match');

# ---------------------------------------------------------------------
# 2. A standby with a later nanoflake epoch, promoted.
my $primary = chronoid_node('epoch_primary', allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE n (nf nanoflake)');
$primary->safe_psql('postgres', 'INSERT INTO n SELECT gen_nanoflake() FROM generate_series(1, 1000)');
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('epoch_standby', install_path => $ENV{CHRONOID_PG_INSTALL});
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->append_conf('postgresql.conf', "chronoid.nanoflake_epoch = '2020-01-01 00:00:05+00'\n");
$standby->start;
ok($standby->log_contains(qr/chronoid: file "chronoid.marks" was written under nanoflake epoch 2020-01-01 00:00:00\+00; this server's is 2020-01-01 00:00:05\+00/),
	'the standby, started from the primary\'s backup, moves the marks to its epoch and says so');
$primary->safe_psql('postgres', 'INSERT INTO n SELECT gen_nanoflake() FROM generate_series(1, 300000)');
$primary->wait_for_catchup($standby);
$primary->stop;
$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
my @errors = generate_until_ok($standby, 'CREATE TABLE m AS SELECT gen_nanoflake() AS nf FROM generate_series(1, 300000)', 30);
is(scalar(grep { !/55000/ } @errors), 0, 'the promoted standby generates');
is($standby->safe_psql('postgres', 'SELECT count(*) FROM m JOIN n USING (nf)'), 0,
	'no new nanoflake equals a replicated one (0.6.0: 731,696 of 1.5 M did)');
is($standby->safe_psql('postgres', 'SELECT count(*) FROM m WHERE nf <= (SELECT max(nf) FROM n)'), 0,
	'every new nanoflake lies above every replicated one');
$standby->stop;

# ---------------------------------------------------------------------
# 1. The escape hatch while a caller waits for an hour-ahead reservation.
my $p = chronoid_node('hatch_primary', allows_streaming => 1);
my $p_clock = start_with_clock($p);
$p->safe_psql('postgres', 'CREATE EXTENSION chronoid');
$p->backup('b');
my $s = PostgreSQL::Test::Cluster->new('hatch_standby', install_path => $ENV{CHRONOID_PG_INSTALL});
$s->init_from_backup($p, 'b', has_streaming => 1);
$s->start;
$p->append_conf('postgresql.conf', "synchronous_standby_names = 'hatch_standby'\n");
$p->reload;
$p->poll_query_until('postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication");
$p->safe_psql('postgres', 'SELECT gen_nanoflake()');
$s->stop('fast');
set_clock($p_clock, '+3600');
my ($w_out, $w_err) = ('', '');
my $waiter = IPC::Run::start(
	[ $p->installed_command('psql'), '-XAtq', '-v', 'VERBOSITY=verbose', '-d', $p->connstr('postgres'),
	  '-c', q{SET statement_timeout = '60s';
	          SELECT ts - clock_timestamp() FROM (SELECT nanoflake_timestamp(gen_nanoflake()) AS ts OFFSET 0) AS s} ],
	'>', \$w_out, '2>', \$w_err);
usleep(1_500_000);
set_clock($p_clock, '+0');
my ($m_out, $m_err) = ('', '');
my $move = IPC::Run::start(
	[ $p->installed_command('psql'), '-XAtq', '-d', $p->connstr('postgres'),
	  '-c', q{SELECT chronoid_set_high_water_mark('nanoflake', now())} ],
	'>', \$m_out, '2>', \$m_err);
usleep(1_000_000);
$s->start;
$move->finish;
$waiter->finish;
like($m_err, qr/WARNING:  the high-water mark of nanoflake moved back from .* to /,
	'the move warns: a pair an hour ahead may have been handed out (0.6.0: no warning)');
is($w_err, '', 'the waiting caller gets an ID');
like($w_out, qr/^-?00:00:0\d/, "... at the true clock, not the hour-ahead pair it waited for ($w_out)");
is($p->safe_psql('postgres', 'SELECT count(DISTINCT gen_nanoflake()) FROM generate_series(1, 100000)'), 100000,
	'generation goes on from the moved ticker');
$p->stop;
$s->stop;

done_testing();
