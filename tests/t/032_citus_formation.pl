# needs: citus
# Scaling out with Citus. A DBA whose tables are keyed by chronoid IDs adds
# Citus: a coordinator and workers, tables hash-distributed by their ID
# column with the generator as DEFAULT, applications writing through every
# node (Citus 14 syncs its metadata to the workers, so each node can route
# the rows it receives), shards moved and rebalanced onto a worker added
# later, a worker restarted with its clock behind. The IDs must stay unique
# across the formation with no per-node configuration: a node of a Citus
# formation whose chronoid.node_id is unset takes chronoid.node_id_base +
# its Citus group id (the coordinator's group is 0, workers 1, 2, ... in
# the order they joined), so each ID's node bits name the node that
# received the row (Citus evaluates the DEFAULT there for VALUES, COPY and
# INSERT ... SELECT from a local source; an INSERT ... SELECT from another
# distributed table mints on the workers that run it). chronoid.node_id is server-wide (postgresql.conf, a
# reload), never per role: ALTER ROLE ... SET is refused. Distributed
# joins (colocated, repartitioned, with a reference table) and time-range
# queries on the keys must return what one server would.
#
# scripts/prove.sh builds Citus 14.0.1 for the major under test and installs
# it (scripts/citus.sh) for the `needs: citus` line above; Citus 14 supports
# PostgreSQL 16 to 18, and on an earlier major the file skips.
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use Chronoid;
use CitusFormation;

citus_or_skip();

my $tmp = PostgreSQL::Test::Utils::tempdir();
my @TYPES = qw(nanoflake uid60 caloriosa scru160);
# Where each type keeps its node id (scru160 has none: 96 random bits).
my %BITS = (
	nanoflake => '(id::bigint >> 12) & 1023',
	uid60 => 'id::bigint & 511',
	caloriosa => '(id::bigint >> 10) & 1023',);

# A coordinator and two workers; worker2 runs under libfaketime, for the
# restart with its clock behind at the end.
my $f = citus_formation(name => 'f', workers => 2, clock => ['worker2']);
my $c = $f->{coordinator};
my ($w1, $w2) = @{ $f->{workers} };
sub coord { return $c->safe_psql('postgres', $_[0]) }

# psql's output, or its error text (a check may run against SQL the
# extension does not have yet).
sub query
{
	my ($node, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return $ret == 0 ? $out : "ERROR: $err";
}

my %group = map { $_->name => group_id($_) } formation_nodes($f);
is(join(',', map { $group{ $_->name } } formation_nodes($f)), '0,1,2',
	'Citus group ids: coordinator 0, workers 1 and 2');
is(coord(q{SELECT count(*) FROM pg_dist_node WHERE groupid > 0 AND NOT (hasmetadata AND metadatasynced)}),
	0, "citus_add_node synced the metadata to every worker (any node can route)");

# What node id each node should mint with, by node name: its group id.
my %node_id = %group;

sub generators_ok
{
	my ($what) = @_;
	for my $node (formation_nodes($f))
	{
		my $want = $node_id{ $node->name };
		is(query($node, "SELECT node_id, node_id_source LIKE '%citus%' FROM chronoid_generators WHERE generator = 'nanoflake'"),
			"$want|t", $node->name . ": chronoid_generators says node id $want, from citus ($what)");
	}
	return;
}
generators_ok('chronoid.node_id unset');

# The tables: one per type, hash-distributed by its ID; a second nanoflake
# table colocated with the first; links, distributed by a uid60, pointing
# at nanoflakes (a join that needs repartitioning); a reference table.
for my $t (@TYPES)
{
	coord("CREATE TABLE t_$t (id $t NOT NULL DEFAULT gen_$t(), via int, expect int, phase text, how text, n int);
	       SELECT create_distributed_table('t_$t', 'id')");
}
coord(q{CREATE TABLE nf_detail (id nanoflake, note text);
        SELECT create_distributed_table('nf_detail', 'id', colocate_with => 't_nanoflake');
        CREATE TABLE links (u uid60 NOT NULL DEFAULT gen_uid60(), nf nanoflake);
        SELECT create_distributed_table('links', 'u');
        CREATE TABLE ref_nf (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), via int, note text);
        SELECT create_reference_table('ref_nf')});
is(coord(q{SELECT string_agg(logicalrelid::text || ':' || partmethod::text, ',' ORDER BY logicalrelid::text) FROM pg_dist_partition}),
	'links:h,nf_detail:h,ref_nf:n,t_caloriosa:h,t_nanoflake:h,t_scru160:h,t_uid60:h',
	'six hash-distributed tables and a reference table');

# One psql session per (node, type), all at once, each writing its rows
# with single-row INSERTs, multi-row INSERTs, INSERT ... SELECT
# generate_series and COPY, none naming the id (the DEFAULT mints it).
# $sizes: single, multi (statements of 100 rows), select, copy. Returns how
# many sessions failed.
my $script_no = 0;

sub write_through
{
	my ($phase, $sizes, @nodes) = @_;
	my @runs;
	for my $node (@nodes)
	{
		my ($via, $expect) = ($group{ $node->name }, $node_id{ $node->name });
		for my $t (@TYPES)
		{
			my $file = "$tmp/w" . ++$script_no . '.sql';
			open my $fh, '>', $file or die "$file: $!";
			my $cols = "t_$t (via, expect, phase, how, n)";
			my $row = sub { "($via, $expect, '$phase', '$_[0]', $_[1])" };
			print $fh "INSERT INTO $cols VALUES " . $row->('single', $_) . ";\n" for 1 .. ($sizes->{single} // 0);
			for my $s (1 .. ($sizes->{multi} // 0))
			{
				print $fh "INSERT INTO $cols VALUES " . join(',', map { $row->('multi', $s * 1000 + $_) } 1 .. 100) . ";\n";
			}
			print $fh "INSERT INTO $cols SELECT $via, $expect, '$phase', 'select', g FROM generate_series(1, $sizes->{select}) g;\n"
			  if $sizes->{select};
			if ($sizes->{copy})
			{
				print $fh "COPY $cols FROM STDIN;\n";
				print $fh "$via\t$expect\t$phase\tcopy\t$_\n" for 1 .. $sizes->{copy};
				print $fh "\\.\n";
			}
			close $fh;
			chmod 0644, $file;
			local %ENV = $node->_get_env();
			my ($out, $err) = ('', '');
			push @runs, [ $node->name . " t_$t", \$err, IPC::Run::start(
				[ $node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1',
				  '-d', $node->connstr('postgres'), '-f', $file ], '>', \$out, '2>', \$err) ];
		}
	}
	my $failed = 0;
	for my $r (@runs)
	{
		my ($name, $err, $h) = @$r;
		next if $h->finish;
		$failed++;
		diag("$phase: $name failed: $$err");
	}
	return $failed;
}

# Per type: no duplicate at all; and every row of the phases given has the
# node id it was expected to get (breakdown in the diagnostics if not).
sub ids_ok
{
	my ($what, @phases) = @_;
	my $in = join(',', map { "'$_'" } @phases);
	for my $t (@TYPES)
	{
		my ($rows, $dups) = split /\|/, coord("SELECT count(*), count(*) - count(DISTINCT id) FROM t_$t");
		is($dups, 0, "$what: $t: no duplicate among $rows ids");
		next unless $BITS{$t};
		my $wrong = coord("SELECT count(*) FROM t_$t WHERE phase IN ($in) AND $BITS{$t} <> expect");
		is($wrong, 0, "$what: $t: every id carries the node id of the node that received its row")
		  or diag(coord("SELECT string_agg(format('%s %s via group %s: node id %s where %s expected (%s rows)', phase, how, via, bits, expect, n), E'\\n')
		                 FROM (SELECT phase, how, via, $BITS{$t} AS bits, expect, count(*) n FROM t_$t
		                       WHERE phase IN ($in) GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5) s"));
	}
	return;
}

# Writers through every node at once.
my $started = time;
is(write_through('group', { single => 200, multi => 20, select => 20_000, copy => 20_000 }, formation_nodes($f)),
	0, '12 writers (3 nodes x 4 types) wrote at once through every node');
note 'the writers took ' . (time - $started) . ' s';
is(coord('SELECT count(*) FROM t_nanoflake'), 3 * 42_200, '42,200 rows per node in each table');
ids_ok('writing through every node', 'group');

# The reference table, written through each node.
for my $node (formation_nodes($f))
{
	$node->safe_psql('postgres', "INSERT INTO ref_nf (via, note) SELECT $group{$node->name}, 'minted' FROM generate_series(1, 100)");
}
is(coord("SELECT count(*), count(*) FILTER (WHERE (id::bigint >> 12) & 1023 <> via) FROM ref_nf"), '300|0',
	'reference table: 100 rows through each node, each id with its node id');
my %ref = map { $_->safe_psql('postgres', "SELECT md5(string_agg(id::text || via, ',' ORDER BY id)) FROM ref_nf") => 1 } formation_nodes($f);
is(scalar(keys %ref), 1, 'reference table: every node reads the same rows');

# Joins on the keys.
coord(q{INSERT INTO nf_detail SELECT id, 'even' FROM t_nanoflake WHERE n % 2 = 0;
        INSERT INTO links (nf) SELECT id FROM t_nanoflake WHERE n % 10 = 0;
        INSERT INTO ref_nf (id, via, note) SELECT id, via, 'sample' FROM t_nanoflake WHERE n % 100 = 0});
my $even = coord('SELECT count(*) FROM t_nanoflake WHERE n % 2 = 0');
is(coord('SELECT count(*) FROM t_nanoflake t JOIN nf_detail d USING (id)'), $even,
	"colocated join on the nanoflake key: $even rows");
unlike(coord('EXPLAIN SELECT count(*) FROM t_nanoflake t JOIN nf_detail d USING (id)'), qr/MapMergeJob/,
	'(pushed down to the shards, no repartitioning)');
my $tenth = coord('SELECT count(*) FROM t_nanoflake WHERE n % 10 = 0');
is(coord('SET citus.enable_repartition_joins = on; SELECT count(*) FROM links l JOIN t_nanoflake t ON t.id = l.nf'), $tenth,
	"repartition join on nanoflake (links distributed by uid60): $tenth rows");
like(coord('SET citus.enable_repartition_joins = on; EXPLAIN SELECT count(*) FROM links l JOIN t_nanoflake t ON t.id = l.nf'),
	qr/MapMergeJob/, '(a repartition join: Citus hashed nanoflakes into the other side\'s shards)');
is(coord('SELECT count(*), count(DISTINCT u) FROM links'), "$tenth|$tenth", 'links: its uid60 keys are unique');
my $sample = coord('SELECT count(*) FROM t_nanoflake WHERE n % 100 = 0');
is(coord("SELECT count(*) FROM t_nanoflake t JOIN ref_nf r USING (id) WHERE r.note = 'sample'"), $sample,
	"join with the reference table on nanoflake: $sample rows");

# Time ranges: rows minted on the coordinator between two instants are
# exactly those between TYPE_floor and TYPE_ceil of the instants.
my $t0 = coord('SELECT clock_timestamp()');
usleep(20_000);
coord("INSERT INTO t_$_ (via, expect, phase, how, n) SELECT 0, 0, 'range', 'select', g FROM generate_series(1, 1000) g") for @TYPES;
usleep(20_000);
my $t1 = coord('SELECT clock_timestamp()');
for my $t (qw(nanoflake caloriosa))
{
	is(coord("SELECT count(*), count(*) FILTER (WHERE phase = 'range') FROM t_$t WHERE id BETWEEN ${t}_floor('$t0') AND ${t}_ceil('$t1')"),
		'1000|1000', "$t: the rows of a time range, exactly, between ${t}_floor and ${t}_ceil");
	is(coord("SELECT count(*) FROM t_$t WHERE id >= ${t}_floor('$t0') AND id < ${t}_floor('$t1')"), 1000,
		"$t: and with id >= floor(t0) AND id < floor(t1)");
}

# chronoid.node_id is server-wide: a per-role setting is refused, and
# changes nothing on any node.
my ($ret, $out, $err) = $c->psql('postgres', 'ALTER ROLE postgres SET chronoid.node_id = 7', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55P02: parameter "chronoid\.node_id" cannot be changed now/,
	'ALTER ROLE postgres SET chronoid.node_id = 7 is refused (55P02)');
my $set = join ',', map { $_->safe_psql('postgres', q{SELECT count(*) FROM pg_db_role_setting WHERE array_to_string(setconfig, ',') LIKE '%chronoid.node_id%'}) } formation_nodes($f);
is($set, '0,0,0', 'no node has a per-role or per-database chronoid.node_id');
if ($set ne '0,0,0')
{
	# Undo it (Citus propagates role settings; a worker may refuse the
	# command), so that what follows tests what it means to.
	$_->psql('postgres', 'ALTER ROLE postgres RESET chronoid.node_id') for formation_nodes($f);
}
generators_ok('after the refused ALTER ROLE');

# An explicit, distinct chronoid.node_id per node, by reload.
for my $node (formation_nodes($f))
{
	$node_id{ $node->name } = 101 + $group{ $node->name };
	$node->append_conf('postgresql.conf', "chronoid.node_id = $node_id{$node->name}\n");
	$node->reload;
}
for my $node (formation_nodes($f))
{
	my $want = $node_id{ $node->name };
	my $got = '';
	for (1 .. 50)
	{
		$got = query($node, "SELECT node_id FROM chronoid_generators WHERE generator = 'nanoflake'");
		last if $got eq $want;
		usleep(100_000);
	}
	is($got, $want, $node->name . ": chronoid.node_id = $want taken on reload");
}
is(write_through('explicit', { single => 50, multi => 5, select => 5000, copy => 5000 }, formation_nodes($f)),
	0, 'writers through every node with explicit node ids 101, 102, 103');
ids_ok('explicit node ids', 'explicit');

# An explicit node id another node of the formation also has is refused,
# naming both nodes, before either mints: two explicit ones alike (both
# refuse), and one equal to another node's group id (the explicit one
# refuses; the node that takes its group id cannot repeat it, as no other
# node takes that group id).
my ($pw1, $pw2) = ($w1->port, $w2->port);
set_node_id($w1, 103);
like(query($w1, 'SELECT gen_nanoflake()'),
	qr/55000: gen_nanoflake\(\) refuses: this node's node id 103 \(chronoid.node_id, group 1\) is also the node id of the Citus node 127.0.0.1:$pw2 \(group 2\) \(chronoid.node_id\)/,
	'worker1 set to worker2\'s explicit id 103: worker1 refuses, naming worker2');
# Worker2's own configuration did not change: its peer worker sees
# worker1's new id in its next round (every 15 s).
my $w2_err = '';
for (1 .. 60)
{
	$w2_err = query($w2, 'SELECT gen_uid60()');
	last if $w2_err =~ /55000/;
	usleep(500_000);
}
like($w2_err,
	qr/55000: gen_uid60\(\) refuses: this node's node id 103 \(chronoid.node_id, group 2\) is also the node id of the Citus node 127.0.0.1:$pw1 \(group 1\)/,
	'and worker2 refuses too, naming worker1, within its peer worker\'s round');
is(query($c, 'SELECT nanoflake_generator(gen_nanoflake())'), '101', 'the coordinator (101) mints');
set_node_id($w2, undef);
set_node_id($w1, 2);
like(query($w1, 'SELECT gen_caloriosa()'),
	qr/55000: gen_caloriosa\(\) refuses: this node's node id 2 \(chronoid.node_id, group 1\) is also the node id of the Citus node 127.0.0.1:$pw2 \(group 2\) \(citus group 2\)/,
	'worker1 set to 2, worker2\'s group id: worker1 refuses, naming worker2');
is(query($w2, 'SELECT nanoflake_generator(gen_nanoflake())'), '2', 'worker2 (its group id, 2) mints');
set_node_id($w1, 102);
set_node_id($w2, 103);
is(query($w1, 'SELECT nanoflake_generator(gen_nanoflake())') . ',' . query($w2, 'SELECT nanoflake_generator(gen_nanoflake())'),
	'102,103', 'distinct again: both mint');

# A node out of reach is judged by its last answer, while the asking
# node's id is the one it answered under; a node given a new id while
# another cannot be asked refuses (the other, cut off, may have taken it).
$w2->stop('fast');
like(query($c, 'SELECT nanoflake_generator(gen_nanoflake())'), qr/^101$/m,
	'worker2 down: the coordinator (101) mints, worker2 having answered 103 before');
set_node_id($c, 104);
like(query($c, 'SELECT gen_nanoflake()'),
	qr/55000: gen_nanoflake\(\) refuses: could not ask the Citus node 127.0.0.1:$pw2 \(group 2\) for its node id \(.*\), and it has not answered this server since this server has node id 104/,
	'the coordinator given a new id (104) while worker2 is down: refused');
set_node_id($c, 101);
$w2->start;
is(query($c, 'SELECT nanoflake_generator(gen_nanoflake())'), '101', 'worker2 back, the coordinator on 101: mints');

# Shards move: every value stays as it was.
my @TABLES = ((map { "t_$_" } @TYPES), 'nf_detail', 'links', 'ref_nf');

sub snapshot
{
	return { map { $_ => coord("SELECT count(*) || ' ' || md5(string_agg(id::text || ':' || coalesce(via::text, '') , ',' ORDER BY id)) FROM (SELECT "
		  . ($_ eq 'links' ? 'u AS id, NULL::int AS via' : $_ eq 'nf_detail' ? 'id, NULL::int AS via' : 'id, via') . " FROM $_) s") } @TABLES };
}

sub same_values
{
	my ($before, $what) = @_;
	my $after = snapshot();
	my @changed = grep { $before->{$_} ne $after->{$_} } @TABLES;
	is(join(',', @changed), '', "$what: every value of every table intact (count and md5 of the ids in order)")
	  or diag(join("\n", map { "$_: $before->{$_} -> $after->{$_}" } @changed));
	return;
}
my $before = snapshot();
my ($p1, $p2) = ($w1->port, $w2->port);
my $shard = coord("SELECT min(shardid) FROM citus_shards WHERE table_name = 't_nanoflake'::regclass AND nodeport = $p1");
coord("SELECT citus_move_shard_placement($shard, '127.0.0.1', $p1, '127.0.0.1', $p2, shard_transfer_mode => 'block_writes')");
is(coord("SELECT nodeport FROM citus_shards WHERE shardid = $shard"), $p2, "shard $shard of t_nanoflake moved from worker1 to worker2");
same_values($before, 'after citus_move_shard_placement');

# A worker joins, and mints with its own group id.
# Until it is added, a worker reads group 0, the coordinator's: chronoid
# refuses to take a node id from that, once its peer worker has found the
# database a Citus node (within 10 s of CREATE EXTENSION citus in a
# database it had looked at before: docs/across-servers.md).
my $w3 = add_worker(
	$f, 'worker3',
	before_add => sub {
		my $got = '';
		for (1 .. 60)
		{
			$got = query($_[0], 'SELECT gen_nanoflake()');
			last if $got =~ /no formation yet/;
			usleep(250_000);
		}
		like($got,
			qr/55000: gen_nanoflake\(\) refuses: this Citus node is in no formation yet \(its group id reads 0, the coordinator's, but pg_dist_node lists no node in group 0\)/,
			'worker3 before citus_add_node: gen_nanoflake() refuses rather than mint with the coordinator\'s id');
	});
$group{ $w3->name } = group_id($w3);
$node_id{ $w3->name } = $group{ $w3->name };
is($group{ $w3->name }, 3, 'worker3 joined as group 3');
is(query($w3, "SELECT node_id, node_id_source LIKE '%citus%' FROM chronoid_generators WHERE generator = 'nanoflake'"),
	"3|t", 'worker3: chronoid_generators says node id 3, from citus');
$before = snapshot();
my $job = coord("SELECT citus_rebalance_start(shard_transfer_mode => 'block_writes')");
coord('SELECT citus_rebalance_wait()');
is(coord("SELECT state FROM pg_dist_background_job WHERE job_id = $job"), 'finished', "rebalance job $job finished");
cmp_ok(coord('SELECT count(*) FROM citus_shards WHERE nodeport = ' . $w3->port), '>', 0, 'worker3 holds shards after the rebalance');
same_values($before, 'after the rebalance onto worker3');
is(write_through('added', { single => 50, multi => 5, select => 5000, copy => 5000 }, formation_nodes($f)),
	0, 'writers through all four nodes at once, worker3 too');
ids_ok('with a worker added', 'added');

# worker2 writes, stops, and comes back with its clock 2 s behind: what it
# mints then is unique and above all it minted before.
is(write_through('before_restart', { select => 5000, copy => 5000 }, $w2), 0, 'worker2 wrote just before its restart');
$w2->stop('fast');
set_clock($f->{clock}{worker2}, '-2');
start_with_clock($w2);
my $lag = Time::HiRes::time() - $w2->safe_psql('postgres', 'SELECT extract(epoch FROM clock_timestamp())');
ok($lag > 1.5 && $lag < 3, sprintf('worker2 is back, its clock %.2f s behind', $lag));
my $behind = '';
for my $t (@TYPES)
{
	$behind .= "INSERT INTO t_$t (via, expect, phase, how, n) SELECT $group{$w2->name}, $node_id{$w2->name}, 'clock_behind', 'select', g FROM generate_series(1, 5000) g;";
}
my @errors = generate_until_ok($w2, "BEGIN; $behind COMMIT", 30);
is(scalar(grep { !/55000: system clock is \d+ ms behind/ } @errors), 0,
	'worker2, 2 s behind: refusals, if any, are 55000 clock-behind errors (' . scalar(@errors) . ')')
  or diag(join("\n", @errors));
ids_ok('worker2 restarted 2 s behind', 'clock_behind');
for my $t (qw(nanoflake uid60 caloriosa))
{
	is(coord("SELECT count(*) FROM t_$t WHERE phase = 'clock_behind' AND ${t}_timestamp(id) <=
	              (SELECT max(${t}_timestamp(id)) FROM t_$t WHERE via = $group{$w2->name} AND phase <> 'clock_behind')"),
		0, "$t: worker2's ids after the restart lie above every one it minted before");
}

# A node replaced by a promoted copy of it stops as the copy is promoted:
# the copy asks it to give way before its first ID (tests/t/035). One the
# formation no longer counts as its group's stops within its peer worker's
# round (10 s) of asking the coordinator: one removed (citus_remove_node)
# while it runs, and then its group id given to a new node.
sub refused_within
{
	my ($node, $pattern, $name) = @_;
	my $err = '';
	my $t0 = Time::HiRes::time();
	for (1 .. 120)
	{
		$err = query($node, 'SELECT gen_nanoflake()');
		last if $err =~ $pattern;
		usleep(250_000);
	}
	like($err, $pattern, $name);
	note sprintf('%s: refused after %.1f s', $node->name, Time::HiRes::time() - $t0);
	return;
}

$w1->backup('w1_copy');
my $w1c = PostgreSQL::Test::Cluster->new('f_worker1_copy', install_path => $ENV{CHRONOID_PG_INSTALL});
$w1c->init_from_backup($w1, 'w1_copy', has_streaming => 1);
$w1c->start;
$w1->wait_for_catchup($w1c);
$w1c->promote;
$w1c->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()') or die 'the copy of worker1 was not promoted';
my $pc = $w1c->port;
like(query($w1, 'SELECT gen_nanoflake()'),
	qr/55000: gen_nanoflake\(\) refuses: this server handed its place over to "f_worker1_copy", a copy of it made active after it/,
	'worker1, its standby promoted while it runs: gave way before the copy\'s first ID');
# The copy carries worker1's chronoid.peers, and in it what the coordinator
# said to worker1: it must ask for itself. Its peer worker asks as soon as
# it is promoted, and may have the coordinator's answer (worker1 holds the
# group: the copy refuses) before the coordinator stops answering (its
# processes stopped); after that it cannot ask, and refuses too.
my @coordinator = cluster_processes($c);
kill 'STOP', @coordinator;
my $copy_err = query($w1c, 'SELECT gen_nanoflake()');
kill 'CONT', @coordinator;
like($copy_err,
	qr/55000: gen_nanoflake\(\) refuses: (could not ask the formation's coordinator \(127.0.0.1:\d+\) which node holds Citus group 1|this node reads Citus group 1, but the formation's coordinator \(127.0.0.1:\d+\) lists 127.0.0.1:${\ $w1->port} as the node of group 1, a copy of this node)/,
	'the promoted copy of worker1, the coordinator not answering: refuses rather than mint on what was said to worker1');
coord("SELECT citus_update_node((SELECT nodeid FROM pg_dist_node WHERE nodeport = $p1), '127.0.0.1', $pc)");
refused_within($w1,
	qr/55000: gen_nanoflake\(\) refuses: this server handed its place over to "f_worker1_copy"/,
	'worker1 replaced by its promoted standby (citus_update_node): the old worker1, still running, refuses');
# The copy's refusal from above stands until its peer worker asks again
# (5 s after a refusal).
ok($w1c->poll_query_until('postgres', 'SELECT nanoflake_generator(gen_nanoflake()) = ' . $node_id{ $w1->name }),
	'while the promoted copy, now the node of group 1, mints with its id');
$w1->restart;
like(query($w1, 'SELECT gen_nanoflake()'), qr/55000: gen_nanoflake\(\) refuses: this server handed its place over to "f_worker1_copy"/,
	'and the old worker1 still refuses after a restart');
$w1->stop;

# citus_update_node marks the metadata unsynced; Citus's maintenance
# daemon syncs it again, and citus_add_node waits for no node.
$c->poll_query_until('postgres', 'SELECT bool_and(metadatasynced) FROM pg_dist_node WHERE hasmetadata')
  or die 'the metadata never synced again after citus_update_node';
my $w4 = add_worker($f, 'worker4');
my $g4 = group_id($w4);
is(query($w4, 'SELECT nanoflake_generator(gen_nanoflake())'), $g4, "worker4 (group $g4) mints");
# A formation's table changed by a statement alone (autocommit, where
# PostgreSQL queues the change's invalidation for the commit itself) is
# judged before the session's next ID: with worker4's peer worker stopped
# (SIGSTOP), that statement waits rather than mint with the former group.
{
	my $worker = query($w4, q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'chronoid peer worker'});
	kill 'STOP', $worker;
	my ($r, $o, $e) = $w4->psql('postgres',
		"SET statement_timeout = '2s';\nUPDATE pg_dist_local_group SET groupid = 77;\nSELECT nanoflake_generator(gen_nanoflake());",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	kill 'CONT', $worker;
	like($e, qr/57014: canceling statement due to statement timeout/,
		"worker4's group id changed alone (autocommit): the session's next statement waits for the worker");
	is($o, '', 'and makes no ID') or diag($o);
	# A caller that waits takes the group the worker judged once it has:
	# the next statement is refused for group 77, not kept waiting 12 s
	# for a verdict on group 4.
	$w4->safe_psql('postgres', "UPDATE pg_dist_local_group SET groupid = $g4");
	ok($w4->poll_query_until('postgres', "SELECT nanoflake_generator(gen_nanoflake()) = $g4"),
		'its group id put back: worker4 mints with it');
	my $t0 = Time::HiRes::time();
	($r, $o, $e) = $w4->psql('postgres', "UPDATE pg_dist_local_group SET groupid = 77;\nSELECT nanoflake_generator(gen_nanoflake());",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	my $took = Time::HiRes::time() - $t0;
	like($e, qr/55000: gen_nanoflake\(\) refuses: this node reads Citus group 77, but the formation's coordinator/,
		"its group id changed again, the worker running: the session's next statement is refused for group 77");
	# Not a timing of chronoid: a caller kept waiting gives up after 12 s.
	ok($took < 8, sprintf('once the worker has judged it (%.1f s)', $took));
	$w4->safe_psql('postgres', "UPDATE pg_dist_local_group SET groupid = $g4");
	ok($w4->poll_query_until('postgres', "SELECT nanoflake_generator(gen_nanoflake()) = $g4"),
		'put back again: worker4 mints with it');
}
coord('SELECT citus_remove_node(\'127.0.0.1\', ' . $w4->port . ')');
refused_within($w4,
	qr/55000: gen_nanoflake\(\) refuses: the formation's coordinator told this node that Citus group $g4 is no longer its/,
	'worker4 removed (citus_remove_node) while it runs: told by the coordinator, it refuses (tests/t/036 counts the duplicates)');
my $w5 = add_worker($f, 'worker5', group => $g4);
is(group_id($w5), $g4, "worker5 added with worker4's group id $g4 (groupid =>)");
is(query($w5, 'SELECT nanoflake_generator(gen_nanoflake())'), $g4, 'worker5 mints with it');
my $p5 = $w5->port;
refused_within($w4,
	qr/55000: gen_nanoflake\(\) refuses: the formation's coordinator told this node that Citus group $g4 is no longer its/,
	'and the removed worker4 still refuses');
# Restarted, it asks the coordinator again, which names worker5.
$w4->restart;
refused_within($w4,
	qr/55000: gen_nanoflake\(\) refuses: this node reads Citus group $g4, but the formation's coordinator \(127.0.0.1:\d+\) lists 127.0.0.1:$p5 as the node of group $g4, another server/,
	'restarted, the removed worker4 refuses, naming worker5');
$w4->stop;

# The node the coordinator lists for a group, out of this node's reach
# (moved to a host it cannot connect to, or a network split between them):
# it may be the node that replaced this one, so this one refuses (the
# coordinator tells it at once that the group is no longer its; asking,
# it finds the listed node out of reach); listed at its own address again,
# it mints.
my $nowhere = PostgreSQL::Test::Cluster::get_free_port();
my $w5_id = coord("SELECT nodeid FROM pg_dist_node WHERE nodeport = $p5");
coord("SELECT citus_update_node($w5_id, '127.0.0.1', $nowhere)");
refused_within($w5,
	qr/55000: gen_nanoflake\(\) refuses: (the formation's coordinator told this node that Citus group $g4 is no longer its|this node reads Citus group $g4, but the formation's coordinator \(127.0.0.1:\d+\) lists 127.0.0.1:$nowhere as the node of group $g4, which this node could not ask who it is)/,
	'worker5, the coordinator listing its group at an address it cannot reach (citus_update_node): refuses, naming it');
coord("SELECT citus_update_node($w5_id, '127.0.0.1', $p5)");
ok($w5->poll_query_until('postgres', "SELECT nanoflake_generator(gen_nanoflake()) = $g4"),
	'listed at its own address again: worker5 mints');
$w1c->stop;

# A role that is not a superuser, creating and dropping schemas as fast as
# it can in a database of its own (as CREATE EXTENSION does): only a
# superuser can create Citus, so only a superuser's schema change makes
# the peer worker look at a database again before callers mint. Callers in
# the coordinator's database go on at once.
{
	# A role of this node's only (Citus would make it on every node).
	coord('SET citus.enable_ddl_propagation = off; CREATE ROLE churner LOGIN CREATEDB');
	$c->safe_psql('postgres', 'CREATE DATABASE churn', extra_params => [ '-U', 'churner' ]);
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-d', $c->connstr('churn') . ' user=churner', '-c',
		  q{DO $$ BEGIN FOR i IN 1 .. 4000 LOOP EXECUTE 'CREATE SCHEMA s'; EXECUTE 'DROP SCHEMA s'; COMMIT; END LOOP; END $$} ],
		\$in, \$out, \$err);
	my ($slowest, $minted) = (0, 0);
	for (1 .. 20)
	{
		my $t0 = Time::HiRes::time();
		$minted++ if query($c, 'SELECT gen_nanoflake() IS NOT NULL') eq 't';
		my $took = Time::HiRes::time() - $t0;
		$slowest = $took if $took > $slowest;
	}
	my $churning = $h->pumpable;
	$h->finish;
	ok($churning, 'the churn ran throughout');
	is($minted, 20, 'a non-superuser churning schemas: 20 new connections on the coordinator mint');
	# Not a timing of chronoid: a caller that waited for the worker to read
	# each change would take up to 12 s.
	ok($slowest < 2, sprintf('each at once (slowest %.3f s)', $slowest));
}

$_->stop for grep { $_->name ne $w1->name && $_->name ne $w4->name } formation_nodes($f);

# A server that preloads Citus whose pg_hba.conf turns away the peer
# worker's local connection (as the bootstrap superuser, over the server's
# socket): a database it cannot read may be a Citus node. With
# chronoid.node_id set, that is its node id whatever it is: it mints, and
# chronoid_node_verdicts says what could not be read; unset, it refuses,
# saying why, rather than mint with no node id.
{
	my $x = chronoid_node('hba_reject');
	$x->append_conf('postgresql.conf', "shared_preload_libraries = 'citus,chronoid'\nlisten_addresses = '127.0.0.1'\nchronoid.node_id = 7\n");
	my $hba = $x->data_dir . '/pg_hba.conf';
	my $rules = PostgreSQL::Test::Utils::slurp_file($hba);
	PostgreSQL::Test::Utils::append_to_file("$hba.new", "local all all reject\nhost all all 127.0.0.1/32 trust\n$rules");
	rename("$hba.new", $hba) or die "rename: $!";
	$x->start;
	my $tcp = 'host=127.0.0.1 port=' . $x->port . ' dbname=postgres';
	$x->safe_psql('postgres', 'CREATE EXTENSION chronoid', connstr => $tcp);
	my $got = '';
	for (1 .. 60)
	{
		$got = $x->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())', connstr => $tcp);
		last if $got eq '7';
		usleep(250_000);
	}
	is($got, '7', 'its local connection turned away, chronoid.node_id 7: it mints with 7');
	like($x->safe_psql('postgres', q{SELECT state || ': ' || reason FROM chronoid_node_verdicts WHERE database = 'postgres'}, connstr => $tcp),
		qr/^mints: the Citus formation of database "[^"]+" could not be read \(.*reject/,
		'and chronoid_node_verdicts says what it could not read');
	$x->safe_psql('postgres', 'ALTER SYSTEM SET chronoid.node_id = -1; SELECT pg_reload_conf()', connstr => $tcp);
	my ($ret, $out, $err);
	for (1 .. 60)
	{
		($ret, $out, $err) = $x->psql('postgres', 'SELECT gen_nanoflake()', connstr => $tcp, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		last if $err =~ /cannot read this database/;
		usleep(250_000);
	}
	like($err, qr/55000: gen_nanoflake\(\) refuses: chronoid cannot read this database's Citus formation: .*reject/,
		'chronoid.node_id unset: it refuses, saying the formation cannot be read');
	$x->stop;
}
done_testing();
