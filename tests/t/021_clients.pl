# needs: clients
# Client libraries against a real cluster, as applications use them: the
# formats crate's tokio-postgres, sqlx and serde integrations
# (tests/clients/rust), and the recipes docs/clients.md shows for
# node-postgres (tests/clients/node) and JDBC (java/Recipe.java); the
# Python package has tests/t/024_python_package.pl. Each recipe is a
# program that asserts what it claims; scripts/prove.sh builds them first
# (scripts/build_client_tests.sh). The server listens on 127.0.0.1 as well,
# for the clients that speak TCP only (JDBC).
# (Was tests/tap/clients.sh: 8 checks. Here: the node-postgres and JDBC ones
# as they were; the four Python recipes' replaced by the Python package's
# tests (024); the Rust one split into one per test executable,
# with one that they were built; the README one, that its snippets are
# excerpts of these recipes, needs no server and runs with scripts/test.sh's
# other static checks.)
use strict;
use warnings;
use Chronoid;
use PostgreSQL::Test::Utils;
use Test::More;

my $clients = $ENV{CHRONOID_CLIENTS} or BAIL_OUT('CHRONOID_CLIENTS: run through scripts/prove.sh');
my $node = chronoid_node('clients');
$node->append_conf('postgresql.conf', "listen_addresses = '127.0.0.1'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE chronoid_clients');
$node->safe_psql('chronoid_clients', 'CREATE EXTENSION chronoid');
my $port = $node->port;
local $ENV{CHRONOID_TEST_DSN} = "host=127.0.0.1 port=$port user=postgres dbname=chronoid_clients";
local $ENV{CHRONOID_TEST_URL} = "postgresql://postgres\@127.0.0.1:$port/chronoid_clients";
local $ENV{CHRONOID_TEST_JDBC} = "jdbc:postgresql://127.0.0.1:$port/chronoid_clients?user=postgres";

my @rust = sort glob("$clients/rust/*");
ok(@rust >= 1, 'the Rust client tests were built') or diag("nothing in $clients/rust");
# One executable per test target of chronoid-client-tests (tokio-postgres,
# sqlx and serde through chronoid-formats' features).
program_ok('Rust: ' . ($_ =~ s{.*/}{}r), "$clients/rust", $_, '-q') for @rust;
program_ok('node-postgres recipe', "$clients/node", 'node', 'recipe.js');
program_ok('JDBC recipe', "$clients/java",
	'java', '-cp', "$clients/java:/usr/share/java/postgresql.jar", 'Recipe');

$node->stop;
done_testing();
