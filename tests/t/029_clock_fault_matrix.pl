# The clock-fault matrix (issue 35): a primary and its standby, under
# libfaketime, go through forward and backward clock steps and glitches,
# short and long, with and without calls, clean and crash restarts, and a
# promotion, in an order drawn from a fixed seed (CHRONOID_MATRIX_SEED
# draws another). After every fault, with the clock right again:
# - no ID of any generator repeats, and nanoflakes and uid60s never
#   decrease in the order they were made (caloriosa's timestamps never go
#   back);
# - generation refuses for no longer than the fault: not at all once a fault
#   without calls is over; after a forward step with calls, only until the
#   clock passes the IDs made during it (their offset), plus the 1.5 s a
#   call may wait.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep time);
use List::Util qw(shuffle);
use Chronoid;

my $seed = $ENV{CHRONOID_MATRIX_SEED} // 35;
srand($seed);
note "seed $seed";

my $primary = chronoid_node('matrix_primary', allows_streaming => 1);
$primary->append_conf('postgresql.conf', "chronoid.reserve_keep_warm = 30\n");
my $clock = start_with_clock($primary);
$primary->safe_psql('postgres', q{
	CREATE EXTENSION chronoid;
	CREATE TABLE ids (seq bigint GENERATED ALWAYS AS IDENTITY, nf nanoflake, u uid60, c caloriosa);
});
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('matrix_standby', install_path => $ENV{CHRONOID_PG_INSTALL});
$standby->init_from_backup($primary, 'b', has_streaming => 1);
my $standby_clock = start_with_clock($standby);

my $node = $primary;
my $batch = 'INSERT INTO ids (nf, u, c) SELECT gen_nanoflake(), gen_uid60(), gen_caloriosa() FROM generate_series(1, 300)';

# Generates until the fault is over: a batch succeeds and the clock has
# passed every ID made (before that, a generator that counted on within its
# last millisecond may still refuse the next batch). Returns the seconds
# until the last refusal (0 if none) and the errors other than 55000.
sub generate_after
{
	my ($timeout) = @_;
	my $t0 = time;
	my ($refused, @other) = (0);
	while (time < $t0 + $timeout)
	{
		my ($ret, $out, $err) = $node->psql('postgres', $batch, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		if ($ret != 0)
		{
			push @other, $err unless $err =~ /ERROR:  55000/;
			$refused = time - $t0;
			usleep(200_000);
			next;
		}
		last if $node->safe_psql('postgres', q{
			SELECT clock_timestamp() > greatest(max(nanoflake_timestamp(nf)), max(uid60_timestamp(u)),
			                                    max(caloriosa_timestamp(c))) FROM ids}) eq 't';
		usleep(100_000);
	}
	return ($refused, @other);
}

# One batch while the fault lasts (it may be refused: the clock is wrong).
sub call_during
{
	$node->psql('postgres', $batch);
}

my @faults = (
	[ 'forward glitch +3600 s for 1 s, no calls', sub { set_clock($clock, '+3600'); usleep(1_000_000); set_clock($clock, '+0'); 0 } ],
	[ 'forward glitch +30 s for 0.4 s, no calls', sub { set_clock($clock, '+30'); usleep(400_000); set_clock($clock, '+0'); 0 } ],
	[ 'forward step +2 s for 1 s, with calls', sub { set_clock($clock, '+2'); call_during(); usleep(1_000_000); call_during(); set_clock($clock, '+0'); 2 } ],
	[ 'backward step -3 s for 2 s, with calls', sub { set_clock($clock, '-3'); call_during(); usleep(2_000_000); call_during(); set_clock($clock, '+0'); 0 } ],
	[ 'backward step -0.5 s, with calls', sub { set_clock($clock, '-0.5'); call_during(); set_clock($clock, '+0'); 0 } ],
	[ 'clean restart', sub { $node->stop('fast'); start_with_clock($node); 0 } ],
	[ 'crash restart', sub { crash_cluster($node); start_with_clock($node); 0 } ],
	[ 'forward glitch +3600 s for 1 s, no calls, then a clean restart',
	  sub { set_clock($clock, '+3600'); usleep(1_000_000); set_clock($clock, '+0'); $node->stop('fast'); start_with_clock($node); 0 } ],
	[ 'forward glitch +30 s for 0.5 s, no calls, then a crash restart',
	  sub { set_clock($clock, '+30'); usleep(500_000); set_clock($clock, '+0'); crash_cluster($node); start_with_clock($node); 0 } ],
	[ 'clean restart with the clock 1 s behind, put right',
	  sub { $node->stop('fast'); set_clock($clock, '-1'); start_with_clock($node); usleep(300_000); set_clock($clock, '+0'); 0 } ],
);
# Every kind once, shuffled, and four more drawn at random.
my @order = ((shuffle @faults), map { $faults[ int(rand(@faults)) ] } 1 .. 4);
# The promotion comes in the middle: the primary crashes and its standby,
# its clock 0.5 s behind, takes over (then is put right).
splice @order, 7, 0, [ 'promotion of the standby, 0.5 s behind', sub {
	$primary->wait_for_catchup($standby);
	crash_cluster($primary);
	set_clock($standby_clock, '-0.5');
	$standby->promote;
	$standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()');
	$node = $standby;
	$clock = $standby_clock;
	set_clock($clock, '+0');
	0 } ];

generate_after(10);
my $step = 0;
for my $fault (@order)
{
	my ($name, $run) = @$fault;
	$step++;
	my (undef, @before) = generate_after(10);
	diag(join "\n", @before) if @before;
	my $ahead = $run->();
	my ($refused, @other) = generate_after(30);
	is(scalar(@other), 0, "$step. $name: refusals, if any, are 55000") or diag(join "\n", @other);
	cmp_ok($refused, '<=', $ahead + 1.5 + 0.5, "$step. $name: refused for ${refused} s, no longer than the fault");
}

# What every fault left behind, over all the IDs made.
my $check = $node->safe_psql('postgres', q{
	SELECT count(*) - count(DISTINCT nf), count(*) - count(DISTINCT u), count(*) - count(DISTINCT c),
	       count(*) FILTER (WHERE nf <= prev_nf), count(*) FILTER (WHERE u <= prev_u),
	       count(*) FILTER (WHERE caloriosa_timestamp(c) < prev_c)
	FROM (SELECT *, lag(nf) OVER w AS prev_nf, lag(u) OVER w AS prev_u,
	             lag(caloriosa_timestamp(c)) OVER w AS prev_c
	      FROM ids WINDOW w AS (ORDER BY seq)) AS s});
my ($dup_nf, $dup_u, $dup_c, $dec_nf, $dec_u, $dec_c) = split /\|/, $check;
my $rows = $node->safe_psql('postgres', 'SELECT count(*) FROM ids');
note "$rows rows of IDs over " . scalar(@order) . ' faults';
is("$dup_nf $dup_u $dup_c", '0 0 0', "no nanoflake, uid60 or caloriosa repeated ($rows rows)");
is("$dec_nf $dec_u", '0 0', 'no nanoflake or uid60 at or below the one made before it');
is($dec_c, 0, 'no caloriosa timestamp went back');
$node->stop;

done_testing();
