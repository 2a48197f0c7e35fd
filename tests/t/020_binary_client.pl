# A real binary-protocol client (psycopg 3 over libpq, tests/t/binary_client.py)
# reads and writes every chronoid type in binary: results through the
# types' send functions, parameters through their receive functions, bad
# binary input refused with the receive functions' SQLSTATEs.
# (Was tests/tap/binary_client.sh: 15 checks, the same 15 here, each under
# "psycopg 3 binary", and one for the program's exit status.)
use strict;
use warnings;
use Chronoid;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = chronoid_node('binary');
$node->start;
local $ENV{CHRONOID_TEST_DSN} = $node->connstr('postgres');
relay_tap('psycopg 3 binary', $ENV{TESTDIR}, "$ENV{CHRONOID_VENV}/bin/python", "$ENV{TESTDIR}/t/binary_client.py");
$node->stop;
done_testing();
