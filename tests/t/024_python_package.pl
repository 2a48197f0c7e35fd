# needs: python-package
# The Python package as users get it: the wheel and sdist scripts/clients.sh
# builds (make clients), the wheel installed into a fresh virtualenv with
# the drivers, and its tests (python/tests, run by pytest from outside the
# source tree, so they import the installed wheel) against a server of the
# major under test: the shared vectors, 100,000 random values per type made
# by the server and by the package agreeing in text, bytes and order, every
# driver (psycopg 3 text/binary/COPY/async, psycopg 2, asyncpg, pg8000), and
# each README example executed; mypy --strict on the installed package.
use strict;
use warnings;
use Chronoid;
use PostgreSQL::Test::Utils;
use Test::More;

my $python = $ENV{CHRONOID_PYTHON} or BAIL_OUT('CHRONOID_PYTHON: run through scripts/prove.sh');
my $version = $ENV{CHRONOID_VERSION};
my ($wheel) = glob("$python/dist/chronoid-$version-cp310-abi3-*.whl");
my $sdist = "$python/dist/chronoid-$version.tar.gz";
ok(defined $wheel, "make clients builds chronoid-$version-cp310-abi3-*.whl (one wheel for CPython >= 3.10)");
my $wheel_files = defined $wheel ? `unzip -Z1 '$wheel'` : '';
like($wheel_files, qr{^chronoid/_native\.abi3\.so$}m, 'the wheel holds the native module (the formats crate)');
like($wheel_files, qr{^chronoid/py\.typed$}m, 'the wheel is typed (py.typed)');
my $sdist_files = -f $sdist ? `tar -tzf '$sdist'` : '';
like($sdist_files, qr{/formats/src/nanoflake\.rs$}m, 'the sdist carries the formats crate it compiles');
like($sdist_files, qr{/chronoid/psycopg\.py$}m, 'and the Python sources');

my $node = chronoid_node('python');
$node->append_conf('postgresql.conf', "listen_addresses = '127.0.0.1'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE app');
$node->safe_psql('app', 'CREATE EXTENSION chronoid');
local $ENV{DATABASE_URL} = 'postgresql://postgres@127.0.0.1:' . $node->port . '/app';
local $ENV{CHRONOID_VECTORS} = "$ENV{CHRONOID_TREE}/tests/vectors";
local $ENV{CHRONOID_PYTHON_README} = "$python/README.md";
relay_tap('pytest', $python, "$python/venv/bin/python", '-m', 'pytest', '-p', 'no:cacheprovider',
	'--tap-stream', "$python/tests");
program_ok('mypy --strict on the installed package', $python,
	"$python/venv/bin/python", '-m', 'mypy', '--strict', '--cache-dir', "$python/.mypy_cache", '-p', 'chronoid');
$node->stop;
done_testing();
