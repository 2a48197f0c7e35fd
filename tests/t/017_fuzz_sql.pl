# SQL-level fuzzing of every text input and binary receive function: 120,000
# mutated text inputs (24,000 per type) and 5,000 random binary values per
# type through COPY BINARY. Every rejection must be a proper SQLSTATE from the
# type's documented set, every accepted value must round-trip, and the server
# must stay up (no backend crash: a crash would end the session and the
# postmaster would restart every backend).
# (Was tests/tap/fuzz_sql.sh: 21 checks, the same 21 here.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

my $node = chronoid_node('fuzz');
$node->start;
sub sql { return $node->safe_psql('postgres', $_[0]) }
my $started = sql('SELECT pg_postmaster_start_time()');
sql('CREATE EXTENSION chronoid');
sql(q{
CREATE FUNCTION fuzz_text(t text, typ regtype) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    canonical text;
    again text;
BEGIN
    EXECUTE format('SELECT %L::%s::text', t, typ) INTO canonical;
    EXECUTE format('SELECT %L::%s::text', canonical, typ) INTO again;
    RETURN CASE WHEN again = canonical THEN 'ok' ELSE 'round trip broke: ' || t END;
EXCEPTION WHEN others THEN
    RETURN SQLSTATE;
END $$;

-- Mutations of a valid text: replace, insert or delete a character, cut,
-- change case, double, or a random string.
CREATE FUNCTION mutate(t text) RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT CASE (random() * 8)::int
        WHEN 0 THEN overlay(t PLACING chr(32 + (random() * 95)::int) FROM 1 + (random() * greatest(length(t) - 1, 0))::int FOR 1)
        WHEN 1 THEN overlay(t PLACING chr(32 + (random() * 95)::int) FROM 1 + (random() * length(t))::int FOR 0)
        WHEN 2 THEN overlay(t PLACING '' FROM 1 + (random() * greatest(length(t) - 1, 0))::int FOR 1)
        WHEN 3 THEN left(t, (random() * length(t))::int)
        WHEN 4 THEN upper(t)
        WHEN 5 THEN lower(t)
        WHEN 6 THEN t || left(t, (random() * length(t))::int)
        WHEN 7 THEN left(md5(random()::text) || md5(random()::text), (random() * 48)::int)
        ELSE chr(1 + (random() * 591)::int) || t
    END
$$;

CREATE TABLE fuzz_text_result (typ text, outcome text);
CREATE TABLE fuzz_bin_result (typ text, outcome text);
});

my %SEED = (
	nanoflake => 'SELECT gen_nanoflake()::text',
	scru160 => 'SELECT CASE WHEN random() < 0.5 THEN gen_scru160()::text ELSE scru160_to_hex(gen_scru160()) END',
	codokey => "SELECT codokey(timestamptz '1970-01-01+00' + random() * interval '1000 years', (random() * 6)::int)::text",
	caloriosa => 'SELECT gen_caloriosa()::text',
	uid60 => 'SELECT gen_uid60()::text');
my %STATES = (nanoflake => [ '22P02', '22003' ], scru160 => ['22P02'], codokey => ['22P02'], caloriosa => ['22P02'], uid60 => ['22P02']);
my @TYPES = qw(nanoflake scru160 codokey caloriosa uid60);

for my $typ (@TYPES)
{
	sql("SELECT setseed(0.5); INSERT INTO fuzz_text_result
	     SELECT '$typ', fuzz_text(mutate(mutate(($SEED{$typ}))), '$typ') FROM generate_series(1, 24000)");
	note "$typ text: " . sql("SELECT string_agg(outcome || ':' || n, ' ' ORDER BY outcome) FROM (SELECT outcome, count(*) n FROM fuzz_text_result WHERE typ = '$typ' GROUP BY 1) s");
	my $allowed = join ',', map { "'$_'" } 'ok', @{ $STATES{$typ} };
	is(sql("SELECT count(*) FROM fuzz_text_result WHERE typ = '$typ'"), '24000', "$typ: 24,000 mutated texts went through ${typ}_in");
	is(sql("SELECT count(*) FROM fuzz_text_result WHERE typ = '$typ' AND outcome NOT IN ($allowed)"), '0',
		"$typ: every rejection is one of @{ $STATES{$typ} }, every accepted value round-trips");
}

# Binary receive through COPY BINARY: random 8-byte values for the 8-byte
# types (plus short and long ones), random lengths for scru160 and codokey.
for my $typ (@TYPES)
{
	sql("CREATE TABLE bin_$typ (v $typ)");
	sql(qq{
DO \$\$
DECLARE
    file text := current_setting('data_directory') || '/fuzz_$typ.bin';
    b bytea;
BEGIN
    PERFORM setseed(0.25);
    FOR i IN 1..5000 LOOP
        b := decode(left(md5(random()::text) || md5(random()::text),
                         2 * (CASE WHEN random() < 0.8 THEN CASE '$typ' WHEN 'scru160' THEN 20 WHEN 'codokey' THEN (random() * 14)::int ELSE 8 END
                                   ELSE (random() * 24)::int END)), 'hex');
        IF '$typ' = 'codokey' AND random() < 0.7 THEN
            -- mostly digit values (0..35), so that some are valid keys
            b := decode((SELECT string_agg(lpad(to_hex(floor(random() * 36)::int), 2, '0'), '')
                         FROM generate_series(1, 2 + (random() * 12)::int)), 'hex');
        END IF;
        BEGIN
            EXECUTE format('COPY (SELECT %L::bytea) TO %L (FORMAT binary)', b, file);
            EXECUTE format('COPY bin_$typ FROM %L (FORMAT binary)', file);
            INSERT INTO fuzz_bin_result VALUES ('$typ', 'ok');
        EXCEPTION WHEN others THEN
            INSERT INTO fuzz_bin_result VALUES ('$typ', SQLSTATE);
        END;
    END LOOP;
END \$\$});
	note "$typ binary: " . sql("SELECT string_agg(outcome || ':' || n, ' ' ORDER BY outcome) FROM (SELECT outcome, count(*) n FROM fuzz_bin_result WHERE typ = '$typ' GROUP BY 1) s");
	is(sql("SELECT count(*) FROM fuzz_bin_result WHERE typ = '$typ' AND outcome NOT IN ('ok', '22P03', '08P01')"), '0',
		"$typ: 5,000 random binary values: accepted, or 22P03/08P01");
	# What was accepted is a valid value: it prints and reads back.
	is(sql("SELECT count(*) FROM bin_$typ WHERE v::text::$typ <> v"), '0', "$typ: accepted binary values round-trip through text");
}

is(sql('SELECT pg_postmaster_start_time()'), $started, 'no backend crashed (the postmaster never restarted the cluster)');
$node->stop;
done_testing();
