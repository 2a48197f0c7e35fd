#!/usr/bin/env bash
# Installs what building and testing chronoid needs on Debian 12, skipping
# whatever is already there: PostgreSQL 15 with its server headers (pinned to
# the installed server's version, so apt never upgrades the server under a
# running cluster), libclang for bindgen, cargo-pgrx pointed at the system
# pg_config, and the test tools.
set -euo pipefail

PGRX_VERSION=0.18.1
source "$(dirname "$0")/lib.sh"
PG_CONFIG=${PG_CONFIG:-$SYSTEM_PG_CONFIG}

log() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null
}

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

# --test: also what only the tests need (scripts/test.sh passes it; `make
# demo` and `make bench` install just the build's prerequisites).
for_tests=no
if [ "${1:-}" = --test ]; then for_tests=yes; fi

missing=()
dpkg-query -W -f='${Status}' postgresql-15 2>/dev/null | grep -q 'install ok installed' || missing+=(postgresql-15)
# The build: libclang for bindgen. The tests: faketime (clocks stepped under
# a running server), libipc-run-perl (PostgreSQL::Test::Cluster, tests/t),
# libpostgresql-jdbc-java (the JDBC recipe's driver), dpkg-dev and lintian
# (building and checking the Debian packages, scripts/deb.sh), fakeroot (dpkg
# as the tests' postgres user), python3-venv (the clients' virtualenv, on
# Debian's python3, which postgres can run, unlike one under root's home),
# sudo (cargo pgrx test --runas postgres runs initdb and installs through it),
# patroni and etcd-server (tests/t/027_patroni.pl runs its own etcd and
# Patroni members; the packages start no service where there is no init),
# pgbouncer (the client packages' tests run through one in transaction mode;
# they start their own, and Debian's starts no service where there is no init),
# libkrb5-dev liblz4-dev libzstd-dev libcurl4-openssl-dev (building Citus for
# tests/t/032_citus_formation.pl, scripts/citus.sh: the private PostgreSQL
# builds are configured with GSSAPI, LZ4 and zstd, whose headers Citus includes).
packages=(libclang-dev)
[ $for_tests = no ] || packages+=(faketime libipc-run-perl libpostgresql-jdbc-java dpkg-dev lintian fakeroot python3-venv sudo patroni etcd-server pgbouncer
    libkrb5-dev liblz4-dev libzstd-dev libcurl4-openssl-dev)
for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
# The JDBC and node-postgres recipes need a JDK and Node (the machine's, or Debian's).
if [ $for_tests = yes ]; then
    command -v javac >/dev/null || missing+=(default-jdk-headless)
    command -v npm >/dev/null || missing+=(nodejs npm)
fi
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    $SUDO apt-get update -q >/dev/null
    apt_install "${missing[@]}"
fi

server_version=$(dpkg-query -W -f='${Version}' postgresql-15)
dev_version=$(dpkg-query -W -f='${Version}' postgresql-server-dev-15 2>/dev/null || true)
if [ "$dev_version" != "$server_version" ]; then
    log "installing postgresql-server-dev-15=$server_version"
    $SUDO apt-get update -q >/dev/null
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "postgresql-server-dev-15=$server_version" >/dev/null
fi

# Debian's postgresql-common starts a "main" cluster on 5432 on install; ours
# use their own ports, so leave it alone.

if ! cargo pgrx --version 2>/dev/null | grep -q " $PGRX_VERSION\$"; then
    log "installing cargo-pgrx $PGRX_VERSION (takes a few minutes)"
    cargo install cargo-pgrx --version "$PGRX_VERSION" --locked --quiet
fi

major=$(major_of "$PG_CONFIG")
if ! grep -qs "^pg$major = \"$PG_CONFIG\"" "${PGRX_HOME:-$HOME/.pgrx}/config.toml"; then
    log "cargo pgrx init --pg$major $PG_CONFIG"
    cargo pgrx init --pg"$major" "$PG_CONFIG" >/dev/null
fi

# (--test) The tools of scripts/requirements.txt (psycopg 3, the PGXN client,
# maturin), pinned, in a virtualenv of Debian's python3 (prove's postgres
# user runs them; it cannot reach a python under /root).
VENV=$CHRONOID_VENV
REQUIREMENTS=$(dirname "$0")/requirements.txt
if [ $for_tests = yes ] && [ "$("$VENV/bin/python" -c 'import sys; print(sys.base_prefix)' 2>/dev/null)" != /usr ]; then
    rm -rf "$VENV"
fi
if [ $for_tests = yes ] && { ! "$VENV/bin/python" -c "import psycopg, asyncpg" 2>/dev/null \
    || [ ! -x "$VENV/bin/pgxn" ] || [ ! -x "$VENV/bin/maturin" ]; }; then
    log "installing the Python clients into $VENV"
    [ -x "$VENV/bin/pip" ] || { mkdir -p "$(dirname "$VENV")" && chmod 755 "$(dirname "$VENV")" && /usr/bin/python3 -m venv "$VENV"; }
    "$VENV/bin/pip" install -q -r "$REQUIREMENTS"
fi

# (--test) WebAssembly, for the Node package's codecs (scripts/clients.sh).
if [ $for_tests = yes ] && ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    log "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown >/dev/null
fi

log "ready: PostgreSQL $($PG_CONFIG --version | cut -d' ' -f2), $(cargo pgrx --version)"
