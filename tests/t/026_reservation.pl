# The reservation of high-water marks (issue 29), on real servers:
# - a warm generator's caller never pays for a reservation: after pauses
#   longer than the 1 s window the reserver has already moved the mark (the
#   view's counters say who paid), and once idle past
#   chronoid.reserve_keep_warm nothing is written any more;
# - read-only transactions (BEGIN READ ONLY, default_transaction_read_only)
#   refuse the counter generators with 25006 and leave the mark alone;
#   gen_scru160() keeps working;
# - chronoid_set_high_water_mark(): the way out of a forward clock jump, on
#   a primary and replayed by its standby (also across the standby's crash
#   right after a restartpoint), refused to non-superusers (42501), in
#   read-only transactions and on standbys (25006), for unknown generators
#   (22023) and impossible marks (22008); a mark in the future refuses (55000);
# - a synchronous standby covers every ID handed out, also one only a SELECT
#   saw: with the standby gone the call waits (and can be cancelled), and
#   after a failover to it, with its clock 5 s behind, no ID is at or below
#   one handed out before;
# - a marks file with a duplicate line, a signed number or an overflowing
#   mark stops the server, naming the file.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep time);
use IPC::Run;
use Chronoid;

my @COUNTERS = qw(gen_nanoflake gen_uid60 gen_caloriosa);

my $primary = chronoid_node('primary', allows_streaming => 1);
$primary->append_conf('postgresql.conf', "chronoid.reserve_keep_warm = 10\n");
my $clock = start_with_clock($primary);
$primary->safe_psql('postgres', q{
	CREATE EXTENSION chronoid;
	CREATE ROLE alice LOGIN;
	CREATE TABLE t (nf nanoflake DEFAULT gen_nanoflake(), u uid60 DEFAULT gen_uid60(),
	                c caloriosa DEFAULT gen_caloriosa());
});
sub view
{
	my ($node, $cols, $generator) = @_;
	return $node->safe_psql('postgres',
		"SELECT $cols FROM chronoid_generators WHERE generator = '$generator'");
}

# --- Keep-warm: after the first call, no caller pays. ---
$primary->safe_psql('postgres', 'SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa()');
my $waits_before = view($primary, 'reservation_waits', 'nanoflake');
my $reservations_before = view($primary, 'reservations', 'nanoflake');
is($waits_before, 1, 'the first call after start waited for one reservation');
# Five pauses each longer than the window: 0.5.0 made every one of these
# calls reserve (a WAL flush and file fsyncs at the call).
$primary->safe_psql('postgres',
	join ';', map { 'SELECT pg_sleep(1.2); INSERT INTO t DEFAULT VALUES' } 1 .. 5);
is(view($primary, 'reservation_waits', 'nanoflake'), $waits_before,
	'calls after 1.2 s pauses never waited for a reservation');
cmp_ok(view($primary, 'reservations', 'nanoflake'), '>=', $reservations_before + 5,
	'the reserver moved the mark ahead of them');
is(view($primary, 'high_water_mark > now() + interval \'400 ms\'', 'uid60'), 't',
	'a warm mark lies at least half a window ahead of the clock');

# Idle past keep-warm (10 s here): the reserver stops writing.
sleep 12;
my $idle = $primary->safe_psql('postgres', 'SELECT sum(reservations) FROM chronoid_generators');
sleep 3;
is($primary->safe_psql('postgres', 'SELECT sum(reservations) FROM chronoid_generators'), $idle,
	'an idle server makes no reservation');
# The first call after the idle spell pays for one, and says so.
$primary->safe_psql('postgres', 'SELECT gen_uid60()');
is(view($primary, 'reservation_waits', 'uid60'), 2, 'the first call after an idle spell waited for one reservation');
cmp_ok(view($primary, 'reservation_wait_time', 'uid60'), '>', 0, 'and the time it waited is counted');

# --- Read-only transactions. ---
my $mark = view($primary, 'high_water_mark', 'nanoflake');
# nanoflake is cold (idle past keep-warm): a read-only call that minted
# would move its mark.
for my $g (@COUNTERS)
{
	my ($ret, $out, $err) = $primary->psql('postgres', "BEGIN READ ONLY; SELECT $g();",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  25006: cannot execute $g\(\) in a read-only transaction/,
		"BEGIN READ ONLY: $g() refuses with 25006");
}
is(view($primary, 'high_water_mark', 'nanoflake'), $mark, 'the refused calls left the mark alone');
is($primary->safe_psql('postgres', 'BEGIN READ ONLY; SELECT count(DISTINCT gen_scru160()) FROM generate_series(1, 100); COMMIT'),
	100, 'gen_scru160() works in a read-only transaction');
$primary->safe_psql('postgres', 'ALTER SYSTEM SET default_transaction_read_only = on; SELECT pg_reload_conf()');
$primary->poll_query_until('postgres', q{SELECT current_setting('default_transaction_read_only') = 'on'});
my ($ret, $out, $err) = $primary->psql('postgres', 'SELECT gen_uid60()',
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  25006: cannot execute gen_uid60\(\) in a read-only transaction/,
	'a primary fenced with default_transaction_read_only mints nothing');
($ret, $out, $err) = $primary->psql('postgres', 'SELECT gen_caloriosa()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  25006: cannot execute gen_caloriosa\(\) in a read-only transaction/,
	'... not even a bare SELECT gen_caloriosa()');
$primary->safe_psql('postgres', 'SET default_transaction_read_only = off; ALTER SYSTEM RESET default_transaction_read_only; SELECT pg_reload_conf()');
$primary->poll_query_until('postgres', q{SELECT current_setting('default_transaction_read_only') = 'off'});

# --- chronoid_set_high_water_mark: refusals. ---
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby', install_path => $ENV{CHRONOID_PG_INSTALL});
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
for my $case (
	[ q{SET ROLE alice; SELECT chronoid_set_high_water_mark('nanoflake', now())}, '42501', 'a non-superuser' ],
	[ q{GRANT EXECUTE ON FUNCTION chronoid_set_high_water_mark(text, timestamptz) TO alice; SET ROLE alice;
	    SELECT chronoid_set_high_water_mark('nanoflake', now())}, '42501: permission denied to set a chronoid high-water mark',
	  'a non-superuser granted EXECUTE' ],
	[ q{BEGIN READ ONLY; SELECT chronoid_set_high_water_mark('nanoflake', now())}, '25006', 'a read-only transaction' ],
	[ q{SELECT chronoid_set_high_water_mark('snowflake', now())}, '22023: unknown chronoid generator "snowflake"', 'an unknown generator' ],
	[ q{SELECT chronoid_set_high_water_mark('uid60', '1960-01-01')}, '22008', 'a mark before 1970' ],
	[ q{SELECT chronoid_set_high_water_mark('uid60', '2300-01-01')}, '22008', 'a mark beyond what a ticker holds' ])
{
	my ($sql, $code, $who) = @$case;
	($ret, $out, $err) = $primary->psql('postgres', $sql, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  \Q$code\E/, "chronoid_set_high_water_mark() refuses $who ($code)");
}
($ret, $out, $err) = $standby->psql('postgres', q{SELECT chronoid_set_high_water_mark('nanoflake', now())},
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  25006: cannot execute chronoid_set_high_water_mark\(\) during recovery/,
	'chronoid_set_high_water_mark() refuses on a standby (25006)');

# --- A forward clock jump, and the way out. ---
set_clock($clock, '+3600');
my $ahead = $primary->safe_psql('postgres', 'SELECT uid60_timestamp(gen_uid60())');
$primary->stop('fast');
set_clock($clock, '+0');
start_with_clock($primary);
($ret, $out, $err) = $primary->psql('postgres', 'SELECT gen_uid60()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000: system clock is \d+ ms behind/, 'after a +1 h clock jump, gen_uid60() refuses (55000)');
$primary->wait_for_catchup($standby);
cmp_ok(view($standby, "extract(epoch FROM high_water_mark - now())", 'uid60'), '>', 3000,
	'the standby replayed the mark an hour ahead');
($ret, $out, $err) = $primary->psql('postgres', q{SELECT chronoid_set_high_water_mark('uid60', now())});
like($err, qr/WARNING:  the high-water mark of uid60 moved back from .* to .*\nDETAIL:  gen_uid60\(\) may now issue IDs at or above .* again/,
	'moving the mark back warns that IDs above it may repeat');
my $after = $primary->safe_psql('postgres', 'SELECT uid60_timestamp(gen_uid60())');
is($primary->safe_psql('postgres', "SELECT '$after'::timestamptz < '$ahead'::timestamptz - interval '3000 s'"), 't',
	'gen_uid60() generates again, at the true clock');
$primary->wait_for_catchup($standby);
cmp_ok(view($standby, "extract(epoch FROM high_water_mark - now())", 'uid60'), '<', 60,
	'the standby replayed the move back');
# Crash the standby right after a restartpoint: the mark survives (redo
# wrote the file; the reserver flushed it).
$standby->safe_psql('postgres', 'CHECKPOINT');
my $standby_mark = view($standby, 'high_water_mark', 'uid60');
crash_cluster($standby);
$standby->start;
cmp_ok(view($standby, "extract(epoch FROM high_water_mark - '$standby_mark')", 'uid60'), '>=', 0,
	"a standby killed after a restartpoint comes back with the replayed mark");
cmp_ok(view($standby, "extract(epoch FROM high_water_mark - now())", 'uid60'), '<', 60,
	'... and not the old one an hour ahead');

# A mark set in the future refuses until then; set back, it generates.
$primary->safe_psql('postgres', q{SELECT chronoid_set_high_water_mark('caloriosa', now() + interval '1 hour')});
($ret, $out, $err) = $primary->psql('postgres', 'SELECT gen_caloriosa()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000/, 'a mark set an hour ahead makes gen_caloriosa() refuse (55000)');
$primary->safe_psql('postgres', q{SET client_min_messages = error; SELECT chronoid_set_high_water_mark('caloriosa', now())});
$primary->safe_psql('postgres', 'SELECT gen_caloriosa()');
pass('set back to now, gen_caloriosa() generates');

# --- Replay: many mark records, at the speed of the WAL. ---
my $n = 1000;
$primary->safe_psql('postgres', qq{SET client_min_messages = error;
	SELECT chronoid_set_high_water_mark('nanoflake', now() + make_interval(secs => i / 1000.0))
	FROM generate_series(1, $n) i});
my $last_set = view($primary, 'high_water_mark', 'nanoflake');
my $t0 = time;
$primary->wait_for_catchup($standby);
note sprintf('the standby replayed %d mark records in %.2f s', $n, time - $t0);
cmp_ok(view($standby, "extract(epoch FROM high_water_mark - '$last_set')", 'nanoflake'), '>=', 0,
	"the standby replayed $n mark records");

# --- A synchronous standby covers an ID only a SELECT saw. ---
$primary->append_conf('postgresql.conf', "synchronous_standby_names = 'standby'\n");
$primary->reload;
$primary->poll_query_until('postgres', "SELECT sync_state = 'sync' FROM pg_stat_replication");
# SELECT-only IDs, handed out over 1.5 s (several reservations).
my $seen = $primary->safe_psql('postgres', q{
	CREATE TEMP TABLE s (nf nanoflake);
	DO $$ BEGIN FOR i IN 1 .. 15 LOOP PERFORM pg_sleep(0.1);
	  INSERT INTO s SELECT gen_nanoflake() FROM generate_series(1, 100); END LOOP; END $$;
	SELECT max(nanoflake_timestamp(nf)) FROM s});
my $standby_clock = $standby->basedir . '/clock.offset';
$standby->stop('fast');
# The standby is gone: a call that needs a reservation waits for it, and
# can be cancelled (0.5.0 handed the ID out).
sleep 2;
my ($waiter_out, $waiter_err) = ('', '');
my $waiter = IPC::Run::start(
	[ $primary->installed_command('psql'), '-XAtq', '-v', 'VERBOSITY=verbose', '-d', $primary->connstr('postgres'),
	  '-c', q{SET statement_timeout = '5s'; SELECT nanoflake_timestamp(gen_nanoflake())} ],
	'>', \$waiter_out, '2>', \$waiter_err);
usleep(1_500_000);
my $event = $primary->safe_psql('postgres', q{
	SELECT wait_event_type || '/' || wait_event FROM pg_stat_activity WHERE query LIKE '%gen_nanoflake()%' AND pid <> pg_backend_pid()});
my $major = $primary->safe_psql('postgres', 'SHOW server_version_num') / 10000;
is($event, $major >= 17 ? 'Extension/ChronoidReservation' : 'Extension/Extension',
	'a caller waiting for a reservation shows its wait event');
$waiter->finish;
($out, $err) = ($waiter_out, $waiter_err);
like($err, qr/ERROR:  57014: canceling statement due to statement timeout/,
	'with the synchronous standby gone, a call past the mark waits (and is cancelled)');
$seen = $out if $out ne '' && $out gt $seen;
# An operator's move while the standby is gone neither waits behind the
# reserver (which holds no lock while it waits for the standby) nor covers
# a waiting caller's pair with a mark the standby never saw.
($waiter_out, $waiter_err) = ('', '');
$waiter = IPC::Run::start(
	[ $primary->installed_command('psql'), '-XAtq', '-v', 'VERBOSITY=verbose', '-d', $primary->connstr('postgres'),
	  '-c', q{SET statement_timeout = '6s'; SELECT nanoflake_timestamp(gen_nanoflake())} ],
	'>', \$waiter_out, '2>', \$waiter_err);
usleep(1_000_000);
my $t_set = time;
($ret, $out, $err) = $primary->psql('postgres',
	q{SET statement_timeout = '2s'; SELECT chronoid_set_high_water_mark('nanoflake', clock_timestamp() + interval '30 s')});
cmp_ok(time - $t_set, '<', 5, 'chronoid_set_high_water_mark() is not stuck behind a reservation waiting for the standby');
like($err, qr/canceling wait for synchronous replication/, '... its own wait for the standby ends at statement_timeout, as a commit\'s');
$waiter->finish;
like($waiter_err, qr/ERROR:  57014/, 'the caller waiting for a reservation still waits: the move covered nothing');
$seen = $waiter_out if $waiter_out ne '' && $waiter_out gt $seen;
$primary->stop('immediate');
set_clock($standby_clock, '-5');
start_with_clock($standby);
$standby->promote;
$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
$standby->safe_psql('postgres', 'CREATE TABLE after (nf nanoflake)');
my @errors = generate_until_ok($standby, 'INSERT INTO after SELECT gen_nanoflake() FROM generate_series(1, 5000)', 3);
set_clock($standby_clock, '+0');
@errors = generate_until_ok($standby, 'INSERT INTO after SELECT gen_nanoflake() FROM generate_series(1, 5000)')
  if @errors && $errors[-1] eq 'TIMEOUT';
is(scalar(grep { !/ERROR:  55000/ } @errors), 0, 'the promoted standby generates (refusals only 55000)');
is($standby->safe_psql('postgres', "SELECT count(*) FROM after WHERE nanoflake_timestamp(nf) <= '$seen'"), 0,
	'after failover to the synchronous standby, 5 s behind, no ID lies at or below one a SELECT saw');

# --- The marks file is read strictly. ---
my $strict = chronoid_node('strict');
$strict->start;
$strict->safe_psql('postgres', 'CREATE EXTENSION chronoid; SELECT gen_nanoflake()');
$strict->stop;
my $file = $strict->data_dir . '/chronoid.marks';
my $good = PostgreSQL::Test::Utils::slurp_file($file);
for my $case (
	[ "nanoflake 5\nnanoflake 9\ncaloriosa 6\nuid60 7\n", 'two lines for nanoflake', 'a duplicate line' ],
	[ "nanoflake +123\ncaloriosa 6\nuid60 7\n", 'is not a number of milliseconds', 'a signed number' ],
	[ "nanoflake 99999999999999999999\ncaloriosa 6\nuid60 7\n", 'is beyond the largest', 'an overflowing mark' ],
	[ "nanoflake 9000000000000\ncaloriosa 6\nuid60 7\n", 'is beyond the largest', 'a mark a ticker cannot hold' ],
	[ "nanoflake 5\ncaloriosa 6\nuid60 179563", 'is cut short', 'a last line cut short' ])
{
	my ($body, $why, $what) = @$case;
	PostgreSQL::Test::Utils::append_to_file("$file.new", "chronoid high-water marks 1\n$body");
	rename "$file.new", $file or die;
	my $log_at = -s $strict->logfile;
	ok(!$strict->start(fail_ok => 1), "a marks file with $what: the server does not start");
	ok($strict->log_contains(qr/FATAL:  file "chronoid.marks" is not a chronoid marks file: .*\Q$why\E/, $log_at),
		"... and says why, naming the file");
}
PostgreSQL::Test::Utils::append_to_file("$file.new", $good);
rename "$file.new", $file or die;
ok($strict->start(fail_ok => 1), 'the good file back, it starts');
$strict->stop;
# A keep-warm below 10 s would let the reserver stop while callers pause
# longer than the window: refused at start, as a bad setting of
# PostgreSQL's own.
$strict->append_conf('postgresql.conf', "chronoid.reserve_keep_warm = 5\n");
my $log_at = -s $strict->logfile;
ok(!$strict->start(fail_ok => 1), 'chronoid.reserve_keep_warm = 5: the server does not start');
ok($strict->log_contains(qr/5 s is outside the valid range for parameter "chronoid.reserve_keep_warm" \(10 s? .. 86400 s?\)|outside the valid range for parameter "chronoid.reserve_keep_warm"/, $log_at),
	'... and says which setting is out of range');
$standby->stop;
done_testing();
