#!/usr/bin/env bash
# The release zip PGXN accepts: the tracked tree at the tag v<version> (or,
# with no such tag yet, at HEAD, said so), under chronoid-<version>/, with
# META.json at its top and no build outputs (git archive takes only what git
# tracks).
#   make dist                 # -> chronoid-<version>.zip
#   scripts/dist.sh OUT.zip
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

python3 scripts/check_versions.py
version=$(chronoid_version)
ref=v$version
if ! git rev-parse -q --verify "refs/tags/$ref" >/dev/null; then
    echo "dist: no tag $ref yet; archiving HEAD ($(git rev-parse --short HEAD))" >&2
    ref=HEAD
fi
out=${1:-chronoid-$version.zip}
git archive --format=zip --prefix="chronoid-$version/" -o "$out" "$ref"
echo "wrote $out ($ref)"
