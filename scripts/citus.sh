#!/usr/bin/env bash
# Builds Citus 14.0.1 (a test dependency only: tests/t/032_citus_formation.pl)
# for the PostgreSQL that PG_CONFIG names and installs it into that
# PostgreSQL, which should be a private one (scripts/postgres.sh --private):
#
#   PG_CONFIG=/path/to/pg_config scripts/citus.sh
#
# Prints errors and one final line, nothing else. Citus 14 supports
# PostgreSQL 16, 17 and 18; other majors are refused.
#
# The source tarball, first found of:
#   1. $CHRONOID_CITUS_TARBALL, a path the user gives;
#   2. ../shared/third_party/citus-14.0.1.tar.gz beside this checkout, or
#      beside the checkout this one was cloned from (a clone elsewhere,
#      as a CI run makes), or the machine's copy of one found before
#      (/var/cache/chronoid/third_party/); its README gives the sha256,
#      checked here: a mismatch is an error;
#   3. Citus's release archive from GitHub (curl, where the machine has the
#      internet), kept in the cache. GitHub's archives are not promised to be
#      byte-identical to the shipped `git archive`: another sha256 is
#      accepted, and the final line says so (as for a tarball of 1.).
# With none of them it fails and says how to give one.
#
# The build is cached, per major and pg_config path, under
# $(test_private_dir)/citus/14.0.1-pg<major>-<md5 of the pg_config path, 8
# chars>/ (build/: the build tree, stage/: `make install DESTDIR=stage`),
# and made again only when stage/ is missing. Installing writes each staged
# file beside its destination and renames it into place (as
# scripts/install.sh does), so that a running server's mapped citus.so is
# never rewritten. Two runs at once take turns (flock on the cache
# directory's lock file).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

CITUS_VERSION=14.0.1
# The sha256 of the shipped `git archive` of tag v14.0.1
# (../shared/third_party/README.md).
CITUS_SHA256=acfa9a77cd84a8e1edab26cca4a71355f39c910c01586da89560e0240d4b05ba
CITUS_URL=https://github.com/citusdata/citus/archive/refs/tags/v$CITUS_VERSION.tar.gz

die() { echo "citus.sh: $*" >&2; exit 1; }

PG_CONFIG=${PG_CONFIG:-$SYSTEM_PG_CONFIG}
[ -x "$PG_CONFIG" ] || die "PG_CONFIG=$PG_CONFIG is not an executable pg_config"
PG_CONFIG=$(readlink -f "$PG_CONFIG")
major=$(major_of "$PG_CONFIG")
case "$major" in
16 | 17 | 18) ;;
*) die "Citus $CITUS_VERSION supports PostgreSQL 16, 17 and 18, not $major ($PG_CONFIG)" ;;
esac

cache=$(test_private_dir)/citus/$CITUS_VERSION-pg$major-$(echo "$PG_CONFIG" | md5sum | cut -c1-8)
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

# The tarball to build from: sets tarball and note (what the final line
# adds about it), or fails saying why.
find_tarball() {
    local shipped downloaded sum
    downloaded=$(dirname "$cache")/citus-$CITUS_VERSION-github.tar.gz
    local name=citus-$CITUS_VERSION.tar.gz origin candidate
    local machine_copy=/var/cache/chronoid/third_party/$name
    shipped=$(dirname "$CHRONOID_ROOT")/shared/third_party/$name
    if [ ! -f "$shipped" ]; then
        origin=$(git -C "$CHRONOID_ROOT" config --get remote.origin.url 2>/dev/null || true)
        origin=${origin#file://}
        for candidate in ${origin:+"$(dirname "$origin")/shared/third_party/$name"} "$machine_copy"; do
            if [ -f "$candidate" ]; then shipped=$candidate; break; fi
        done
    fi
    note=
    if [ -n "${CHRONOID_CITUS_TARBALL:-}" ]; then
        tarball=$CHRONOID_CITUS_TARBALL
        [ -f "$tarball" ] || die "CHRONOID_CITUS_TARBALL=$tarball: no such file"
        sum=$(sha256sum "$tarball" | cut -d' ' -f1)
        [ "$sum" = "$CITUS_SHA256" ] || note=", sha256 $sum is not the shipped git archive's (accepted as given)"
        return
    fi
    if [ -f "$shipped" ]; then
        tarball=$(readlink -f "$shipped")
        sum=$(sha256sum "$tarball" | cut -d' ' -f1)
        [ "$sum" = "$CITUS_SHA256" ] || die "$tarball: sha256 $sum, expected $CITUS_SHA256 (../shared/third_party/README.md); replace it, or name another with CHRONOID_CITUS_TARBALL=/path/to/citus-$CITUS_VERSION.tar.gz"
        # Kept for clones made elsewhere on this machine.
        if [ "$tarball" != "$machine_copy" ]; then
            mkdir -p "$(dirname "$machine_copy")"
            cp "$tarball" "$machine_copy.partial.$$" && mv -f "$machine_copy.partial.$$" "$machine_copy"
        fi
        return
    fi
    if [ ! -f "$downloaded" ]; then
        command -v curl >/dev/null || die "no Citus $CITUS_VERSION source: $shipped is missing, CHRONOID_CITUS_TARBALL is unset, and there is no curl to download $CITUS_URL; give a tarball with CHRONOID_CITUS_TARBALL=/path/to/citus-$CITUS_VERSION.tar.gz"
        if ! curl -fsSL --retry 2 --connect-timeout 20 -o "$downloaded.partial" "$CITUS_URL" 2>"$cache/download.err"; then
            rm -f "$downloaded.partial"
            die "no Citus $CITUS_VERSION source: $shipped is missing, CHRONOID_CITUS_TARBALL is unset, and downloading $CITUS_URL failed ($(tail -1 "$cache/download.err")); give a tarball with CHRONOID_CITUS_TARBALL=/path/to/citus-$CITUS_VERSION.tar.gz"
        fi
        mv -f "$downloaded.partial" "$downloaded"
    fi
    tarball=$downloaded
    sum=$(sha256sum "$tarball" | cut -d' ' -f1)
    note=", downloaded from GitHub"
    [ "$sum" = "$CITUS_SHA256" ] || note="$note (sha256 $sum differs from the shipped git archive's, as GitHub's archives may; accepted)"
}

how="cached build in $cache"
if [ ! -d "$cache/stage" ]; then
    find_tarball
    start=$SECONDS
    rm -rf "$cache/build" "$cache/stage.partial"
    mkdir -p "$cache/build"
    tar -xzf "$tarball" -C "$cache/build" --strip-components=1 ||
        die "$tarball: not a readable tarball"
    [ -x "$cache/build/configure" ] || die "$tarball: no configure at its top (not a Citus source tarball?)"
    log=$cache/build.log
    if ! (cd "$cache/build" && ./configure PG_CONFIG="$PG_CONFIG" &&
        make -j"$(nproc)" && make install DESTDIR="$cache/stage.partial") >"$log" 2>&1; then
        tail -n 40 "$log" | sed 's/^/#   /' >&2
        die "building Citus $CITUS_VERSION for PostgreSQL $major failed; the whole log is $log"
    fi
    mv "$cache/stage.partial" "$cache/stage"
    how="built in $((SECONDS - start)) s from $tarball$note"
fi

# Every staged file into place by rename; files already there and equal
# are left alone.
stage=$cache/stage
written=0 same=0
while IFS= read -r -d '' f; do
    dest=${f#"$stage"}
    if [ ! -L "$f" ] && [ -f "$dest" ] && [ ! -L "$dest" ] && cmp -s "$f" "$dest"; then
        same=$((same + 1))
        continue
    fi
    mkdir -p "$(dirname "$dest")"
    tmp=$(mktemp "$(dirname "$dest")/.$(basename "$dest").XXXXXX")
    rm -f "$tmp"
    cp -P --preserve=mode "$f" "$tmp"
    mv -f "$tmp" "$dest"
    written=$((written + 1))
done < <(find "$stage" \( -type f -o -type l \) -print0)
[ $((written + same)) -gt 0 ] || die "$stage holds no files; remove $cache and run again"

echo "citus.sh: Citus $CITUS_VERSION for PostgreSQL $major in $(dirname "$("$PG_CONFIG" --bindir)") ($written files written, $same already there; $how)"
