# Text that is not valid UTF-8 reaches chronoid's functions in SQL_ASCII and
# LATIN1 databases: every text argument and every input function answers
# 22P02 (or PostgreSQL's own 22021), echoing the bad bytes readably, never
# an internal error (XX000) or a crash; valid input works in every encoding;
# on PostgreSQL 16+ the soft errors of pg_input_error_info say the same.
# (Was tests/tap/encodings.sh: 32 checks, the same 32 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $node = chronoid_node('encodings');
$node->start;

my @bad = (
	q{SELECT codokey(E'y\xffj', 1970, 3265, 9)},
	q{SELECT codokey(convert_from('\xe9'::bytea, 'LATIN1'), 1970, 3265, 9)},
	q{SELECT codokey(convert_from('\x79c3a9'::bytea, 'UTF8'), 1970, 3265, 9)},
	q{SELECT E'yj\xff'::codokey}, q{SELECT E'\xe9'::nanoflake}, q{SELECT E'\xe9\xe9'::scru160},
	q{SELECT E'\xff'::caloriosa}, q{SELECT E'\xff'::uid60},
	q{SELECT convert_from('\xe9'::bytea, 'LATIN1')::codokey});
for my $enc (qw(SQL_ASCII LATIN1 UTF8))
{
	my $db = 'chronoid_enc_' . lc $enc;
	$node->safe_psql('postgres',
		"CREATE DATABASE $db ENCODING '$enc' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
	$node->safe_psql($db, 'CREATE EXTENSION chronoid');
	for my $q (@bad)
	{
		my ($ret, $out, $err) = $node->psql($db, $q, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		my ($state) = $err =~ /ERROR:  ([0-9A-Z]{5}): /;
		$state //= '';
		ok($state eq '22P02' || $state eq '22021', "$enc: $q -> $state (want 22P02 or 22021)");
	}
	is($node->safe_psql($db,
			"SELECT codokey('YJBU', 1970, 3265, 9), 'yjbu'::codokey, '1'::nanoflake, codokey(date '2022-01-01', 0)"),
		'yjbu|yjbu|1|yj', "$enc: valid text works");

	# PostgreSQL 16+: the input functions' soft errors for the same bytes
	# carry the raised SQLSTATE and message (where the text reaches them:
	# bytes invalid in the database's encoding are refused before, 22021).
	next if $node->pg_version < 16;
	for my $case (["E'yj\\xff'", 'codokey'], ["E'\\xe9'", 'nanoflake'], ["E'\\xe9\\xe9'", 'scru160'],
		["E'\\xff'", 'caloriosa'], ["E'\\xff'", 'uid60'])
	{
		my ($literal, $type) = @$case;
		my ($r, $raised, $raised_err) = $node->psql($db, "SELECT ${literal}::$type",
			extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		my ($state, $message) = $raised_err =~ /ERROR:  ([0-9A-Z]{5}): (.*)/;
		next if !defined $state || $state eq '22021';
		my $soft = $node->safe_psql($db,
			"SELECT pg_input_is_valid($literal, '$type'), e.sql_error_code, e.message FROM pg_input_error_info($literal, '$type') e");
		is($soft, "f|$state|$message", "$enc: pg_input_error_info($literal, $type) is the raised $state");
	}
}
# The message shows the bad byte as \xNN where the database is not UTF8.
my ($ret, $out, $err) = $node->psql('chronoid_enc_sql_ascii', q{SELECT codokey(E'y\xffj', 1970, 3265, 9)});
is((split /\n/, $err)[0], 'psql:<stdin>:1: ERROR:  invalid input syntax for type codokey: "y\xffj"',
	'SQL_ASCII: the message escapes the byte');
($ret, $out, $err) = $node->psql('chronoid_enc_utf8', q{SELECT 'yjé'::codokey});
is((split /\n/, $err)[0], 'psql:<stdin>:1: ERROR:  invalid input syntax for type codokey: "yjé"',
	'UTF8: the message shows the text as typed');

$node->stop;
done_testing();
