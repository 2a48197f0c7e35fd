# needs: citus
# The Citus handover at its edges, with writers on both sides and
# duplicates counted from the event (what an attack on 036's mechanism
# found, each a way to repeat IDs before):
#
# 1. Two Citus databases on the same nodes, worker2 group 2 in both; group
#    2 given to worker3 in database postgres only, worker2's clock 2 s
#    ahead of worker3's. worker2 refuses in postgres from then on (app2's
#    coordinator saying worker2 holds group 2 there lifts nothing in
#    postgres), and mints on in app2, which it still holds; worker3
#    resumes above where worker2's generators stopped, so its clock being
#    2 s behind repeats nothing.
# 2. The coordinator's chronoid.peers removed while it runs, then worker3
#    replaced by worker4 while worker3's postmaster is stopped (SIGSTOP)
#    and its sessions mint: the coordinator names no holder until its peer
#    worker has written the file again, so worker4 waits for worker3 to
#    stop rather than mint at once.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use Chronoid;
use CitusFormation;

citus_or_skip();

my $f = citus_formation(name => 'e', workers => 2, clock => ['worker2']);
my $c = $f->{coordinator};
my ($w1, $w2) = @{ $f->{workers} };
my $MINTED = q{CREATE TABLE minted (id nanoflake, by text DEFAULT current_setting('cluster_name'), at timestamptz DEFAULT clock_timestamp())};
$w2->safe_psql('postgres', $MINTED);
my $g2 = group_id($w2);

# A second formation, in database app2 of the same nodes.
for my $n ($c, $w1, $w2)
{
	$n->safe_psql('postgres', 'CREATE DATABASE app2');
	$n->safe_psql('app2', 'CREATE EXTENSION citus; CREATE EXTENSION chronoid');
}
$c->safe_psql('app2', "SELECT citus_set_coordinator_host('127.0.0.1', " . $c->port . ')');
$c->safe_psql('app2', "SELECT citus_add_node('127.0.0.1', " . $_->port . ')') for $w1, $w2;
is($c->safe_psql('app2', 'SELECT groupid FROM pg_dist_node WHERE nodeport = ' . $w2->port), $g2,
	"worker2 is group $g2 in app2 too");
is($w2->safe_psql('app2', 'SELECT nanoflake_generator(gen_nanoflake())', timeout => 30), $g2, 'worker2 mints in app2');

sub refusals { return ($_[0] =~ /by sqlstate: 55000=(\d+)/)[0] // 0 }
sub verdict { return $_[0]->safe_psql('postgres', qq{SELECT state FROM chronoid_node_verdicts WHERE database = '$_[1]'}) }

# 1. Group 2 moved in postgres, worker2's clock 2 s ahead.
set_clock($f->{clock}{worker2}, '+2');
sleep 1;
my $ahead = $w2->safe_psql('postgres', 'SELECT extract(epoch FROM clock_timestamp())') - Time::HiRes::time();
cmp_ok($ahead, '>', 1.5, sprintf("worker2's clock runs %.1f s ahead", $ahead));
my $w3;
{
	my $old = id_writer($w2, 14);
	Time::HiRes::sleep(1.5);
	$c->safe_psql('postgres', "SELECT citus_remove_node('127.0.0.1', " . $w2->port . ')');
	$w3 = add_worker($f, 'worker3', group => $g2, before_add => sub { $_[0]->safe_psql('postgres', $MINTED) });
	my $new = id_writer($w3, 6);
	$_->[0]->finish for $new, $old;
	note "worker2's writer: ${$old->[2]}";
	note "worker3's writer: ${$new->[2]}";
	my ($dups, $n_old, $n_new) = repeated_ids($w2, $w3);
	cmp_ok($n_old, '>', 1000, "worker2 minted ($n_old IDs)");
	cmp_ok($n_new, '>', 1000, "worker3 minted ($n_new IDs)");
	is($dups, 0, 'not one ID minted by both, counted from the removal');
	my $old_max = $w2->safe_psql('postgres', 'SELECT max(id::bigint) FROM minted');
	is($w3->safe_psql('postgres', "SELECT min(id::bigint) > $old_max FROM minted"), 't',
		"every ID of worker3 lies above every ID of worker2, whose clock runs 2 s ahead");
	cmp_ok(refusals(${$old->[2]}), '>', 1000,
		'worker2 refused in postgres through the end of its writer (12 s after the removal), not only at first');
	is(verdict($w2, 'postgres'), 'refuses', 'worker2 refuses in postgres');
	is(verdict($w2, 'app2'), 'mints', 'and mints in app2, whose group 2 it still holds');
	is($w2->safe_psql('app2', 'SELECT nanoflake_generator(gen_nanoflake())'), $g2, 'worker2 mints in app2 with its group id');
	is($w2->safe_psql('postgres', 'SELECT state FROM chronoid_node_verdicts WHERE database = \'postgres\''), 'refuses',
		'and still refuses in postgres after app2\'s coordinator said it holds group 2 there');
}
$w2->stop;

# 2. The coordinator's file removed while it runs; worker3 replaced while
# its postmaster is stopped and its sessions mint.
unlink($c->data_dir . '/chronoid.peers') or die "unlink: $!";
ok(!-e $c->data_dir . '/chronoid.peers', "the coordinator's chronoid.peers removed while it runs");
{
	my $old = id_writer($w3, 12);
	Time::HiRes::sleep(1.5);
	my $pm = $w3->{_pid};
	kill 'STOP', $pm;
	$c->safe_psql('postgres', "SELECT citus_remove_node('127.0.0.1', " . $w3->port . ')');
	my $w4 = add_worker($f, 'worker4', group => $g2, before_add => sub { $_[0]->safe_psql('postgres', $MINTED) });
	my $new = id_writer($w4, 8);
	Time::HiRes::sleep(4);
	my $early = $w4->safe_psql('postgres', 'SELECT count(*) FROM minted');
	kill 'CONT', $pm;
	$_->[0]->finish for $new, $old;
	note "worker3's writer: ${$old->[2]}";
	note "worker4's writer: ${$new->[2]}";
	is($early, '0', 'worker4 minted nothing while worker3, which held the group, could not be told to stop');
	my ($dups, $n_old, $n_new) = repeated_ids($w3, $w4);
	cmp_ok($n_old, '>', 1000, "worker3 minted ($n_old IDs)");
	cmp_ok($n_new, '>', 1000, "worker4 minted once worker3 had stopped ($n_new IDs)");
	is($dups, 0, 'not one ID minted by both, counted from the removal');
	ok(-e $c->data_dir . '/chronoid.peers', "the coordinator's peer worker wrote its file again");
	$w4->stop;
}
$w3->stop;
$w1->stop;
$c->stop;
done_testing();
