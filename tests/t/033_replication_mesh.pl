# A two-writer mesh, as a DBA builds one on PostgreSQL 16+: two servers
# replicating one table to each other (logical replication, origin = none),
# both inserting rows whose keys default to chronoid's counter generators.
# With one node id on both (or none set), their IDs would repeat each
# other's, and the first repeat would stop replication both ways
# (insert_exists). Each server's peer worker asks the publishers of its
# subscriptions their node ids and keeps a verdict in shared memory that
# every counter generator reads (src/node/verdict.rs, judge.rs): with none
# set, or one id on both, every counter generator refuses (55000), naming
# the peer, before any ID is made; with distinct ids both write at once and every row
# arrives on both, 0 duplicates, each ID carrying its writer's node bits. A
# publisher that cannot be asked is judged by its last answer, or refused;
# two publishers with one id (fan-in), a chain (servers two hops apart with
# one id, the one between them minting or not) and a copy of a server
# (pg_basebackup) keeping its id are refused too, and the older copy still
# refuses after a restart. A caller never waits on a peer: one that stops
# answering (SIGSTOP) costs the worker, not a new connection; only a
# superuser's subscription can make the server refuse, and only chronoid
# answers for chronoid (a placeholder setting on a server without it is no
# answer).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use Chronoid;

my $probe = PostgreSQL::Test::Cluster->new('probe', install_path => $ENV{CHRONOID_PG_INSTALL});
plan skip_all => 'origin = none (a two-writer mesh) needs PostgreSQL 16 or later'
  if $probe->pg_version < 16;

my $PER = 20_000;
my %n;
for my $name (qw(east west))
{
	$n{$name} = chronoid_node($name, allows_streaming => 'logical');
	$n{$name}->append_conf('postgresql.conf', "max_prepared_transactions = 20\n");
	$n{$name}->start;
	$n{$name}->safe_psql('postgres', q{
		CREATE EXTENSION chronoid;
		CREATE TABLE t (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(),
		                u uid60 UNIQUE DEFAULT gen_uid60(),
		                c caloriosa UNIQUE DEFAULT gen_caloriosa(),
		                via text);
		CREATE PUBLICATION mesh FOR TABLE t;});
}
for my $pair ([qw(east west)], [qw(west east)])
{
	my ($sub, $pub) = @$pair;
	my $conn = $n{$pub}->connstr('postgres') =~ s/'//gr;
	$n{$sub}->safe_psql('postgres',
		"CREATE SUBSCRIPTION from_$pub CONNECTION '$conn' PUBLICATION mesh WITH (origin = none, copy_data = false)");
}

sub gen_error
{
	my ($node, $gen) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "SELECT $gen()", extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return $err;
}

# A server whose peer worker learns of a clash in its next round (every
# 10 s, or 5 s after a refusal) refuses within that.
sub refused_within
{
	my ($node, $gen, $pattern, $name) = @_;
	my $err = '';
	for (1 .. 60)
	{
		$err = gen_error($node, $gen);
		last if $err =~ $pattern;
		Time::HiRes::sleep(0.5);
	}
	like($err, $pattern, $name);
	return;
}

# 1. No node ids set: both refuse, naming the peer, before any ID is made.
for my $name (qw(east west))
{
	my $peer = $name eq 'east' ? 'west' : 'east';
	for my $gen (qw(gen_nanoflake gen_uid60 gen_caloriosa))
	{
		like(gen_error($n{$name}, $gen),
			qr/55000: $gen\(\) refuses: this server has no node id \(chronoid.node_id is not set\), and it receives rows from the publisher of subscription "from_$peer"/,
			"$name, no node ids: $gen() refuses (55000), naming its subscription from $peer");
	}
	is($n{$name}->safe_psql('postgres', 'SELECT length(gen_scru160()::text)'), '32', "$name: scru160 needs no node id");
}

# 2. One node id on both: both refuse, naming the id and the peer (the
# one that took the id last at once, the other once its peer worker has
# asked again: within 10 s).
set_node_id($n{$_}, 5) for qw(east west);
for my $name (qw(east west))
{
	my $peer = $name eq 'east' ? 'west' : 'east';
	refused_within($n{$name}, 'gen_nanoflake',
		qr/55000: gen_nanoflake\(\) refuses: this server's node id 5 is also the node id of the publisher of subscription "from_$peer" \(.*\), whose rows it receives/,
		"$name, node id 5 on both: refused, naming the peer");
	like(gen_error($n{$name}, 'gen_nanoflake'), qr/HINT:  Give every server whose IDs meet its own chronoid.node_id/,
		'and the hint says what to do');
	# What an operator sees before any application calls: the same refusal.
	like($n{$name}->safe_psql('postgres', q{SELECT state || ' ' || node_id || ': ' || reason || ' / ' || hint
			FROM chronoid_node_verdicts WHERE database = 'postgres'}),
		qr/^refuses 5: this server's node id 5 is also the node id of the publisher of subscription "from_$peer" .* \/ Give every server/,
		"$name: chronoid_node_verdicts says it refuses, for node id 5, with the reason and hint");
}
# A subscription's name is the DBA's to choose: one named as Citus names
# its own (citus_…) is judged as any other.
$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_west RENAME TO citus_shard_move_subscription_10');
like(gen_error($n{east}, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: this server's node id 5 is also the node id of the publisher of subscription "citus_shard_move_subscription_10"/,
	'east, its subscription renamed citus_…: still refused');
$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION citus_shard_move_subscription_10 RENAME TO from_west');
for my $name (qw(east west))
{
	my ($ret, $out, $err) = $n{$name}->psql('postgres', "INSERT INTO t (via) VALUES ('$name')");
	like($err, qr/gen_nanoflake\(\) refuses: this server's node id 5/, "$name: an INSERT taking the DEFAULT is refused");
}
is($n{east}->safe_psql('postgres', 'SELECT count(*) FROM t') + $n{west}->safe_psql('postgres', 'SELECT count(*) FROM t'),
	0, 'no row was written anywhere');

# 3. One side set, the other not: both refuse.
set_node_id($n{west}, 2);
set_node_id($n{east}, undef);
refused_within($n{west}, 'gen_uid60',
	qr/gen_uid60\(\) refuses: the publisher of subscription "from_east" \(.*\) has no node id \(chronoid.node_id is not set there\)/,
	'west (2) with east unset: west refuses, naming east');
refused_within($n{east}, 'gen_uid60',
	qr/gen_uid60\(\) refuses: this server has no node id \(chronoid.node_id is not set\), and it receives rows from the publisher of subscription "from_west"/,
	'and east (unset) refuses too, naming west');

# 4. Distinct ids: both write at once, every row reaches both, no repeats.
# West learns east's new id in its peer worker's next round (5 s after a
# refusal).
set_node_id($n{east}, 1);
for my $name (qw(east west))
{
	ok($n{$name}->poll_query_until('postgres', q{SELECT count(*) = 1 FROM (SELECT gen_nanoflake()) s}),
		"$name mints once its peer worker has asked again");
}
my $failed = at_once(map {
		my $name = $_;
		map { [ $n{$name}, "INSERT INTO t (via) SELECT '$name' FROM generate_series(1, " . ($PER / 2) . ')' ] } 1, 2
	} qw(east west));
is($failed, 0, "distinct node ids (east 1, west 2): 4 writers, $PER rows per server at once");
for my $name (qw(east west))
{
	ok($n{$name}->poll_query_until('postgres', 'SELECT count(*) = ' . (2 * $PER) . ' FROM t'), "$name: every row arrived")
	  or diag("$name holds " . $n{$name}->safe_psql('postgres', 'SELECT count(*) FROM t') . ' rows');
	is($n{$name}->safe_psql('postgres', 'SELECT count(*), count(DISTINCT id), count(DISTINCT u), count(DISTINCT c) FROM t'),
		join('|', (2 * $PER) x 4), "$name holds every row of both writers, no key repeated");
	is($n{$name}->safe_psql('postgres', q{
		SELECT bool_and(nanoflake_generator(id) = n AND uid60_random(u) = n AND caloriosa_random(c) & 1023 = n)
		FROM (SELECT *, CASE via WHEN 'east' THEN 1 ELSE 2 END AS n FROM t) s}),
		't', "$name: every ID carries its writer's node bits");
}
is($n{east}->safe_psql('postgres', 'SELECT md5(string_agg(id::text, \',\' ORDER BY id)) FROM t'),
	$n{west}->safe_psql('postgres', 'SELECT md5(string_agg(id::text, \',\' ORDER BY id)) FROM t'),
	'both servers hold the same keys');

# 5. A publisher out of reach (down, or cut off): judged by its last
# answer, while this server's own id is the one it answered under. An id
# changed while the peer cannot be asked is refused: the peer, cut off
# too, may have been given the same one (a partition).
my $log_at = -s $n{east}->logfile;
$n{west}->stop;
my ($ret, $out, $err) = $n{east}->psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())');
is($out, '1', 'west down: east mints, west having answered node id 2 before');
ok($n{east}->wait_for_log(qr/LOG:  chronoid: could not ask the publisher of subscription "from_west" for its node id: /, $log_at),
	'and its peer worker logs that it cannot ask west');
$n{east}->restart;
($ret, $out, $err) = $n{east}->psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())');
is($out, '1', 'east restarted with west still down: the answer is remembered (chronoid.peers)');
set_node_id($n{east}, 2);
like(gen_error($n{east}, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: could not ask the publisher of subscription "from_west" for its node id \(.*\), and it has not answered this server since this server has node id 2/,
	'east given west\'s id 2 while west is down: refused');
set_node_id($n{east}, 3);
like(gen_error($n{east}, 'gen_uid60'), qr/HINT:  Bring the publisher up .* change it back until the publisher can be asked/,
	'any other new id too (west may have taken it): refused, and the hint says what to do');
$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_west DISABLE');
like(gen_error($n{east}, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: the publisher of the disabled subscription "from_west" \(west\) last answered while this server had node id 1; its rows arrive when the subscription is enabled/,
	'its subscription disabled: still refused (west\'s rows wait in its slot)');
$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_west ENABLE');
set_node_id($n{east}, 1);
is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1',
	'east back on 1, the id west answered under: mints');
$n{west}->start;
set_node_id($n{east}, 3);
is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '3',
	'west back: east may take a new id (3), asked and answered');
set_node_id($n{east}, 1);

# 6. A publisher that accepts the connection and never answers: asked for
# at most 5 s, then, never having answered, refused as one out of reach.
{
	use IO::Socket::INET;
	use Time::HiRes qw(time);
	my $hole = IO::Socket::INET->new(Listen => 5, LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp')
	  or die "listener: $!";
	my $port = $hole->sockport;
	$n{east}->safe_psql('postgres',
		"CREATE SUBSCRIPTION from_hole CONNECTION 'host=127.0.0.1 port=$port dbname=postgres' PUBLICATION mesh WITH (connect = false)");
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_hole ENABLE');
	my $t0 = time;
	my $err = gen_error($n{east}, 'gen_nanoflake');
	my $took = time - $t0;
	like($err, qr/55000: gen_nanoflake\(\) refuses: could not ask the publisher of subscription "from_hole" for its node id \(no answer within 5 s\), and it has not answered this server/,
		'a publisher that never answers and never did: refused');
	ok($took >= 4 && $took < 15, sprintf('after asking it for at most 5 s (%.1f s)', $took));
	# Once the peer worker asks the hole again (every 5 s while refused).
	my $at = -s $n{east}->logfile;
	$n{east}->wait_for_log(qr/could not ask the publisher of subscription "from_hole"/, $at);
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_hole DISABLE');
	$t0 = time;
	is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1',
		'the subscription disabled (as the hint says): east mints');
	# Not a timing of chronoid: a question to the hole takes 5 s.
	ok(time - $t0 < 2.5, 'without waiting for a question to the hole');
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_hole SET (slot_name = NONE); DROP SUBSCRIPTION from_hole');
	close $hole;
}

# 6c. A change is judged before the next ID, even one made right before
# it in the same session: alone (autocommit, where PostgreSQL queues the
# change's invalidation for the commit itself), and through two-phase
# commit (prepared, then committed by COMMIT PREPARED, as a Citus
# coordinator commits its metadata on every node; no callback of the
# committing backend knows of it). A third server, twin, has east's id 1;
# east's subscription from_west is pointed at it.
{
	# west's peer worker stopped for the block: west asks east every 10 s,
	# and asked while from_west points at twin it learns twin (east passes
	# its publishers on) and echoes it back, and a server known with east's
	# own id is never forgotten by time (its rows may have arrived), so
	# east would refuse for good. Asked by east, west's backends answer.
	my $west_worker = $n{west}->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'chronoid peer worker'});
	kill 'STOP', $west_worker;
	my $twin = chronoid_node('twin');
	$twin->start;
	set_node_id($twin, 1);
	$twin->safe_psql('postgres', 'CREATE EXTENSION chronoid');
	my $to_twin = "ALTER SUBSCRIPTION from_west CONNECTION '" . ($twin->connstr('postgres') =~ s/'//gr) . "'";
	my $to_west = "ALTER SUBSCRIPTION from_west CONNECTION '" . ($n{west}->connstr('postgres') =~ s/'//gr) . "'";
	my $clash = qr/55000: gen_nanoflake\(\) refuses: this server's node id 1 is also the node id of the publisher of subscription "from_west"/;
	my $back = sub {
		my ($what) = @_;
		$n{east}->safe_psql('postgres', $to_west);
		ok($n{east}->poll_query_until('postgres', 'SELECT nanoflake_generator(gen_nanoflake()) = 1'), "$what: east mints");
	};
	# The peer worker stopped (SIGSTOP) while the change is made and the
	# next statement runs: a caller that minted on the verdict standing
	# would not wait for it. psql sends each statement of a script on its
	# own: separate transactions.
	my $worker = $n{east}->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'chronoid peer worker'});
	my $stopped = sub {
		my ($script) = @_;
		kill 'STOP', $worker;
		my ($r, $o, $e) = $n{east}->psql('postgres', "SET statement_timeout = '2s';\n$script\nSELECT nanoflake_generator(gen_nanoflake());",
			extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		kill 'CONT', $worker;
		return ($o, $e);
	};
	my ($o, $e) = $stopped->("$to_twin;");
	like($e, qr/57014: canceling statement due to statement timeout/,
		'a subscription pointed at a server with this server\'s id, alone (autocommit): the next statement waits for the worker');
	is($o, '', 'and makes no ID') or diag($o);
	like(gen_error($n{east}, 'gen_nanoflake'), $clash, 'then refuses');
	$back->('pointed back at west');
	# What changed counts, not who commits: a superuser's SECURITY DEFINER
	# function a LOGIN role calls, and a superuser's SET ROLE before the
	# commit or the prepare.
	$n{east}->safe_psql('postgres', qq{CREATE ROLE app LOGIN;
		CREATE FUNCTION to_twin() RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS \$\$ BEGIN EXECUTE \$q\$$to_twin\$q\$; END \$\$;
		GRANT EXECUTE ON FUNCTION to_twin() TO app});
	kill 'STOP', $worker;
	my ($r, $o2, $e2) = $n{east}->psql('postgres', "SET statement_timeout = '2s';\nSELECT to_twin();\nSELECT nanoflake_generator(gen_nanoflake());",
		extra_params => [ '-U', 'app', '-v', 'VERBOSITY=verbose' ]);
	kill 'CONT', $worker;
	like($e2, qr/57014: canceling statement due to statement timeout/,
		'changed by a superuser\'s SECURITY DEFINER function that a LOGIN role calls: the next statement waits for the worker');
	$back->('pointed back at west');
	($o, $e) = $stopped->("BEGIN;\n$to_twin;\nSET LOCAL ROLE app;\nCOMMIT;");
	like($e, qr/57014: canceling statement due to statement timeout/, 'changed by a superuser who SET ROLE before COMMIT: the next statement waits');
	$back->('pointed back at west');
	$n{east}->safe_psql('postgres', "BEGIN; $to_twin; SET LOCAL ROLE app; PREPARE TRANSACTION 'twin'");
	like($n{east}->safe_psql('postgres', q{SELECT state FROM chronoid_node_verdicts WHERE database = 'postgres'}),
		qr/^being judged$/, 'and before PREPARE TRANSACTION: the verdict waits for it');
	$n{east}->safe_psql('postgres', "ROLLBACK PREPARED 'twin'");

	$n{east}->safe_psql('postgres', "BEGIN; $to_twin; PREPARE TRANSACTION 'twin'");
	# Prepared: callers wait until it ends; the view says why.
	like($n{east}->safe_psql('postgres', q{SELECT state || ': ' || reason FROM chronoid_node_verdicts WHERE database = 'postgres'}),
		qr/^being judged: waiting for prepared transaction \d+, which changes what the verdict rests on, to be committed or rolled back$/,
		'the same change prepared: chronoid_node_verdicts says the verdict waits for it');
	($o, $e) = $stopped->("COMMIT PREPARED 'twin';");
	like($e, qr/57014: canceling statement due to statement timeout/, 'committed by COMMIT PREPARED: the next statement waits for the worker');
	is($o, '', 'and makes no ID') or diag($o);
	like(gen_error($n{east}, 'gen_nanoflake'), $clash, 'then refuses');
	$back->('pointed back at west');
	$n{east}->safe_psql('postgres', "BEGIN; $to_twin; PREPARE TRANSACTION 'twin'");
	$n{east}->safe_psql('postgres', "ROLLBACK PREPARED 'twin'");
	is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1',
		'prepared again and rolled back: east mints');
	# Prepared, then the server restarted or crashed: the note is kept on
	# disk (chronoid.prepared), so the verdict still waits, and the change
	# committed after the restart is judged before the next ID.
	for my $how (qw(restarted crashed))
	{
		$n{east}->safe_psql('postgres', "BEGIN; $to_twin; PREPARE TRANSACTION 'across'");
		if ($how eq 'restarted')
		{
			$n{east}->restart;
		}
		else
		{
			crash_cluster($n{east});
			$n{east}->start;
		}
		ok($n{east}->poll_query_until('postgres',
				q{SELECT state || ': ' || coalesce(reason, '') FROM chronoid_node_verdicts WHERE database = 'postgres'},
				'being judged: waiting for prepared transaction ' . $n{east}->safe_psql('postgres', q{SELECT transaction FROM pg_prepared_xacts WHERE gid = 'across'})
				  . ', which changes what the verdict rests on, to be committed or rolled back'),
			"the same change prepared, the server $how: the verdict still waits for it");
		$worker = $n{east}->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'chronoid peer worker'});
		($o, $e) = $stopped->("COMMIT PREPARED 'across';");
		like($e, qr/57014: canceling statement due to statement timeout/, "committed after the server $how: the next statement waits for the worker");
		is($o, '', 'and makes no ID') or diag($o);
		like(gen_error($n{east}, 'gen_nanoflake'), $clash, 'then refuses');
		$back->('pointed back at west');
	}
	# At most 16 such transactions prepared at once: the 17th cannot be.
	my $conn = $n{west}->connstr('postgres') =~ s/'//gr;
	$n{east}->safe_psql('postgres', join(";\n", map { "CREATE SUBSCRIPTION many_$_ CONNECTION '$conn' PUBLICATION mesh WITH (connect = false)" } 1 .. 17));
	$n{east}->safe_psql('postgres', "BEGIN; ALTER SUBSCRIPTION many_$_ RENAME TO many_${_}_renamed; PREPARE TRANSACTION 'many_$_'") for 1 .. 16;
	(undef, $o, $e) = $n{east}->psql('postgres', "BEGIN; ALTER SUBSCRIPTION many_17 RENAME TO many_17_renamed; PREPARE TRANSACTION 'many_17'",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($e, qr/54000: cannot prepare a transaction that changes what chronoid's verdicts rest on while 16 others are prepared/,
		'16 prepared transactions that change subscriptions: a 17th cannot prepare (54000)');
	is($n{east}->safe_psql('postgres', "SELECT count(*) FROM pg_prepared_xacts WHERE gid = 'many_17'"), '0', 'and was rolled back');
	$n{east}->safe_psql('postgres', "ROLLBACK PREPARED 'many_$_'") for 1 .. 16;
	$n{east}->safe_psql('postgres', join(";\n", map { "ALTER SUBSCRIPTION many_$_ SET (slot_name = NONE); DROP SUBSCRIPTION many_$_" } 1 .. 17));
	is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'all rolled back: east mints');
	# A role that is not a superuser (pg_create_subscription) changes only
	# its own subscriptions, which no verdict rests on: one it prepares and
	# leaves holds nothing, takes none of the 16, and its changes in a loop
	# move no epoch.
	$n{east}->safe_psql('postgres', 'CREATE ROLE subber LOGIN; GRANT pg_create_subscription TO subber; GRANT CREATE ON DATABASE postgres TO subber');
	my $as_subber = [ '-U', 'subber', '-v', 'VERBOSITY=verbose' ];
	$n{east}->safe_psql('postgres', "CREATE SUBSCRIPTION mine CONNECTION '$conn password=x' PUBLICATION mesh WITH (connect = false)",
		extra_params => $as_subber);
	$n{east}->safe_psql('postgres', "BEGIN; ALTER SUBSCRIPTION mine RENAME TO mine_prepared; PREPARE TRANSACTION 'subber_1'",
		extra_params => $as_subber);
	$n{east}->safe_psql('postgres', "CREATE SUBSCRIPTION mine_$_ CONNECTION '$conn password=x' PUBLICATION mesh WITH (connect = false); BEGIN; ALTER SUBSCRIPTION mine_$_ RENAME TO mine_${_}_p; PREPARE TRANSACTION 'subber_$_'",
		extra_params => $as_subber) for 2 .. 17;
	(undef, $o, $e) = $n{east}->psql('postgres', "SET statement_timeout = '2s'; SELECT nanoflake_generator(gen_nanoflake())");
	is($o, '1', "17 transactions of a role that is not a superuser, prepared with changes to its own subscriptions: east mints at once") or diag($e);
	$n{east}->safe_psql('postgres', "BEGIN; ALTER SUBSCRIPTION from_west RENAME TO from_west_p; PREPARE TRANSACTION 'super'");
	like($n{east}->safe_psql('postgres', q{SELECT state FROM chronoid_node_verdicts WHERE database = 'postgres'}),
		qr/^being judged$/, 'while a superuser\'s, prepared, still holds the verdict');
	$n{east}->safe_psql('postgres', "ROLLBACK PREPARED 'super'");
	$n{east}->safe_psql('postgres', "ROLLBACK PREPARED 'subber_$_'") for 1 .. 17;
	$n{east}->safe_psql('postgres', join(";\n", map { "ALTER SUBSCRIPTION $_ SET (slot_name = NONE); DROP SUBSCRIPTION $_" } 'mine', map { "mine_$_" } 2 .. 17));
	$twin->stop;
	kill 'CONT', $west_worker;
}

# 6b. A publisher that answered before and then stops answering (its
# processes stopped, SIGSTOP: connections are accepted and never served):
# its last answer stands, and only the peer worker's question to it waits,
# side by side with its other work. A new connection mints without
# waiting the 5 s a question to it takes, and a change made meanwhile is
# judged at once.
{
	my $pids = join(' ', cluster_processes($n{west}));
	kill 'STOP', split(/ /, $pids);
	my $log_at = -s $n{east}->logfile;
	# A full round of asking (10 s) begins within 11 s; its question to west
	# ends 5 s later.
	ok($n{east}->wait_for_log(qr/LOG:  chronoid: could not ask the publisher of subscription "from_west" for its node id: no answer within 5 s/, $log_at),
		'west black-holed: the peer worker asks it, and logs after 5 s that it had no answer');
	my @took;
	for (1 .. 10)
	{
		my $t0 = Time::HiRes::time();
		my $got = $n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())');
		push @took, Time::HiRes::time() - $t0;
		die "east did not mint: $got" unless $got eq '1';
	}
	my $slowest = (sort { $b <=> $a } @took)[0];
	# Not a timing of chronoid: a question to west takes 5 s.
	ok($slowest < 2.5, sprintf('10 new connections on east mint at once (slowest %.3f s)', $slowest));
	# A change, judged while questions to west come and go (every 5 s while
	# the last ended without an answer).
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_west RENAME TO from_west_renamed');
	my $t0 = Time::HiRes::time();
	my ($r, $o, $e) = $n{east}->psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())');
	my $took = Time::HiRes::time() - $t0;
	is($o, '1', 'a change while west is black-holed: east mints') or diag($e);
	# Not a timing of chronoid: a worker that waited on west would take 5 s.
	ok($took < 2.5, sprintf('without waiting for a question to west (%.3f s)', $took));
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_west_renamed RENAME TO from_west');
	kill 'CONT', split(/ /, $pids);
}

# 6b'. Every free worker slot taken by a role's parallel query (a LOGIN
# role and nothing more, SET max_parallel_workers being any user's): the
# peer worker was registered at start and starts nothing on demand, so
# judging goes on. West takes east's id while the query holds the slots:
# east refuses within its round, and mints again once west has its own.
{
	my $lowly = hold_worker_slots($n{east});
	# Every slot: the parallel workers, and the registered workers (the
	# reserver connects to nothing, so pg_stat_activity does not list it;
	# an apply worker is a "logical replication worker" before 17).
	my $slots = $n{east}->safe_psql('postgres', 'SHOW max_worker_processes');
	ok($n{east}->poll_query_until('postgres',
		qq{SELECT count(*) = $slots - 1 FROM pg_stat_activity WHERE backend_type IN ('parallel worker', 'chronoid peer worker', 'logical replication launcher', 'logical replication apply worker', 'logical replication worker')}),
		"lowly's parallel query holds every free worker slot ($slots in all)");
	is($n{east}->safe_psql('postgres', q{SELECT string_agg(backend_type, ',') FROM pg_stat_activity WHERE backend_type LIKE 'chronoid%'}),
		'chronoid peer worker', 'chronoid runs its peer worker, no judge or helper of it');
	set_node_id($n{west}, 1);
	refused_within($n{east}, 'gen_nanoflake',
		qr/55000: gen_nanoflake\(\) refuses: this server's node id 1 is also the node id of the publisher of subscription "from_west"/,
		'west takes east\'s id while every slot is held: east refuses');
	is($n{east}->safe_psql('postgres', q{SELECT count(*) > 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'}), 't',
		'while lowly\'s query still holds the slots');
	set_node_id($n{west}, 2);
	ok($n{east}->poll_query_until('postgres', 'SELECT nanoflake_generator(gen_nanoflake()) = 1'),
		'west back on its own id: east mints again');
	$lowly->[0]->finish;
	is(${$lowly->[1]}, "100000\n", 'and lowly\'s query ends as it would');
	$n{east}->safe_psql('postgres', 'DROP TABLE big; DROP FUNCTION slow(int); DROP ROLE lowly');
}

# 6b''. A lock a role that is not a superuser may take (pg_maintain, 17+)
# held on pg_subscription: callers read no catalog, so a new connection's
# first ID is not held up; the peer worker reads it under a bounded
# lock_timeout, goes on by its last verdict and says so.
SKIP:
{
	skip 'pg_maintain is 17+', 3 if $n{east}->pg_version < 17;
	$n{east}->safe_psql('postgres', 'CREATE ROLE keeper LOGIN; GRANT pg_maintain TO keeper');
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $n{east}->connstr('postgres') . ' user=keeper', '-c',
		  'BEGIN; LOCK pg_subscription IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(6); COMMIT' ],
		\$in, \$out, \$err);
	$n{east}->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_locks WHERE relation = 'pg_subscription'::regclass AND mode = 'AccessExclusiveLock' AND granted})
	  or die 'the lock was not taken';
	my $t0 = Time::HiRes::time();
	my ($r, $o, $e) = $n{east}->psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())');
	my $took = Time::HiRes::time() - $t0;
	is($o, '1', 'pg_subscription locked by a pg_maintain member: a new connection mints') or diag($e);
	ok($took < 1, sprintf('its first call at once (%.3f s)', $took));
	ok($n{east}->poll_query_until('postgres', q{SELECT reason ~ 'minting on the last verdict: the catalogs could not be read' FROM chronoid_node_verdicts WHERE database = 'postgres'}),
		'chronoid_node_verdicts says the worker goes on by its last verdict');
	$h->finish;
	$n{east}->safe_psql('postgres', 'DROP ROLE keeper');
}

# 6b-4. Beside many databases minting and a publisher black-holed, a
# subscription's apply worker restarts at once: chronoid takes no worker
# slot on demand.
{
	use IO::Socket::INET;
	my $hole = IO::Socket::INET->new(Listen => 5, LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp')
	  or die "listener: $!";
	my $port = $hole->sockport;
	$n{east}->safe_psql('postgres',
		"CREATE SUBSCRIPTION from_hole CONNECTION 'host=127.0.0.1 port=$port dbname=postgres' PUBLICATION mesh WITH (connect = false)");
	for my $i (1 .. 20)
	{
		$n{east}->safe_psql('postgres', "CREATE DATABASE minting_$i");
		$n{east}->safe_psql("minting_$i", 'CREATE EXTENSION chronoid; SELECT gen_scru160()');
	}
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_west DISABLE');
	$n{east}->poll_query_until('postgres', q{SELECT pid IS NULL FROM pg_stat_subscription WHERE subname = 'from_west'})
	  or die 'the apply worker did not stop';
	my $t0 = Time::HiRes::time();
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_west ENABLE');
	$n{east}->poll_query_until('postgres', q{SELECT pid IS NOT NULL FROM pg_stat_subscription WHERE subname = 'from_west'});
	my $took = Time::HiRes::time() - $t0;
	ok($took < 10, sprintf('beside 20 more databases and a black-holed publisher, from_west\'s apply worker restarts in %.1f s', $took));
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_hole SET (slot_name = NONE); DROP SUBSCRIPTION from_hole');
	$n{east}->safe_psql('postgres', "DROP DATABASE minting_$_") for 1 .. 20;
	close $hole;
}

# 6c. A subscription a non-superuser made (pg_create_subscription) to a
# server that never answers: not judged, so it cannot stop this server
# minting; the peer worker says so in the log.
{
	use IO::Socket::INET;
	my $hole = IO::Socket::INET->new(Listen => 5, LocalAddr => '127.0.0.1', LocalPort => 0, Proto => 'tcp')
	  or die "listener: $!";
	my $port = $hole->sockport;
	$n{east}->safe_psql('postgres', q{CREATE ROLE mallory LOGIN; GRANT pg_create_subscription TO mallory; GRANT CREATE ON DATABASE postgres TO mallory});
	my $log_at = -s $n{east}->logfile;
	my $as = $n{east}->connstr('postgres') . ' user=mallory';
	$n{east}->safe_psql('postgres',
		"CREATE SUBSCRIPTION mallorys CONNECTION 'host=127.0.0.1 port=$port dbname=postgres password=x' PUBLICATION mesh WITH (connect = false)",
		connstr => $as);
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION mallorys ENABLE', connstr => $as);
	my $t0 = Time::HiRes::time();
	is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1',
		'a non-superuser\'s subscription to a server that never answers: east mints');
	ok(Time::HiRes::time() - $t0 < 2.5, 'without asking it (a question would take 5 s)');
	ok($n{east}->wait_for_log(qr/WARNING:  chronoid: subscription "mallorys" is not owned by a superuser: its publisher is not asked/, $log_at),
		'and the peer worker logs that it is not judged');
	$n{east}->safe_psql('postgres', 'ALTER SUBSCRIPTION mallorys DISABLE; ALTER SUBSCRIPTION mallorys SET (slot_name = NONE); DROP SUBSCRIPTION mallorys; DROP OWNED BY mallory; DROP ROLE mallory');
	close $hole;
}

# 6d. A server without chronoid whose postgresql.conf names chronoid's
# settings (placeholders: text, not a node id), one of them 20,000 lines
# long: no answer of chronoid's, so it is no clash and nothing of it is
# passed on.
{
	my $plain = PostgreSQL::Test::Cluster->new('plain', install_path => $ENV{CHRONOID_PG_INSTALL});
	$plain->init(allows_streaming => 'logical');
	my $lines = join('\n', map { "$_\t1\t1\t0\tfake$_" } 1 .. 20_000);
	$plain->append_conf('postgresql.conf', "chronoid.node_id = 1\nchronoid.node_ids_seen = '$lines'\n");
	$plain->start;
	is($plain->safe_psql('postgres', "SELECT current_setting('chronoid.node_id')"), '1', 'the plain server shows chronoid.node_id = 1 (a placeholder)');
	$plain->safe_psql('postgres', 'CREATE TABLE t (id bigint PRIMARY KEY, u bigint, c bigint, via text); CREATE PUBLICATION mesh FOR TABLE t');
	my $plain_conn = $plain->connstr('postgres') =~ s/'//gr;
	$n{east}->safe_psql('postgres', "CREATE SUBSCRIPTION from_plain CONNECTION '$plain_conn' PUBLICATION mesh WITH (copy_data = false)");
	is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1',
		'east (1) subscribing to it mints');
	unlike($n{east}->safe_psql('postgres', 'SHOW chronoid.node_ids_seen'), qr/fake/, 'and passes none of its lines on');
	ok(-s $n{east}->data_dir . '/chronoid.peers' < 4096, 'nor keeps them (chronoid.peers under 4 KiB)');
	$n{east}->safe_psql('postgres', 'DROP SUBSCRIPTION from_plain');
	$plain->stop;
}

# 6e. A disabled subscription's slot keeps its publisher's rows for when it
# is enabled: its publisher is still asked, and an id it takes meanwhile is
# a clash now. Here the publisher no longer knows the subscriber (its
# chronoid.peers gone, as after 15 minutes without a question), so it
# mints on the subscriber's id; the subscriber, asking, refuses.
{
	my %one;
	for my $name (qw(pub_only sub_only))
	{
		$one{$name} = chronoid_node($name, allows_streaming => 'logical');
		$one{$name}->append_conf('postgresql.conf', 'chronoid.node_id = ' . ($name eq 'pub_only' ? 8 : 9) . "\n");
		$one{$name}->start;
		$one{$name}->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE t (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake())');
	}
	$one{pub_only}->safe_psql('postgres', 'CREATE PUBLICATION one FOR TABLE t');
	my $conn = $one{pub_only}->connstr('postgres') =~ s/'//gr;
	$one{sub_only}->safe_psql('postgres', "CREATE SUBSCRIPTION from_pub CONNECTION '$conn' PUBLICATION one WITH (copy_data = false)");
	is($one{sub_only}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '9', 'a one-way subscriber (9) of a publisher (8) mints');
	$one{sub_only}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_pub DISABLE');
	$one{pub_only}->stop;
	unlink($one{pub_only}->data_dir . '/chronoid.peers');
	$one{pub_only}->adjust_conf('postgresql.conf', 'chronoid.node_id', '9');
	$one{pub_only}->start;
	is($one{pub_only}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '9',
		'the publisher, given the subscriber\'s id 9 while the subscription is disabled and knowing no peer, mints');
	refused_within($one{sub_only}, 'gen_nanoflake',
		qr/55000: gen_nanoflake\(\) refuses: this server's node id 9 is also the node id of the publisher of the disabled subscription "from_pub"/,
		'the subscriber asks the disabled subscription\'s publisher too: refused, its rows would meet on 9');
	# Its rows are judged as an enabled subscription's: a publisher with no
	# node id is refused too.
	set_node_id($one{pub_only}, undef);
	refused_within($one{sub_only}, 'gen_nanoflake',
		qr/55000: gen_nanoflake\(\) refuses: the publisher of the disabled subscription "from_pub" \(.*\) has no node id \(chronoid.node_id is not set there\)/,
		'the publisher with no node id, the subscription still disabled: refused');
	$one{sub_only}->safe_psql('postgres', 'ALTER SUBSCRIPTION from_pub ENABLE');
	$one{sub_only}->safe_psql('postgres', 'DROP SUBSCRIPTION from_pub');
	$_->stop for values %one;
}

# 7. Two publishers with one node id feeding one server (fan-in): their rows
# meet on it, though neither asks the other; it refuses, naming both.
my $third = chronoid_node('third', allows_streaming => 'logical');
$third->append_conf('postgresql.conf', "chronoid.node_id = 2\n");
$third->start;
$third->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE t (id nanoflake PRIMARY KEY, u uid60, c caloriosa, via text); CREATE PUBLICATION mesh FOR TABLE t');
my $third_conn = $third->connstr('postgres') =~ s/'//gr;
$n{east}->safe_psql('postgres', "CREATE SUBSCRIPTION from_third CONNECTION '$third_conn' PUBLICATION mesh WITH (origin = none, copy_data = false)");
like(gen_error($n{east}, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: the publisher of subscription "from_(west|third)" \(.*\) and the publisher of subscription "from_(west|third)" \(.*\) share node id 2, and this server receives the rows of both/,
	'east receiving from west (2) and third (2): refused, naming both');
$n{east}->safe_psql('postgres', 'DROP SUBSCRIPTION from_third');

# 8. A chain: east (1) <-> west (2) <-> third, third given east's id 1.
# East and third never ask each other, but both ask west, and west tells
# each who else asked it (chronoid.node_ids_seen): all three refuse.
set_node_id($third, 1);
$third->safe_psql('postgres', 'ALTER TABLE t ALTER id SET DEFAULT gen_nanoflake()');
my $west_conn = $n{west}->connstr('postgres') =~ s/'//gr;
$third->safe_psql('postgres', "CREATE SUBSCRIPTION third_from_west CONNECTION '$west_conn' PUBLICATION mesh WITH (origin = none, copy_data = false)");
$n{west}->safe_psql('postgres', "CREATE SUBSCRIPTION from_third CONNECTION '$third_conn' PUBLICATION mesh WITH (origin = none, copy_data = false)");
like(gen_error($third, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: this server's node id 1 is also the node id of the server ".*" \(system identifier \d+\), which replicates with this server or with a server it replicates with/,
	'third (1), two hops from east (1): refused');
refused_within($n{east}, 'gen_nanoflake',
	qr/55000: gen_nanoflake\(\) refuses: this server's node id 1 is also the node id of the server ".*" \(system identifier \d+\)/,
	'east (1), two hops from third (1): refused too');
like(gen_error($n{west}, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: the publisher of subscription "from_(east|third)" \(.*\) and the publisher of subscription "from_(east|third)" \(.*\) share node id 1/,
	'west, between them: refused (fan-in)');
like($n{west}->safe_psql('postgres', 'SHOW chronoid.node_ids_seen'), qr/^\d+\t\d+\t2\t0\t.*\n\d+\t\d+\t1\t\d+\t/,
	'SHOW chronoid.node_ids_seen: west itself, then the servers it knows');
set_node_id($third, 4);
is($third->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '4', 'third given its own id (4): mints');
ok($n{east}->poll_query_until('postgres', 'SELECT nanoflake_generator(gen_nanoflake()) = 1'),
	'and east, told so by west, mints again');

# 9. Only a role that logs in with REPLICATION (or as a superuser) is heard
# telling its id, as only such a role may replicate: a plain user naming
# itself as a server with east's id makes nobody refuse, nor does one
# that SETs ROLE to a replication role. (System 42 is "16" in base 36.)
$n{west}->safe_psql('postgres', 'CREATE ROLE plain LOGIN; CREATE ROLE repl REPLICATION; GRANT repl TO plain');
my $liar = $n{west}->connstr('postgres') . ' user=plain application_name=chronoid:1:16:1:liar';
$n{west}->safe_psql('postgres', 'SHOW chronoid.node_ids_seen', connstr => $liar);
$n{west}->safe_psql('postgres', 'SET ROLE repl; SHOW chronoid.node_ids_seen', connstr => $liar);
unlike($n{west}->safe_psql('postgres', 'SHOW chronoid.node_ids_seen'), qr/^42\t/m,
	'a plain role\'s claim is not recorded, nor one made after SET ROLE to a replication role');
is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'east still mints');

# 10. A publisher's connection string as a URI: asked as any other.
my ($west_host, $west_port) = ($n{west}->host, $n{west}->port);
$n{east}->safe_psql('postgres', "ALTER SUBSCRIPTION from_west CONNECTION 'postgresql:///postgres?host=$west_host&port=$west_port'");
is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1',
	'a URI connection string: east asks west and mints');
$n{east}->safe_psql('postgres', "ALTER SUBSCRIPTION from_west CONNECTION '$west_conn'");

# 10b. A statement that runs on across a reload that changes the node id
# (a backend reads the configuration only between statements): refused at
# its next ID, once the peer worker has read the new id.
{
	my ($out, $err) = ('', '');
	my $h = IPC::Run::start(
		[
			$n{east}->installed_command('psql'), '-XAtq', '-d', $n{east}->connstr('postgres'), '-c',
			'DO $$ BEGIN PERFORM gen_nanoflake(); PERFORM pg_sleep(4); PERFORM gen_nanoflake(); END $$'
		],
		'>', \$out, '2>', \$err);
	# The statement has minted once and sleeps.
	$n{east}->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE 'DO %'})
	  or die 'the DO block never slept';
	set_node_id($n{east}, 6);
	$h->finish;
	like($err, qr/gen_nanoflake\(\) refuses: chronoid.node_id was changed from 1 to 6 by a reload while this statement ran/,
		'a statement begun under node id 1 mints no more once the id is 6');
	is($n{east}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '6', 'the next statement mints with 6');
	set_node_id($n{east}, 1);
}

# 11. A relay that never mints: relay (7) replicates from east (1); far,
# given east's id, replicates only from relay. Relay's peer worker asks
# east every few seconds and passes it on, even with east down (its last
# answer stands for as long as the subscription is there): far refuses.
my %more;
for my $name (qw(relay far))
{
	$more{$name} = chronoid_node($name, allows_streaming => 'logical');
	$more{$name}->append_conf('postgresql.conf', "chronoid.node_id = " . ($name eq 'relay' ? 7 : 1) . "\n");
	$more{$name}->start;
	$more{$name}->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE t (id nanoflake PRIMARY KEY, u uid60, c caloriosa, via text); CREATE PUBLICATION mesh FOR TABLE t');
}
my $east_conn = $n{east}->connstr('postgres') =~ s/'//gr;
my $relay_conn = $more{relay}->connstr('postgres') =~ s/'//gr;
$more{relay}->safe_psql('postgres', "CREATE SUBSCRIPTION relay_from_east CONNECTION '$east_conn' PUBLICATION mesh WITH (origin = none, copy_data = false)");
ok($more{relay}->poll_query_until('postgres', q{SELECT pg_reload_conf() AND current_setting('chronoid.node_ids_seen') ~ '\n[0-9]+\t[0-9]+\t1\t'}),
	'relay, which never mints, learns east\'s id from its peer worker');
$n{east}->stop;
# Relay cannot record far's asking: far gets no answer, and never having
# had one, refuses.
mkdir($more{relay}->data_dir . '/chronoid.peers.tmp') or die "mkdir: $!";
$more{far}->safe_psql('postgres', "CREATE SUBSCRIPTION far_from_relay CONNECTION '$relay_conn' PUBLICATION mesh WITH (origin = none, copy_data = false)");
like(gen_error($more{far}, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: could not ask the publisher of subscription "far_from_relay" for its node id \(.*chronoid cannot answer a server whose asking it cannot record: could not write file "chronoid.peers"/,
	'relay unable to write chronoid.peers: far, whose asking it cannot record, refuses');
rmdir($more{relay}->data_dir . '/chronoid.peers.tmp') or die "rmdir: $!";
refused_within($more{far}, 'gen_nanoflake',
	qr/55000: gen_nanoflake\(\) refuses: this server's node id 1 is also the node id of the server "east"/,
	'far (1), told by relay of east (1), down, whose rows relay still awaits: refused');
set_node_id($more{far}, 9);
is($more{far}->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '9', 'far given its own id: mints');
$n{east}->start;

# 12. A copy of east (pg_basebackup, started on its own, its subscription
# dropped) keeps east's id and joins through west: of the two instances of
# one cluster, the older refuses; the copy, later, sees east as its past.
$n{east}->backup('copy');
my $copy = PostgreSQL::Test::Cluster->new('copy', install_path => $ENV{CHRONOID_PG_INSTALL});
$copy->init_from_backup($n{east}, 'copy');
$copy->append_conf('postgresql.conf', "max_logical_replication_workers = 0\ncluster_name = 'copy'\n");
$copy->start;
$copy->safe_psql('postgres', 'ALTER SUBSCRIPTION from_west DISABLE; ALTER SUBSCRIPTION from_west SET (slot_name = NONE); DROP SUBSCRIPTION from_west');
$copy->adjust_conf('postgresql.conf', 'max_logical_replication_workers', undef);
$copy->restart;
$copy->safe_psql('postgres', "CREATE SUBSCRIPTION copy_from_west CONNECTION '$west_conn' PUBLICATION mesh WITH (origin = none, copy_data = false)");
is($copy->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'the copy (1) mints');
ok($copy->log_contains(qr/LOG:  chronoid: "chronoid.instance" is not this instance's \(a copy of the data directory/),
	'the copy says it ranks as a new instance (the file it carries is east\'s)');
refused_within($n{east}, 'gen_nanoflake',
	qr/55000: gen_nanoflake\(\) refuses: a copy of this server \(its system identifier \d+, made active after this one\) mints with this server's node id 1: "copy"/,
	'east, older, refuses: a copy of it with its id mints beyond west');
# A restart does not make east the newer copy: its rank is kept
# (chronoid.instance), the copy's is its own (another directory).
$n{east}->restart;
like(gen_error($n{east}, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: a copy of this server .* "copy"/,
	'east restarted: still refuses, from its first call');
is($copy->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'while the copy still mints');
$n{east}->restart;
like(gen_error($n{east}, 'gen_nanoflake'), qr/55000: gen_nanoflake\(\) refuses: a copy of this server .* "copy"/,
	'and after a second restart');
ok(!$n{east}->log_contains(qr/"chronoid.instance" is not this instance's/), 'east never took a new rank');

# 12b. A physical standby of east, promoted while east still runs (a
# split brain): on a later timeline, it asks east, the server it followed,
# to give way before its first ID (tests/t/035 counts the duplicates); east
# refuses, and still refuses after a restart (chronoid.successor).
$n{east}->backup('standby');
my $promoted = PostgreSQL::Test::Cluster->new('promoted', install_path => $ENV{CHRONOID_PG_INSTALL});
$promoted->init_from_backup($n{east}, 'standby', has_streaming => 1);
$promoted->append_conf('postgresql.conf', "cluster_name = 'promoted'\n");
$promoted->start;
$promoted->promote;
$promoted->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()') or die 'the standby was not promoted';
$copy->stop;
is($promoted->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'the promoted standby (1) mints');
like(gen_error($n{east}, 'gen_nanoflake'),
	qr/55000: gen_nanoflake\(\) refuses: this server handed its place over to "promoted", a copy of it made active after it/,
	'east, the old primary, gave way before the promoted standby\'s first ID');
$n{east}->restart;
like(gen_error($n{east}, 'gen_nanoflake'), qr/55000: gen_nanoflake\(\) refuses: this server handed its place over to "promoted"/,
	'and still refuses after a restart');
is($promoted->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'while the promoted one mints');
$promoted->stop;

$more{$_}->stop for qw(relay far);
$third->stop;
$n{$_}->stop for qw(east west);
done_testing();
