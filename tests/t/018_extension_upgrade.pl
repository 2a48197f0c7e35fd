# Installs released versions of chronoid (the scripts in sql/versions/),
# stores data of every type with btree, hash and BRIN indexes, runs ALTER
# EXTENSION chronoid UPDATE, and checks the data, the indexes, and that the
# updated catalog is a fresh install's, function for function. A 0.2.0
# database holding codokeys made under explicit contexts (which 0.2.0's
# input rejected in a default session) updates, dumps and restores with
# every row. (The library is always the current one, so a 0.2.0 catalog
# already runs the new input function; what the update must carry is the
# catalog itself: functions, volatility, aggregates, casts.)
# (Was tests/tap/upgrade.sh: 32 checks, the same 32 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $CURRENT = $ENV{CHRONOID_VERSION} or die "CHRONOID_VERSION (scripts/prove.sh sets it)";
my $node = chronoid_node('upgrade');
$node->start;
my $tmp = PostgreSQL::Test::Utils::tempdir();
sub sql { my ($db, $q) = @_; return $node->safe_psql($db, $q) }
sub version { return sql($_[0], "SELECT extversion FROM pg_extension WHERE extname = 'chronoid'") }
sub rows_md5 { my ($db, $q) = @_; return sql($db, qq{SELECT md5(coalesce(string_agg(r::text, E'\\n'), '')) FROM ($q) r}) }

# Every member object with what defines its behaviour: functions with their
# volatility, strictness, parallel safety, symbol and comment; the rest by
# description.
sub catalog
{
	return sql($_[0], q{SELECT md5(string_agg(d, E'\n' ORDER BY d)) FROM (
        SELECT pg_describe_object(e.classid, e.objid, e.objsubid)
               || coalesce(' ' || (SELECT concat_ws(' ', p.provolatile, p.proisstrict, p.proparallel, p.prosrc, p.probin,
                                                    pg_get_function_result(p.oid), pg_get_function_arguments(p.oid))
                                   FROM pg_proc p WHERE e.classid = 'pg_proc'::regclass AND p.oid = e.objid), '')
               || coalesce(' -- ' || obj_description(e.objid, e.classid::regclass::name), '') AS d
        FROM pg_depend e
        WHERE e.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'chronoid') AND e.deptype = 'e'
        UNION ALL  -- the members of every operator family (cross-type operators are not extension members)
        SELECT pg_describe_object(m.classid, m.objid, 0)
        FROM (SELECT 'pg_amop'::regclass AS classid, oid AS objid, amopfamily AS family FROM pg_amop
              UNION ALL SELECT 'pg_amproc'::regclass, oid, amprocfamily FROM pg_amproc) m
        JOIN pg_depend e ON e.classid = 'pg_opfamily'::regclass AND e.objid = m.family AND e.deptype = 'e'
                        AND e.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'chronoid')) s});
}
sql('postgres', "CREATE DATABASE $_") for qw(chronoid_fresh chronoid_upgrade chronoid_upgrade2 chronoid_upgrade2_restored chronoid_upgrade3);
sql('chronoid_fresh', 'CREATE EXTENSION chronoid');
is(version('chronoid_fresh'), $CURRENT, "a fresh install is $CURRENT");
my $fresh = catalog('chronoid_fresh');
is(sql('chronoid_fresh', q{SELECT string_agg(p.oid::regprocedure::text, ', ') FROM pg_proc p
        JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e'
        JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'chronoid'
        WHERE obj_description(p.oid, 'pg_proc') IS NULL}), '', 'every function and aggregate of a fresh install has a comment');

# From 0.1.0, through every upgrade script.
my $db = 'chronoid_upgrade';
sql($db, "CREATE EXTENSION chronoid VERSION '0.1.0'");
is(version($db), '0.1.0', 'chronoid 0.1.0 installed');
sql($db, q{
CREATE TABLE t (n int PRIMARY KEY, nf nanoflake DEFAULT gen_nanoflake(), s scru160 DEFAULT gen_scru160(),
                ck codokey, c caloriosa DEFAULT gen_caloriosa(), u uid60 DEFAULT gen_uid60());
INSERT INTO t (n, ck) SELECT g, codokey(timestamptz '2001-01-01+00' + g * interval '5 hours', g % 7) FROM generate_series(1, 10000) g;
CREATE INDEX ON t (nf); CREATE INDEX ON t (s); CREATE INDEX ON t (ck); CREATE INDEX ON t (c); CREATE INDEX ON t (u);
CREATE INDEX ON t USING hash (s); CREATE INDEX ON t USING brin (nf);
});
my $before = sql($db, "SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u), ',' ORDER BY n)) FROM t");
is(sql($db, "SELECT count(*) FROM pg_opclass WHERE opcname = 'codokey_minmax_ops'"), '0', '0.1.0 has no BRIN opclass for codokey');
sql($db, 'ALTER EXTENSION chronoid UPDATE');
is(version($db), $CURRENT, "0.1.0 updated to $CURRENT");
is(sql($db, "SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u), ',' ORDER BY n)) FROM t"), $before, 'every stored value unchanged');
is(sql($db, q{CREATE EXTENSION amcheck; SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 't'::regclass AND a.amname = 'btree'}),
	'6', 'amcheck passes on the 6 btrees built under 0.1.0');
is(sql($db, 'SET enable_seqscan = off; SELECT count(*) FROM t a WHERE EXISTS (SELECT FROM t b WHERE b.s = a.s AND b.nf = a.nf AND b.ck = a.ck)'),
	'10000', 'the old indexes answer lookups');
is(sql($db, 'INSERT INTO t (n, ck) VALUES (10001, codokey(now())) RETURNING nanoflake_generator(nf) >= 0'), 't',
	'the generators work after the update');
is(sql($db, "CREATE INDEX t_ck_brin ON t USING brin (ck); SELECT count(*) FROM pg_indexes WHERE indexname = 't_ck_brin'"), '1',
	"0.2.0's BRIN opclass for codokey is there");
is(catalog($db), $fresh, "an updated 0.1.0 has exactly the objects (and function properties) of a fresh $CURRENT");

# From 0.2.0, with codokeys of explicit contexts.
$db = 'chronoid_upgrade2';
sql($db, "CREATE EXTENSION chronoid VERSION '0.2.0'");
is(version($db), '0.2.0', 'chronoid 0.2.0 installed');
sql($db, q{
CREATE TABLE keys (n int PRIMARY KEY, k codokey NOT NULL);
INSERT INTO keys VALUES (1, codokey('2024-05-06 07:08:09.123456+00', 6, 1970, 3265, 999999)), (2, codokey(now(), 2)),
                        (3, codokey('0150-06-01+00'::timestamptz, 4, 1, 9999, 99));
INSERT INTO keys SELECT 10 + g, codokey(timestamptz '1990-01-01+00' + g * interval '13 hours 1.5 seconds', g % 7, 1970, 3265, 999999)
FROM generate_series(1, 3000) g;
INSERT INTO keys SELECT 5000 + g, codokey(timestamptz '2000-01-01+00' + g * interval '3 hours', g % 7, 2000, 2035, 99)
FROM generate_series(1, 3000) g;
CREATE INDEX keys_k ON keys (k);
});
my $keys_before = rows_md5($db, 'SELECT n, codokey_send(k) FROM keys ORDER BY n');
sql($db, 'ALTER EXTENSION chronoid UPDATE');
is(version($db), $CURRENT, "0.2.0 updated to $CURRENT");
is(rows_md5($db, 'SELECT n, codokey_send(k) FROM keys ORDER BY n'), $keys_before, 'every key unchanged by the update');
is(sql($db, 'SELECT count(*) FROM keys WHERE k::text::codokey = k'), '6003', 'every key reads back through text input after the update');
is(catalog($db), $fresh, "an updated 0.2.0 has exactly the objects (and function properties) of a fresh $CURRENT");
is(sql($db, "SELECT min(k) <= max(k), codokey(date '2022-01-01', 0) FROM keys"), 't|yj', "${CURRENT}'s functions work in the updated database");

$node->command_ok([ 'pg_dump', '-Fc', '-f', "$tmp/upgrade2.dump", '-d', $node->connstr($db) ], 'pg_dump of the updated database');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('chronoid_upgrade2_restored'), "$tmp/upgrade2.dump" ],
	'pg_restore: no error');
is(rows_md5('chronoid_upgrade2_restored', 'SELECT n, codokey_send(k) FROM keys ORDER BY n'), $keys_before,
	'the restore has every row, byte for byte');
is(sql('chronoid_upgrade2_restored', "CREATE EXTENSION amcheck; SELECT bt_index_check('keys_k', true)"), '',
	'amcheck passes on the restored index');

# From 0.3.0: indexes built before the integer comparisons joined their
# families serve them after the update.
$db = 'chronoid_upgrade3';
sql($db, "CREATE EXTENSION chronoid VERSION '0.3.0'");
is(version($db), '0.3.0', 'chronoid 0.3.0 installed');
is(sql($db, "SELECT count(*) FROM pg_operator WHERE oprleft = 'nanoflake'::regtype AND oprright = 'bigint'::regtype"), '0',
	'0.3.0 has no nanoflake = bigint');
sql($db, q{
CREATE TABLE t (n int PRIMARY KEY, nf nanoflake, c caloriosa, u uid60, s scru160 DEFAULT gen_scru160(), ck codokey);
INSERT INTO t (n, nf, c, u, ck)
SELECT g, (g::bigint << 22)::nanoflake, (-9223372036854775807 + g * 1024)::caloriosa, (g::bigint << 18)::uid60,
       codokey(timestamptz '2001-01-01+00' + g * interval '5 hours', 3) FROM generate_series(1, 10000) g;
CREATE INDEX t_nf ON t (nf); CREATE INDEX t_c ON t (c); CREATE INDEX t_u ON t (u); CREATE INDEX t_ck ON t (ck);
ANALYZE t;
});
$before = sql($db, "SELECT md5(string_agg(concat_ws('|', n, nf, c, u, s, ck), ',' ORDER BY n)) FROM t");
sql($db, 'ALTER EXTENSION chronoid UPDATE');
is(version($db), $CURRENT, "0.3.0 updated to $CURRENT");
is(sql($db, "SELECT md5(string_agg(concat_ws('|', n, nf, c, u, s, ck), ',' ORDER BY n)) FROM t"), $before, 'every stored value unchanged');
is(catalog($db), $fresh, "an updated 0.3.0 has exactly the objects, operator family members and function properties of a fresh $CURRENT");
is(sql($db, 'SELECT count(*) FROM t WHERE nf = 41943040 OR nf BETWEEN 4194304 AND 8388608::bigint'), '3',
	'nanoflake compares with numbers after the update');
for my $q ('nf = 41943040', 'c = -9223372036854765567', 'u = 2621440::bigint')
{
	my ($col) = split / /, $q;
	like(sql($db, "EXPLAIN (COSTS OFF) SELECT n FROM t WHERE $q"), qr/Index.*Cond: \($col = /, "an index built under 0.3.0 serves $q");
}
is(sql($db, "CREATE EXTENSION amcheck; SELECT count(bt_index_check(i::regclass, true)) FROM unnest(ARRAY['t_nf', 't_c', 't_u', 't_ck']) i"),
	'4', 'amcheck passes on the indexes built under 0.3.0');
is(sql($db, "SELECT scru160_timestamp(gen_scru160('2020-02-02 02:02:02.002+00')) = '2020-02-02 02:02:02.002+00', count(*) FILTER (WHERE ck::bytea::codokey = ck) FROM t"),
	't|10000', 'gen_scru160(timestamptz) and codokey <-> bytea after the update');

# From every later release kept in sql/versions/ (0.4.0 on): its install
# script, data of every type under btree, hash and BRIN indexes (its
# generators' IDs among them), the update, and a fresh install's catalog.
my $versions = "$ENV{CHRONOID_TREE}/sql/versions";
my @later = grep { my @v = split /\./; $v[0] > 0 || $v[1] >= 4 }
	map { m{chronoid--([0-9.]+)\.sql$} ? $1 : () } glob("$versions/chronoid--*.sql");
ok(scalar(grep { $_ eq '0.5.0' } @later), 'the released 0.4.0 and later are found: ' . join(', ', @later));
for my $v (@later)
{
	(my $name = "chronoid_from_$v") =~ tr/./_/;
	sql('postgres', "CREATE DATABASE $name");
	sql($name, "CREATE EXTENSION chronoid VERSION '$v'");
	is(version($name), $v, "chronoid $v installed");
	sql($name, q{
CREATE TABLE t (n int PRIMARY KEY, nf nanoflake DEFAULT gen_nanoflake(), s scru160 DEFAULT gen_scru160(),
                ck codokey, c caloriosa DEFAULT gen_caloriosa(), u uid60 DEFAULT gen_uid60());
INSERT INTO t (n, ck) SELECT g, codokey(timestamptz '2001-01-01+00' + g * interval '5 hours', g % 7) FROM generate_series(1, 5000) g;
CREATE INDEX t_nf ON t (nf); CREATE INDEX t_s ON t (s); CREATE INDEX t_ck ON t (ck); CREATE INDEX t_c ON t (c); CREATE INDEX t_u ON t (u);
CREATE INDEX ON t USING hash (s); CREATE INDEX ON t USING hash (nf); CREATE INDEX ON t USING brin (nf); CREATE INDEX ON t USING brin (ck);
});
	my $values = "SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u), ',' ORDER BY n)) FROM t";
	my $stored = sql($name, $values);
	sql($name, 'ALTER EXTENSION chronoid UPDATE');
	is(version($name), $CURRENT, "$v updated to $CURRENT");
	is(sql($name, $values), $stored, "$v: every stored value unchanged");
	is(catalog($name), $fresh, "an updated $v has exactly the objects, operator family members and function properties of a fresh $CURRENT");
	is(sql($name, q{CREATE EXTENSION amcheck; SELECT count(bt_index_check(i::regclass, true)) FROM unnest(ARRAY['t_nf', 't_s', 't_ck', 't_c', 't_u']) i}),
		'5', "$v: amcheck passes on the btrees built before the update");
	is(sql($name, q{SET enable_seqscan = off; SET enable_bitmapscan = off;
		SELECT count(*) FROM t a WHERE EXISTS (SELECT FROM t b WHERE b.nf = a.nf AND b.s = a.s AND b.c = a.c AND b.u = a.u)}),
		'5000', "$v: the old indexes answer lookups");
	is(sql($name, 'INSERT INTO t (n, ck) VALUES (0, codokey(now())) RETURNING nf > (SELECT max(nf) FROM t WHERE n > 0)'), 't',
		"$v: the generators mint above what they minted before the update");
}

$node->stop;
done_testing();
