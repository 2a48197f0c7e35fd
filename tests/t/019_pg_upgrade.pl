# Users move between majors with pg_upgrade. A cluster of the old major
# (CHRONOID_PG_INSTALL_OLD) holding every chronoid type - in primary keys,
# btree, hash and BRIN indexes, and a hash-partitioned table - is upgraded
# to the new major (CHRONOID_PG_INSTALL, with that major's build of
# chronoid). Afterwards every value is equal byte for byte, amcheck passes
# on every btree, the indexes answer the same queries, rows stay in their
# hash partitions, and the generators continue strictly above the IDs
# minted before the upgrade; with the old chronoid.marks copied, the new
# server started 30 s behind refuses rather than repeats.
# Run by scripts/test.sh once both majors have chronoid installed
# (OLD_PG_CONFIG=... scripts/prove.sh tests/t/019_pg_upgrade.pl).
# (Was tests/pg_upgrade.sh: 18 checks, the same 18 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Copy;
use Chronoid;

plan skip_all => 'needs CHRONOID_PG_INSTALL_OLD (OLD_PG_CONFIG=... scripts/prove.sh)'
  unless $ENV{CHRONOID_PG_INSTALL_OLD};

# pg_upgrade needs matching data-checksum settings; 18's initdb turns them on.
sub init_args
{
	my ($install) = @_;
	my $help = `$install/bin/initdb --help`;
	return $help =~ /--no-data-checksums/ ? (extra => ['--no-data-checksums']) : ();
}
my $old = PostgreSQL::Test::Cluster->new('old', install_path => $ENV{CHRONOID_PG_INSTALL_OLD});
$old->init(init_args($ENV{CHRONOID_PG_INSTALL_OLD}));
$old->append_conf('postgresql.conf', "shared_preload_libraries = 'chronoid'\nchronoid.node_id = 3\n");
$old->start;
$old->safe_psql('postgres', 'CREATE DATABASE upgrade_me');
$old->safe_psql('upgrade_me', q{
CREATE EXTENSION chronoid;
CREATE TABLE t (
    nf nanoflake PRIMARY KEY DEFAULT gen_nanoflake(),
    s scru160 UNIQUE DEFAULT gen_scru160(),
    ck codokey NOT NULL,
    c caloriosa UNIQUE DEFAULT gen_caloriosa(),
    u uid60 UNIQUE DEFAULT gen_uid60(),
    n int NOT NULL);
INSERT INTO t (ck, n) SELECT CASE WHEN g % 2 = 0
        THEN codokey(timestamptz '1990-01-01+00' + g * interval '7 hours 1.25 seconds', g % 7)
        ELSE codokey(timestamptz '1990-01-01+00' + g * interval '7 hours 1.25 seconds', 6, 1970, 3265, 999999) END, g
FROM generate_series(1, 20000) g;
CREATE INDEX t_ck ON t (ck);
CREATE INDEX t_nf_hash ON t USING hash (nf); CREATE INDEX t_s_hash ON t USING hash (s);
CREATE INDEX t_ck_hash ON t USING hash (ck); CREATE INDEX t_c_hash ON t USING hash (c); CREATE INDEX t_u_hash ON t USING hash (u);
CREATE INDEX t_nf_brin ON t USING brin (nf); CREATE INDEX t_s_brin ON t USING brin (s); CREATE INDEX t_ck_brin ON t USING brin (ck);
CREATE INDEX t_c_brin ON t USING brin (c); CREATE INDEX t_u_brin ON t USING brin (u);
CREATE TABLE parts (s scru160, nf nanoflake, ck codokey) PARTITION BY HASH (s);
CREATE TABLE parts_0 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE parts_1 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE parts_2 PARTITION OF parts FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO parts SELECT s, nf, ck FROM t;
CREATE TABLE nf_parts (nf nanoflake PRIMARY KEY) PARTITION BY HASH (nf);
CREATE TABLE nf_parts_0 PARTITION OF nf_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE nf_parts_1 PARTITION OF nf_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO nf_parts SELECT nf FROM t;
});
my $values = 'SELECT n, nanoflake_send(nf), scru160_send(s), codokey_send(ck), caloriosa_send(c), uid60_send(u) FROM t ORDER BY n';
my $placement = 'SELECT tableoid::regclass, scru160_send(s) FROM parts ORDER BY 2';
sub fp { my ($node, $q) = @_; return $node->safe_psql('upgrade_me', qq{SELECT md5(string_agg(r::text, E'\\n')) FROM ($q) r}) }
my $before_values = fp($old, $values);
my $before_parts = fp($old, $placement);
my $lookups = 'SET enable_seqscan = off; SET enable_bitmapscan = off;
    SELECT count(*) FROM t a WHERE EXISTS (SELECT FROM t b WHERE b.nf = a.nf AND b.s = a.s AND b.ck = a.ck AND b.c = a.c AND b.u = a.u)';
is($old->safe_psql('upgrade_me', $lookups), '20000', 'before: index lookups find every row');
my ($max_nf, $max_s, $max_u, $max_c) = split /\|/,
  $old->safe_psql('upgrade_me', 'SELECT max(nf), max(s), max(u), max(caloriosa_timestamp(c)) FROM t');
$old->stop;

my $new = PostgreSQL::Test::Cluster->new('new', install_path => $ENV{CHRONOID_PG_INSTALL});
$new->init(init_args($ENV{CHRONOID_PG_INSTALL}));
$new->append_conf('postgresql.conf', "shared_preload_libraries = 'chronoid'\nchronoid.node_id = 3\n");
{
	my $workdir = PostgreSQL::Test::Utils::tempdir();
	chdir $workdir;
	$new->command_ok(
		[
			'pg_upgrade', '-b', $old->config_data('--bindir'), '-B', $new->config_data('--bindir'),
			'-d', $old->data_dir, '-D', $new->data_dir, '-p', $old->port, '-P', $new->port,
			'-s', $new->host
		],
		'pg_upgrade from ' . $old->pg_version . ' to ' . $new->pg_version);
}

# chronoid's high-water marks live in the data directory, which pg_upgrade
# does not carry over: copied as docs/guarantees.md says, they keep the
# upgraded server from repeating an ID even with its clock 30 s behind (the
# server runs under libfaketime; the clock is set right again below).
copy($old->data_dir . '/chronoid.marks', $new->data_dir . '/chronoid.marks') or die "copy chronoid.marks: $!";
my $clock = $new->basedir . '/clock.offset';
set_clock($clock, '-30');
start_with_clock($new);
my ($ret, $out, $err) = $new->psql('upgrade_me', 'SELECT gen_nanoflake()');
ok($err =~ /system clock is \d+ ms behind the last nanoflake issued on this server/ && $err =~ /DETAIL:  The durable high-water mark of nanoflake is/,
	'upgraded with the old marks copied and the clock 30 s behind: gen_nanoflake() refuses (55000, naming the mark) rather than repeat');
ok($new->log_contains(qr/chronoid: at start, gen_nanoflake\(\) resumes above its high-water mark .* behind it/),
	"the upgraded server's log says where gen_nanoflake() resumes and that the clock is behind");
set_clock($clock, '+0');

my ($new_major) = ($new->pg_version . '') =~ /^(\d+)/;
is(substr($new->safe_psql('postgres', 'SHOW server_version_num'), 0, 2), $new_major,
	'the upgraded cluster runs ' . $new->pg_version);
is(fp($new, $values), $before_values, 'every value of every type equal, byte for byte');
is(fp($new, $placement), $before_parts, 'every row of the hash-partitioned table in the same partition');
is($new->safe_psql('upgrade_me', q{CREATE EXTENSION amcheck; SELECT count(bt_index_check(c.oid, true)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                                  JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace}),
	'7', 'amcheck bt_index_check(heapallindexed) passes on all 7 btrees (5 on t, one per partition of nf_parts)');
is($new->safe_psql('upgrade_me', $lookups), '20000', 'after: index lookups find every row');
for my $col (qw(nf s ck c u))
{
	like($new->safe_psql('upgrade_me',
			"SET enable_seqscan = off; SET enable_bitmapscan = off; EXPLAIN (COSTS OFF) SELECT * FROM t WHERE $col = (SELECT $col FROM t WHERE n = 77)"),
		qr/Index Scan using/, "an equality lookup on $col uses an index after the upgrade");
}
is($new->safe_psql('upgrade_me', "SET enable_seqscan = off; SELECT count(*) FROM t WHERE nf BETWEEN nanoflake_floor(now() - interval '1 day') AND nanoflake_ceil(now())"),
	'20000', 'a range scan on the bounds finds every row');
is($new->safe_psql('upgrade_me', 'SELECT count(*) FROM nf_parts WHERE nf = (SELECT nf FROM t WHERE n = 5)'), '1',
	'partition pruning by hash finds a row');
is($new->safe_psql('upgrade_me', "SELECT gen_nanoflake() > '$max_nf'::nanoflake, gen_scru160() > '$max_s'::scru160,
                                  gen_uid60() > '$max_u'::uid60, caloriosa_timestamp(gen_caloriosa()) >= '$max_c',
                                  nanoflake_generator(gen_nanoflake())"),
	't|t|t|t|3', 'the clock set right: the generators continue above every ID minted before the upgrade (caloriosa: by millisecond)');
is($new->safe_psql('upgrade_me', 'INSERT INTO t (ck, n) VALUES (codokey(now()), 20001) RETURNING n'), '20001',
	'new rows insert under every unique index');
$new->stop;
done_testing();
