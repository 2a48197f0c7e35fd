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
