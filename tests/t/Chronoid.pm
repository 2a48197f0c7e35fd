# What chronoid's TAP tests (tests/t/*.pl) share, on top of PostgreSQL's own
# PostgreSQL::Test::Cluster: a node of the major under test with chronoid
# preloaded, a server clock the test can step (libfaketime), generators that
# stream every ID they hand out to a file (so IDs of transactions that never
# commit are known too), and a crash that kills every process of a cluster.
#
# scripts/prove.sh sets the environment: CHRONOID_PG_INSTALL (the
# installation under test, for install_path), PG_REGRESS, TESTDIR, PERL5LIB.
package Chronoid;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;
use Time::HiRes qw(usleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(chronoid_node start_with_clock set_clock start_streams
  stop_streams load_streams crash_cluster cluster_processes wait_until_gone
  generate_until_ok concurrent_generate at_once program_ok relay_tap app_node
  start_pgbouncer set_node_id id_writer minted_ids hold_worker_slots);

my $LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

# A node of the installation under test (or of install_path) with chronoid
# preloaded; the other parameters go to init.
sub chronoid_node
{
	my ($name, %init) = @_;
	my $install = delete $init{install_path} // $ENV{CHRONOID_PG_INSTALL};
	my $node = PostgreSQL::Test::Cluster->new($name, install_path => $install);
	$node->init(%init);
	$node->append_conf('postgresql.conf',
		"shared_preload_libraries = 'chronoid'\nrestart_after_crash = on\n");
	return $node;
}

# Starts the node under libfaketime: its wall clock reads the offset in the
# node's clock file on every reading (monotonic time is left alone, so
# bounded waits are real). Returns the file, for set_clock.
sub start_with_clock
{
	my ($node, %params) = @_;
	my $file = $node->basedir . '/clock.offset';
	set_clock($file, '+0') unless -e $file;
	local $ENV{LD_PRELOAD} = $LIBFAKETIME;
	local $ENV{FAKETIME_TIMESTAMP_FILE} = $file;
	local $ENV{FAKETIME_NO_CACHE} = '1';
	local $ENV{DONT_FAKE_MONOTONIC} = '1';
	my $ok = $node->start(%params);
	return wantarray ? ($file, $ok) : $file;
}

# Offsets as libfaketime reads them: '-2' is two seconds behind, '-0.2'.
sub set_clock
{
	my ($file, $offset) = @_;
	open my $fh, '>', "$file.new" or die "$file.new: $!";
	print $fh "$offset\n";
	close $fh;
	rename "$file.new", $file or die "rename to $file: $!";
	return;
}

# $n sessions, each streaming rows of (nanoflake, uid60, caloriosa) from
# one endless COPY to a file of its own, as fast as the server makes them.
sub start_streams
{
	my ($node, $n, $prefix) = @_;
	local %ENV = $node->_get_env();
	my @streams;
	for my $i (1 .. $n)
	{
		my $file = "$prefix.$i";
		my $h = IPC::Run::start(
			[
				$node->installed_command('psql'), '-XAtq',
				'-d', $node->connstr('postgres'),
				'-c', 'COPY (SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa() '
				  . 'FROM (SELECT generate_series(1, 1000000000)) AS n) TO STDOUT'
			],
			'>', $file, '2>', "$file.err");
		push @streams, { harness => $h, file => $file };
	}
	# Wait until each has handed out some IDs.
	for my $s (@streams)
	{
		for (1 .. 300)
		{
			last if -s $s->{file} && -s $s->{file} > 4096;
			usleep(20_000);
		}
	}
	return \@streams;
}

# Ends the client processes (their server side is gone, or goes with them).
sub stop_streams
{
	my ($streams) = @_;
	for my $s (@$streams)
	{
		$s->{harness}->kill_kill(grace => 1);
	}
	return;
}

# Loads every whole row the streams received into table $table (nf, u, c)
# and returns how many.
sub load_streams
{
	my ($node, $streams, $table) = @_;
	my $all = $streams->[0]{file} . '.all';
	open my $out, '>', $all or die "$all: $!";
	my $rows = 0;
	for my $s (@$streams)
	{
		open my $in, '<', $s->{file} or die "$s->{file}: $!";
		while (my $line = <$in>)
		{
			# The last line may be cut off by the crash.
			next unless $line =~ /^[\w-]+\t[\w-]+\t[\w-]+\n\z/;
			print $out $line;
			$rows++;
		}
		close $in;
	}
	close $out;
	chmod 0644, $all;
	$node->safe_psql('postgres', "COPY $table (nf, u, c) FROM '$all'");
	return $rows;
}

# The node's postmaster and every process it started.
sub cluster_processes
{
	my ($node) = @_;
	my $pm = $node->{_pid} or die 'node ' . $node->name . ' is not running';
	my @pids = ($pm);
	for my $stat (glob '/proc/[0-9]*/stat')
	{
		open my $fh, '<', $stat or next;
		my $line = <$fh> // next;
		close $fh;
		push @pids, $1 if $line =~ /^(\d+) \(.*\) \S (\d+)/ && $2 == $pm;
	}
	return @pids;
}

# Waits up to $seconds until none of @pids runs any more.
sub wait_until_gone
{
	my ($seconds, @pids) = @_;
	for (1 .. $seconds * 10)
	{
		last unless grep { kill 0, $_ } @pids;
		usleep(100_000);
	}
	return;
}

# Every process of the cluster killed with SIGKILL at once, as a power cut
# would stop them (the postmaster alone would leave its backends running),
# and waits until they are gone.
sub crash_cluster
{
	my ($node) = @_;
	my @pids = cluster_processes($node);
	note 'killing ' . scalar(@pids) . ' processes of ' . $node->name;
	kill 'KILL', @pids;
	$node->{_pid} = undef;
	wait_until_gone(10, @pids);
	return;
}

# Runs $sql until it succeeds (or $timeout seconds pass); returns the
# errors it gave before that, one string each.
sub generate_until_ok
{
	my ($node, $sql, $timeout) = @_;
	$timeout //= 60;
	my @errors;
	my $until = time + $timeout;
	while (time < $until)
	{
		my ($ret, $stdout, $stderr) =
		  $node->psql('postgres', $sql, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		return @errors if $ret == 0;
		push @errors, $stderr;
		usleep(200_000);
	}
	push @errors, 'TIMEOUT';
	return @errors;
}

# Each [node, SQL, database (default postgres)] job in a psql session of
# its own, all at once; returns how many failed.
sub at_once
{
	my @runs;
	for my $job (@_)
	{
		my ($node, $sql, $db) = @$job;
		local %ENV = $node->_get_env();
		my ($in, $out, $err) = ('', '', '');
		push @runs, IPC::Run::start(
			[
				$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1',
				'-d', $node->connstr($db // 'postgres'), '-c', $sql
			],
			\$in, \$out, \$err);
	}
	return scalar(grep { !$_->finish } @runs);
}

# $backends sessions at once each insert $per rows (backend, n, id) into
# $table (created here), id from $gen() in generation order n. One check.
sub concurrent_generate
{
	my ($node, $table, $gen, $backends, $per) = @_;
	my $type = $node->safe_psql('postgres',
		"SELECT prorettype::regtype FROM pg_proc WHERE oid = '$gen()'::regprocedure");
	$node->safe_psql('postgres', "DROP TABLE IF EXISTS $table; CREATE UNLOGGED TABLE $table (backend int, n int, id $type)");
	# A start line: every session connects and waits on a lock the test
	# holds, and all start when it lets go (on a loaded machine, sessions
	# started one by one may not overlap at all).
	local %ENV = $node->_get_env();
	my ($hin, $hout, $herr) = ("SELECT pg_advisory_lock(424242);\n", '', '');
	my $holder = IPC::Run::start([ $node->installed_command('psql'), '-XAtq', '-d', $node->connstr('postgres') ],
		\$hin, \$hout, \$herr);
	$holder->pump while length $hin;
	$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 424242 AND granted})
	  or die 'the start line was never held';
	my @runs = map {
		my ($in, $out, $err) = ('', '', '');
		IPC::Run::start(
			[
				$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
				'-c', 'SELECT pg_advisory_lock_shared(424242)',
				'-c', "INSERT INTO $table SELECT $_, n, $gen() FROM generate_series(1, $per) n"
			],
			\$in, \$out, \$err)
	} 1 .. $backends;
	$node->poll_query_until('postgres',
		qq{SELECT count(*) = $backends FROM pg_locks WHERE locktype = 'advisory' AND objid = 424242 AND NOT granted})
	  or die 'the sessions never reached the start line';
	$hin .= "SELECT pg_advisory_unlock(424242);\n";
	$holder->finish;
	my $failed = grep { !$_->finish } @runs;
	return is($failed, 0, "$backends backends x $per $gen() calls succeeded");
}

# One check: the program (a client in another language, a build step) runs
# in $dir and exits 0; its last 40 lines of output are the diagnostics when
# it does not.
sub program_ok
{
	my ($name, $dir, @cmd) = @_;
	my $out = '';
	my $ok = IPC::Run::run(\@cmd, '>&', \$out, init => sub { chdir $dir or die "$dir: $!" });
	my @lines = split /\n/, $out;
	splice(@lines, 0, @lines - 40) if @lines > 40;
	ok($ok, $name) or diag(join("\n", @lines));
	return $ok;
}

# Runs a program that prints TAP (a client test in another language) and
# reports each of its checks as one of this file's, under $what; one more
# check that it exits 0, so that a program dying between checks fails.
sub relay_tap
{
	my ($what, $dir, @cmd) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(\@cmd, '>', \$out, '2>', \$err, init => sub { chdir $dir or die "$dir: $!" });
	my ($checks, $failing) = (0, 0);
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^(not )?ok \d+(?: -)? (.*)$/)
		{
			$failing = !!$1;
			ok(!$failing, "$what: $2");
			$checks++;
		}
		elsif ($line =~ /^(#|\s)/)
		{
			# A failed check's diagnostics follow it (as comments, or as
			# node's indented YAML block).
			if ($failing) { diag($line); } else { note($line); }
		}
	}
	ok($ok, "$what: exits 0 after its $checks checks") or diag($err);
	return;
}

# A started chronoid node that also listens on 127.0.0.1 (for clients that
# speak TCP only) with a database `app` where chronoid is created; returns
# the node and that database's postgresql:// URL, for client packages' tests.
sub app_node
{
	my ($name) = @_;
	my $node = chronoid_node($name);
	$node->append_conf('postgresql.conf', "listen_addresses = '127.0.0.1'\n");
	$node->start;
	$node->safe_psql('postgres', 'CREATE DATABASE app');
	$node->safe_psql('app', 'CREATE EXTENSION chronoid');
	return ($node, 'postgresql://postgres@127.0.0.1:' . $node->port . '/app');
}

# PgBouncer (Debian's) in transaction mode in front of $node's database
# `app`, on a free loopback port, with a pool of two server connections, so
# that consecutive transactions of one client meet different server
# connections and several clients share each: what per-connection state
# (registered types, prepared statements) meets in production. Returns its
# postgresql:// URL; END stops it.
my @pgbouncers;

sub start_pgbouncer
{
	my ($node) = @_;
	my $dir = PostgreSQL::Test::Utils::tempdir('pgbouncer');
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	open my $users, '>', "$dir/users.txt" or die $!;
	print $users qq{"postgres" ""\n};
	close $users;
	open my $ini, '>', "$dir/pgbouncer.ini" or die $!;
	print $ini join("\n",
		'[databases]',
		'app = host=127.0.0.1 port=' . $node->port . ' dbname=app',
		'[pgbouncer]',
		'listen_addr = 127.0.0.1',
		"listen_port = $port",
		'unix_socket_dir =',
		'auth_type = trust',
		"auth_file = $dir/users.txt",
		'pool_mode = transaction',
		'default_pool_size = 2',
		'max_client_conn = 200',
		# What drivers send at start-up that PgBouncer would otherwise refuse.
		'ignore_startup_parameters = extra_float_digits,options',
		"logfile = $dir/pgbouncer.log",
		"pidfile = $dir/pgbouncer.pid", '');
	close $ini;
	my $out = '';
	IPC::Run::run([ 'pgbouncer', '-d', "$dir/pgbouncer.ini" ], '>&', \$out)
	  or die "pgbouncer did not start: $out";
	push @pgbouncers, "$dir/pgbouncer.pid";
	my $url = "postgresql://postgres\@127.0.0.1:$port/app";
	for (1 .. 100)
	{
		return $url if IPC::Run::run([ 'psql', '-X', '-Atq', '-d', $url, '-c', 'SELECT 1' ], '>', \my $o, '2>', \my $e);
		usleep(100_000);
	}
	die "pgbouncer is not answering on port $port: " . slurp_file("$dir/pgbouncer.log");
}

END
{
	for my $pidfile (@pgbouncers)
	{
		next unless -f $pidfile;
		chomp(my $pid = slurp_file($pidfile));
		kill 'TERM', $pid if $pid;
	}
}

# Gives a running node chronoid.node_id $id in postgresql.conf (undef:
# none), reloads it, and waits until it is in effect.
sub set_node_id
{
	my ($node, $id) = @_;
	$node->adjust_conf('postgresql.conf', 'chronoid.node_id', undef);
	$node->append_conf('postgresql.conf', "chronoid.node_id = $id\n") if defined $id;
	$node->reload;
	$node->poll_query_until('postgres', "SELECT current_setting('chronoid.node_id') = '" . ($id // -1) . "'")
	  or die 'node id not reloaded';
	return;
}

# Every free worker slot of $node taken by a LOGIN role and nothing more
# (lowly): a parallel query of its own (SET max_parallel_workers being any
# user's), running about 200 s unless finished. $prefix: SQL run first
# where the set-up needs it (a Citus worker's DDL kept local). Returns
# [harness, \$stdout] (its count is 100000 when it ends as it would).
sub hold_worker_slots
{
	my ($node, $prefix) = @_;
	$node->safe_psql('postgres', ($prefix // '') . q{
		CREATE ROLE lowly LOGIN;
		CREATE TABLE big AS SELECT g FROM generate_series(1, 100000) g;
		ALTER TABLE big SET (parallel_workers = 64);
		GRANT SELECT ON big TO lowly;
		CREATE FUNCTION slow(int) RETURNS int LANGUAGE plpgsql PARALLEL SAFE AS $$ BEGIN PERFORM pg_sleep(0.002); RETURN $1; END $$;});
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ $node->installed_command('psql'), '-XAtq', '-d', $node->connstr('postgres') . ' user=lowly', '-c',
		  'SET max_parallel_workers = 1024; SET max_parallel_workers_per_gather = 64; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SELECT count(slow(g)) FROM big' ],
		\$in, \$out, \$err);
	return [ $h, \$out ];
}

# A writer for counting repeats across servers: inserts gen_nanoflake()
# into its table minted (id) for $secs seconds, 50 a statement, through any
# error (a refusal, a read-only error until promoted), then says in NOTICEs
# which errors ended statements (milliseconds left out) and how many of
# each SQLSTATE. Returns [harness, \$stdout, \$stderr].
sub id_writer
{
	my ($node, $secs) = @_;
	my ($out, $err) = ('', '');
	my $sql = qq{DO \$\$
DECLARE deadline timestamptz := clock_timestamp() + interval '$secs s'; errs text[] := '{}';
BEGIN
	WHILE clock_timestamp() < deadline LOOP
		BEGIN
			INSERT INTO minted (id) SELECT gen_nanoflake() FROM generate_series(1, 50);
		EXCEPTION WHEN OTHERS THEN
			errs := errs || (SQLSTATE || ' ' || SQLERRM);
			PERFORM pg_sleep(0.001);
		END;
		COMMIT;
	END LOOP;
	RAISE NOTICE 'errors: %', (SELECT string_agg(DISTINCT regexp_replace(e, '[0-9]+ ms', 'N ms', 'g'), ' | ') FROM unnest(errs) e);
	RAISE NOTICE 'by sqlstate: %', (SELECT string_agg(s || '=' || n, ',') FROM (SELECT left(e, 5) s, count(*) n FROM unnest(errs) e GROUP BY 1 ORDER BY 1) x);
END \$\$};
	my $h = IPC::Run::start([ $node->installed_command('psql'), '-XAtq', '-d', $node->connstr('postgres'), '-c', $sql ],
		'>', \$out, '2>', \$err);
	return [ $h, \$out, \$err ];
}

# The IDs in $node's table minted whose rows match $where, as a set.
sub minted_ids
{
	my ($node, $where) = @_;
	my %ids = map { $_ => 1 } split /\n/, $node->safe_psql('postgres', "SELECT id FROM minted WHERE $where");
	return \%ids;
}

1;
