# A table with all five types, with btree, hash and BRIN indexes, survives
# pg_dump/pg_restore in custom and plain formats, with every value equal and
# every restored btree passing amcheck (heapallindexed); COPY BINARY out and
# back in gives the same rows.
# (Was tests/tap/dump_restore.sh: 14 checks, the same 14 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $node = chronoid_node('dump');
$node->start;
my $tmp = PostgreSQL::Test::Utils::tempdir();
$node->safe_psql('postgres', "CREATE DATABASE $_") for qw(chronoid_dump_src chronoid_dump_custom chronoid_dump_plain);
sub sql { my ($db, $q) = @_; return $node->safe_psql($db, $q) }

sql('chronoid_dump_src', q{
CREATE EXTENSION chronoid;
CREATE TABLE every_type (
    n int PRIMARY KEY,
    nf nanoflake DEFAULT gen_nanoflake(),
    s scru160 DEFAULT gen_scru160(),
    ck codokey,
    c caloriosa DEFAULT gen_caloriosa(),
    u uid60 DEFAULT gen_uid60(),
    arr nanoflake[]
);
INSERT INTO every_type (n, ck, arr)
SELECT g, codokey(timestamptz '2000-01-01+00' + g * interval '1 hour 1 minute 1.1 second', g % 7),
       ARRAY[gen_nanoflake(), gen_nanoflake()]
FROM generate_series(1, 20000) g;
CREATE UNIQUE INDEX ON every_type (nf);
CREATE UNIQUE INDEX ON every_type (s);
CREATE INDEX ON every_type (ck);
CREATE UNIQUE INDEX ON every_type (c);
CREATE UNIQUE INDEX ON every_type (u);
CREATE INDEX ON every_type USING hash (nf);
CREATE INDEX ON every_type USING hash (s);
CREATE INDEX ON every_type USING hash (ck);
CREATE INDEX ON every_type USING hash (c);
CREATE INDEX ON every_type USING hash (u);
CREATE INDEX ON every_type USING brin (nf);
CREATE INDEX ON every_type USING brin (s);
CREATE INDEX ON every_type USING brin (c);
CREATE INDEX ON every_type USING brin (u);
});
sub fingerprint
{
	return sql($_[0], "SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u, arr), ',' ORDER BY n)) FROM every_type");
}
my $src = fingerprint('chronoid_dump_src');
is(sql('chronoid_dump_src', "SELECT count(*) FROM pg_indexes WHERE tablename = 'every_type'"), '15',
	'source: 15 indexes on every_type');

$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/src.dump", '-d', $node->connstr('chronoid_dump_src') ],
	'pg_dump custom format');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('chronoid_dump_custom'), "$tmp/src.dump" ],
	'pg_restore of the custom format');
$node->command_ok([ 'pg_dump', '-Fp', '-f', "$tmp/src.sql", '-d', $node->connstr('chronoid_dump_src') ],
	'pg_dump plain format');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('chronoid_dump_plain'), '-f', "$tmp/src.sql" ],
	'psql restore of the plain format');

for my $db (qw(chronoid_dump_custom chronoid_dump_plain))
{
	is(fingerprint($db), $src, "$db: every value equal to the source");
	is(sql($db, "SELECT count(*) FROM pg_indexes WHERE tablename = 'every_type'"), '15', "$db: all 15 indexes restored");
	is(sql($db, q{CREATE EXTENSION amcheck; SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	              JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'every_type'::regclass AND a.amname = 'btree'}),
		'6', "$db: amcheck bt_index_check(heapallindexed) passes on all 6 btrees");
	# The indexes answer queries: one lookup through each btree and hash index.
	is(sql($db, q{SET enable_seqscan = off; SELECT count(*) FROM every_type a WHERE EXISTS
	              (SELECT FROM every_type b WHERE b.nf = a.nf AND b.s = a.s AND b.c = a.c AND b.u = a.u AND b.ck = a.ck)}),
		'20000', "$db: index lookups find every row");
}

# COPY BINARY out and back in.
sql('chronoid_dump_src', "COPY every_type TO '$tmp/every_type.bin' (FORMAT binary)");
sql('chronoid_dump_src', "CREATE TABLE every_type_copy (LIKE every_type); COPY every_type_copy FROM '$tmp/every_type.bin' (FORMAT binary)");
is(sql('chronoid_dump_src', q{SELECT count(*) FROM every_type a JOIN every_type_copy b USING (n)
                              WHERE (a.nf, a.s, a.ck, a.c, a.u, a.arr) IS NOT DISTINCT FROM (b.nf, b.s, b.ck, b.c, b.u, b.arr)}),
	'20000', 'COPY BINARY out and in: every row equal');

$node->stop;
done_testing();
