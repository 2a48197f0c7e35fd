#!/usr/bin/env bash
# Builds the Debian package of chronoid for one PostgreSQL major, in PGDG's
# naming and layout:
#
#   make deb                           # PostgreSQL 15 (the system's) -> dist/
#   make deb PG_MAJOR=18               # another major (its build from scripts/postgres.sh)
#   scripts/deb.sh [--previous] MAJOR [OUTDIR]
#
# -> OUTDIR/postgresql-MAJOR-chronoid_VERSION_ARCH.deb holding only
#      /usr/lib/postgresql/MAJOR/lib/chronoid.so
#      /usr/share/postgresql/MAJOR/extension/chronoid.control, chronoid--*.sql
#      /usr/share/doc/postgresql-MAJOR-chronoid/{copyright,changelog.gz}
#    (Debian policy puts a package's copyright file in /usr/share/doc), with
#    Depends: postgresql-MAJOR and the libraries dpkg-shlibdeps finds.
#
# The library is the release build `make install` makes (or the build of
# CHRONOID_INSTALL_PROFILE when it is set: the tests package the build they
# installed instead of building the crate once more), built against
# PG_CONFIG when it names MAJOR, else the system's pg_config for 15 or
# scripts/postgres.sh's build of MAJOR (the same headers a PGDG server of
# that major was built from: an extension's ABI is per major).
#
# --previous packages the newest released version in sql/versions/ instead
# (its install script as released, the update scripts up to it, its control
# file; the library of this tree, which loads every released SQL version as
# tests/t/018_extension_upgrade.pl proves), so that upgrading a package can be tested.
#
# Environment: DEBFULLNAME and DEBEMAIL (the Maintainer field, as Debian's
# tools read them), SOURCE_DATE_EPOCH (file times and the changelog date;
# default: the last commit's time, so a tree packages the same twice).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

previous=no
if [ "${1:-}" = --previous ]; then previous=yes; shift; fi
major=${1:?usage: scripts/deb.sh [--previous] MAJOR [OUTDIR]}
outdir=${2:-dist}

if [ -n "${PG_CONFIG:-}" ] && [ "$(major_of "$PG_CONFIG")" = "$major" ]; then
    :
elif [ "$major" = "$(major_of "$SYSTEM_PG_CONFIG" 2>/dev/null)" ]; then
    PG_CONFIG=$SYSTEM_PG_CONFIG
else
    PG_CONFIG=$(scripts/postgres.sh "$major")
fi
export PG_CONFIG

package=postgresql-$major-chronoid
arch=$(dpkg --print-architecture)
version=$(chronoid_version)
[ $previous = no ] || version=$(ls sql/versions | sed -n 's/^chronoid--\([0-9.]*\)\.sql$/\1/p' | sort -V | tail -1)
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
maintainer="${DEBFULLNAME:-chronoid maintainers} <${DEBEMAIL:-maintainers@chronoid.invalid}>"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/stage root=$work/$package
CHRONOID_INSTALL_PROFILE=${CHRONOID_INSTALL_PROFILE:-release} DESTDIR=$stage bash scripts/install.sh >/dev/null

lib=$root/usr/lib/postgresql/$major/lib
ext=$root/usr/share/postgresql/$major/extension
doc=$root/usr/share/doc/$package
mkdir -p "$lib" "$ext" "$doc" "$root/DEBIAN"
install -m 644 "$stage$("$PG_CONFIG" --pkglibdir)/chronoid.so" "$lib/"
# Debian ships libraries without symbols (as dh_strip does).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$lib/chronoid.so"
install -m 644 "$stage$("$PG_CONFIG" --sharedir)"/extension/chronoid* "$ext/"

if [ $previous = yes ]; then
    # Only what that release had: scripts of versions up to it.
    newer() { [ "$1" != "$version" ] && [ "$(printf '%s\n%s\n' "$1" "$version" | sort -V | tail -1)" = "$1" ]; }
    for f in "$ext"/chronoid--*.sql; do
        target=$(basename "$f" .sql | sed 's/.*--//')
        if newer "$target"; then rm "$f"; fi
    done
    sed -i "s/^default_version = .*/default_version = '$version'/" "$ext/chronoid.control"
    [ -f "$ext/chronoid--$version.sql" ] || { echo "deb: no released script for $version" >&2; exit 1; }
fi

# copyright in Debian's machine-readable format, for the declared licence.
{
    cat <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: chronoid
Source: https://pgxn.org/dist/chronoid/

Files: *
Copyright: $(sed -n 's/^Copyright (c) //p' LICENSE-MIT)
License: MIT or Apache-2.0
Comment: chronoid is licensed under either of the MIT license or the Apache
 License, Version 2.0, at your option (SPDX: MIT OR Apache-2.0).

License: MIT
EOF
    grep -v '^Copyright (c)' LICENSE-MIT | sed -e '/./,$!d' -e 's/^[[:space:]]*$/./' -e 's/^/ /'
    cat <<'EOF'

License: Apache-2.0
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License. You may obtain a copy
 of the License at
 .
 https://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software
 distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
 License for the specific language governing permissions and limitations
 under the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can
 be found in "/usr/share/common-licenses/Apache-2.0".
EOF
} >"$doc/copyright"
chmod 644 "$doc/copyright"

# changelog.gz (the package is native: upstream builds it): one entry per
# released version of CHANGELOG.md up to this one, newest first, each dated
# by the commit that froze its install script in sql/versions/ (its release;
# this one by SOURCE_DATE_EPOCH), each older than the next.
python3 - "$package" "$version" "$maintainer" "$SOURCE_DATE_EPOCH" <<'PY' | gzip -9n >"$doc/changelog.gz"
import re, subprocess, sys, time
package, version, maintainer, latest = sys.argv[1:]
key = lambda v: tuple(int(x) for x in v.split("."))
def released(v):
    out = subprocess.run(["git", "log", "--diff-filter=A", "--format=%ct", "--", f"sql/versions/chronoid--{v}.sql"],
                         capture_output=True, text=True).stdout.split()
    return min(map(int, out)) if out else None
entries = []
for s in re.split(r"^## ", open("CHANGELOG.md").read(), flags=re.M)[1:]:
    head, _, body = s.partition("\n")
    v = head.split()[0]
    if key(v) <= key(version):
        entries.append((v, [re.sub(r"\s+", " ", i).strip() for i in re.split(r"^- ", body, flags=re.M)[1:]]))
entries.sort(key=lambda e: key(e[0]), reverse=True)
when = int(latest)
for v, items in entries:
    if v != version:
        found = released(v)
        when = when - 86400 if found is None else min(found, when - 86400)
    print(f"{package} ({v}) unstable; urgency=medium\n")
    for i in items or ["Release " + v + "."]:
        line = "  *"
        for w in i.replace("`", "").split():
            if len(line) + 1 + len(w) > 78:
                print(line)
                line = "   "
            line += " " + w
        print(line)
    print(f"\n -- {maintainer}  {time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime(when))}\n")
PY
chmod 644 "$doc/changelog.gz"

# Depends: the server of this major, and what the library links against.
mkdir -p "$work/shlibs/debian"
printf 'Source: chronoid\n\nPackage: %s\nArchitecture: any\n' "$package" >"$work/shlibs/debian/control"
shlibs=$(cd "$work/shlibs" && dpkg-shlibdeps --warnings=0 -O "$lib/chronoid.so" | sed -n 's/^shlibs:Depends=//p')
installed_size=$(du -sk --apparent-size "$root/usr" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: $package
Source: chronoid
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: postgresql-$major${shlibs:+, $shlibs}
Section: database
Priority: optional
Homepage: https://pgxn.org/dist/chronoid/
Description: time-ordered identifier types for PostgreSQL $major
 chronoid adds five time-ordered identifier types to PostgreSQL: scru160
 (160 bits, 32 characters), nanoflake (a 64-bit snowflake), codokey (a
 sortable key for an instant), caloriosa and uid60. Each has a generator
 usable as a column DEFAULT, text and binary input/output, casts, and
 btree, hash and BRIN operator classes.
 .
 This package is for PostgreSQL $major: CREATE EXTENSION chronoid.
EOF
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$outdir"
deb=$outdir/${package}_${version}_$arch.deb
SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
