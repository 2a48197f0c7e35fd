# Handover, not discovery: a standby promoted while the primary it
# followed still runs (a split brain, a promotion by hand) asks that
# primary (primary_conninfo, over a replication connection) to give way
# before its first ID, and the old primary refuses from the moment it
# answers: the backend serving the question marks it, with no worker or
# round needed. Writers at full speed on both sides through the promotion,
# the old primary's every free worker slot held by a LOGIN role's parallel
# query and its peer worker stopped (SIGSTOP): 0 duplicates counted from
# the event. The old primary still refuses after a restart
# (chronoid.successor); a role that may not replicate cannot make a server
# give way, nor can a server that is not a later copy of it. A standby
# whose primary is down (a failover) mints at once.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use IPC::Run;
use Math::BigInt;
use Chronoid;

my $east = chronoid_node('east', allows_streaming => 'logical');
$east->append_conf('postgresql.conf', "chronoid.node_id = 1\ncluster_name = 'east'\n");
$east->start;
my $mesh = $east->pg_version >= 16;
my $table = q{CREATE EXTENSION chronoid;
	CREATE TABLE t (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), via text);
	CREATE PUBLICATION mesh FOR TABLE t;
	-- Not replicated: what each server minted, by whom, and when.
	CREATE TABLE minted (id nanoflake, u uid60 DEFAULT gen_uid60(),
	                     by text DEFAULT current_setting('cluster_name'),
	                     at timestamptz DEFAULT clock_timestamp());};
$east->safe_psql('postgres', $table);

# A mesh member (16+: origin = none): west, node id 2, both ways.
my $west;
if ($mesh)
{
	$west = chronoid_node('west', allows_streaming => 'logical');
	$west->append_conf('postgresql.conf', "chronoid.node_id = 2\ncluster_name = 'west'\n");
	$west->start;
	$west->safe_psql('postgres', $table);
	for my $pair ([ $east, $west, 'from_west' ], [ $west, $east, 'from_east' ])
	{
		my ($sub, $pub, $name) = @$pair;
		my $conn = $pub->connstr('postgres') =~ s/'//gr;
		$sub->safe_psql('postgres',
			"CREATE SUBSCRIPTION $name CONNECTION '$conn' PUBLICATION mesh WITH (origin = none, copy_data = false)");
	}
	is($east->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'east (1) mints in a mesh with west (2)');
}

$east->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('promoted', install_path => $ENV{CHRONOID_PG_INSTALL});
$standby->init_from_backup($east, 'b', has_streaming => 1);
$standby->append_conf('postgresql.conf', "cluster_name = 'promoted'\n");
$standby->start;
# A second standby of east, promoted once the first has taken east's place.
my $twin = PostgreSQL::Test::Cluster->new('twin', install_path => $ENV{CHRONOID_PG_INSTALL});
$twin->init_from_backup($east, 'b', has_streaming => 1);
$twin->append_conf('postgresql.conf', "cluster_name = 'twin'\n");
$twin->start;
$east->wait_for_catchup($standby);
$east->wait_for_catchup($twin);


# Every free worker slot of east held by a LOGIN role's parallel query.
my $lowly = hold_worker_slots($east);
my $slots = $east->safe_psql('postgres', 'SHOW max_worker_processes');
ok($east->poll_query_until('postgres',
	qq{SELECT count(*) = $slots - 1 FROM pg_stat_activity WHERE backend_type IN ('parallel worker', 'chronoid peer worker', 'logical replication launcher', 'logical replication apply worker', 'logical replication worker')}),
	"lowly's parallel query holds every free worker slot of east ($slots in all)");

# And east's peer worker stopped: the handover needs none.
my $worker_pid = $east->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'chronoid peer worker'});
ok($worker_pid =~ /^\d+$/, 'east runs its peer worker');

my ($ret, $out, $err);

# 1. The promotion, writers on both sides throughout.
my $east_writer = id_writer($east, 8);
Time::HiRes::sleep(1.5);
kill 'STOP', $worker_pid;
my $promoted_at = $standby->safe_psql('postgres', 'SELECT clock_timestamp()');
$standby->safe_psql('postgres', 'SELECT pg_promote(false)');
my $standby_writer = id_writer($standby, 6);
$_->[0]->finish for $east_writer, $standby_writer;
kill 'CONT', $worker_pid;
note "east's writer: ${$east_writer->[2]}";
note "the promoted standby's writer: ${$standby_writer->[2]}";
my $before = minted_ids($east, q{by = 'east'});
my $after = minted_ids($standby, q{by = 'promoted'});
my $dups = grep { $before->{$_} } keys %$after;
cmp_ok(scalar(keys %$before), '>', 1000, 'east minted before the promotion (' . scalar(keys %$before) . ' IDs)');
cmp_ok(scalar(keys %$after), '>', 1000, 'the promoted standby minted after it (' . scalar(keys %$after) . ' IDs)');
is($dups, 0, 'not one ID minted by both, counted from the promotion');
like(${$east_writer->[2]},
	qr/55000 gen_nanoflake\(\) refuses: this server handed its place over to "promoted", a copy of it made active after it \(system identifier \d+\), which asked to take it before its first ID/,
	'east refused (55000), naming its successor, with its peer worker stopped');
like(${$east_writer->[2]}, qr/by sqlstate: 55000=\d+\n/, 'east\'s writer met only refusals (55000)');
my $east_last = $east->safe_psql('postgres', q{SELECT max(at) FROM minted WHERE by = 'east'});
my $first = $standby->safe_psql('postgres', q{SELECT min(at) FROM minted WHERE by = 'promoted'});
is($standby->safe_psql('postgres', qq{SELECT '$east_last'::timestamptz < '$first'::timestamptz}), 't',
	'east\'s last ID was minted before the promoted standby\'s first');
note 'promote to first ID: ' . $standby->safe_psql('postgres', qq{SELECT round(extract(epoch FROM '$first'::timestamptz - '$promoted_at'::timestamptz) * 1000) || ' ms'});
is($standby->safe_psql('postgres', q{SELECT string_agg(DISTINCT nanoflake_generator(id)::text, ',') FROM minted WHERE by = 'promoted'}),
	'1', 'the promoted standby mints with east\'s node id 1');
$lowly->[0]->finish;
is(${$lowly->[1]}, "100000\n", 'lowly\'s query ends as it would');
ok($east->log_contains(qr/chronoid: this server handed its place over to "promoted"/), 'east says so in its log');

# 1b. The second standby of east, promoted after the first took east's
# place: east tells it so (only the first successor takes a place), and it
# refuses rather than mint beside the first.
$twin->promote;
$twin->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()') or die 'twin not promoted';
($ret, $out, $err) = $twin->psql('postgres', 'SELECT gen_nanoflake()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
for (1 .. 40)
{
	last if $err =~ /refuses: the server this one/;
	Time::HiRes::sleep(0.5);
	($ret, $out, $err) = $twin->psql('postgres', 'SELECT gen_nanoflake()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
}
like($err, qr/55000: gen_nanoflake\(\) refuses: the server this one was a standby of \(primary_conninfo\) says that another copy of it \("promoted"\) holds its place/,
	'a second standby of east, promoted after the first took east\'s place, refuses (55000), naming the first');
is($standby->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'while the first mints on');
$twin->stop;

# 2. East's verdicts say so, and a restart keeps it (chronoid.successor).
like($east->safe_psql('postgres', q{SELECT state || ': ' || reason || ' / ' || hint FROM chronoid_node_verdicts WHERE database = 'postgres'}),
	qr/^refuses: this server handed its place over to "promoted".* \/ Its successor mints now\..*chronoid\.successor/,
	'chronoid_node_verdicts: east refuses, with the way back');
$east->restart;
($ret, $out, $err) = $east->psql('postgres', 'SELECT gen_nanoflake()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000: gen_nanoflake\(\) refuses: this server handed its place over to "promoted"/, 'east restarted: still refuses');
like($east->safe_psql('postgres', 'SHOW chronoid.handover'), qr/^\d+\t\d+\t1\t0\teast\n\d+\t\d+\t1\t\d+\tpromoted\nlast\t\d+\t\d+\t\d+$/,
	'SHOW chronoid.handover: east, then the copy that took its place');
is($standby->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'the promoted standby mints on');

# 3. Only a later copy, asking as a role that may replicate, takes a place:
# a plain role naming itself the promoted server's successor, or one that
# SETs ROLE to a replication role, changes nothing; nor does a superuser
# asking as a server of another cluster.
my $sysid = Math::BigInt->new($standby->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()'));
my $b36 = sub {
	my $n = Math::BigInt->new(shift);
	my $s = '';
	do { my $d = $n->copy->bmod(36)->numify; $s = (0 .. 9, 'a' .. 'z')[$d] . $s; $n->bdiv(36) } while $n > 0;
	return $s;
};
my $later = $b36->('4398046511103999');
$standby->safe_psql('postgres', 'CREATE ROLE plain LOGIN; CREATE ROLE repl REPLICATION; GRANT repl TO plain');
for my $try ([ 'plain', "chronoid:successor:-1:" . $b36->($sysid) . ":$later:liar", '' ],
	[ 'plain', "chronoid:successor:-1:" . $b36->($sysid) . ":$later:liar", 'SET ROLE repl; ' ],
	[ $standby->safe_psql('postgres', 'SELECT current_user'), "chronoid:successor:-1:" . $b36->(42) . ":$later:other", '' ])
{
	my ($user, $app, $pre) = @$try;
	$standby->safe_psql('postgres', "${pre}SHOW chronoid.handover", connstr => $standby->connstr('postgres') . " user=$user application_name=$app");
}
unlike($standby->safe_psql('postgres', 'SHOW chronoid.handover'), qr/\n/, 'the promoted server records no successor');
is($standby->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '1', 'and mints on');

# 4. A promoted standby whose clock is 3 s behind, made to wait 4 s for
# its predecessor (which turns replication connections away meanwhile, and
# mints on): it resumes above the last ID its predecessor made, as the
# answer tells it, rather than above the last mark it replayed.
$standby->backup('c');
my $skewed = PostgreSQL::Test::Cluster->new('skewed', install_path => $ENV{CHRONOID_PG_INSTALL});
$skewed->init_from_backup($standby, 'c', has_streaming => 1);
$skewed->append_conf('postgresql.conf', "cluster_name = 'skewed'\n");
my $clock = start_with_clock($skewed);
$standby->wait_for_catchup($skewed);
set_clock($clock, '-3');
$standby->safe_psql('postgres', 'TRUNCATE minted');
$standby->wait_for_catchup($skewed);
my $hba = $standby->data_dir . '/pg_hba.conf';
my $hba_text = PostgreSQL::Test::Utils::slurp_file($hba);
PostgreSQL::Test::Utils::append_to_file("$hba.new", "local replication all reject\nhost replication all all reject\n" . $hba_text);
rename("$hba.new", $hba) or die "rename: $!";
$standby->reload;
{
	my $old = id_writer($standby, 11);
	Time::HiRes::sleep(1);
	$skewed->safe_psql('postgres', 'SELECT pg_promote(false)');
	my $new = id_writer($skewed, 9);
	Time::HiRes::sleep(4);
	PostgreSQL::Test::Utils::append_to_file("$hba.new", $hba_text);
	rename("$hba.new", $hba) or die "rename: $!";
	$standby->reload;
	$_->[0]->finish for $old, $new;
	note "the old primary's writer: ${$old->[2]}";
	note "the skewed standby's writer: ${$new->[2]}";
	my $before = minted_ids($standby, q{by = 'promoted'});
	my $after = minted_ids($skewed, q{by = 'skewed'});
	my $dups = grep { $before->{$_} } keys %$after;
	cmp_ok(scalar(keys %$after), '>', 1000, 'the skewed standby minted (' . scalar(keys %$after) . ' IDs)');
	is($dups, 0, 'not one ID minted by both, its clock 3 s behind after a wait of 4 s');
	my $old_max = $standby->safe_psql('postgres', q{SELECT max(id) FROM minted WHERE by = 'promoted'});
	is($skewed->safe_psql('postgres', qq{SELECT min(id) > '$old_max'::nanoflake FROM minted WHERE by = 'skewed'}), 't',
		'every ID it minted lies above every ID its predecessor made');
	like(${$new->[2]}, qr/by sqlstate: (25006=\d+,?)?55000=\d+\n/, 'meanwhile it refused (55000), as for a clock behind');
}
set_clock($clock, '+0');

# 5. A failover: a standby of the skewed server, promoted once its
# primary is down, is not held up: its old primary cannot be reached.
$skewed->backup('d');
my $next = PostgreSQL::Test::Cluster->new('next', install_path => $ENV{CHRONOID_PG_INSTALL});
$next->init_from_backup($skewed, 'd', has_streaming => 1);
$next->append_conf('postgresql.conf', "cluster_name = 'next'\n");
$next->start;
$skewed->wait_for_catchup($next);
$skewed->stop('immediate');
my $t0 = Time::HiRes::time;
$next->promote;
ok($next->poll_query_until('postgres', 'SELECT nanoflake_generator(gen_nanoflake()) = 1'), 'a standby promoted with its primary down mints');
note sprintf('promote (primary down) to first ID: %.0f ms', (Time::HiRes::time - $t0) * 1000);
ok($next->log_contains(qr/chronoid: could not ask the server this one was a standby of \(primary_conninfo\) to give way: .*taken for down, as after a failover: minting/),
	'and says in its log why it did not wait');
$next->stop;
$standby->stop;
$west->stop if $west;
$east->stop;
done_testing();
