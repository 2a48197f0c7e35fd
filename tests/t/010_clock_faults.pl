# The wall clock stepped back and forward under running generators. The
# server runs under libfaketime, whose offset (read from a file on every
# clock reading) the test changes; CLOCK_MONOTONIC is left alone, so the
# generators' bounded waits are measured on real time. Shows: never a smaller
# ID from one server, the bounded wait, the clear error, and recovery.
# (Was tests/tap/clock_faults.sh: 18 checks, the same 18 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use POSIX ();
use Chronoid;

my $node = chronoid_node('clock');
my $clock = start_with_clock($node);
sub sql { return $node->safe_psql('postgres', $_[0]) }
sql('CREATE EXTENSION chronoid');
sql('CREATE TABLE ids (phase text, n serial, nf nanoflake, u uid60, c caloriosa, s scru160)');
# One statement, all four generators.
sub gen
{
	my ($phase, $rows) = @_;
	return $node->psql('postgres',
		"INSERT INTO ids (phase, nf, u, c, s) SELECT '$phase', gen_nanoflake(), gen_uid60(), gen_caloriosa(), gen_scru160() FROM generate_series(1, $rows)");
}
# The server-wide generators (nanoflake, uid60; caloriosa by millisecond)
# never go below anything issued on the server before. (scru160's state is
# per backend and each call is a new session: its order is checked within
# one session further down.)
sub above_all_before
{
	my ($phase) = @_;
	return sql(qq{
		SELECT bool_and(a.nf > b.nf AND a.u > b.u AND caloriosa_timestamp(a.c) >= b.c)
		FROM ids a, (SELECT max(nf) nf, max(u) u, max(caloriosa_timestamp(c)) c FROM ids
		             WHERE n < (SELECT min(n) FROM ids WHERE phase = '$phase')) b
		WHERE a.phase = '$phase'});
}

gen('start', 1000);
set_clock($clock, '-5');
my $behind = int(time) - sql('SELECT extract(epoch FROM clock_timestamp())::bigint');
ok($behind >= 4 && $behind <= 6, "the server's clock now reads 5 s earlier ($behind s)");
gen('back5_small', 200);
is(above_all_before('back5_small'), 't', '5 s back: a few IDs count on from the last millisecond, above every earlier ID');

my $t0 = time;
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT count(gen_nanoflake()) FROM generate_series(1, 10000)',
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
my $elapsed_ms = int((time - $t0) * 1000);
like($err, qr/ERROR:  55000: system clock is \d+ ms behind the last nanoflake issued on this server/,
	'5 s back, sequence used up: a clear error (55000), not a hang');
ok($elapsed_ms < 3000, "the error came at once ($elapsed_ms ms): no point waiting 5 s for a 1 s bound");
for my $g (qw(gen_uid60 gen_caloriosa))
{
	($ret, $out, $err) = $node->psql('postgres', "SELECT count($g()) FROM generate_series(1, 10000)");
	like($err, qr/ERROR:  system clock is/, "$g(): the same error when its counter runs out");
}
gen('back5_scru', 5000);
is(sql("SELECT count(*) FROM ids WHERE phase = 'back5_scru'"), '0', '(that statement failed as a whole)');
is(sql('SELECT count(*) FROM (SELECT gen_scru160() FROM generate_series(1, 50000)) s'), '50000',
	'gen_scru160() needs no wait: it counts on (its counter overflows into the next millisecond)');

set_clock($clock, '+0');
gen('recovered', 5000);
is(above_all_before('recovered'), 't', 'clock back to normal: generation recovers, above every earlier ID');

# A small step back: the generators wait it out (bounded by 1 s).
# (One session, so that the step falls right after its last IDs, however
# slow the machine.)
my $stepper = $node->background_psql('postgres');
$stepper->query_safe("INSERT INTO ids (phase, nf, u, c, s) SELECT 'before_small_step', gen_nanoflake(), gen_uid60(), gen_caloriosa(), gen_scru160() FROM generate_series(1, 100)");
set_clock($clock, '-0.4');
$t0 = time;
$stepper->query("INSERT INTO ids (phase, nf, u, c, s) SELECT 'after_small_step', gen_nanoflake(), gen_uid60(), gen_caloriosa(), gen_scru160() FROM generate_series(1, 20000)");
$elapsed_ms = int((time - $t0) * 1000);
is($stepper->{stderr}, '', '0.4 s back: 20,000 IDs still generated');
$stepper->quit;
is(above_all_before('after_small_step'), 't', '0.4 s back: every ID above the ones before');
ok($elapsed_ms >= 300, "the generators waited for the clock to catch up ($elapsed_ms ms for 20,000 IDs)");
set_clock($clock, '+0');

# A backend making many IDs reads the clock about once a millisecond and,
# between readings, the time-stamp counter (src/pg/clock.rs): an ID never
# carries a millisecond that ended before its call began, but for the calls
# within a millisecond after the clock is stepped (the reading before the
# step still stands). Each row reads clock_timestamp() before
# gen_nanoflake() (a target list is evaluated in order); the clock is
# stepped 2 s forward while the statement runs.
{
	my $rows = 300_000;
	my $stepper = fork // die "fork: $!";
	if (!$stepper)
	{
		Time::HiRes::sleep(0.4);
		set_clock($clock, '+2');
		POSIX::_exit(0);
	}
	my $stale = sql(qq{
		WITH r AS (SELECT g, clock_timestamp() AS before, gen_nanoflake() AS id, md5(g::text) FROM generate_series(1, $rows) g),
		     step AS (SELECT min(before) AS at FROM (SELECT before, before - lag(before) OVER (ORDER BY g) AS jump FROM r) j
		              WHERE jump > interval '1.9 s')
		SELECT count(*) FILTER (WHERE stale) || ' stale, '
		       || count(*) FILTER (WHERE stale AND NOT (before >= step.at AND before < step.at + interval '1 ms'))
		       || ' of them not within 1 ms of the step; stepped ' || (step.at IS NOT NULL)
		FROM (SELECT *, nanoflake_timestamp(id) < date_trunc('milliseconds', before) AS stale FROM r) x, step GROUP BY step.at});
	waitpid($stepper, 0);
	like($stale, qr/^\d+ stale, 0 of them not within 1 ms of the step; stepped true$/,
		"no ID carries a millisecond that ended before its call began, but within 1 ms of a step of the clock ($stale)");
	set_clock($clock, '+0');
}

# scru160 keeps per-backend state: up to 10 s back it counts on; further
# back it starts over from the clock with a WARNING (uniqueness still rests
# on its 96 random bits). One session, the clock stepped under it.
my $session = $node->background_psql('postgres');
$session->query_safe('CREATE TEMP TABLE s (n serial, id scru160)');
$session->query_safe('INSERT INTO s (id) SELECT gen_scru160() FROM generate_series(1, 10)');
set_clock($clock, '-8');
$session->query_safe('INSERT INTO s (id) SELECT gen_scru160() FROM generate_series(1, 10)');
is($session->query_safe(
		'SELECT bool_and(id > prev) FROM (SELECT id, lag(id) OVER (ORDER BY n) prev FROM s) x WHERE prev IS NOT NULL'),
	't', 'scru160, 8 s back: IDs keep increasing');
set_clock($clock, '-30');
$session->query('INSERT INTO s (id) SELECT gen_scru160()');
like($session->{stderr}, qr/WARNING:  system clock moved back/,
	'scru160, 30 s back: a WARNING that IDs restart from the clock');
$session->{stderr} = '';
is($session->query_safe('SELECT id < (SELECT min(id) FROM s WHERE n <= 20) FROM s WHERE n = 21'),
	't', 'scru160, 30 s back: the new ID sorts before the earlier ones, as warned');
$session->quit;
set_clock($clock, '+0');

# The clock jumps forward: IDs jump with it and keep increasing; back from
# the future, the server-wide generators refuse rather than go below.
set_clock($clock, '+3600');
gen('forward_hour', 1000);
is(above_all_before('forward_hour'), 't', 'an hour forward: IDs continue above');
is(sql(q{SELECT bool_and(nanoflake_timestamp(nf) > (SELECT max(nanoflake_timestamp(nf)) + interval '50 minutes' FROM ids WHERE phase = 'recovered')) FROM ids WHERE phase = 'forward_hour'}),
	't', 'and carry the new time');
set_clock($clock, '+0');
($ret, $out, $err) = $node->psql('postgres', 'SELECT count(gen_nanoflake()) FROM generate_series(1, 10000)');
like($err, qr/ERROR:  system clock is/, "back from the future: gen_nanoflake() refuses rather than go below its last ID");

$node->stop;
done_testing();
