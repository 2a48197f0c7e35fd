# chronoid taken out of shared_preload_libraries while its WAL records still
# need replay (after a crash): the server must not start, and must say which
# library to put back. Put back, it starts, replays the marks and generates
# above them. After a clean stop (nothing to replay) it starts without
# chronoid, and the generators say they need the library. A marks file that
# is not one stops the server with a message naming the file.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $node = chronoid_node('preload');
$node->start;
$node->safe_psql('postgres',
	'CREATE EXTENSION chronoid; CREATE TABLE t AS SELECT gen_nanoflake() AS nf FROM generate_series(1, 1000)');
crash_cluster($node);

$node->append_conf('postgresql.conf', "shared_preload_libraries = ''\n");
my $log_at = -s $node->logfile;
ok(!$node->start(fail_ok => 1), 'crashed, then started without chronoid: the server refuses to start');
ok($node->log_contains(qr/resource manager with ID 207 not registered/, $log_at),
	'the log names the missing resource manager (chronoid, 207)');
ok($node->log_contains(qr/Include the extension module that implements this resource manager in "?shared_preload_libraries/, $log_at),
	'the log says to put the library back in shared_preload_libraries');

$node->append_conf('postgresql.conf', "shared_preload_libraries = 'chronoid'\n");
$log_at = -s $node->logfile;
$node->start;
ok($node->log_contains(qr/chronoid: after WAL replay, gen_nanoflake\(\) resumes above its high-water mark/, $log_at),
	'put back: the server replays the marks');
is($node->safe_psql('postgres',
		'SELECT count(*) FROM t WHERE nanoflake_timestamp(nf) >= nanoflake_timestamp(gen_nanoflake())'),
	0, 'and generates above every ID issued before the crash');

# A clean stop leaves nothing to replay: the server starts without chronoid,
# and the generators ask for it.
$node->stop('fast');
$node->append_conf('postgresql.conf', "shared_preload_libraries = ''\n");
$node->start;
my ($ret, $out, $err) = $node->psql('postgres', 'SELECT gen_nanoflake()');
like($err, qr/gen_nanoflake\(\) requires chronoid to be loaded via shared_preload_libraries/,
	'after a clean stop the server starts without chronoid; the generators ask for the library');
$node->stop('fast');

# A damaged marks file: refuse to start rather than forget the marks.
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'chronoid'\n");
my $marks = $node->data_dir . '/chronoid.marks';
ok(-f $marks, 'the data directory holds chronoid.marks');
my $saved = slurp_file($marks);
like($saved, qr/\Achronoid high-water marks 2\nnanoflake \d+\ncaloriosa \d+\nuid60 \d+\nepoch nanoflake -?\d+\nepoch caloriosa -?\d+\nepoch uid60 -?\d+\nchecksum [0-9a-f]{8}\n\z/,
	'chronoid.marks holds one line per generator, the epochs they were made under and a checksum');
open my $fh, '>', $marks or die;
print $fh "chronoid high-water marks 1\nnanoflake 12x\n";
close $fh;
$log_at = -s $node->logfile;
ok(!$node->start(fail_ok => 1), 'a damaged chronoid.marks: the server refuses to start');
ok($node->log_contains(qr/FATAL:  file "chronoid.marks" is not a chronoid marks file: "12x" is not a number of milliseconds/, $log_at),
	'and the log names the file and what is wrong with it');
open $fh, '>', $marks or die;
print $fh $saved;
close $fh;
$node->start;
is($node->safe_psql('postgres', 'SELECT count(*) FROM t WHERE nf >= gen_nanoflake()'),
	0, 'restored: the server starts and generates above the marks');
$node->stop;

done_testing();
