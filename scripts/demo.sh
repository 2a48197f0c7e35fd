#!/usr/bin/env bash
# Builds chronoid in release mode, installs it into the system PostgreSQL 15,
# starts a throwaway cluster with chronoid preloaded, and runs demo/demo.sql.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${CHRONOID_DEMO_DATA:-/tmp/chronoid-demo}
# The demo cluster keeps the port it was first given; a new one gets a free port.
if [ -f "$DATA/postgresql.conf" ]; then
    PORT=$(sed -n 's/^port = \([0-9]*\).*/\1/p' "$DATA/postgresql.conf" | tail -1)
else
    PORT=${CHRONOID_DEMO_PORT:-$(scripts/cluster.sh port)}
fi

bash scripts/setup.sh
echo "== building and installing chronoid (release)"
scripts/install.sh
echo "== starting a cluster in $DATA on 127.0.0.1:$PORT"
scripts/cluster.sh start "$DATA" "$PORT" "chronoid.node_id = 7"
scripts/cluster.sh psql "$DATA" "$PORT" -q -c "CREATE DATABASE chronoid_demo" 2>/dev/null || true
scripts/cluster.sh psql "$DATA" "$PORT" -d chronoid_demo -q -c "CREATE EXTENSION IF NOT EXISTS chronoid"
scripts/cluster.sh psql "$DATA" "$PORT" -d chronoid_demo -f demo/demo.sql

cat <<MSG

The demo cluster is still running.
  connect: psql -h 127.0.0.1 -p $PORT -U postgres chronoid_demo
  stop:    scripts/cluster.sh stop $DATA      (then rm -rf $DATA to discard it)
MSG
