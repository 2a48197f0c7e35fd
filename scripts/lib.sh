# chronoid's shell definitions, written once; sourced by scripts/*.sh and
# tests/system_untouched.sh.

# This checkout, resolved when sourced (the functions may run elsewhere).
CHRONOID_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

# The system's PostgreSQL (Debian's 15): what `make demo`, `make install`
# and `make deb` use by default. Tests never use it (scripts/test.sh runs
# every major on a private installation: scripts/postgres.sh --private).
SYSTEM_PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config

# The major version of the PostgreSQL a pg_config belongs to: 15, 18, ...
major_of() { "$1" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/'; }

# This tree's version, from the extension crate's Cargo.toml.
chronoid_version() { sed -n 's/^version = "\(.*\)"/\1/p' "$CHRONOID_ROOT/Cargo.toml" | head -1; }

# The virtualenv with the Python tools and clients (scripts/setup.sh): under
# /var/cache, not root's home, so that the tests' `postgres` user (prove
# runs as postgres) can run the clients in it.
CHRONOID_VENV=${CHRONOID_VENV:-/var/cache/chronoid/venv}

# Where this checkout's tests keep their private PostgreSQL installations
# (scripts/postgres.sh --private) and cargo-pgrx configuration: outside the
# checkout, so that the `postgres` user can reach them wherever it lies.
test_private_dir() {
    echo "${CHRONOID_TEST_PG_DIR:-/var/cache/chronoid/private/$(echo "$CHRONOID_ROOT" | md5sum | cut -c1-12)}"
}

# For the benchmarks that compare two versions (scripts/bench_versions.sh,
# scripts/bench_reservation.sh): a base commit and this tree, each built and
# installed into a private copy of PostgreSQL MAJOR under WORK (pg-base,
# pg-new), so that the servers under test never share a library file with
# any other server. The base is checked out in WORK/base-src (the caller's
# EXIT trap removes that worktree) and its build kept in
# target/bench-base-<commit> for the next run.
install_base_and_new() {
    local major=$1 base=$2 work=$3 source_pg source_root v
    source_pg=$(CHRONOID_PG15_FROM_PYPI=1 "$CHRONOID_ROOT/scripts/postgres.sh" "$major")
    source_root=$(dirname "$("$source_pg" --bindir)")
    for v in base new; do cp -a "$source_root" "$work/pg-$v"; done
    git -C "$CHRONOID_ROOT" worktree add -q --detach "$work/base-src" "$base"
    (cd "$work/base-src" && PG_CONFIG=$work/pg-base/bin/pg_config \
        CARGO_TARGET_DIR=$CHRONOID_ROOT/target/bench-base-$base \
        CHRONOID_INSTALL_PROFILE=release scripts/install.sh >/dev/null)
    (cd "$CHRONOID_ROOT" && PG_CONFIG=$work/pg-new/bin/pg_config \
        CHRONOID_INSTALL_PROFILE=release scripts/install.sh >/dev/null)
}

# Puts the block in file BLOCK (<!-- BEGIN NAME ... <!-- END NAME -->) into
# OUT (BENCHMARKS.md) in place of the one there, or at its end.
write_bench_block() {
    local name=$1 block=$2 out=$3
    if [ -f "$out" ] && grep -q "^<!-- BEGIN $name" "$out"; then
        python3 - "$name" "$out" "$block" <<'PY'
import re, sys
name, out, block = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
text = open(out).read()
text = re.sub(rf"(?s)<!-- BEGIN {name}.*?<!-- END {name} -->\n", lambda _: block, text)
open(out, "w").write(text)
PY
    else
        { echo; cat "$block"; } >>"$out"
    fi
}

# The set-up of a benchmark that compares a base commit with this tree
# (scripts/bench_reservation.sh, bench_restart.sh, bench_versions.sh): WORK
# (a new /tmp/chronoid-bench-NAME.XXXXXX), the arrays PORT and DATA the
# script fills per cluster, `clusters=(base new)`, an EXIT trap that stops
# every cluster in DATA (with the new copy's pg_ctl: both are copies of one
# major) and removes the base's worktree, and both versions installed
# (install_base_and_new).
start_version_bench() {
    local name=$1 major=$2 base=$3
    WORK=$(mktemp -d "/tmp/chronoid-bench-$name.XXXXXX")
    chmod 755 "$WORK"
    declare -gA PORT DATA
    clusters=(base new)
    trap 'for d in "${DATA[@]}"; do PG_CONFIG=$WORK/pg-new/bin/pg_config "$CHRONOID_ROOT/scripts/cluster.sh" stop "$d" || true; done; git -C "$CHRONOID_ROOT" worktree remove --force "$WORK/base-src" 2>/dev/null || true' EXIT
    install_base_and_new "$major" "$base" "$WORK"
}
