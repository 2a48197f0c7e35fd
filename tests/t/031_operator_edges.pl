# The edges an operator found in 0.6.x (issue 40), each on real servers,
# clocks moved by libfaketime (item 1, an adopted key an integer column
# references, is in 030_adopt_column.pl):
# 2. a call cancelled while it waits for its reservation during a forward
#    clock glitch (its synchronous standby away) leaves neither the ticker
#    nor the marks ahead: once the clock is right the next IDs carry the
#    true time, the reservation made for the cancelled call is taken back,
#    and a crash restart generates at once;
# 3. the escape hatch takes the last millisecond a generator's IDs hold,
#    and refuses the one after it (22008), at which no ID could be made;
# 4. a chronoid.marks the server cannot write (mode 0400, a directory in
#    place of its temporary file) no longer keeps the server from starting:
#    the generators refuse with 58030, naming the file, only while they need
#    a new mark and it cannot be written, and resume once it can;
# 5. past 2248-09-26, with a nanoflake epoch whose bits reach beyond it, the
#    refusal names the ticker's limit, not a 41-bit overflow;
# 6. a base backup restored without chronoid.marks, its clock 20 s behind,
#    never mints at or below what the backup holds: the reserver logs the
#    marks after each checkpoint, so the backup's WAL carries them, and
#    where it does not (the reserver stopped during the backup) the
#    generators refuse (55000) until an operator sets the mark, across a
#    restart too.
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

# Seconds the durable mark of $g lies ahead of the server's clock.
sub mark_ahead
{
	my ($node, $g) = @_;
	return $node->safe_psql('postgres',
		"SELECT extract(epoch FROM high_water_mark - clock_timestamp()) FROM chronoid_generators WHERE generator = '$g'");
}

# ---------------------------------------------------------------------
# 2. A call cancelled during a forward glitch.
my $p = chronoid_node('glitch_primary', allows_streaming => 1);
$p->append_conf('postgresql.conf', "chronoid.reserve_keep_warm = 10\n");
my $p_clock = start_with_clock($p);
$p->safe_psql('postgres', 'CREATE EXTENSION chronoid');
$p->backup('b');
my $s = PostgreSQL::Test::Cluster->new('glitch_standby', install_path => $ENV{CHRONOID_PG_INSTALL});
$s->init_from_backup($p, 'b', has_streaming => 1);
$s->start;
$p->append_conf('postgresql.conf', "synchronous_standby_names = 'glitch_standby'\n");
$p->reload;
$p->poll_query_until('postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication");
$p->safe_psql('postgres', 'SELECT gen_uid60()');
$s->stop('fast');
set_clock($p_clock, '+3600');
my $glitch_at = time;
my ($c_out, $c_err) = ('', '');
my $call = IPC::Run::start(
	[ $p->installed_command('psql'), '-XAtq', '-v', 'VERBOSITY=verbose', '-d', $p->connstr('postgres'),
	  '-c', 'SELECT gen_uid60()' ],
	'>', \$c_out, '2>', \$c_err);
usleep(1_000_000);
$p->safe_psql('postgres',
	q{SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT gen_uid60()' AND pid <> pg_backend_pid()});
$call->finish;
like($c_err, qr/ERROR:  57014/, 'the call made during the glitch waits for its reservation and is cancelled');
usleep(1_500_000);
set_clock($p_clock, '+0');
my $glitch = time - $glitch_at;
$s->start;
$p->poll_query_until('postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication");
my $right_at = time;
my @errors = generate_until_ok($p, 'SELECT gen_uid60()', 30);
my $refused = time - $right_at;
is(scalar(@errors), 0, 'once the clock is right, gen_uid60() makes IDs at once (0.6.x: 55000 for the rest of the hour)');
cmp_ok($p->safe_psql('postgres',
	'SELECT max(extract(epoch FROM uid60_timestamp(gen_uid60()) - clock_timestamp())) FROM generate_series(1, 1000)'),
	'<', 5, '... stamped at the true clock (0.6.x: 505 IDs an hour ahead)');
my $taken_back;
for (1 .. 100)
{
	$taken_back = time - $right_at, last if mark_ahead($p, 'uid60') < 5;
	usleep(100_000);
}
ok(defined $taken_back, 'the mark reserved for the cancelled call comes back within a window of the clock');
ok($p->log_contains(qr/LOG:  chronoid: gen_uid60\(\)'s high-water mark comes back from/), '... and the log says so');
crash_cluster($p);
start_with_clock($p);
is(err_of($p, 'SELECT gen_uid60(), gen_nanoflake(), gen_caloriosa()'), '', 'a crash restart afterwards generates at once');
note sprintf('item 2: glitch %.1f s; refusals after it %.2f s; mark taken back %.2f s after the clock was right',
	$glitch, $refused, $taken_back // -1);
$p->stop;
$s->stop;

# ---------------------------------------------------------------------
# 3 and 5. The last millisecond: of the escape hatch, and of the tickers.
my $edge = chronoid_node('edge');
$edge->append_conf('postgresql.conf', "chronoid.nanoflake_epoch = '2200-01-01 00:00:00+00'\n");
my $edge_clock = start_with_clock($edge);
$edge->safe_psql('postgres', 'CREATE EXTENSION chronoid');
my $uid60_last = $edge->safe_psql('postgres', q{SELECT uid60_timestamp(uid60(1152921504606846975))});
like(err_of($edge, "SELECT chronoid_set_high_water_mark('uid60', '$uid60_last'::timestamptz + interval '1 ms')"),
	qr/ERROR:  22008: a high-water mark of uid60 must lie after 1970-01-01 00:00:00.001 UTC and no later than 2157-.*the last millisecond its IDs can hold/,
	'a mark one millisecond past the last uid60 is refused (22008; 0.6.x took it, and gen_uid60() was dead)');
is(err_of($edge, "SET client_min_messages = error; SELECT chronoid_set_high_water_mark('uid60', '$uid60_last')"), '',
	'the last millisecond itself is taken');
like(err_of($edge, 'SELECT gen_uid60()'), qr/ERROR:  55000: system clock is \d+ ms behind/,
	'... and gen_uid60() waits for the clock to reach it, rather than refuse forever');
like(err_of($edge, "SELECT chronoid_set_high_water_mark('uid60', '1970-01-01 00:00:00.001+00')"), qr/ERROR:  22008/,
	'the lost mark (1 ms) cannot be set');
set_clock($edge_clock, '@2249-01-01 00:00:00');
my $past = err_of($edge, 'SELECT gen_nanoflake()');
like($past, qr/ERROR:  22008: the system clock \(2249-01-01 .*\) is past 2248-09-26 .*, the last millisecond chronoid's server-wide generators count/,
	'epoch 2200, clock 2249: the refusal names the tickers\' last millisecond');
unlike($past, qr/does not fit/, '... not a 41-bit overflow that is none');
$edge->stop;

# ---------------------------------------------------------------------
# 4. A marks file the server cannot write.
my $w = chronoid_node('unwritable');
$w->start;
$w->safe_psql('postgres', 'CREATE EXTENSION chronoid; SELECT gen_nanoflake()');
$w->stop;
my $marks = $w->data_dir . '/chronoid.marks';
chmod 0400, $marks;
ok($w->start(fail_ok => 1), 'a chronoid.marks of mode 0400 does not keep the server from starting (0.6.x: FATAL XX001)');
is(err_of($w, 'SELECT gen_nanoflake()'), '', '... and the file given its mode back, the generators work');
$w->stop;
unlink $marks;
mkdir $w->data_dir . '/chronoid.marks.tmp';
my $log_at = -s $w->logfile;
ok($w->start(fail_ok => 1), 'chronoid.marks missing, a directory in place of its temporary file: the server starts');
ok($w->log_contains(qr/WARNING:  58030: chronoid: could not write file "chronoid.marks.tmp"|WARNING:  chronoid: could not write file "chronoid.marks.tmp"/, $log_at),
	'... and the log names the file');
my $t0 = time;
my $unwritable = err_of($w, "SET statement_timeout = '20s'; SELECT gen_nanoflake()");
my $told = time - $t0;
like($unwritable, qr/ERROR:  58030: gen_nanoflake\(\) could not reserve IDs: could not write file "chronoid.marks.tmp": Is a directory/,
	'a generator that needs a mark refuses (58030), naming the file and why');
cmp_ok($told, '<', 10, "... in $told s, not after the 10 s give-up");
is(err_of($w, 'SELECT 1'), '', 'the rest of the server works');
rmdir $w->data_dir . '/chronoid.marks.tmp';
my $fixed_at = time;
@errors = generate_until_ok($w, 'SELECT gen_nanoflake()', 30);
my $resumed = time - $fixed_at;
ok(-f $marks, 'once the directory is gone, the next reservation writes the file');
cmp_ok($resumed, '<', 5, "... and the generators resume without a restart ($resumed s)");
note sprintf('item 4: refused after %.2f s; resumed %.2f s after the fix', $told, $resumed);
$w->stop;

# ---------------------------------------------------------------------
# 6. A base backup restored without chronoid.marks.
my $b = chronoid_node('backed_up', allows_streaming => 1);
$b->append_conf('postgresql.conf', "chronoid.reserve_keep_warm = 10\n");
$b->start;
$b->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE t (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), n int)');
$b->safe_psql('postgres', 'INSERT INTO t (n) SELECT g FROM generate_series(1, 20000) g');
# Cold: no reservation record for the backup's WAL to carry.
sleep 11;
# (A) the reserver running: its record after the backup's checkpoint.
$b->backup('with_record');
# (B) the reserver stopped through the backup: no record.
my ($reserver) = grep { (eval { slurp_file("/proc/$_/cmdline") } // '') =~ /chronoid reserver/ } cluster_processes($b);
die 'no chronoid reserver' unless $reserver;
kill 'STOP', $reserver;
$b->backup('without_record');
kill 'CONT', $reserver;
my $max = $b->safe_psql('postgres', 'SELECT max(id)::bigint FROM t');
for my $case ([ 'with_record', 'restored_a' ], [ 'without_record', 'restored_b' ])
{
	my ($backup, $name) = @$case;
	unlink $b->backup_dir . "/$backup/chronoid.marks" or die "unlink: $!";
	my $r = PostgreSQL::Test::Cluster->new($name, install_path => $ENV{CHRONOID_PG_INSTALL});
	$r->init_from_backup($b, $backup);
	my $clock = $r->basedir . '/clock.offset';
	set_clock($clock, '-20');
	start_with_clock($r);
	my $err = err_of($r, 'INSERT INTO t (n) SELECT -g FROM generate_series(1, 20000) g');
	ok($r->log_contains(qr/WARNING:  chronoid: file "chronoid.marks" is missing from this restored backup/),
		"$name: the restore says the file is missing from it");
	my $lost = $err =~ /ERROR:  55000: gen_nanoflake\(\) cannot make IDs: the high-water mark of nanoflake was lost/;
	if ($backup eq 'with_record')
	{
		# The marks replayed (the clock 20 s behind them: refused until it
		# passes them), or, where the backup ended before the reserver's
		# record (a small cluster's backup takes 0.1 s), lost: never an ID
		# from the clock alone.
		like($err, qr/ERROR:  55000: (system clock is \d+ ms behind|gen_nanoflake\(\) cannot make IDs)/,
			"$name: no ID from the clock alone");
		note "$name: " . ($lost ? 'the backup ended before the reserver logged the marks: lost' : 'the backup\'s WAL carried the marks');
	}
	else
	{
		ok($lost, "$name: no mark in the backup's WAL: gen_nanoflake() refuses (55000; 0.6.x: 17,600 repeats)") or diag $err;
	}
	if ($lost)
	{
		like($err, qr/HINT:  Set the mark above every nanoflake already made/, "$name: ... saying what to do");
		$r->stop;
		start_with_clock($r);
		like(err_of($r, 'SELECT gen_nanoflake()'), qr/55000: .* was lost/, "$name: ... across a restart too");
		like(err_of($r, 'SELECT gen_uid60()'), qr/55000: .* was lost/, "$name: ... and so is every counter generator");
		my $ts = $r->safe_psql('postgres', q{SELECT nanoflake_timestamp(max(id)) + interval '1 ms' FROM t});
		$r->safe_psql('postgres', "SET client_min_messages = error; SELECT chronoid_set_high_water_mark('nanoflake', '$ts')");
		like(err_of($r, 'SELECT gen_nanoflake()'), qr/^$|55000: system clock is \d+ ms behind/, "$name: ... until the operator sets the mark");
	}
	set_clock($clock, '+0');
	is(err_of($r, 'INSERT INTO t (n) SELECT -g FROM generate_series(1, 20000) g'), '', "$name: with the clock right, IDs");
	is($r->safe_psql('postgres', "SELECT count(*) FROM t WHERE n < 0 AND id::bigint <= $max"), 0,
		"$name: no ID at or below the backup's");
	$r->stop;
}
$b->stop;

done_testing();
