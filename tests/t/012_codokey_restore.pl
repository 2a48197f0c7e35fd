# codokeys made in any context load back anywhere: explicit contexts (a
# microsecond fraction, a 3-digit year), a role-level and a database-level
# context survive pg_dump -Fc | pg_restore, plain pg_dump | psql and COPY
# BINARY, byte for byte, into databases whose sessions have yet another
# context; amcheck passes on the restored indexes.
# (Was tests/tap/codokey_restore.sh: 28 checks, the same 28 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $node = chronoid_node('codokey_restore');
$node->start;
my $tmp = PostgreSQL::Test::Utils::tempdir();
sub sql { my ($db, $q) = @_; return $node->safe_psql($db, $q) }
sql('postgres', "CREATE DATABASE $_") for qw(ck_src ck_custom ck_plain ck_copy);
sql('postgres', 'CREATE ROLE ck_writer LOGIN');
# The source database's sessions make keys in the years 100 .. 200, the
# writer role's in 2000 .. 2035 with milliseconds. Role settings win over
# database settings at login.
sql('postgres', 'ALTER DATABASE ck_src SET chronoid.codokey_year_zero = 100; ALTER DATABASE ck_src SET chronoid.codokey_max_year = 200');
sql('postgres', 'ALTER ROLE ck_writer SET chronoid.codokey_year_zero = 2000; ALTER ROLE ck_writer SET chronoid.codokey_max_year = 2035;
                 ALTER ROLE ck_writer SET chronoid.codokey_fraction_max = 999');
# Every target session has yet another context, in which most of these keys
# are not even valid.
for my $db (qw(ck_custom ck_plain ck_copy))
{
	sql('postgres', "ALTER DATABASE $db SET chronoid.codokey_year_zero = 4000; ALTER DATABASE $db SET chronoid.codokey_max_year = 5000");
}

sql('ck_src', 'CREATE EXTENSION chronoid; CREATE EXTENSION amcheck');
sql('ck_src', 'CREATE TABLE t (n int PRIMARY KEY, k codokey NOT NULL, made_in text); GRANT ALL ON t TO ck_writer');
sql('ck_src', q{
INSERT INTO t VALUES
    (1, codokey('2024-05-06 07:08:09.123456+00', 6, 1970, 3265, 999999), 'explicit, microseconds'),
    (2, codokey(timestamptz '2024-05-06 07:08:09+00', 2, 1970, 3265, 9), 'explicit, default context'),
    (3, codokey('0150-01-01 00:00:00+00'::timestamptz, 6, 1, 9999, 99), 'explicit, 3-digit year');
INSERT INTO t SELECT 100 + g, codokey(timestamptz '0100-01-01+00' + g * interval '17 days 3 hours 7.77 seconds', g % 7),
                     'database context 100..200'
FROM generate_series(1, 2000) g;
INSERT INTO t SELECT 10000 + g, codokey(timestamptz '1970-01-01+00' + g * interval '7 days 1 hour 3.3 seconds', g % 7, 1970, 3265, 999999),
                     'explicit, microseconds'
FROM generate_series(1, 2000) g;
});
is(sql('ck_src', 'SHOW chronoid.codokey_year_zero'), '100', "the source database's sessions have the database-level context");
my ($ret) = $node->psql('ck_src',
	"INSERT INTO t SELECT 20000 + g, codokey(timestamptz '2000-01-01+00' + g * interval '3 days 5 hours 1.234 seconds', g % 7), 'role context 2000..2035' FROM generate_series(1, 2000) g",
	extra_params => [ '-U', 'ck_writer' ]);
is($ret, 0, 'the writer role made keys in its role-level context');
is(sql('ck_src', 'SELECT k FROM t WHERE n = 1'), 'yh7pg1f1eiscf', "the issue's microsecond key");
sql('ck_src', 'CREATE INDEX t_k ON t (k); CREATE INDEX t_k_hash ON t USING hash (k); CREATE INDEX t_k_brin ON t USING brin (k)');
my $rows = sql('ck_src', 'SELECT count(*) FROM t');
is($rows, '6003', '6003 keys from five contexts');
# Byte for byte: the binary form of every key, in row order.
sub fingerprint
{
	return sql($_[0], q{SELECT md5(coalesce(string_agg(r::text, E'\n'), '')) FROM (SELECT n, codokey_send(k) FROM t ORDER BY n) r});
}
my $src = fingerprint('ck_src');
is(sql('ck_src', 'SELECT count(*) FROM t WHERE k::text::codokey = k'), $rows, 'every key reads back through text input in its own session');

$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/src.dump", '-d', $node->connstr('ck_src') ], 'pg_dump -Fc');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('ck_custom'), "$tmp/src.dump" ],
	'pg_restore into a database with another context: no error');
$node->command_ok([ 'pg_dump', '-Fp', '-f', "$tmp/src.sql", '-d', $node->connstr('ck_src') ], 'plain pg_dump');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('ck_plain'), '-f', "$tmp/src.sql" ],
	'psql restore of the plain dump: no error');

sql('ck_src', "COPY t TO '$tmp/t.bin' (FORMAT binary)");
($ret) = $node->psql('ck_copy', "CREATE EXTENSION chronoid; CREATE TABLE t (n int PRIMARY KEY, k codokey NOT NULL, made_in text);
                                 CREATE INDEX t_k ON t (k); COPY t FROM '$tmp/t.bin' (FORMAT binary)",
	extra_params => [ '-v', 'ON_ERROR_STOP=1' ]);
is($ret, 0, 'COPY BINARY into a database with another context: no error');

for my $db (qw(ck_custom ck_plain ck_copy))
{
	is(sql($db, 'SHOW chronoid.codokey_year_zero'), '4000', "$db: the restoring sessions had another context");
	is(sql($db, 'SELECT count(*) FROM t'), $rows, "$db: every row restored");
	is(fingerprint($db), $src, "$db: every key equal, byte for byte");
	is(sql($db, "CREATE EXTENSION IF NOT EXISTS amcheck; SELECT bt_index_check('t_k', true)"), '',
		"$db: amcheck (heapallindexed) passes on the codokey btree");
	is(sql($db, 'SET enable_seqscan = off; SELECT count(*) FROM t a WHERE EXISTS (SELECT FROM t b WHERE b.k = a.k)'), $rows,
		"$db: index lookups find every key");
}
# The keys decode in the context they were made in, wherever they are.
is(sql('ck_custom', 'SELECT codokey_timestamp(k, 1970, 3265, 999999) FROM t WHERE n = 1'), '2024-05-06 07:08:09.123456+00',
	'a restored microsecond key decodes with its context');
is(sql('ck_custom', "SELECT count(*) FROM t WHERE n > 20000 AND codokey_timestamp(k, 2000, 2035, 999) >= '2000-01-01+00'"), '2000',
	'the role-context keys decode with their context');
my ($r, $out, $err) = $node->psql('ck_custom', 'SELECT codokey_timestamp(k) FROM t WHERE n = 1');
like($err, qr/is not a key of the context \(year zero 4000/, 'decoding in the wrong context is a clear error where the context is used');

$node->stop;
done_testing();
