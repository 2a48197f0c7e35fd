# needs: node-package
# The Node package as users get it: the tarball scripts/clients.sh packs
# (make clients) installed into a fresh project beside the drivers, and its
# tests (node/test, run by node from that project, so they import the
# installed package) against a server of the major under test: the shared
# vectors, the ESM and CommonJS builds, 100,000 random values per type made
# by the server and by the package agreeing in text, bytes and order,
# node-postgres (Client and Pool), Postgres.js, Kysely and Drizzle, each
# README example run as a program of its own; tsc --strict over the
# published declarations.
use strict;
use warnings;
use Chronoid;
use PostgreSQL::Test::Utils;
use Test::More;

my $dir = $ENV{CHRONOID_NODE} or BAIL_OUT('CHRONOID_NODE: run through scripts/prove.sh');
my $version = $ENV{CHRONOID_VERSION};
my $tarball = "$dir/dist/chronoid-$version.tgz";
ok(-f $tarball, "make clients packs chronoid-$version.tgz");
my $files = -f $tarball ? `tar -tzf '$tarball'` : '';
like($files, qr{^package/dist/index\.js$}m, 'an ESM build');
like($files, qr{^package/dist/index\.cjs$}m, 'a CommonJS build');
like($files, qr{^package/dist/index\.d\.ts$}m, 'and their declarations');
like($files, qr{^package/dist/pg\.js$}m, 'chronoid/pg');
unlike($files, qr{^package/(src|wasm|test)/}m, 'no sources, WebAssembly crate or tests in the tarball');

my ($node, $url) = app_node('node');
local $ENV{DATABASE_URL} = $url;
# The same database through PgBouncer in transaction mode.
local $ENV{CHRONOID_PGBOUNCER_URL} = start_pgbouncer($node);
local $ENV{CHRONOID_VECTORS} = "$ENV{CHRONOID_TREE}/tests/vectors";
local $ENV{CHRONOID_NODE_README} = "$dir/README.md";
for my $file (qw(values cross-check drivers readme pgbouncer))
{
	relay_tap("node $file", "$dir/project", 'node', '--test-reporter=tap', "$file.test.mjs");
}
program_ok('tsc --strict over the published declarations', "$dir/project",
	"$dir/project/node_modules/.bin/tsc", '-p', 'tsconfig.json');
$node->stop;
done_testing();
