# Eight backends call each generator 200,000 times at the same time. For
# every type: every row arrives, no value repeats, and the backends really
# ran at once. Then what each type's uniqueness rests on:
# - nanoflake, uid60, caloriosa: a server-wide (millisecond, counter) ticker
#   in shared memory, so no (millisecond, counter) pair repeats on the
#   server and no millisecond holds more than the counter's range;
# - scru160: a per-backend generator and CSPRNG, so - the library being
#   preloaded, where a random state made in the postmaster would be
#   inherited by every backend - no two backends share a random stream.
# (Was tests/tap/generator_concurrency.sh: 31 checks, the same 31 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my ($BACKENDS, $PER) = (8, 200_000);
my $TOTAL = $BACKENDS * $PER;
my $node = chronoid_node('concurrency');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION chronoid');
sub sql { return $node->safe_psql('postgres', $_[0]) }
is(sql('SHOW shared_preload_libraries'), 'chronoid', 'chronoid is preloaded');

# Fills TYPE_concurrent and checks what every generator must; $ordered: each
# backend's IDs also strictly increase in generation order.
sub generate
{
	my ($type, $ordered) = @_;
	my $table = "${type}_concurrent";
	concurrent_generate($node, $table, "gen_$type", $BACKENDS, $PER);
	is(sql("SELECT count(*) FROM $table"), $TOTAL, "$table: every row arrived");
	is(sql("SELECT count(DISTINCT id) FROM $table"), $TOTAL, "$table: zero duplicate IDs");
	is(sql("SELECT max(lo) < min(hi) FROM (SELECT backend, min(${type}_timestamp(id)) lo, max(${type}_timestamp(id)) hi FROM $table GROUP BY backend) s"),
		't', "$table: the backends' generation windows overlap");
	if ($ordered)
	{
		is(sql("SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY backend ORDER BY n) AS bad FROM $table) s WHERE bad"),
			'0', "$table: each backend's IDs strictly increase");
	}
	else
	{
		# The random salt sits above the counter: a backend's IDs are
		# ordered by millisecond only, which never goes back.
		is(sql("SELECT count(*) FROM (SELECT ${type}_timestamp(id) < lag(${type}_timestamp(id)) OVER (PARTITION BY backend ORDER BY n) AS bad FROM $table) s WHERE bad"),
			'0', "$table: each backend's timestamps never go back");
	}
}

# The checks of a ticker-backed type.
sub ticker_checks
{
	my ($type, $counter, $per_ms) = @_;
	my $table = "${type}_concurrent";
	is(sql("SELECT count(DISTINCT (${type}_timestamp(id), $counter(id))) FROM $table"), $TOTAL,
		"$table: no (millisecond, counter) pair repeats across backends");
	is(sql("SELECT max(c) <= $per_ms FROM (SELECT count(*) c FROM $table GROUP BY ${type}_timestamp(id)) s"), 't',
		"$table: at most $per_ms IDs per millisecond on the server");
	sql("DROP TABLE $table");
}

generate('nanoflake', 1);
is(sql('SELECT count(DISTINCT nanoflake_generator(id)) FROM nanoflake_concurrent'), '1',
	'nanoflake_concurrent: all share one node id');
ticker_checks('nanoflake', 'nanoflake_sequence', 4096);
generate('uid60', 1);
ticker_checks('uid60', 'uid60_sequence', 512);
generate('caloriosa', 0);
ticker_checks('caloriosa', 'caloriosa_increment', 1024);

generate('scru160', 1);
# Each backend's first ID: eight different random parts; and no 80-bit
# random part anywhere twice (shared streams would repeat them).
is(sql('SELECT count(DISTINCT scru160_random80(id)) FROM scru160_concurrent WHERE n = 1'), $BACKENDS,
	"the first IDs of $BACKENDS backends have $BACKENDS different random parts");
is(sql('SELECT count(DISTINCT scru160_random80(id)) FROM scru160_concurrent'), $TOTAL,
	'no random part repeats across backends');
# Fresh connections (fresh forks of the postmaster) differ too.
my %firsts = map { sql('SELECT scru160_random80(gen_scru160())') => 1 } 1 .. 5;
is(scalar(keys %firsts), 5, 'five new sessions draw five different first random parts');

$node->stop;
done_testing();
