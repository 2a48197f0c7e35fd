# Four servers, each with its own chronoid.node_id, all generating at once
# with every generator; everything merged into one table. nanoflake
# (distinct node ids) and scru160 (96 random bits) must not collide at all.
# caloriosa and uid60 carry the node id in the bits their seeds leave free
# (src/node/identity.rs): no collisions either; the test also reports how
# many random bits alone would have given. Then native logical replication, with binary = true and
# without, from two publishers to one subscriber: every row arrives equal.
# (Was tests/tap/multinode.sh: 14 checks, the same 14 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my ($NODES, $PER_NODE) = (4, 50_000);
my $tmp = PostgreSQL::Test::Utils::tempdir();
my @node;
for my $i (1 .. $NODES)
{
	$node[$i] = chronoid_node("node$i", allows_streaming => "logical");
	$node[$i]->append_conf('postgresql.conf', "chronoid.node_id = $i\nshared_buffers = '64MB'\n");
	$node[$i]->start;
	$node[$i]->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE gen (node int, nf nanoflake, s scru160, c caloriosa, u uid60)');
}
my %ids = map { $node[$_]->safe_psql('postgres', 'SHOW chronoid.node_id') => 1 } 1 .. $NODES;
is(scalar(keys %ids), $NODES, "$NODES servers, $NODES distinct node ids");

my @jobs;
for my $i (1 .. $NODES)
{
	push @jobs, [ $node[$i], "INSERT INTO gen SELECT $i, gen_nanoflake(), gen_scru160(), gen_caloriosa(), gen_uid60() FROM generate_series(1, "
		  . ($PER_NODE / 2) . ')' ] for 1, 2;
}
is(at_once(@jobs), 0, "$NODES servers x 2 backends generated $PER_NODE rows per server at once");

# Merge everything into one table on node 1 (binary COPY between servers).
my $m = $node[1];
sub on_merged { return $m->safe_psql('postgres', $_[0]) }
on_merged('CREATE TABLE merged (LIKE gen)');
for my $i (1 .. $NODES)
{
	$node[$i]->safe_psql('postgres', "COPY gen TO '$tmp/gen$i.bin' (FORMAT binary)");
	on_merged("COPY merged FROM '$tmp/gen$i.bin' (FORMAT binary)");
}
my $total = $NODES * $PER_NODE;
is(on_merged('SELECT count(*) FROM merged'), $total, "all $total rows merged");
is(on_merged('SELECT count(*) - count(DISTINCT nf) FROM merged'), '0', 'zero duplicate nanoflakes across servers');
is(on_merged('SELECT count(*) - count(DISTINCT s) FROM merged'), '0', 'zero duplicate scru160s across servers');
is(on_merged('SELECT count(*) = count(DISTINCT (node, nf)) FROM merged'), 't', '(and none within a server)');

# caloriosa / uid60 carry the node id too (the salt's low 10 bits, the 9
# free bits): 0 collisions between servers. For comparison, the collisions
# random bits alone would give (before 0.6.0): the sum over (ms, counter) of
# C(servers using it, 2) / 4096 (resp. / 512).
for my $t ([ 'caloriosa', 'c', 'caloriosa_increment(c)', 4096, 'caloriosa_random(c) & 1023' ],
	[ 'uid60', 'u', 'uid60_sequence(u)', 512, 'uid60_random(u)' ])
{
	my ($type, $col, $counter, $odds, $node_bits) = @$t;
	my $observed = on_merged("SELECT count(*) - count(DISTINCT $col) FROM merged");
	my $random = on_merged("SELECT round(coalesce(sum(n * (n - 1) / 2.0), 0) / $odds, 1) FROM (SELECT count(DISTINCT node) n FROM merged GROUP BY ${type}_timestamp($col), $counter) g");
	note "$type: $observed collisions between servers; random bits alone would give about $random";
	is($observed, '0', "$type: zero duplicates across servers (random bits alone: about $random)");
	is(on_merged("SELECT bool_and($node_bits = node) FROM merged"), 't', "$type: every ID carries its server's node id");
}
# Logical replication: nodes 1 and 2 publish, node 3 subscribes to node 1
# with binary = true and to node 2 in text.
for my $i (1 .. 3)
{
	$node[$i]->safe_psql('postgres',
		'CREATE TABLE rep (src int, n int, nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60, PRIMARY KEY (src, n))');
}
my $rows = sub {
	my ($i, $from, $to) = @_;
	return "INSERT INTO rep SELECT $i, g, gen_nanoflake(), gen_scru160(), codokey(now() - g * interval '1 minute', g % 7), gen_caloriosa(), gen_uid60() FROM generate_series($from, $to) g";
};
for my $i (1, 2)
{
	$node[$i]->safe_psql('postgres', $rows->($i, 1, 5000));
	$node[$i]->safe_psql('postgres', 'CREATE PUBLICATION pub FOR TABLE rep');
}
sub conninfo { my ($n) = @_; return 'host=' . $n->host . ' port=' . $n->port . ' dbname=postgres' }
$node[3]->safe_psql('postgres', "CREATE SUBSCRIPTION sub1 CONNECTION '" . conninfo($node[1]) . "' PUBLICATION pub WITH (binary = true)");
$node[3]->safe_psql('postgres', "CREATE SUBSCRIPTION sub2 CONNECTION '" . conninfo($node[2]) . "' PUBLICATION pub WITH (binary = false)");
# Rows written after the subscriptions exist go through the apply worker.
for my $i (1, 2)
{
	$node[$i]->safe_psql('postgres', $rows->($i, 5001, 10000));
	$node[$i]->safe_psql('postgres', 'UPDATE rep SET ck = codokey(now(), 6) WHERE n % 100 = 0');
}
# Everything each publisher wrote applied (the UPDATEs arrive after the
# last INSERT, so counting rows is not enough). First the initial copies:
# a table synchronization worker streams through a slot of its own, which
# the apply worker's catch-up does not wait for.
$node[3]->poll_query_until('postgres', "SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')")
  or die 'the subscriptions did not finish their initial copies';
$node[$_]->wait_for_catchup("sub$_") for 1, 2;
sub fp
{
	my ($n, $src) = @_;
	return $n->safe_psql('postgres', "SELECT md5(string_agg(concat_ws('|', src, n, nf, s, ck, c, u), ',' ORDER BY src, n)) FROM rep WHERE src = $src");
}
is($node[3]->safe_psql('postgres', 'SELECT count(*) FROM rep'), '20000', 'every row arrived at the subscriber');
is(fp($node[3], 1), fp($node[1], 1), 'binary = true: every value equal');
is(fp($node[3], 2), fp($node[2], 2), 'binary = false: every value equal');
is($node[3]->safe_psql('postgres', "SELECT string_agg(subbinary::text, ',' ORDER BY subname) FROM pg_subscription"), 'true,false',
	'the subscriptions are binary and text');
$node[3]->safe_psql('postgres', 'DROP SUBSCRIPTION sub1; DROP SUBSCRIPTION sub2');

$node[$_]->stop for 1 .. $NODES;
done_testing();
