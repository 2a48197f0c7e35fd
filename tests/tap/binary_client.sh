#!/usr/bin/env bash
# Runs tests/tap/binary_client.py (psycopg 3, installed by scripts/setup.sh
# into its virtualenv) against the test cluster.
source "$(dirname "$0")/lib.bash"
exec "$CHRONOID_VENV/bin/python" tests/tap/binary_client.py
