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
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

PG_CONFIG=${PG_CONFIG:-$SYSTEM_PG_CONFIG}
PERL_LIB=/usr/lib/postgresql/15/lib/pgxs/src/test/perl
[ -f "$PERL_LIB/PostgreSQL/Test/Cluster.pm" ] || { echo "prove.sh: $PERL_LIB missing (postgresql-server-dev-15)" >&2; exit 1; }
install=$(dirname "$("$PG_CONFIG" --bindir)")
pg_regress=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress
major=$(major_of "$PG_CONFIG")

work=$(mktemp -d "${CHRONOID_TEST_WORK:-/tmp}/prove-$major.XXXXXX")
chmod 755 "$work"
cp -r tests/t "$work/t"
chown -R postgres: "$work"
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/t/*.pl)
rel=()
for t in "${tests[@]}"; do rel+=("t/$(basename "$t")"); done

version=$(chronoid_version)
# For tests/t/019_pg_upgrade.pl: the major to upgrade from.
old_install=
[ -z "${OLD_PG_CONFIG:-}" ] || old_install=$(dirname "$("$OLD_PG_CONFIG" --bindir)")
status=0
(cd "$work" && runuser -u postgres -- env \
    PERL5LIB="$PERL_LIB:$work/t" CHRONOID_PG_INSTALL="$install" PG_REGRESS="$pg_regress" CHRONOID_VERSION="$version" CHRONOID_PG_INSTALL_OLD="$old_install" \
    TESTDIR="$work" PATH="$install/bin:$PATH" \
    prove ${PROVE_FLAGS--v} "${rel[@]}") || status=$?
if [ $status -ne 0 ]; then
    echo "prove.sh: PostgreSQL $major: failed; logs in $work/tmp_check/log" >&2
    tail -n 40 "$work"/tmp_check/log/*.log 2>/dev/null | sed 's/^/#   /' >&2 || true
else
    rm -rf "$work"
fi
exit $status
