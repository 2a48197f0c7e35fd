#!/usr/bin/env bash
# Runs the Perl TAP tests (tests/t/*.pl, PostgreSQL::Test::Cluster) against
# one PostgreSQL installation, with chronoid already installed into it:
#
#   PG_CONFIG=/path/to/pg_config scripts/prove.sh [tests/t/001_….pl ...]
#   make check-tap T=001_restart_clock_behind
#
# PostgreSQL's TAP modules come from Debian's postgresql-server-dev-15 (the
# other majors' relocatable builds do not ship them); they drive any major
# through install_path. initdb refuses root, so prove runs as `postgres` in a
# scratch directory of its own (TESTDIR), which is left for reading on
# failure and removed on success.
#
# prove runs as postgres, which has no cargo and may not read this checkout:
# each test reads a copy of the tree's scripts, SQL and test data (TREE), and
# a test that needs something built first says so in a line of its own,
#   # needs: library   the chronoid build of this major (CHRONOID_BUILT)
#   # needs: debs      this and the previous version's .deb (CHRONOID_DEBS)
#   # needs: clients   the client tests, built and installed (CHRONOID_CLIENTS)
#   # needs: python-package   the wheel and sdist (scripts/clients.sh), the
#                      wheel installed into a fresh virtualenv with the
#                      drivers (CHRONOID_PYTHON: dist/, venv/, tests/)
#   # needs: node-package     the npm tarball (scripts/clients.sh) installed
#                      into a fresh project with the drivers (CHRONOID_NODE:
#                      dist/, project/)
#   # needs: citus     Citus 14.0.1 built for this major and installed into
#                      it (scripts/citus.sh; not below 16, where the test skips)
# which this script makes, as root, before prove starts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

PG_CONFIG=${PG_CONFIG:-$SYSTEM_PG_CONFIG}
# PostgreSQL's TAP modules beside the PGXS of the pg_config in use (Debian's
# postgresql-server-dev-N ships them there), else the system's: the
# relocatable builds ship none, and the modules drive any major through
# install_path.
perl_lib_of() { echo "$(dirname "$("$1" --pgxs)")/../test/perl"; }
PERL_LIB=$(perl_lib_of "$PG_CONFIG")
[ -f "$PERL_LIB/PostgreSQL/Test/Cluster.pm" ] || PERL_LIB=$(perl_lib_of "$SYSTEM_PG_CONFIG")
[ -f "$PERL_LIB/PostgreSQL/Test/Cluster.pm" ] || { echo "prove.sh: $PERL_LIB missing (postgresql-server-dev-15)" >&2; exit 1; }
PERL_LIB=$(cd "$PERL_LIB" && pwd)
install=$(dirname "$("$PG_CONFIG" --bindir)")
pg_regress=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress
major=$(major_of "$PG_CONFIG")

# --prepare: only make what the files need that does not depend on the
# major (into CHRONOID_PREP_CACHE), and run nothing: scripts/test.sh does it
# in the background while it builds and tests the first major.
prepare_only=no
if [ "${1:-}" = --prepare ]; then prepare_only=yes; shift; fi

work=$(mktemp -d "${CHRONOID_TEST_WORK:-/tmp}/prove-$major.XXXXXX")
chmod 755 "$work"
cp -r tests/t "$work/t"
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/t/*.pl)
rel=()
for t in "${tests[@]}"; do rel+=("t/$(basename "$t")"); done
needs=$(sed -n 's/^# needs: //p' "${tests[@]}" | tr ' ' '\n' | sort -u)

tree=$work/tree
mkdir -p "$tree/tests"
cp -r scripts sql Cargo.toml pgrx-tests "$tree/"
cp -r tests/regress tests/vectors "$tree/tests/"
built= debs= clients= python= node_dir=
# What does not depend on the major (the client tests, the Python and Node
# packages and their environments) is made once into CHRONOID_PREP_CACHE
# when it names a directory (scripts/test.sh gives one per run, so a second
# major reuses them), else into this run's directory.
prep=${CHRONOID_PREP_CACHE:-$work}
mkdir -p "$prep"
# Whether $1 is made already (from an earlier major); else it is made anew.
prepared() { [ -f "$1/.prepared" ] && return 0; rm -rf "$1"; mkdir -p "$1"; return 1; }
# scripts/clients.sh builds both packages at once: once, into $prep/dist,
# which the Python and Node directories link to.
client_dist() {
    [ -f "$prep/dist/.prepared" ] || { rm -rf "$prep/dist" && scripts/clients.sh "$prep/dist" >/dev/null && touch "$prep/dist/.prepared"; }
    ln -s ../dist "$1/dist"
}
# The build of this major that scripts/install.sh installs, made by
# scripts/install.sh --build: made here, unless the caller made it and says
# so (CHRONOID_INSTALLED_BUILD=made: scripts/test.sh, whose cargo may be
# busy building another major in the same target directory meanwhile).
installed_build() {
    local profile=${CHRONOID_INSTALL_PROFILE:-release}
    [ "${CHRONOID_INSTALLED_BUILD:-}" = made ] || PG_CONFIG=$PG_CONFIG scripts/install.sh --build >/dev/null
    echo "$PWD/target/$profile/chronoid-pg$major"
}
for need in $needs; do
    if [ $prepare_only = yes ]; then
        case "$need" in clients|python-package|node-package) ;; *) continue ;; esac
    fi
    case "$need" in
    library)
        built=$work/built
        cp -r "$(installed_build)" "$built"
        ;;
    debs)
        # The packages hold the installed build (CHRONOID_PREBUILT), as
        # scripts/install.sh copies it.
        debs=$work/debs
        PG_CONFIG=$PG_CONFIG CHRONOID_PREBUILT=$(installed_build) scripts/deb.sh --previous "$major" "$debs" >/dev/null
        PG_CONFIG=$PG_CONFIG CHRONOID_PREBUILT=$(installed_build) scripts/deb.sh "$major" "$debs" >/dev/null
        ;;
    clients)
        clients=$prep/clients
        prepared "$clients" || { scripts/build_client_tests.sh "$clients" && touch "$clients/.prepared"; }
        ;;
    python-package)
        python=$prep/python
        if prepared "$python"; then continue; fi
        client_dist "$python"
        /usr/bin/python3 -m venv "$python/venv"
        "$python/venv/bin/pip" install -q --disable-pip-version-check "$python"/dist/chronoid-*.whl \
            -r python/tests/requirements.txt
        # The sdist builds a wheel on its own (what pip does where no wheel fits).
        "$python/venv/bin/pip" wheel -q --disable-pip-version-check --no-deps -w "$python/from-sdist" \
            "$python"/dist/chronoid-*.tar.gz
        cp -r python/tests "$python/tests"
        cp python/README.md "$python/README.md"
        touch "$python/.prepared"
        ;;
    node-package)
        node_dir=$prep/node
        if prepared "$node_dir"; then continue; fi
        client_dist "$node_dir"
        cp -r node/test "$node_dir/project"
        cp node/README.md "$node_dir/README.md"
        (cd "$node_dir/project" && npm install --no-audit --no-fund --silent \
            && npm install --no-audit --no-fund --silent "$node_dir"/dist/chronoid-*.tgz)
        touch "$node_dir/.prepared"
        ;;
    citus)
        [ "$major" -lt 16 ] || PG_CONFIG=$PG_CONFIG scripts/citus.sh >/dev/null
        ;;
    *) echo "prove.sh: unknown need '$need'" >&2; exit 1 ;;
    esac
done
chown -R postgres: "$work" "$prep"
if [ $prepare_only = yes ]; then
    rm -rf "$work"
    exit 0
fi

version=$(chronoid_version)
# For tests/t/019_pg_upgrade.pl: the major to upgrade from.
old_install=
[ -z "${OLD_PG_CONFIG:-}" ] || old_install=$(dirname "$("$OLD_PG_CONFIG" --bindir)")
status=0
(cd "$work" && runuser -u postgres -- env \
    PERL5LIB="$PERL_LIB:$work/t" CHRONOID_PG_INSTALL="$install" PG_REGRESS="$pg_regress" CHRONOID_VERSION="$version" CHRONOID_PG_INSTALL_OLD="$old_install" \
    CHRONOID_TREE="$tree" CHRONOID_BUILT="$built" CHRONOID_DEBS="$debs" CHRONOID_CLIENTS="$clients" CHRONOID_PYTHON="$python" CHRONOID_NODE="$node_dir" CHRONOID_VENV="$CHRONOID_VENV" \
    TESTDIR="$work" PATH="$install/bin:$PATH:/usr/sbin:/sbin" HOME=/var/lib/postgresql \
    prove ${PROVE_FLAGS--v} "${rel[@]}") || status=$?
if [ $status -ne 0 ]; then
    echo "prove.sh: PostgreSQL $major: failed; logs in $work/tmp_check/log" >&2
    tail -n 40 "$work"/tmp_check/log/*.log 2>/dev/null | sed 's/^/#   /' >&2 || true
else
    rm -rf "$work"
fi
exit $status
