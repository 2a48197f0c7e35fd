#!/usr/bin/env bash
# Builds chronoid in release mode, installs it into the system PostgreSQL 15,
# starts a throwaway cluster with chronoid preloaded, and runs demo/demo.sql.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${CHRONOID_DEMO_DATA:-/tmp/chronoid-demo}
PORT=${CHRONOID_DEMO_PORT:-55432}

bash scripts/setup.sh
echo "== building and installing chronoid (release)"
cargo pgrx install --release --pg-config /usr/lib/postgresql/15/bin/pg_config >/dev/null
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
