# Without shared_preload_libraries there is no shared memory for the
# server-wide counters, so the generators whose uniqueness rests on one
# (nanoflake, caloriosa, uid60) refuse with an error and a hint rather than
# risk duplicates. gen_scru160() (random bits) and everything else work.
# (Was tests/tap/without_preload.sh: 12 checks, the same 12 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('nopreload', install_path => $ENV{CHRONOID_PG_INSTALL});
$node->init;
$node->append_conf('postgresql.conf', "chronoid.nanoflake_epoch = '2024-01-01 00:00:00+00'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION chronoid');

is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'), '', 'the cluster does not preload chronoid');
is($node->safe_psql('postgres', "SELECT 'zz'::nanoflake::bigint"), '1295', 'the types work without preload');
is($node->safe_psql('postgres', 'SELECT length(gen_scru160()::text)'), '32', 'gen_scru160() needs no preload');
# Loaded on demand, the library may not define a start-only setting; the
# epoch still comes from the server's configuration alone.
is($node->safe_psql('postgres', "SET TimeZone = 'UTC'; SELECT nanoflake_timestamp('0'::nanoflake)"),
	'2024-01-01 00:00:00+00', 'the configured epoch applies without preload');
my ($ret, $out, $err) = $node->psql('postgres',
	"SELECT nanoflake_timestamp('0'::nanoflake); SET chronoid.nanoflake_epoch = '2021-01-01'");
like($err, qr/parameter "chronoid.nanoflake_epoch" cannot be changed now/,
	'and no session can change it once the library is loaded');
($ret, $out, $err) = $node->psql('postgres',
	"SET chronoid.nanoflake_epoch = '2021-01-01'; SET TimeZone = 'UTC'; SELECT nanoflake_timestamp('0'::nanoflake)");
is($out, '2024-01-01 00:00:00+00', 'nor before it is loaded (the placeholder is dropped when it loads)');

for my $gen (qw(gen_nanoflake gen_caloriosa gen_uid60))
{
	($ret, $out, $err) = $node->psql('postgres', "SELECT $gen()", extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, qr/ERROR:  55000: $gen\(\) requires chronoid to be loaded via shared_preload_libraries/,
		"$gen() refuses with SQLSTATE 55000");
	like($err, qr/HINT:  Add chronoid to shared_preload_libraries/,
		"$gen(): the error carries a hint naming shared_preload_libraries");
}

$node->stop;
done_testing();
