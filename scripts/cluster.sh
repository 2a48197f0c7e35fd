#!/usr/bin/env bash
# A throwaway PostgreSQL cluster (of the major PG_CONFIG names) on a loopback port, owned by the
# `postgres` OS user (initdb and pg_ctl refuse to run as root), with chronoid
# preloaded.
#
#   scripts/cluster.sh start DIR PORT [extra postgresql.conf lines...]
#   scripts/cluster.sh stop DIR
#   scripts/cluster.sh psql DIR PORT [psql args...]
#   scripts/cluster.sh port        a TCP port on 127.0.0.1 nothing listens on
#
# CLUSTER_ENV="VAR=value ..." passes environment to the server (tests use it
# to run the server under libfaketime); INITDB_OPTS adds initdb options.
set -euo pipefail

source "$(dirname "$0")/lib.sh"
PG_CONFIG=${PG_CONFIG:-$SYSTEM_PG_CONFIG}
BIN=$("$PG_CONFIG" --bindir)

as_postgres() {
    if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}

cmd=${1:?usage: cluster.sh start|stop|psql|port DIR [PORT]}
if [ "$cmd" = port ]; then
    # The kernel's pick of a free port, so that clusters never collide with
    # other servers on the machine (or another run of the tests).
    exec python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
fi
dir=${2:?data directory}

case "$cmd" in
start)
    port=${3:?port}
    shift 3
    mkdir -p "$dir"
    chown postgres: "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
        # shellcheck disable=SC2086
        as_postgres "$BIN/initdb" -D "$dir" -U postgres --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 ${INITDB_OPTS:-} >"$dir.initdb.log" 2>&1 \
            || { cat "$dir.initdb.log"; exit 1; }
        {
            echo "listen_addresses = '127.0.0.1'"
            echo "port = $port"
            echo "unix_socket_directories = '$dir'"
            echo "shared_preload_libraries = 'chronoid'"
            echo "fsync = off"
            echo "max_connections = 50"
            for line in "$@"; do echo "$line"; done
        } >>"$dir/postgresql.conf"
    fi
    if ! as_postgres "$BIN/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        # The relocatable builds' contrib modules (postgres_fdw) carry the
        # build machine's RUNPATH: point the server at this PostgreSQL's own
        # libpq, not the system's older one.
        as_postgres env LD_LIBRARY_PATH="$("$PG_CONFIG" --libdir)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ${CLUSTER_ENV:-} \
            "$BIN/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start >/dev/null \
            || { tail -n 30 "$dir/server.log"; exit 1; }
    fi
    ;;
stop)
    if [ -f "$dir/postmaster.pid" ]; then
        as_postgres "$BIN/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || true
    fi
    ;;
psql)
    port=${3:?port}
    shift 3
    exec "$BIN/psql" -h 127.0.0.1 -p "$port" -U postgres -v ON_ERROR_STOP=1 -X "$@"
    ;;
*)
    echo "unknown command $cmd" >&2
    exit 2
    ;;
esac
