# The in-database #[pg_test]s of pgrx-tests/, called in the library that is
# installed, as `cargo pgrx test` calls them in a build of its own: each in
# a session of its own, inside a transaction that is rolled back; a test
# passes when it returns, or when it raises exactly the ERROR its
# `#[pg_test(error = "...")]` names. The library must be built with the
# pg_test feature (scripts/test.sh builds every major so:
# CHRONOID_INSTALL_FEATURES=pg_test scripts/install.sh); the install script
# has no test functions (scripts/install.sh moves them out), so they are
# declared here, in a schema `tests` outside the extension.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $tree = $ENV{CHRONOID_TREE} // die 'CHRONOID_TREE (scripts/prove.sh) names the copy of the tree';

# Every #[pg_test] of pgrx-tests/: its function's name and the ERROR it
# expects, if any (a Rust string literal: \" and \\ are unescaped).
my @tests;
my $attributes = 0;
for my $file (sort glob("$tree/pgrx-tests/*.rs"))
{
	my $src = slurp_file($file);
	$attributes += () = $src =~ /#\[pg_test\b/g;
	while ($src =~ /#\[pg_test(?:\(\s*error\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?\s*\))?\]\s*fn\s+(\w+)/g)
	{
		my ($error, $name) = ($1, $2);
		$error =~ s/\\(["\\])/$1/g if defined $error;
		push @tests, { name => $name, error => $error, file => $file =~ s{.*/}{}r };
	}
}
cmp_ok(scalar @tests, '>=', 18, 'pgrx-tests/ holds the in-database tests');
is(scalar @tests, $attributes, 'each #[pg_test] attribute is read with its function (none missed by the pattern)');
# pgrx shortens a longer name (and the function's symbol with it).
ok(!(grep { length($_->{name}) > 63 } @tests), 'every test name fits a PostgreSQL identifier');

# What src/lib.rs's pg_test::postgresql_conf_options() gives cargo pgrx
# test's server.
my $node = chronoid_node('pg_tests');
$node->append_conf('postgresql.conf', "chronoid.node_id = 77\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE pgrx_tests');
$node->safe_psql('pgrx_tests', 'CREATE EXTENSION chronoid; CREATE SCHEMA tests');
for my $t (@tests)
{
	my ($ret, $out, $err) = $node->psql('pgrx_tests',
		qq{CREATE FUNCTION tests."$t->{name}"() RETURNS void STRICT LANGUAGE c AS '\$libdir/chronoid', '$t->{name}_wrapper'});
	next if $ret == 0;
	BAIL_OUT("the installed chronoid has no test functions (build it with CHRONOID_INSTALL_FEATURES=pg_test): $err")
	  if $err =~ /could not find function/;
	fail("declare tests.$t->{name}: $err");
}
is($node->safe_psql('pgrx_tests', q{SELECT count(*) FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
		WHERE d.deptype = 'e' AND p.pronamespace = 'tests'::regnamespace}),
	'0', 'the test functions are not part of the extension');

for my $t (@tests)
{
	my ($ret, $out, $err) = $node->psql('pgrx_tests',
		qq{BEGIN; SELECT tests."$t->{name}"(); ROLLBACK;},
		extra_params => [ '-v', 'VERBOSITY=terse' ]);
	my ($raised) = $err =~ /ERROR:  (.*)/;
	# psql's exit status: 2 where the server closed the connection (a
	# test that crashed the backend), whatever it printed.
	if ($ret == 2 || $err =~ /server closed the connection|terminated abnormally/)
	{
		fail("$t->{file}: $t->{name}: the backend crashed (psql exit $ret)");
		diag($err);
		next;
	}
	if (defined $t->{error})
	{
		is($raised, $t->{error}, "$t->{file}: $t->{name} raises the ERROR it names");
	}
	else
	{
		ok(!defined $raised, "$t->{file}: $t->{name}") or diag($err);
	}
}
# A test that crashed the server would have failed above, and taken the
# next ones with it; say so plainly.
ok($node->safe_psql('postgres', 'SELECT 1') eq '1', 'the server is up after all of them');
$node->stop;
done_testing();
