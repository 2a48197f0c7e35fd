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
use Time::HiRes ();
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
# A subscriber (node id 3) of a publisher (node id 2) whose peer worker
# asked it: the publisher knows the old server, its system identifier and
# rank. Upgraded with chronoid.instance copied in (the upgrade steps,
# docs/high-availability.md), the new server is a later instance of the
# same server, not another one with its node id: it mints within seconds.
my $pub = chronoid_node('publisher', allows_streaming => 'logical');
$pub->append_conf('postgresql.conf', "chronoid.node_id = 2\ncluster_name = 'publisher'\n");
$pub->start;
$pub->safe_psql('postgres', 'CREATE EXTENSION chronoid; CREATE TABLE pubt (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake()); CREATE PUBLICATION p FOR TABLE pubt');
my $pub_conn = $pub->connstr('postgres') =~ s/'//gr;
$old->safe_psql('upgrade_me', 'CREATE TABLE pubt (id nanoflake PRIMARY KEY)');
$old->safe_psql('upgrade_me', "CREATE SUBSCRIPTION s CONNECTION '$pub_conn' PUBLICATION p WITH (copy_data = false)");
ok($pub->poll_query_until('postgres', q{SELECT current_setting('chronoid.node_ids_seen') ~ '\n[0-9]+\t[0-9]+\t3\t'}),
	'the publisher (2) knows the subscriber (3), which asked it');
is($old->safe_psql('upgrade_me', 'SELECT nanoflake_generator(gen_nanoflake())'), '3', 'the subscriber mints with 3');
my $old_system = $old->safe_psql('postgres', 'SELECT system_identifier FROM pg_control_system()');

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
copy($old->data_dir . '/chronoid.instance', $new->data_dir . '/chronoid.instance') or die "copy chronoid.instance: $!";
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
	'8', 'amcheck bt_index_check(heapallindexed) passes on all 8 btrees (5 on t, one per partition of nf_parts, pubt\'s)');
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

# The subscriber, upgraded: its subscription is there again (pg_upgrade
# keeps it from 17 on; before, pg_dump recreates it unconnected), enabled.
ok($new->log_contains(qr/chronoid: "chronoid.instance" was written by the cluster with system identifier $old_system \(this one's is \d+\): this server continues that server as a later instance of it/),
	'the upgraded server says it continues the old one');
if ($new->safe_psql('upgrade_me', q{SELECT count(*) FROM pg_subscription WHERE subname = 's'}) eq '0')
{
	$new->safe_psql('upgrade_me', "CREATE SUBSCRIPTION s CONNECTION '$pub_conn' PUBLICATION p WITH (copy_data = false, create_slot = false, slot_name = 's')");
}
else
{
	my ($enabled, $slot) = split /\|/,
	  $new->safe_psql('upgrade_me', q{SELECT subenabled, coalesce(subslotname::text, '') FROM pg_subscription WHERE subname = 's'});
	$new->safe_psql('upgrade_me', q{ALTER SUBSCRIPTION s SET (slot_name = 's')}) if $slot eq '';
	$new->safe_psql('upgrade_me', 'ALTER SUBSCRIPTION s ENABLE') if $enabled eq 'f';
}
my $t0 = Time::HiRes::time();
ok($new->poll_query_until('upgrade_me', 'SELECT nanoflake_generator(gen_nanoflake()) = 3'), 'the upgraded subscriber mints with 3');
note sprintf('the upgraded subscriber minted %.1f s after its subscription was enabled', Time::HiRes::time() - $t0);
is($pub->safe_psql('postgres', 'SELECT nanoflake_generator(gen_nanoflake())'), '2', 'the publisher mints on');
is($new->safe_psql('postgres', "SELECT current_setting('chronoid.node_ids_seen') ~ ('^' || '$old_system' || '\t')"), 't',
	'the upgraded server tells its peers the old server\'s system identifier');
$new->stop;
# The former data directory, started again (copy mode leaves it whole):
# the older instance, it refuses once it hears of the newer from the
# publisher, which the upgraded server asked.
$old->start;
my $refused = '';
for (1 .. 60)
{
	my (undef, undef, $e) = $old->psql('upgrade_me', 'SELECT gen_nanoflake()');
	$refused = $e // '';
	last if $refused =~ /refuses/;
	Time::HiRes::sleep(0.5);
}
like($refused, qr/gen_nanoflake\(\) refuses: a copy of this server \(its system identifier $old_system, made active after this one\) mints with this server's node id 3/,
	'the former data directory, started again, refuses: the upgraded server is the newer instance');
$old->stop;
$pub->stop;
done_testing();
