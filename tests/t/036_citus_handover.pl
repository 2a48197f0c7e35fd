# needs: citus
# Handover in a Citus formation, with writers on both sides and duplicates
# counted from the event: a node whose group goes to another instance
# stops before that instance's first ID.
#
# 1. worker1's standby promoted while worker1 writes, then made the node of
#    group 1 (citus_update_node): the promoted copy asks worker1 to give
#    way as it is promoted (tests/t/035), and mints once the coordinator
#    lists it and has told worker1 to stop.
# 2. worker2 removed (citus_remove_node) while it writes, every free worker
#    slot of it held by a LOGIN role's parallel query and its peer worker
#    stopped (SIGSTOP); then worker3 added with worker2's group id
#    (groupid =>): the coordinator's chronoid tells worker2 to stop as it
#    reads the removal (a backend of worker2 answers: no worker needed),
#    and confirms worker3 as the group's holder only then; worker3 waits
#    for that.
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use Chronoid;
use CitusFormation;

citus_or_skip();
my $install = $ENV{CHRONOID_PG_INSTALL};

my $f = citus_formation(name => 'h', workers => 2);
my $c = $f->{coordinator};
my ($w1, $w2) = @{ $f->{workers} };
sub coord { return $c->safe_psql('postgres', $_[0]) }
my $MINTED = q{CREATE TABLE minted (id nanoflake, by text DEFAULT current_setting('cluster_name'), at timestamptz DEFAULT clock_timestamp())};
$_->safe_psql('postgres', $MINTED) for $w1, $w2;
is($w1->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'worker1 mints with its group id 1');
is($w2->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '2', 'worker2 mints with its group id 2');



# 1. worker1's standby, promoted while worker1 writes, then made the node.
$w1->backup('w1b');
my $w1c = PostgreSQL::Test::Cluster->new('h_worker1_copy', install_path => $install);
$w1c->init_from_backup($w1, 'w1b', has_streaming => 1);
$w1c->start;
$w1->wait_for_catchup($w1c);
{
	my $old = id_writer($w1, 9);
	Time::HiRes::sleep(1.5);
	$w1c->safe_psql('postgres', 'SELECT pg_promote()');
	my $new = id_writer($w1c, 7);
	Time::HiRes::sleep(1);
	my ($p1, $pc) = ($w1->port, $w1c->port);
	coord("SELECT citus_update_node((SELECT nodeid FROM pg_dist_node WHERE nodeport = $p1), '127.0.0.1', $pc)");
	$_->[0]->finish for $old, $new;
	note "worker1's writer: ${$old->[2]}";
	note "its promoted copy's writer: ${$new->[2]}";
	my ($dups, $n_old, $n_new) = repeated_ids($w1, $w1c);
	cmp_ok($n_old, '>', 1000, "worker1 minted ($n_old IDs)");
	cmp_ok($n_new, '>', 1000, "its promoted copy, made the node, minted ($n_new IDs)");
	is($dups, 0, 'not one ID minted by both, counted from the promotion');
	like(${$old->[2]}, qr/errors: 55000 gen_nanoflake\(\) refuses: this server handed its place over to "h_worker1_copy"/,
		'worker1 refused from the promotion on (55000)');
	is($w1c->safe_psql('postgres', 'SELECT string_agg(DISTINCT nanoflake_generator(id)::text, \',\') FROM minted WHERE by = current_setting(\'cluster_name\')'),
		'1', 'the copy minted with group 1\'s id');
}
$w1->stop;

# 2. worker2 removed while it writes, its worker slots held and its peer
# worker stopped; worker3 added with its group id.
my $lowly = hold_worker_slots($w2, 'SET citus.enable_ddl_propagation = off;');
my $slots = $w2->safe_psql('postgres', 'SHOW max_worker_processes');
ok($w2->poll_query_until('postgres', q{SELECT count(*) > 0 FROM pg_stat_activity WHERE backend_type = 'parallel worker'}),
	"lowly's parallel query holds worker2's free worker slots");
note 'worker2: ' . $w2->safe_psql('postgres', q{SELECT string_agg(backend_type || ' ' || n, ', ') FROM (SELECT backend_type, count(*) n FROM pg_stat_activity WHERE backend_type NOT IN ('client backend', 'walsender') GROUP BY 1) x}) . " of $slots slots";
my $worker_pid = $w2->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'chronoid peer worker'});
ok($worker_pid =~ /^\d+$/, 'worker2 runs its peer worker');
my $g2 = group_id($w2);
{
	my $old = id_writer($w2, 9);
	Time::HiRes::sleep(1.5);
	kill 'STOP', $worker_pid;
	coord('SELECT citus_remove_node(\'127.0.0.1\', ' . $w2->port . ')');
	my $w3 = add_worker($f, 'worker3', group => $g2, before_add => sub { $_[0]->safe_psql('postgres', $MINTED) });
	my $new = id_writer($w3, 6);
	$_->[0]->finish for $old, $new;
	kill 'CONT', $worker_pid;
	note "worker2's writer: ${$old->[2]}";
	note "worker3's writer: ${$new->[2]}";
	is(group_id($w3), $g2, "worker3 added with worker2's group id $g2");
	my ($dups, $n_old, $n_new) = repeated_ids($w2, $w3);
	cmp_ok($n_old, '>', 1000, "worker2 minted ($n_old IDs)");
	cmp_ok($n_new, '>', 1000, "worker3 minted ($n_new IDs)");
	is($dups, 0, 'not one ID minted by both, counted from the removal');
	like(${$old->[2]},
		qr/errors: 55000 gen_nanoflake\(\) refuses: the formation's coordinator told this node that Citus group $g2 is no longer its/,
		'worker2 refused (55000) once the coordinator told it, its peer worker stopped');
	like(${$old->[2]}, qr/by sqlstate: 55000=\d+\n/, 'and met no other error');
	my $last = $w2->safe_psql('postgres', q{SELECT max(at) FROM minted});
	my $first = $w3->safe_psql('postgres', q{SELECT min(at) FROM minted});
	is($w3->safe_psql('postgres', qq{SELECT '$last'::timestamptz < '$first'::timestamptz}), 't',
		'worker2\'s last ID was minted before worker3\'s first');
	ok($w2->log_contains(qr/chronoid: the Citus coordinator says group $g2 is no longer this node's/), 'worker2 says so in its log');
	$lowly->[0]->finish;
	is(${$lowly->[1]}, "100000\n", 'lowly\'s query ends as it would');
	# A restart keeps it: the coordinator's word is in chronoid.peers.
	$w2->restart;
	my (undef, undef, $after) = $w2->psql('postgres', 'SELECT gen_nanoflake()');
	like($after, qr/gen_nanoflake\(\) refuses: this node reads Citus group $g2, but the formation's coordinator/,
		'worker2 restarted: still refuses');
	is($w3->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), $g2, "worker3 mints on with group ${g2}'s id");
	$w3->stop;
}
$w2->stop;
$w1c->stop;
$c->stop;
done_testing();
