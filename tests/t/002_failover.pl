# Failover: a primary and a streaming standby made with pg_basebackup (so
# the same chronoid.node_id), writers committing rows whose IDs come from
# generator DEFAULTs, the primary stopped in immediate mode, the standby
# promoted with its clock 1 s and 5 s behind. On the new primary no ID is at
# or below one replicated to it; with a synchronous standby none is at or
# below any ID a writer saw committed. Before promotion the standby refuses
# the counter-based generators (25006) and serves gen_scru160().
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);
use Chronoid;

my $tmp = PostgreSQL::Test::Utils::tempdir();

# $n writers, each committing 10-row INSERTs with DEFAULT IDs and printing
# the IDs of every INSERT that committed.
sub start_writers
{
	my ($node, $n, $prefix) = @_;
	my $script = "$prefix.sql";
	open my $fh, '>', $script or die;
	print $fh "INSERT INTO t SELECT FROM generate_series(1, 10) RETURNING nf, u, c;\n"
	  for 1 .. 200_000;
	close $fh;
	local %ENV = $node->_get_env();
	my @writers;
	for my $i (1 .. $n)
	{
		my $out = "$prefix.$i";
		push @writers,
		  {
			file => $out,
			harness => IPC::Run::start(
				[
					$node->installed_command('psql'), '-XAtq',
					'-d', $node->connstr('postgres'),
					'-f', $script
				],
				'>', $out, '2>', "$out.err")
		  };
	}
	return \@writers;
}

sub failover
{
	my ($name, $offset, $synchronous) = @_;
	my $primary = chronoid_node("${name}_primary", allows_streaming => 1);
	$primary->start;
	$primary->safe_psql(
		'postgres', q{
		CREATE EXTENSION chronoid;
		CREATE TABLE t (nf nanoflake DEFAULT gen_nanoflake(), u uid60 DEFAULT gen_uid60(),
		                c caloriosa DEFAULT gen_caloriosa());
		CREATE TABLE committed (nf nanoflake, u uid60, c caloriosa);
		CREATE TABLE after (nf nanoflake, u uid60, c caloriosa);
		INSERT INTO t SELECT FROM generate_series(1, 100);
	});
	$primary->backup('backup');
	my $standby = PostgreSQL::Test::Cluster->new("${name}_standby",
		install_path => $ENV{CHRONOID_PG_INSTALL});
	$standby->init_from_backup($primary, 'backup', has_streaming => 1);
	my $clock = start_with_clock($standby);
	if ($synchronous)
	{
		$primary->append_conf('postgresql.conf',
			"synchronous_standby_names = '${name}_standby'\nsynchronous_commit = on\n");
		$primary->reload;
		$primary->poll_query_until('postgres',
			"SELECT sync_state = 'sync' FROM pg_stat_replication");
	}
	$primary->wait_for_catchup($standby);

	for my $g (qw(gen_nanoflake gen_uid60 gen_caloriosa))
	{
		my ($ret, $out, $err) = $standby->psql('postgres', "SELECT $g()",
			extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		like($err, qr/ERROR:  25006: cannot execute $g\(\) during recovery/,
			"$name: the standby refuses $g() with 25006");
	}
	is($standby->safe_psql('postgres', 'SELECT count(DISTINCT gen_scru160()) FROM generate_series(1, 1000)'),
		1000, "$name: the standby serves gen_scru160()");

	my $writers = start_writers($primary, 4, "$tmp/$name");
	usleep(1_500_000);
	$primary->stop('immediate');
	$_->{harness}->kill_kill(grace => 1) for @$writers;
	set_clock($clock, $offset);
	my $log_at = -s $standby->logfile;
	$standby->promote;
	$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
	ok($standby->log_contains(qr/chronoid: after WAL replay, gen_nanoflake\(\) resumes above its high-water mark/, $log_at),
		"$name: at promotion the log says where gen_nanoflake() resumes");

	# What the writers saw committed (a COPY of the lines they printed).
	my $seen = "$tmp/$name.committed";
	open my $all, '>', $seen or die;
	my $committed = 0;
	for my $w (@$writers)
	{
		open my $in, '<', $w->{file} or die;
		while (my $line = <$in>)
		{
			next unless $line =~ /^([\w-]+)\|([\w-]+)\|([\w-]+)\n\z/;
			print $all "$1\t$2\t$3\n";
			$committed++;
		}
	}
	close $all;
	$standby->safe_psql('postgres', "COPY committed FROM '$seen'");
	my $replicated = $standby->safe_psql('postgres', 'SELECT count(*) FROM t');
	cmp_ok($committed, '>', 1000, "$name: writers saw $committed rows commit; $replicated reached the standby");

	my @errors = generate_until_ok($standby,
		'INSERT INTO after SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa() FROM generate_series(1, 20000)',
		$offset eq '-5' ? 3 : 30);
	if ($offset eq '-5')
	{
		like($errors[0] // '', qr/ERROR:  55000: system clock is \d+ ms behind .*\n.*DETAIL:  The durable high-water mark/,
			"$name: 5 s behind, the promoted standby refuses (55000) until its clock passes the replayed mark");
		set_clock($clock, '+0');
		@errors = generate_until_ok($standby,
			'INSERT INTO after SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa() FROM generate_series(1, 20000)');
	}
	is(scalar(grep { !/ERROR:  55000/ } @errors), 0, "$name: the new primary generates (refusals only 55000)")
	  or diag(join "\n", @errors);

	my @against = (['t', 'replicated to the standby']);
	push @against, ['committed', 'a writer saw committed'] if $synchronous;
	for my $a (@against)
	{
		my ($table, $what) = @$a;
		for my $g ([ 'nf', 'nanoflake' ], [ 'u', 'uid60' ], [ 'c', 'caloriosa' ])
		{
			my ($col, $type) = @$g;
			my $result = $standby->safe_psql(
				'postgres', qq{
				SELECT (SELECT count(*) FROM after a JOIN $table b USING ($col)),
				       (SELECT count(*) FROM after WHERE ${type}_timestamp($col) <=
				           (SELECT max(${type}_timestamp($col)) FROM $table))});
			is($result, '0|0', "$name: no new $type equals or lies below one $what");
		}
	}
	$standby->stop;
	return;
}

failover('async_1s', '-1', 0);
failover('async_5s', '-5', 0);
failover('sync_1s', '-1', 1);
failover('sync_5s', '-5', 1);

done_testing();
