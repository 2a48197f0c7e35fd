# Sharding on PostgreSQL's own parts: a coordinator and three shard servers,
# each with its own chronoid.node_id; a table hash-partitioned by a
# nanoflake key whose partitions are postgres_fdw foreign tables on the
# shards (server OPTIONS (extensions 'chronoid'), so chronoid's operators and
# immutable functions may be shipped). Checks: four concurrent writers
# through the coordinator, no duplicates, every row on the shard the
# coordinator's hash routes it to (and both sides hash a key alike); ranges
# and comparisons pushed down (EXPLAIN VERBOSE); ORDER BY id LIMIT n as on
# one server; IDs generated on the shards themselves never collide.
# (Was tests/tap/sharding.sh: 12 checks, the same 12 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $SHARDS = 3;
my @node;
# Server 0 is the coordinator (node id 100); shards 1..3 have node ids 1..3.
for my $i (0 .. $SHARDS)
{
	$node[$i] = chronoid_node("shard$i");
	$node[$i]->append_conf('postgresql.conf', 'chronoid.node_id = ' . ($i || 100) . "\nshared_buffers = '64MB'\n");
	$node[$i]->start;
	$node[$i]->safe_psql('postgres', 'CREATE EXTENSION chronoid');
}
my $c = $node[0];
sub coord { return $c->safe_psql('postgres', $_[0]) }
sub on { my ($i, $q) = @_; return $node[$i]->safe_psql('postgres', $q) }

coord('CREATE EXTENSION postgres_fdw');
coord('CREATE TABLE events (id nanoflake NOT NULL DEFAULT gen_nanoflake(), writer int, what text) PARTITION BY HASH (id)');
for my $i (1 .. $SHARDS)
{
	my $r = $i - 1;
	on($i, "CREATE TABLE events_p$r (id nanoflake PRIMARY KEY, writer int, what text);
	        CREATE TABLE local_ids (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake())");
	my ($host, $port) = ($node[$i]->host, $node[$i]->port);
	coord("CREATE SERVER shard$i FOREIGN DATA WRAPPER postgres_fdw
	           OPTIONS (host '$host', port '$port', dbname 'postgres', extensions 'chronoid');
	       CREATE USER MAPPING FOR CURRENT_USER SERVER shard$i;
	       CREATE FOREIGN TABLE events_p$r PARTITION OF events FOR VALUES WITH (MODULUS $SHARDS, REMAINDER $r)
	           SERVER shard$i OPTIONS (table_name 'events_p$r');
	       CREATE FOREIGN TABLE local_ids_$i (id nanoflake) SERVER shard$i OPTIONS (table_name 'local_ids')");
}

# Four concurrent writers through the coordinator.
is(at_once(map { [ $c, "INSERT INTO events (writer, what) SELECT $_, 'row ' || g FROM generate_series(1, 5000) g" ] } 1 .. 4),
	0, '4 concurrent writers inserted 5,000 rows each through the coordinator');
is(coord('SELECT count(*), count(DISTINCT id) FROM events'), '20000|20000', '20,000 rows, no duplicate id');
my $held = 0;
$held += on($_, 'SELECT count(*) FROM events_p' . ($_ - 1)) for 1 .. $SHARDS;
is($held, 20000, 'the shards hold every row');
my %share = map { on($_, 'SELECT count(*) > 5000 FROM events_p' . ($_ - 1)) => 1 } 1 .. $SHARDS;
is(join(',', sort keys %share), 't', 'every shard got its share');
# Routing: each shard's rows are exactly those the coordinator's hash sends
# there (OFFSET 0 keeps the check on the coordinator), and a key hashes
# alike on every server.
my $misrouted = 0;
for my $r (0 .. $SHARDS - 1)
{
	$misrouted += coord("SELECT count(*) FROM (SELECT id FROM events_p$r OFFSET 0) s WHERE NOT satisfies_hash_partition('events'::regclass, $SHARDS, $r, id)");
}
is($misrouted, 0, "every row is on the shard the coordinator's hash names");
my $key = coord('SELECT id FROM events ORDER BY id LIMIT 1');
my %hashes = map { on($_, "SELECT nanoflake_hash_extended('$key', 8816678312871386365)") => 1 } 0 .. $SHARDS;
is(scalar(keys %hashes), 1, 'the coordinator and the shards hash a key alike');

# Pushdown: comparisons and immutable bounds travel in the remote WHERE.
my $plan = coord("EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= '$key'::nanoflake AND id < nanoflake_ceil('2030-01-01+00', '2020-01-01+00')");
my $ceil = coord("SELECT nanoflake_ceil('2030-01-01+00', '2020-01-01+00')");
ok(index($plan, "WHERE ((id OPERATOR(public.>=) '$key')) AND ((id OPERATOR(public.<) '$ceil'))") >= 0,
	'comparisons and nanoflake_ceil(t, epoch) are pushed down to the shards')
  or diag($plan);
$plan = coord('EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= nanoflake_floor(now())');
like($plan, qr/Filter: \(\w+\.id >= nanoflake_floor\(now\(\)\)\)/,
	"a STABLE bound (the server's epoch, now()) is filtered on the coordinator, as documented");

# ORDER BY id LIMIT n through the shards equals the same on one server.
coord('CREATE TABLE events_single AS SELECT * FROM events');
is(coord("SELECT md5(string_agg(id::text || writer || what, ',' ORDER BY id)) FROM (SELECT * FROM events ORDER BY id LIMIT 100) s"),
	coord("SELECT md5(string_agg(id::text || writer || what, ',' ORDER BY id)) FROM (SELECT * FROM events_single ORDER BY id LIMIT 100) s"),
	"ORDER BY id LIMIT 100 through the shards returns the single server's rows");
is(coord('SELECT count(*) FROM ((SELECT id FROM events ORDER BY id DESC LIMIT 100) EXCEPT (SELECT id FROM events_single ORDER BY id DESC LIMIT 100)) s'),
	'0', 'and so does ORDER BY id DESC LIMIT 100');

# Shards generating their own IDs (their own node ids) never collide.
is(at_once(map { [ $node[$_], 'INSERT INTO local_ids SELECT FROM generate_series(1, 20000)' ] } 1 .. $SHARDS),
	0, 'each shard generated 20,000 ids locally at once');
my $union = join ' UNION ALL ', map { "SELECT id FROM local_ids_$_" } 1 .. $SHARDS;
is(coord("SELECT count(*), count(DISTINCT id), count(DISTINCT nanoflake_generator(id)) FROM ($union) s"),
	'60000|60000|3', '60,000 shard-local ids: no collision, three node ids');

$node[$_]->stop for 0 .. $SHARDS;
done_testing();
