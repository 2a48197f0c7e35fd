# needs: library
# Installing chronoid next to a running server that has it loaded must not
# crash that server: the project's install step (scripts/install.sh) and
# the way to make room for `cargo pgrx test`'s in-place copy
# (install.sh --detach, docs/building-and-testing.md) both leave the mapped library alone. A preloaded
# server keeps answering gen_nanoflake() on an open connection and on new
# ones, and no backend dies of a signal. The installs go into a copy of the
# installation under test, private to this file.
# (Was tests/tap/install_live.sh: 11 checks, the same 11 here.)
use strict;
use warnings;
use Chronoid;
use File::Copy qw(copy);
use PostgreSQL::Test::Utils;
use Test::More;

my $tree = $ENV{CHRONOID_TREE};
my $built = $ENV{CHRONOID_BUILT} or BAIL_OUT('CHRONOID_BUILT: run through scripts/prove.sh');
my $install = PostgreSQL::Test::Utils::tempdir() . '/install';
system('cp', '-a', $ENV{CHRONOID_PG_INSTALL}, $install) == 0 or BAIL_OUT("copy of $ENV{CHRONOID_PG_INSTALL}");
my $pg_config = "$install/bin/pg_config";
chomp(my $libdir = `$pg_config --pkglibdir`);
my $lib = "$libdir/chronoid.so";

my $node = chronoid_node('live', install_path => $install);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION chronoid');

# A connection that stays open across the installs.
my $session = $node->background_psql('postgres');
my $first = $session->query_safe('SELECT gen_nanoflake()');
my $newer = "SELECT gen_nanoflake() > '$first'::nanoflake";
is($session->query_safe($newer), 't', 'an open session generates before the install');

# The file the server runs is the inode its postmaster mapped; an install
# must leave that inode alone and put a new one at the library's path.
my $postmaster = $node->{_pid};
sub inode { return (stat $lib)[1] // 'none'; }
sub mapped
{
	open my $maps, '<', "/proc/$postmaster/maps" or return 'no maps';
	while (<$maps>) { return (split)[4] if /chronoid\.so/; }
	return 'not mapped';
}
is(mapped(), inode(), 'the server has the installed library mapped');
my $running = mapped();
{
	local $ENV{PG_CONFIG} = $pg_config;
	local $ENV{CHRONOID_PREBUILT} = $built;
	ok(system("$tree/scripts/install.sh >/dev/null") == 0, 'scripts/install.sh installs while the server runs');
}
isnt(inode(), $running, 'the installed library is a new file (renamed into place), not the mapped one rewritten');
is($session->query_safe($newer), 't', 'the open session still generates');
is($node->safe_psql('postgres', $newer), 't', 'a new connection generates');

# What to do before cargo pgrx test: unlink, then a copy in place (as
# cargo pgrx install does) creates a new file.
{
	local $ENV{PG_CONFIG} = $pg_config;
	system("$tree/scripts/install.sh", '--detach') == 0 or die 'install.sh --detach';
}
my ($so) = split /\n/, `find '$built' -name chronoid.so`;
copy($so, $lib) or die "copy to $lib: $!";
ok(inode() ne $running && mapped() eq $running,
	"after --detach, an in-place copy writes a new file; the server still maps its own");
is($session->query_safe($newer), 't', 'the open session still generates after it');
is($node->safe_psql('postgres', 'SELECT count(gen_nanoflake()) FROM generate_series(1, 1000)'), '1000',
	'and new connections too');

$session->quit;
my $log = slurp_file($node->logfile);
unlike($log, qr/terminated by signal|server process .* was terminated/, 'no backend was terminated by a signal');

# The restart picks up the new build.
$node->restart;
is($node->safe_psql('postgres', $newer), 't', 'after a restart the server runs the new build');
$node->stop;
done_testing();
