#!/usr/bin/env bash
# Builds the client tests (tests/clients) into DIR, for a user without cargo,
# npm's cache or this checkout to run (tests/t/021_clients.pl runs them as
# postgres; scripts/prove.sh calls this first, as root):
#
#   scripts/build_client_tests.sh DIR
#
#   DIR/rust/     the chronoid-client-tests executables (tokio-postgres, sqlx, serde)
#   DIR/node/     the node-postgres recipe, its node_modules installed
#   DIR/java/     Recipe.class (JDBC; the driver is Debian's postgresql.jar)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/build_client_tests.sh DIR}
mkdir -p "$dir/rust" "$dir/java"
cp -r tests/clients/node "$dir/"
rm -rf "$dir/node/node_modules"
cargo test --no-run -q -p chronoid-client-tests --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])' | while read -r exe; do cp "$exe" "$dir/rust/"; done
(cd "$dir/node" && npm install --no-audit --no-fund --silent >/dev/null)
javac -d "$dir/java" java/Recipe.java
