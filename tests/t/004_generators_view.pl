# The chronoid_generators view: each figure moves when it should (IDs
# minted, last ID, high-water mark, waits for the next millisecond, the
# clock found behind and how far, 55000 errors, node id, epoch), who may
# read it; and a database still at 0.4.0's SQL keeps the guarantee across a
# crash with the clock behind, then updates to the view.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;
use POSIX qw(strftime);

my ($ret, $out, $err);

my $node = chronoid_node('view');
$node->append_conf('postgresql.conf', "chronoid.node_id = 17\n");
my $clock = start_with_clock($node);
$node->safe_psql('postgres', 'CREATE EXTENSION chronoid');

sub figures
{
	my ($generator) = @_;
	my $row = $node->safe_psql(
		'postgres', qq{
		SELECT minted, sequence_waits, clock_behind_events, max_clock_lag_ms,
		       clock_behind_errors, coalesce(node_id, -1),
		       coalesce(extract(epoch FROM last_issued) * 1000, -1)::bigint,
		       coalesce(last_sequence, -1),
		       coalesce(extract(epoch FROM high_water_mark) * 1000, -1)::bigint
		FROM chronoid_generators WHERE generator = '$generator'});
	my %f;
	@f{qw(minted waits behind lag errors node last seq mark)} = split /\|/, $row;
	return \%f;
}

is($node->safe_psql('postgres', 'SELECT string_agg(generator, \',\' ORDER BY generator) FROM chronoid_generators'),
	'caloriosa,nanoflake,uid60', 'one row per server-wide generator');
my $f = figures('nanoflake');
is_deeply([ @$f{qw(minted waits behind errors last seq mark)} ], [ 0, 0, 0, 0, -1, -1, -1 ],
	'a fresh server: nothing minted, no last ID, no mark');
is($f->{node}, 17, 'node_id is chronoid.node_id');
is($node->safe_psql('postgres',
		"SELECT epoch = '2020-01-01 00:00:00+00' AND since <= now() FROM chronoid_generators WHERE generator = 'nanoflake'"),
	't', 'epoch is the nanoflake epoch in effect; since is when shared memory was built');
is($node->safe_psql('postgres',
		"SELECT string_agg(generator || ':' || node_id || ':' || node_id_source, ',' ORDER BY generator) FROM chronoid_generators"),
	'caloriosa:17:chronoid.node_id,nanoflake:17:chronoid.node_id,uid60:17:chronoid.node_id',
	'caloriosa and uid60 carry the node id too, and the view says where it comes from');
# Unset on reload: nanoflake falls back to 0, caloriosa and uid60 to random bits.
$node->adjust_conf('postgresql.conf', 'chronoid.node_id', undef);
$node->reload;
is($node->poll_query_until('postgres',
		"SELECT string_agg(generator || ':' || coalesce(node_id::text, 'random') || ':' || node_id_source, ',' ORDER BY generator) FROM chronoid_generators",
		'caloriosa:random:none,nanoflake:0:none,uid60:random:none'), 1,
	'chronoid.node_id removed and reloaded: nanoflake 0, caloriosa and uid60 random bits, source none');
$node->append_conf('postgresql.conf', "chronoid.node_id = 17\n");
$node->reload;
$node->poll_query_until('postgres', "SELECT node_id = 17 FROM chronoid_generators WHERE generator = 'uid60'")
  or die 'chronoid.node_id = 17 not back';

my $last = $node->safe_psql('postgres',
	"SELECT max(id)::bigint FROM (SELECT gen_nanoflake() AS id FROM generate_series(1, 10000)) s");
$f = figures('nanoflake');
is($f->{minted}, 10000, 'minted counts every nanoflake');
is(figures('uid60')->{minted}, 0, '... and only for its own generator');
my ($last_ms, $last_seq) = split /\|/, $node->safe_psql('postgres',
	"SELECT (extract(epoch FROM nanoflake_timestamp(${last}::nanoflake)) * 1000)::bigint, nanoflake_sequence(${last}::nanoflake)");
is("$f->{last}|$f->{seq}", "$last_ms|$last_seq", 'last_issued and last_sequence are those of the last ID');
# The reserver keeps the mark up to a window (1 s) above the later of the
# clock and the last ID (docs/configuration.md): on a loaded machine the
# clock has moved on since the last ID by the time the view is read.
my $clock_ms = $node->safe_psql('postgres', "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint");
my $later = $clock_ms > $f->{last} ? $clock_ms : $f->{last};
ok($f->{mark} > $f->{last} && $f->{mark} <= $later + 1000,
	"high_water_mark lies above the last ID, at most 1 s above the later of it and the clock "
	  . "(mark $f->{mark}, last ID $f->{last}, clock after $clock_ms)");

# A stuck clock (libfaketime frozen 2 s ahead): uid60 uses up the 512
# sequence values of the millisecond, waits for the next one (counted), which
# never comes, and gives up after its 1 s bound (55000, counted).
set_clock($clock, strftime('%Y-%m-%d %H:%M:%S', gmtime(time + 2)));
($ret, $out, $err) = $node->psql('postgres', 'SELECT count(gen_uid60()) FROM generate_series(1, 1000)');
like($err, qr/system clock is \d+ ms behind/, 'a stuck clock: uid60 gives up after waiting');
$f = figures('uid60');
is($f->{minted}, 512, 'uid60 minted its 512 IDs of the stuck millisecond');
is($f->{waits}, 1, 'sequence_waits counts the wait for the next millisecond');
is($f->{errors}, 1, 'clock_behind_errors counts giving up');
is($f->{behind}, 0, 'a wait for the next millisecond is no clock-behind event');
set_clock($clock, '+0');

# The clock 0.5 s back: the generator waits it out. (One session, so that
# the step falls right after its last ID, however slow the machine.)
my $session = $node->background_psql('postgres');
$session->query_safe('SELECT gen_nanoflake()');
set_clock($clock, '-0.5');
$session->query_safe('SELECT count(gen_nanoflake()) FROM generate_series(1, 20000)');
$session->quit;
$f = figures('nanoflake');
cmp_ok($f->{behind}, '>=', 1, 'clock_behind_events counts the clock found behind');
ok($f->{lag} > 1 && $f->{lag} <= 1000, "max_clock_lag_ms is how far behind it was, under 0.5 s ($f->{lag})");
is($f->{errors}, 0, 'waited, did not fail');

# 5 s back: it fails, and the error is counted.
set_clock($clock, '-5');
($ret, $out, $err) = $node->psql('postgres', 'SELECT count(gen_nanoflake()) FROM generate_series(1, 20000)');
like($err, qr/system clock is \d+ ms behind/, '5 s back: 55000');
# As far behind as the error said: 5 s less the time since the last ID,
# which a loaded machine makes a second or more.
my ($said) = $err =~ /system clock is (\d+) ms behind/;
$f = figures('nanoflake');
is($f->{errors}, 1, 'clock_behind_errors counts it');
cmp_ok($f->{lag}, '>=', $said // 1e9, "max_clock_lag_ms is the largest lag seen ($f->{lag}), at least the error's ($said ms)");
set_clock($clock, '+0');

# Who may read it: pg_monitor, not PUBLIC.
$node->safe_psql('postgres', 'CREATE ROLE watcher LOGIN IN ROLE pg_monitor; CREATE ROLE nobody LOGIN');
is($node->safe_psql('postgres', 'SELECT count(*) FROM chronoid_generators', extra_params => [ '-U', 'watcher' ]),
	3, 'a member of pg_monitor reads the view');
($ret, $out, $err) = $node->psql('postgres', 'SELECT count(*) FROM chronoid_generators',
	extra_params => [ '-U', 'nobody', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  42501: permission denied for view chronoid_generators/, 'other roles may not (42501)');
# The peer worker's verdicts likewise: the database that minted above mints.
is($node->safe_psql('postgres', q{SELECT state || ':' || (confirmed_at <= clock_timestamp()) || ':' || (reason IS NULL)
		FROM chronoid_node_verdicts WHERE database = 'postgres'}, extra_params => [ '-U', 'watcher' ]),
	'mints:true:true', 'chronoid_node_verdicts: pg_monitor reads that this database mints, confirmed, with no reason');
($ret, $out, $err) = $node->psql('postgres', 'SELECT count(*) FROM chronoid_node_verdicts',
	extra_params => [ '-U', 'nobody', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  42501: permission denied for view chronoid_node_verdicts/, 'other roles may not read the verdicts (42501)');
$node->stop;

# A database at 0.4.0's SQL (updated library, extension not yet updated):
# the marks are the library's, so a crash with the clock 30 s behind still
# repeats nothing; ALTER EXTENSION UPDATE then adds the view. (30 s, not 3:
# the restart must not take longer than the step back, or the clock is past
# the last ID again before the first call, and it rightly mints. A busy
# machine took over 3 s.)
$node->start;
$node->safe_psql('postgres',
	"CREATE DATABASE old; \\c old\nCREATE EXTENSION chronoid VERSION '0.4.0'; CREATE TABLE t AS SELECT gen_nanoflake() AS nf FROM generate_series(1, 50000)");
crash_cluster($node);
set_clock($clock, '-30');
start_with_clock($node);
my $refused = 0;
($ret, $out, $err) = $node->psql('old', 'SELECT gen_nanoflake()');
like($err, qr/system clock is \d+ ms behind/, 'at 0.4.0 SQL, restarted 30 s behind: refused rather than repeated');
set_clock($clock, '+0');
$node->poll_query_until('old', 'SELECT gen_nanoflake() IS NOT NULL');
is($node->safe_psql('old', 'INSERT INTO t SELECT gen_nanoflake() FROM generate_series(1, 10000); SELECT count(*) - count(DISTINCT nf) FROM t'),
	0, 'at 0.4.0 SQL: no repeat across the crash');
$node->safe_psql('old', 'ALTER EXTENSION chronoid UPDATE');
is($node->safe_psql('old', "SELECT extversion FROM pg_extension WHERE extname = 'chronoid'"), $ENV{CHRONOID_VERSION},
	"ALTER EXTENSION chronoid UPDATE from 0.4.0 goes to $ENV{CHRONOID_VERSION}");
cmp_ok($node->safe_psql('old', "SELECT minted FROM chronoid_generators WHERE generator = 'nanoflake'"),
	'>=', 10000, 'and the view reads the running server');
$node->stop;

done_testing();
