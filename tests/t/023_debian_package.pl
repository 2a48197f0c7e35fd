# needs: debs
# The Debian packages (scripts/deb.sh, `make deb`) of the major under test:
# lintian finds no error in them; each holds only PGDG's directories and
# depends on postgresql-NN. Then dpkg installs them into a private root
# (--instdir/--admindir, with a copy of the machine's dpkg status that also
# lists postgresql-NN, so dpkg's own dependency and replacement logic runs)
# that holds a copy of PostgreSQL NN in Debian's layout
# (/usr/lib/postgresql/NN, /usr/share/postgresql/NN): `dpkg -i` of the
# previous version's package gives a server that creates the extension at
# that version; `dpkg -i` of this version's upgrades it under the running
# server (which keeps working), ALTER EXTENSION UPDATE keeps every value,
# and the pg_regress suite passes on a fresh cluster against the packaged
# files; `dpkg -r` leaves none of them behind. Nothing outside this file's
# scratch directory is touched: not the system's PostgreSQL, not its dpkg
# database. (dpkg runs as postgres under fakeroot, which lets it set the
# packaged files' owner without being root.)
# (Was tests/tap/debian_package.sh: 29 checks, the same 29 here.)
use strict;
use warnings;
use Chronoid;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

my $debs = $ENV{CHRONOID_DEBS} or BAIL_OUT('CHRONOID_DEBS: run through scripts/prove.sh');
my $tree = $ENV{CHRONOID_TREE};
my $install = $ENV{CHRONOID_PG_INSTALL};
my $version = $ENV{CHRONOID_VERSION};
chomp(my $major = `$install/bin/pg_config --version`);
$major =~ s/^PostgreSQL (\d+).*/$1/;
my $pkg = "postgresql-$major-chronoid";
my ($libdir, $extdir) = ("/usr/lib/postgresql/$major/lib", "/usr/share/postgresql/$major/extension");
my $out = PostgreSQL::Test::Utils::tempdir();

# The output of a shell command (its exit status is the caller's to check).
sub sh { my $o = `$_[0]`; chomp $o; return $o; }
# One check: COMMAND succeeds; its last lines are the diagnostics if not.
sub run_ok
{
	my ($name, @cmd) = @_;
	my $o = '';
	my $ok = IPC::Run::run(\@cmd, '>&', \$o);
	my @lines = split /\n/, $o;
	splice(@lines, 0, @lines - 5) if @lines > 5;
	ok($ok, $name) or diag(join("\n", @lines));
	return $ok;
}

my $previous = (sort { versioncmp($a, $b) } map { m{chronoid--([0-9.]+)\.sql$} ? $1 : () } glob("$tree/sql/versions/chronoid--*.sql"))[-1];
my $arch = sh('dpkg --print-architecture');
my $old = "$debs/${pkg}_${previous}_$arch.deb";
my $new = "$debs/${pkg}_${version}_$arch.deb";
ok(-f $new, "make deb names the package ${pkg}_<version>_<arch>.deb") or diag(sh("ls $debs"));
ok(-f $old, "the previous version's package: ${pkg}_${previous}_$arch.deb") or diag(sh("ls $debs"));

my $allowed = qr{^/(usr/|usr/lib/|usr/lib/postgresql/|usr/lib/postgresql/$major/|usr/lib/postgresql/$major/lib/(chronoid\.so)?|usr/share/|usr/share/postgresql/|usr/share/postgresql/$major/|usr/share/postgresql/$major/extension/(chronoid(\.control|--[0-9.]+(--[0-9.]+)?\.sql))?|usr/share/doc/|usr/share/doc/$pkg/(copyright|changelog\.gz)?)?$};
for my $deb ($old, $new)
{
	my $name = $deb =~ s{.*/}{}r;
	my $lintian = '';
	my $clean = IPC::Run::run([ 'lintian', '--fail-on', 'error', '--tag-display-limit', '0', $deb ], '>&', \$lintian);
	ok($clean, "lintian: no errors in $name");
	note("lintian: $_") for split /\n/, $lintian;
	my @outside = grep { !/$allowed/ } map { s{^\./}{/}r } split /\n/, sh("dpkg-deb --fsys-tarfile '$deb' | tar -t");
	is(join(' ', @outside), '', "$name: nothing outside $libdir, $extdir and its doc directory");
	is(scalar(grep { $_ eq "postgresql-$major" } map { s/^\s+|\s+$//gr } split /,/, sh("dpkg-deb -f '$deb' Depends")),
		1, "$name depends on postgresql-$major");
	is(sh("dpkg-deb -f '$deb' Package"), $pkg, "$name: Package is $pkg");
}
is(sh("dpkg-deb --fsys-tarfile '$old' | tar -xO .$extdir/chronoid.control | grep default_version"),
	"default_version = '$previous'", "the previous package's control file says $previous");
is(sh("dpkg-deb --fsys-tarfile '$old' | tar -t | grep -e '--$version\\.sql' || true"), '',
	"the previous package has no script of $version");

# The private root: PostgreSQL NN of the installation under test, copied
# into Debian's layout without any chronoid file (the relocatable build
# finds its share directory beside its bin, so share is a link to where
# Debian keeps it), and a dpkg database copied from the machine's.
my $root = "$out/root";
system('sh', '-ec', <<"SH") == 0 or BAIL_OUT('the private root');
mkdir -p '$root/usr/lib/postgresql' '$root/usr/share/postgresql' '$root/var/lib/dpkg/info' '$root/var/lib/dpkg/updates'
cp -a '$install' '$root/usr/lib/postgresql/$major'
mv '$root/usr/lib/postgresql/$major/share' '$root/usr/share/postgresql/$major'
ln -s '../../../share/postgresql/$major' '$root/usr/lib/postgresql/$major/share'
rm -f '$root$libdir/chronoid.so' '$root$extdir'/chronoid*
cp /var/lib/dpkg/status '$root/var/lib/dpkg/status'
: >'$root/var/lib/dpkg/available'
SH
if (sh("dpkg-query --admindir='$root/var/lib/dpkg' -W -f='\${db:Status-Status}' postgresql-$major 2>/dev/null") ne 'installed')
{
	# The copied server is postgresql-NN as far as this root is concerned.
	my $pg_version = (split ' ', sh("$install/bin/pg_config --version"))[1];
	open my $status, '>>', "$root/var/lib/dpkg/status" or die $!;
	print $status "\nPackage: postgresql-$major\nStatus: install ok installed\nPriority: optional\n"
	  . "Section: database\nMaintainer: chronoid tests <tests\@chronoid.invalid>\nArchitecture: $arch\n"
	  . "Version: $pg_version\nDescription: PostgreSQL $major (the copy in this test root)\n";
	close $status;
}
my @dpkg = ('fakeroot', 'dpkg', "--instdir=$root", "--admindir=$root/var/lib/dpkg", '--force-not-root');
# "installed VERSION", or "not-installed" (also when dpkg never heard of it).
sub installed
{
	my $s = sh("dpkg-query --admindir='$root/var/lib/dpkg' -W -f='\${db:Status-Status} \${Version}' $pkg 2>/dev/null");
	return ($s eq '' || $s =~ /^not-installed/) ? 'not-installed' : $s;
}
my $server = "$root/usr/lib/postgresql/$major";
is(sh("$server/bin/pg_config --pkglibdir") . '|' . sh("$server/bin/pg_config --sharedir"),
	"$root$libdir|$server/share",
	"the root's PostgreSQL $major reads its modules from $libdir and extensions from /usr/share/postgresql/$major");

run_ok("dpkg -i " . ($old =~ s{.*/}{}r), @dpkg, '-i', $old);
is(installed(), "installed $previous", "dpkg knows $pkg $previous as installed");
my $node = chronoid_node('packaged', install_path => $server);
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION chronoid');
is($node->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'chronoid'"), $previous,
	"CREATE EXTENSION chronoid gives $previous from the package");
$node->safe_psql('postgres', q{
	CREATE TABLE kept (n int PRIMARY KEY, nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60);
	INSERT INTO kept SELECT g, gen_nanoflake(), gen_scru160(), codokey(now() - g * interval '1 hour', g % 7),
		gen_caloriosa(), gen_uid60() FROM generate_series(1, 2000) g;
	CREATE INDEX ON kept (nf); CREATE INDEX ON kept (s); CREATE INDEX ON kept (ck)});
my $fingerprint = q{SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u), ',' ORDER BY n)) FROM kept};
my $before = $node->safe_psql('postgres', $fingerprint);

# A session that has the library loaded stays open across the upgrade.
my $session = $node->background_psql('postgres');
is($session->query_safe('SELECT count(gen_scru160()) FROM generate_series(1, 10)'), '10',
	'an open session generates before the upgrade');
run_ok("dpkg -i " . ($new =~ s{.*/}{}r) . " upgrades the package while the server runs", @dpkg, '-i', $new);
is(installed(), "installed $version", "dpkg knows $pkg $version as installed");
is($session->query_safe('SELECT count(gen_scru160()) FROM generate_series(1, 10)'), '10',
	'the open session still generates after the upgrade');
$session->quit;
unlike(slurp_file($node->logfile), qr/terminated by signal/, 'no backend died of a signal');

$node->safe_psql('postgres', 'ALTER EXTENSION chronoid UPDATE');
is($node->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'chronoid'"), $version,
	"ALTER EXTENSION chronoid UPDATE goes to $version with the packaged scripts");
is($node->safe_psql('postgres', $fingerprint), $before, 'every value is kept across the upgrade');
is($node->safe_psql('postgres', 'SET enable_seqscan = off; SELECT count(*) FROM kept WHERE nf >= (SELECT nf FROM kept WHERE n = 1000)::bigint'),
	$node->safe_psql('postgres', 'SELECT count(*) FROM kept WHERE nf >= (SELECT nf FROM kept WHERE n = 1000)'),
	"${version}'s comparisons with bigint work on the upgraded database");
$node->stop;

# The regress suite on a fresh cluster that has only the packaged files.
my $fresh = chronoid_node('packaged_fresh', install_path => $server);
$fresh->start;
my $regress_out = "$out/regress";
mkdir $regress_out;
my $pg_regress = sh("dirname \$($server/bin/pg_config --pgxs)") . '/../test/regress/pg_regress';
my $log = '';
local $ENV{CHRONOID_VECTORS} = "$tree/tests/vectors";
my $passed = IPC::Run::run(
	[ $pg_regress, "--bindir=$server/bin", "--inputdir=$tree/tests/regress", "--outputdir=$regress_out",
	  '--host=' . $fresh->host, '--port=' . $fresh->port, '--dbname=chronoid_regress',
	  "--schedule=$tree/tests/regress/schedule" ], '>&', \$log);
my ($count) = $log =~ /(\d+ tests passed)/;
ok($passed, 'pg_regress passes against the packaged files (' . ($count // 'no count') . ')')
  or diag($log . (-f "$regress_out/regression.diffs" ? slurp_file("$regress_out/regression.diffs") : ''));
$fresh->stop;

my @files = grep { -f "$root$_" } split /\n/, sh("dpkg-query --admindir='$root/var/lib/dpkg' -L $pkg");
run_ok("dpkg -r $pkg", @dpkg, '-r', $pkg);
is(installed(), 'not-installed', "dpkg no longer knows $pkg as installed");
is(join(' ', grep { -e "$root$_" } @files), '', 'dpkg -r leaves none of the package\'s ' . scalar(@files) . ' files behind');
is(join(' ', grep { -e } ("$root/usr/share/doc/$pkg", "$root$libdir/chronoid.so", glob("$root$extdir/chronoid*"))), '',
	'no chronoid file and no doc directory remain');
done_testing();

# Version strings compared as dpkg and sort -V order them (numeric parts).
sub versioncmp
{
	my @a = split /\./, $_[0];
	my @b = split /\./, $_[1];
	while (@a || @b)
	{
		my $c = (shift(@a) // 0) <=> (shift(@b) // 0);
		return $c if $c;
	}
	return 0;
}
