# The server-wide generators (gen_nanoflake, gen_uid60, gen_caloriosa) never
# hand out an ID at or below one handed out before a crash or a restart, even
# when the server comes back with its clock behind: a kill -9 of the whole
# cluster while 4 sessions generate, restarted 200 ms, 2 s and 30 s behind; a
# clean fast stop restarted 2 s behind; and one backend killed while the
# clock is 10 s behind (the postmaster rebuilds shared memory). The IDs
# "handed out before" are every one the sessions received, committed or not
# (they stream them with COPY TO STDOUT).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use Chronoid;

my $node = chronoid_node('restart');
my $clock = start_with_clock($node);
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION chronoid;
	CREATE TABLE seen (round text, nf nanoflake, u uid60, c caloriosa);
	CREATE TABLE later (round text, nf nanoflake, u uid60, c caloriosa);
	CREATE TABLE load (nf nanoflake, u uid60, c caloriosa);
});
my $tmp = PostgreSQL::Test::Utils::tempdir();

# Every ID of $round in `later` lies above (and so differs from) every ID
# handed out before it: all streamed ones so far and earlier rounds' rows.
sub check_round
{
	my ($round) = @_;
	my $rows = $node->safe_psql('postgres',
		"SELECT count(*) FROM later WHERE round = '$round'");
	cmp_ok($rows, '>', 0, "$round: generated again ($rows rows)");
	for my $g ([ 'nf', 'nanoflake' ], [ 'u', 'uid60' ], [ 'c', 'caloriosa' ])
	{
		my ($col, $type) = @$g;
		my $result = $node->safe_psql(
			'postgres', qq{
			WITH before AS (
			    SELECT $col AS id FROM seen
			    UNION ALL SELECT $col FROM later WHERE round < '$round'),
			 after AS (SELECT $col AS id FROM later WHERE round = '$round')
			SELECT (SELECT count(*) FROM after JOIN before USING (id)),
			       (SELECT count(*) FROM after WHERE ${type}_timestamp(id) <=
			           (SELECT max(${type}_timestamp(id)) FROM before)),
			       (SELECT count(*) FROM before)});
		my ($equal, $not_above, $before) = split /\|/, $result;
		is($equal, 0, "$round: no $type equals one of the $before handed out before");
		is($not_above, 0, "$round: every $type lies in a later millisecond than all before");
	}
	return;
}

# Generates $round's rows once the server agrees to; every refusal on the
# way must be the clock-behind error.
sub generate_round
{
	my ($round) = @_;
	my @errors = generate_until_ok($node,
		"INSERT INTO later SELECT '$round', gen_nanoflake(), gen_uid60(), gen_caloriosa() "
		  . 'FROM generate_series(1, 20000)');
	my @other = grep { !/ERROR:  55000: system clock is \d+ ms behind/ } @errors;
	is(scalar(@other), 0, "$round: refusals, if any, are 55000 clock-behind errors")
	  or diag(join "\n", @other);
	return scalar(@errors);
}

# A round: generate from 4 sessions, stop the server ($how), restart it with
# its clock $offset seconds behind real time, generate again.
my $n = 0;
for my $case ([ 'kill9', '-0.2' ], [ 'kill9', '-2' ], [ 'kill9', '-30' ], [ 'fast', '-2' ])
{
	my ($how, $offset) = @$case;
	my $round = sprintf('%d_%s%s', ++$n, $how, $offset);
	set_clock($clock, '+0');
	my $streams = start_streams($node, 4, "$tmp/$round");
	usleep(1_000_000);
	if ($how eq 'kill9')
	{
		crash_cluster($node);
	}
	else
	{
		$node->stop('fast');
	}
	stop_streams($streams);
	set_clock($clock, $offset);
	my $log_at = -s $node->logfile;
	start_with_clock($node);
	my $rows = load_streams($node, $streams, 'load');
	$node->safe_psql('postgres',
		"INSERT INTO seen SELECT '$round', * FROM load; TRUNCATE load");
	cmp_ok($rows, '>', 10_000, "$round: $rows IDs were streamed before the stop");
	ok($node->log_contains(qr/chronoid: at start, gen_nanoflake\(\) resumes above its high-water mark/, $log_at),
		"$round: the log says where gen_nanoflake() resumes");

	if ($offset eq '-30')
	{
		# Far behind: refused at once, and again, until the clock passes.
		for my $g (qw(gen_nanoflake gen_uid60 gen_caloriosa))
		{
			my ($ret, $out, $err) = $node->psql('postgres', "SELECT $g()",
				extra_params => [ '-v', 'VERBOSITY=verbose' ]);
			like($err, qr/ERROR:  55000: system clock is \d+ ms behind the last \w+ issued on this server/,
				"$round: $g() refuses with 55000 while the clock is behind the mark");
			like($err, qr/DETAIL:  The durable high-water mark of \w+ is .* Generation resumes above it once the clock passes it/,
				"$round: $g()'s error names the high-water mark");
		}
		ok($node->log_contains(qr/gen_nanoflake\(\) resumes above its high-water mark .* the clock is \d+ ms behind it/, $log_at),
			"$round: the log says how far the clock is behind the mark");
		set_clock($clock, '+0');
	}
	my $refusals = generate_round($round);
	note "$round: $refusals refusals before the clock passed the mark";
	check_round($round);
}

# One backend killed while the clock is 10 s behind: the postmaster rebuilds
# shared memory, which used to restart the tickers from the (wrong) clock.
{
	my $round = sprintf('%d_backend_crash', ++$n);
	set_clock($clock, '+0');
	my $streams = start_streams($node, 4, "$tmp/$round");
	usleep(500_000);
	stop_streams($streams);
	set_clock($clock, '-10');
	my ($ret, $out, $err) = $node->psql('postgres',
		'SELECT count(gen_nanoflake()) FROM generate_series(1, 100000)');
	like($err, qr/system clock is \d+ ms behind/, "$round: 10 s behind, the generator refuses");

	my $victim = $node->background_psql('postgres');
	my $pid = $victim->query_safe('SELECT pg_backend_pid()');
	my $log_at = -s $node->logfile;
	kill 'KILL', $pid;
	$node->wait_for_log(qr/all server processes terminated; reinitializing/, $log_at);
	$node->poll_query_until('postgres', 'SELECT true');
	eval { $victim->quit };
	ok($node->log_contains(qr/chronoid: at start, gen_nanoflake\(\) resumes above its high-water mark .* behind it/, $log_at),
		"$round: shared memory rebuilt, the marks read back, the clock reported behind");
	($ret, $out, $err) = $node->psql('postgres', 'SELECT gen_nanoflake()');
	like($err, qr/system clock is \d+ ms behind/,
		"$round: after the rebuild the generator still refuses rather than repeats");
	my $rows = load_streams($node, $streams, 'load');
	$node->safe_psql('postgres',
		"INSERT INTO seen SELECT '$round', * FROM load; TRUNCATE load");
	set_clock($clock, '+0');
	generate_round($round);
	check_round($round);
}

$node->stop;
done_testing();
