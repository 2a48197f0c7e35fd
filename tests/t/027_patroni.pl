# chronoid under Patroni and etcd (Debian's patroni 3.0.2 and etcd-server
# 3.4), as operators run automatic failover: one etcd and three Patroni
# members on loopback ports found free, chronoid preloaded and
# chronoid.node_id set through the DCS (bootstrap.dcs), the members'
# postgres under libfaketime (a bin_dir whose postgres is a wrapper), so
# that a replica's clock can run behind. Writers connect as applications
# do, through one multi-host connection string with
# target_session_attrs=read-write (psycopg, which is libpq, and asyncpg),
# and keep every row whose commit was acknowledged, with the port of the
# server that acknowledged it. Scenarios, each with the member that takes
# over 1 s or 5 s behind:
#   1. the leader's machine lost (Patroni and every postgres SIGKILLed):
#      asynchronous, then with synchronous_mode;
#   2. patronictl switchover to the replica that is behind, and back;
#   3. the old leader rejoins through pg_rewind, refuses the counter
#      generators as a replica, and generates above everything once a
#      switchover makes it leader again;
#   4. patronictl reinit of a member: the marks come with the base backup;
#   5. a paused cluster whose leader restarts with its clock behind:
#      refuses (55000) rather than repeats.
# After each: no ID a new leader minted lies at or below one acknowledged
# before (synchronous) or one that reached it (asynchronous).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep time);
use IPC::Run;
use HTTP::Tiny;
use JSON::PP;
use File::Basename qw(dirname);
use Chronoid;

plan skip_all => 'patroni and etcd are not installed (scripts/setup.sh --test installs them)'
  unless -x '/usr/bin/patroni' && -x '/usr/bin/etcd';

my $install = $ENV{CHRONOID_PG_INSTALL};
my $venv = $ENV{CHRONOID_VENV};
my $tmp = PostgreSQL::Test::Utils::tempdir();
my $LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
my $http = HTTP::Tiny->new(timeout => 2);
my $major = (split /\./, (`$install/bin/postgres --version` =~ /(\d+(?:\.\d+)*)/)[0])[0];

# --- etcd ---
my ($etcd_client, $etcd_peer) = (PostgreSQL::Test::Cluster::get_free_port(), PostgreSQL::Test::Cluster::get_free_port());
my $etcd = IPC::Run::start(
	[ '/usr/bin/etcd', '--name', 'e0', '--data-dir', "$tmp/etcd",
	  '--listen-client-urls', "http://127.0.0.1:$etcd_client", '--advertise-client-urls', "http://127.0.0.1:$etcd_client",
	  '--listen-peer-urls', "http://127.0.0.1:$etcd_peer", '--initial-advertise-peer-urls', "http://127.0.0.1:$etcd_peer",
	  '--initial-cluster', "e0=http://127.0.0.1:$etcd_peer" ],
	'>', "$tmp/etcd.log", '2>&1');
wait_for(sub { ($http->get("http://127.0.0.1:$etcd_client/health")->{content} // '') =~ /"health":\s*"true"/ }, 30)
  or BAIL_OUT('etcd did not start: ' . slurp_file("$tmp/etcd.log"));

# --- three members ---
my %m;
for my $name (qw(m1 m2 m3))
{
	my $dir = "$tmp/$name";
	mkdir $dir;
	mkdir "$dir/bin";
	# Every binary of the installation, and a postgres that runs under
	# libfaketime reading this member's clock file.
	for my $bin (glob "$install/bin/*")
	{
		my $base = (split m{/}, $bin)[-1];
		next if $base eq 'postgres';
		symlink $bin, "$dir/bin/$base" or die;
	}
	open my $w, '>', "$dir/bin/postgres" or die;
	print $w "#!/bin/sh\nexport LD_PRELOAD=$LIBFAKETIME FAKETIME_TIMESTAMP_FILE=$dir/clock.offset FAKETIME_NO_CACHE=1 DONT_FAKE_MONOTONIC=1\n"
	  . "exec $install/bin/postgres \"\$@\"\n";
	close $w;
	chmod 0755, "$dir/bin/postgres";
	set_clock("$dir/clock.offset", '+0');
	$m{$name} = { name => $name, dir => $dir, pg => PostgreSQL::Test::Cluster::get_free_port(),
		rest => PostgreSQL::Test::Cluster::get_free_port() };
	write_config($m{$name}, 0);
}

sub write_config
{
	my ($member, $synchronous) = @_;
	my ($name, $dir) = @$member{qw(name dir)};
	open my $y, '>', "$dir/patroni.yml" or die;
	print $y <<"YAML";
scope: chronoid_ha
namespace: /chronoid/
name: $name
log:
  level: INFO
restapi:
  listen: 127.0.0.1:$member->{rest}
  connect_address: 127.0.0.1:$member->{rest}
etcd3:
  hosts: 127.0.0.1:$etcd_client
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 3
    maximum_lag_on_failover: 104857600
    synchronous_mode: false
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        shared_preload_libraries: chronoid
        chronoid.node_id: 7
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 128MB
  initdb:
    - encoding: UTF8
postgresql:
  listen: 127.0.0.1:$member->{pg}
  connect_address: 127.0.0.1:$member->{pg}
  data_dir: $dir/data
  bin_dir: $dir/bin
  pgpass: $dir/pgpass
  authentication:
    replication:
      username: postgres
    superuser:
      username: postgres
    rewind:
      username: postgres
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
  parameters:
    unix_socket_directories: '$dir'
YAML
	close $y;
	return;
}

sub start_member
{
	my ($member) = @_;
	$member->{patroni} = IPC::Run::start([ '/usr/bin/patroni', "$member->{dir}/patroni.yml" ],
		'>>', "$member->{dir}/patroni.log", '2>&1');
	return;
}

sub wait_for
{
	my ($check, $seconds) = @_;
	my $until = time + $seconds;
	while (time < $until)
	{
		my $ok = eval { $check->() };
		return $ok if $ok;
		usleep(200_000);
	}
	return;
}

# The cluster as Patroni's REST API sees it: name => role.
sub roles
{
	for my $member (values %m)
	{
		my $r = $http->get("http://127.0.0.1:$member->{rest}/cluster");
		next unless $r->{success};
		my $c = decode_json($r->{content});
		return { map { $_->{name} => "$_->{role}/$_->{state}" } @{ $c->{members} } };
	}
	return {};
}

sub leader
{
	my $roles = roles();
	my @l = grep { $roles->{$_} =~ m{^leader/running} } keys %$roles;
	return @l == 1 ? $m{ $l[0] } : undef;
}

sub wait_for_roles
{
	my ($want, $seconds) = @_;
	return wait_for(sub {
		my $roles = roles();
		my $ok = 1;
		for my $name (keys %$want)
		{
			$ok = 0 unless ($roles->{$name} // '') =~ $want->{$name};
		}
		$ok;
	}, $seconds // 90);
}

sub psql
{
	my ($member, $sql, %opts) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ "$install/bin/psql", '-XAtq', '-v', 'VERBOSITY=verbose', '-v', 'ON_ERROR_STOP=1',
		'-d', "host=127.0.0.1 port=$member->{pg} user=postgres dbname=postgres", '-c', $sql ],
		'>', \$out, '2>', \$err);
	chomp $out;
	return wantarray ? ($out, $err) : $out;
}

sub patronictl
{
	my @args = @_;
	my ($out, $err) = ('', '');
	my ($command, @rest) = @args;
	IPC::Run::run([ '/usr/bin/patronictl', '-c', "$m{m1}{dir}/patroni.yml", $command, 'chronoid_ha', @rest ],
		'>', \$out, '2>', \$err);
	return "$out$err";
}

sub member_processes
{
	my ($member) = @_;
	my @pids;
	push @pids, $member->{patroni}{KIDS}[0]{PID} if $member->{patroni};
	if (open my $fh, '<', "$member->{dir}/data/postmaster.pid")
	{
		my $pm = <$fh>;
		chomp $pm;
		push @pids, $pm if $pm;
		for my $stat (glob '/proc/[0-9]*/stat')
		{
			open my $s, '<', $stat or next;
			my $line = <$s> // next;
			push @pids, $1 if $line =~ /^(\d+) \(.*\) \S (\d+)/ && $2 == $pm;
		}
	}
	return grep { kill 0, $_ } @pids;
}

# The machine lost: Patroni and every postgres process at once.
sub kill_member
{
	my ($member) = @_;
	my @pids = member_processes($member);
	kill 'KILL', @pids;
	# Patroni is this test's child: reap it; its postgres processes, now
	# orphans, are reaped by PID 1.
	if (my $h = delete $member->{patroni})
	{
		my $patroni = $h->{KIDS}[0]{PID};
		eval { $h->kill_kill(grace => 0) };
		@pids = grep { $_ != $patroni } @pids;
	}
	wait_until_gone(10, @pids);
	return;
}

# --- bootstrap ---
start_member($m{$_}) for qw(m1 m2 m3);
ok(wait_for(sub { leader() }, 120), 'Patroni elected a leader');
ok(wait_for_roles({ map { $_ => qr{^(leader|replica|sync_standby)/(running|streaming)} } qw(m1 m2 m3) }, 120),
	'the three members run') or diag(explain(roles()));
my $leader = leader();
psql($leader, q{CREATE EXTENSION chronoid;
	CREATE TABLE t (srv int DEFAULT inet_server_port(), nf nanoflake DEFAULT gen_nanoflake(),
	                u uid60 DEFAULT gen_uid60(), c caloriosa DEFAULT gen_caloriosa())});
is(psql($leader, 'SHOW chronoid.node_id'), '7', 'chronoid.node_id comes from the DCS');
my ($replica) = grep { $_ != $leader } values %m;
wait_for(sub { psql($replica, "SELECT count(*) FROM pg_extension WHERE extname = 'chronoid'") eq '1' }, 30);
my ($out, $err) = psql($replica, 'SELECT gen_nanoflake()');
like($err, qr/ERROR:  25006: cannot execute gen_nanoflake\(\) during recovery/, 'a replica refuses gen_nanoflake() (25006)');
like(psql($replica, 'SELECT gen_scru160()'), qr/^\w{32}$/, 'a replica serves gen_scru160()');

# --- writers ---
my $ports = join ',', map { $m{$_}{pg} } qw(m1 m2 m3);
my $libpq_dsn = 'host=' . join(',', ('127.0.0.1') x 3) . " port=$ports user=postgres dbname=postgres target_session_attrs=read-write";
my $asyncpg_dsn = 'postgresql://postgres@' . join(',', map { "127.0.0.1:$m{$_}{pg}" } qw(m1 m2 m3))
  . '/postgres?target_session_attrs=read-write';
my $round = 0;
my @writers;
sub start_writers
{
	$round++;
	unlink "$tmp/stop";
	@writers = ();
	for my $w ([ 'psycopg', $libpq_dsn ], [ 'asyncpg', $asyncpg_dsn ])
	{
		my ($driver, $dsn) = @$w;
		my $file = "$tmp/writer.$round.$driver";
		push @writers, { file => $file, driver => $driver,
			h => IPC::Run::start([ "$venv/bin/python", dirname(__FILE__) . '/ha_writer.py', $driver, $dsn, $file, "$tmp/stop" ],
				'>', "$file.out", '2>&1') };
	}
	sleep 2;
	return;
}

# Waits until every writer has had a commit acknowledged by the server on
# $port (a new leader whose clock is behind refuses until it passes the
# replayed marks).
sub wait_for_writes_to
{
	my ($port, $seconds) = @_;
	return wait_for(sub {
		my $all = 1;
		for my $w (@writers)
		{
			my $text = -e $w->{file} ? slurp_file($w->{file}) : '';
			$all = 0 unless $text =~ /^$port\|/m;
		}
		$all;
	}, $seconds);
}

# Stops the writers; returns their acknowledged rows ([port, nf, u, c] in
# order, per writer) and their spells without a leader.
sub stop_writers
{
	open my $s, '>', "$tmp/stop" or die;
	close $s;
	my (@rows, @outages);
	for my $w (@writers)
	{
		$w->{h}->finish;
		open my $in, '<', $w->{file} or die "$w->{file}: $!";
		while (my $line = <$in>)
		{
			chomp $line;
			if ($line =~ /^outage ([\d.]+)$/) { push @outages, $1; next }
			push @rows, [ split /\|/, $line ];
		}
	}
	return (\@rows, \@outages);
}

# Loads the acknowledged rows into $on's table `acked` and checks, per
# generator, that no ID the server on port $new acknowledged (minted after
# the change) lies at or below one acknowledged by another server
# (synchronous: every acknowledged one; else those that reached $on).
sub check_no_repeat
{
	my ($what, $on, $new_port, $rows, $synchronous) = @_;
	open my $f, '>', "$tmp/acked.$round" or die;
	print $f join("\t", @$_) . "\n" for @$rows;
	close $f;
	psql($on, "DROP TABLE IF EXISTS acked; CREATE TABLE acked (srv int, nf nanoflake, u uid60, c caloriosa);
		COPY acked FROM '$tmp/acked.$round'");
	my $before = $synchronous ? "(SELECT * FROM acked WHERE srv <> $new_port)" : "(SELECT * FROM t WHERE srv <> $new_port)";
	my $checked = 0;
	for my $g ([ 'nf', 'nanoflake' ], [ 'u', 'uid60' ], [ 'c', 'caloriosa' ])
	{
		my ($col, $type) = @$g;
		my ($n_after, $n_before, $bad) = split /\|/, psql($on, qq{
			SELECT (SELECT count(*) FROM acked WHERE srv = $new_port),
			       (SELECT count(*) FROM $before b),
			       (SELECT count(*) FROM acked a WHERE srv = $new_port AND ${type}_timestamp(a.$col) <=
			           (SELECT max(${type}_timestamp(b.$col)) FROM $before b))});
		is($bad, 0, "$what: no $type of the $n_after minted after lies at or below one of the $n_before "
			  . ($synchronous ? 'acknowledged' : 'that reached the new leader') . ' before');
		$checked += $n_after + $n_before;
	}
	my $dups = psql($on, 'SELECT count(*) - count(DISTINCT nf) FROM (SELECT nf FROM t UNION ALL SELECT nf FROM acked WHERE srv NOT IN (SELECT DISTINCT srv FROM t)) s');
	is($dups, 0, "$what: no nanoflake twice in the new leader's table");
	return $checked;
}

my %report;
sub outage_note
{
	my ($what, $outages) = @_;
	my $max = 0;
	$_ > $max and $max = $_ for @$outages;
	$report{$what} = $max;
	note sprintf('%s: writers without a leader for at most %.1f s', $what, $max);
	return;
}

# --- 1. the leader's machine lost ---
my $rejoined;
for my $case ([ 'async', 0, '-1' ], [ 'sync', 1, '-5' ])
{
	my ($mode, $synchronous, $offset) = @$case;
	patronictl('edit-config', '--force', '--set', 'synchronous_mode=' . ($synchronous ? 'true' : 'false'));
	wait_for(sub { my $c = decode_json($http->get("http://127.0.0.1:$m{m1}{rest}/config")->{content});
		($c->{synchronous_mode} ? 1 : 0) == $synchronous }, 30);
	if ($synchronous)
	{
		ok(wait_for(sub { grep { m{^sync_standby/} } values %{ roles() } }, 60), 'synchronous_mode: a synchronous standby is chosen');
	}
	my $old = leader();
	# Both replicas behind: whichever Patroni promotes runs behind.
	set_clock("$_->{dir}/clock.offset", $offset) for grep { $_ != $old } values %m;
	start_writers();
	sleep 3;
	kill_member($old);
	my $new = wait_for(sub { my $l = leader(); $l && $l != $old ? $l : undef }, 60);
	ok($new, "1 ($mode, $offset s): a replica took over after the leader's machine was lost");
	wait_for_writes_to($new->{pg}, 30);
	sleep 2;
	my ($rows, $outages) = stop_writers();
	outage_note("1 $mode", $outages);
	my $n = check_no_repeat("1 ($mode, $offset s)", $new, $new->{pg}, $rows, $synchronous);
	$report{"1 $mode ids"} = $n;
	set_clock("$_->{dir}/clock.offset", '+0') for values %m;
	# --- 3. the old leader rejoins through pg_rewind ---
	start_member($old);
	ok(wait_for_roles({ $old->{name} => qr{^(replica|sync_standby)/(running|streaming)} }, 120),
		"3 ($mode): the old leader rejoins as a replica") or diag(explain(roles()));
	($out, $err) = psql($old, 'SELECT gen_uid60()');
	like($err, qr/ERROR:  25006/, "3 ($mode): the rejoined member refuses gen_uid60() (25006)");
	my $lead_mark = psql($new, "SELECT high_water_mark FROM chronoid_generators WHERE generator = 'nanoflake'");
	wait_for(sub { psql($old, "SELECT high_water_mark >= '$lead_mark' FROM chronoid_generators WHERE generator = 'nanoflake'") eq 't' }, 30);
	is(psql($old, "SELECT high_water_mark >= '$lead_mark' FROM chronoid_generators WHERE generator = 'nanoflake'"), 't',
		"3 ($mode): its replayed marks are the new timeline's");
	my $file = slurp_file("$old->{dir}/data/chronoid.marks");
	like($file, qr/^nanoflake (\d+)$/m, "3 ($mode): its chronoid.marks is there");
	$rejoined = $old;
}
patronictl('edit-config', '--force', '--set', 'synchronous_mode=false');

# --- 2. switchover to the replica that is behind (1 s, then 5 s), and
# back; 3, continued: the member that was lost and rejoined takes over ---
for my $offset ('-1', '-5')
{
	my $old = leader();
	my $behind = $rejoined;
	set_clock("$behind->{dir}/clock.offset", $offset);
	start_writers();
	sleep 2;
	my $said = patronictl('switchover', '--force', '--leader', $old->{name}, '--candidate', $behind->{name});
	ok(wait_for(sub { my $l = leader(); $l && $l == $behind }, 60),
		"2: switchover to $behind->{name}, $offset s behind (the member lost in 1, rejoined in 3)") or diag($said);
	ok(wait_for_writes_to($behind->{pg}, 30), "2 ($offset s): the writers write to it once its clock passes the replayed marks");
	sleep 2;
	my ($rows, $outages) = stop_writers();
	outage_note("2 switchover $offset s", $outages);
	$report{"2 switchover $offset s ids"} = check_no_repeat("2 and 3 (switchover to the rejoined member, $offset s behind)",
		$behind, $behind->{pg}, $rows, 0);
	set_clock("$behind->{dir}/clock.offset", '+0');
	start_writers();
	sleep 2;
	$said = patronictl('switchover', '--force', '--leader', $behind->{name}, '--candidate', $old->{name});
	ok(wait_for(sub { my $l = leader(); $l && $l == $old }, 60), "2 ($offset s): and back") or diag($said);
	wait_for_writes_to($old->{pg}, 30);
	sleep 2;
	($rows, $outages) = stop_writers();
	outage_note("2 switchback $offset s", $outages);
	$report{"2 switchback $offset s ids"} = check_no_repeat("2 (switchback, $offset s)", $old, $old->{pg}, $rows, 0);
}

# --- 4. patronictl reinit of a member ---
{
	my $l = leader();
	my ($r) = grep { $_ != $l } values %m;
	psql($l, 'INSERT INTO t DEFAULT VALUES');
	my $mark = psql($l, "SELECT high_water_mark FROM chronoid_generators WHERE generator = 'nanoflake'");
	my $said = patronictl('reinit', $r->{name}, '--force', '--wait');
	ok(wait_for_roles({ $r->{name} => qr{^(replica|sync_standby)/(running|streaming)} }, 120), "4: $r->{name} reinitialized")
	  or diag($said);
	like(slurp_file("$r->{dir}/data/chronoid.marks"), qr/^nanoflake \d+$/m, '4: the base backup brought chronoid.marks');
	is(psql($r, "SELECT high_water_mark >= '$mark' FROM chronoid_generators WHERE generator = 'nanoflake'"), 't',
		'4: the reinitialized member resumes above the leader\'s marks');
}

# --- 5. a paused cluster: the leader restarted with its clock behind ---
{
	my $l = leader();
	psql($l, 'INSERT INTO t SELECT FROM generate_series(1, 1000)');
	my $max = psql($l, 'SELECT max(nanoflake_timestamp(nf)) FROM t');
	patronictl('pause', '--wait');
	set_clock("$l->{dir}/clock.offset", '-30');
	my $said = patronictl('restart', $l->{name}, '--force');
	wait_for(sub { psql($l, 'SELECT pg_postmaster_start_time() > now() - interval \'2 min\'') eq 't' }, 60) or diag($said);
	($out, $err) = psql($l, 'SELECT gen_nanoflake()');
	like($err, qr/ERROR:  55000: system clock is \d+ ms behind/, '5: paused, the leader restarted 30 s behind refuses (55000)');
	set_clock("$l->{dir}/clock.offset", '+0');
	ok(wait_for(sub { psql($l, 'SELECT nanoflake_timestamp(gen_nanoflake())') gt $max }, 30),
		'5: with its clock back, it generates above everything');
	patronictl('resume', '--wait');
}

note "per scenario: $_ = $report{$_}" for sort keys %report;
kill_member($_) for values %m;
$etcd->kill_kill;
done_testing();
