# A Citus formation for chronoid's TAP tests: a coordinator and workers of
# the major under test, each a Chronoid::chronoid_node with Citus preloaded
# before chronoid, Citus and chronoid created in database postgres, the
# coordinator registered (citus_set_coordinator_host) and every worker added
# (citus_add_node), which in Citus 14 also syncs the metadata to it, so that
# any node can coordinate the queries it receives.
#
#   my $f = citus_formation(name => 'f', workers => 2,
#       conf  => { all => "...", coordinator => "...", worker2 => "..." },
#       clock => [ 'worker2' ],    # started under libfaketime
#       shard_count => 4);
#   $f->{coordinator}, @{ $f->{workers} }, $f->{clock}{worker2} (for set_clock)
#   my $w3 = add_worker($f, 'worker3', conf => "...", clock => 1);
#   restart_node($f, $w3);          # under its clock again, if it has one
#
# Citus must come first in shared_preload_libraries ("Citus has to be
# loaded first" if another library set a planner, executor or utility hook
# before it). Citus itself comes from scripts/citus.sh
# (`# needs: citus`), and supports PostgreSQL 16 to 18 only.
package CitusFormation;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Chronoid;

our @EXPORT = qw(citus_formation add_worker restart_node formation_nodes
  group_id citus_or_skip repeated_ids);

# Skips the test file on a major Citus 14 does not support (15), and fails
# it where Citus should be installed and is not: prove.sh's `needs: citus`
# builds and installs it, or fails saying why.
sub citus_or_skip
{
	my $install = $ENV{CHRONOID_PG_INSTALL};
	chomp(my $major = `$install/bin/pg_config --version`);
	$major =~ s/^PostgreSQL (\d+).*/$1/;
	plan skip_all => "Citus 14 supports PostgreSQL 16 to 18; this is $major" if $major < 16;
	return if -f "$install/lib/citus.so";
	fail("Citus is installed in $install (scripts/citus.sh, for `needs: citus`)");
	done_testing();
	exit;
}

# The IDs two nodes minted into their tables `minted` (the rows each
# minted itself): how many both minted, and how many each minted.
sub repeated_ids
{
	my ($a, $b) = map { minted_ids($_, q{by = current_setting('cluster_name')}) } @_;
	return (scalar(grep { $a->{$_} } keys %$b), scalar(keys %$a), scalar(keys %$b));
}

# What every node of a formation has in postgresql.conf. The nodes reach
# each other over TCP on 127.0.0.1 (Cluster.pm's nodes listen on a Unix
# socket only); each query may open a connection per shard on each worker,
# and the test runs a dozen writers at once, hence max_connections and a
# small executor pool.
my $CONF = <<'EOC';
shared_preload_libraries = 'citus,chronoid'
listen_addresses = '127.0.0.1'
max_connections = 200
shared_buffers = '64MB'
citus.enable_statistics_collection = off
citus.local_hostname = '127.0.0.1'
citus.node_conninfo = 'sslmode=disable'
citus.max_adaptive_executor_pool_size = 2
log_statement = 'ddl'
EOC

# A node of the formation, made and started (under libfaketime when
# $clock); its clock file goes into $f->{clock}{$role}.
sub _start_node
{
	my ($f, $role, $conf, $clock) = @_;
	# Walsenders allowed (logical): Citus moves shards by logical
	# replication, and a node's copies stream from it.
	my $node = chronoid_node("$f->{name}_$role", allows_streaming => 'logical');
	$node->append_conf('postgresql.conf',
		$CONF . ($f->{conf}{all} // '') . "\n" . ($conf // '') . "\n");
	if ($clock)
	{
		$f->{clock}{$role} = start_with_clock($node);
	}
	else
	{
		$node->start;
	}
	$f->{role}{ $node->name } = $role;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus; CREATE EXTENSION chronoid');
	return $node;
}

# Adds a started node as a worker (through the coordinator) and waits
# until the coordinator counts its metadata synced. Citus 14's
# citus_add_node syncs it itself (citus.enable_metadata_sync, on by
# default); start_metadata_sync_to_node is for a formation set otherwise.
sub _register
{
	my ($f, $node, $group) = @_;
	my $port = $node->port;
	my $c = $f->{coordinator};
	my $as = defined $group ? ", groupid => $group" : '';
	$c->safe_psql('postgres', "SELECT citus_add_node('127.0.0.1', $port$as)");
	$c->safe_psql('postgres', "SELECT start_metadata_sync_to_node('127.0.0.1', $port)")
	  unless $c->safe_psql('postgres', "SELECT hasmetadata FROM pg_dist_node WHERE nodeport = $port") eq 't';
	$c->poll_query_until('postgres',
		"SELECT hasmetadata AND metadatasynced FROM pg_dist_node WHERE nodeport = $port")
	  or die 'metadata of ' . $node->name . ' never synced';
	return;
}

sub citus_formation
{
	my (%opts) = @_;
	my $f = {
		name => $opts{name} // 'citus',
		conf => $opts{conf} // {},
		clock => {},
		role => {},
		workers => [],
	};
	my %clock = map { $_ => 1 } @{ $opts{clock} // [] };
	my $shard_count = $opts{shard_count} // 4;
	$f->{conf}{all} = ($f->{conf}{all} // '') . "\ncitus.shard_count = $shard_count\n";

	my $c = $f->{coordinator} = _start_node($f, 'coordinator', $f->{conf}{coordinator}, $clock{coordinator});
	$c->safe_psql('postgres', "SELECT citus_set_coordinator_host('127.0.0.1', " . $c->port . ')');
	# The workers start together (their start-up is most of the time), then
	# join one by one: a worker's group id is its order of joining.
	my @workers = map { _start_node($f, "worker$_", $f->{conf}{"worker$_"}, $clock{"worker$_"}) } 1 .. ($opts{workers} // 2);
	for my $w (@workers)
	{
		_register($f, $w);
		push @{ $f->{workers} }, $w;
	}
	return $f;
}

# A new worker, started and added to the formation (metadata synced); its
# shards come only with a rebalance. %opts: conf (postgresql.conf text),
# clock (start it under libfaketime), group (the group id to give it, as
# citus_add_node's groupid).
sub add_worker
{
	my ($f, $role, %opts) = @_;
	my $w = _start_node($f, $role, $opts{conf}, $opts{clock});
	# What a test does with the node started but not yet in the formation.
	$opts{before_add}->($w) if $opts{before_add};
	_register($f, $w, $opts{group});
	push @{ $f->{workers} }, $w;
	return $w;
}

# Starts a stopped node of the formation again, under its clock if it was
# started under one.
sub restart_node
{
	my ($f, $node, $mode) = @_;
	$node->stop($mode // 'fast');
	my $role = $f->{role}{ $node->name };
	if (defined $role && $f->{clock}{$role})
	{
		start_with_clock($node);
	}
	else
	{
		$node->start;
	}
	return;
}

# The coordinator, then the workers in joining order.
sub formation_nodes
{
	my ($f) = @_;
	return ($f->{coordinator}, @{ $f->{workers} });
}

# The node's Citus group id, as it reads it (0 on the coordinator).
sub group_id
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT groupid FROM pg_dist_local_group');
}

1;
