#!/usr/bin/env bash
# The Debian packages (scripts/deb.sh, `make deb`) of the major under test
# (PG_CONFIG): lintian finds no error in them; each holds only PGDG's
# directories and depends on postgresql-NN. Then dpkg installs them into a
# private root (--instdir/--admindir, with a copy of the machine's dpkg
# status that also lists postgresql-NN, so dpkg's own dependency and
# replacement logic runs) that holds a copy of PostgreSQL NN in Debian's
# layout (/usr/lib/postgresql/NN, /usr/share/postgresql/NN): `dpkg -i` of
# the previous version's package gives a server that creates the extension
# at that version; `dpkg -i` of this version's upgrades it under the running
# server (which keeps working), ALTER EXTENSION UPDATE keeps every value,
# and the pg_regress suite passes on a fresh cluster against the packaged
# files; `dpkg -r` leaves none of them behind. Nothing outside the test's
# scratch directory is touched: not the system's PostgreSQL, not its dpkg
# database.
source "$(dirname "$0")/lib.bash"

MAJOR=$(major_of "$PG_CONFIG")
PKG=postgresql-$MAJOR-chronoid
LIBDIR=/usr/lib/postgresql/$MAJOR/lib EXTDIR=/usr/share/postgresql/$MAJOR/extension
# run_ok NAME COMMAND...: one TAP line for whether COMMAND succeeds.
run_ok() { local name=$1; shift; if "$@" >>"$OUT/commands.log" 2>&1; then ok 0 "$name"; else ok 1 "$name"; tail -5 "$OUT/commands.log" | sed 's/^/# /'; fi; }

OUT=$CHRONOID_TEST_WORK/deb
rm -rf "$OUT" && mkdir -p "$OUT/saved"
version=$(chronoid_version)
previous=$(ls sql/versions | sed -n 's/^chronoid--\([0-9.]*\)\.sql$/\1/p' | sort -V | tail -1)
old=$(scripts/deb.sh --previous "$MAJOR" "$OUT")
new=$(scripts/deb.sh "$MAJOR" "$OUT")
arch=$(dpkg --print-architecture)
is "$(basename "$new")" "${PKG}_${version}_$arch.deb" "make deb names the package ${PKG}_<version>_<arch>.deb"
is "$(basename "$old")" "${PKG}_${previous}_$arch.deb" "the previous version's package: ${PKG}_${previous}_$arch.deb"

for deb in "$old" "$new"; do
    name=$(basename "$deb")
    if lintian --fail-on error --tag-display-limit 0 "$deb" >"$OUT/lintian.log" 2>&1; then
        ok 0 "lintian: no errors in $name"
    else
        ok 1 "lintian: no errors in $name"
    fi
    sed 's/^/# lintian: /' "$OUT/lintian.log"
    outside=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|' | grep -v -E \
        "^/(usr/|usr/lib/|usr/lib/postgresql/|usr/lib/postgresql/$MAJOR/|usr/lib/postgresql/$MAJOR/lib/(chronoid\.so)?|usr/share/|usr/share/postgresql/|usr/share/postgresql/$MAJOR/|usr/share/postgresql/$MAJOR/extension/(chronoid(\.control|--[0-9.]+(--[0-9.]+)?\.sql))?|usr/share/doc/|usr/share/doc/$PKG/(copyright|changelog\.gz)?)?\$" || true)
    is "$outside" "" "$name: nothing outside $LIBDIR, $EXTDIR and its doc directory"
    is "$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ //' | grep -c "^postgresql-$MAJOR\$")" "1" "$name depends on postgresql-$MAJOR"
    is "$(dpkg-deb -f "$deb" Package)" "$PKG" "$name: Package is $PKG"
done
is "$(dpkg-deb --fsys-tarfile "$old" | tar -xO .$EXTDIR/chronoid.control | grep default_version)" \
    "default_version = '$previous'" "the previous package's control file says $previous"
is "$(dpkg-deb --fsys-tarfile "$old" | tar -t | grep -e "--$version\.sql" || true)" "" "the previous package has no script of $version"

# The private root: PostgreSQL NN of the installation under test, copied
# into Debian's layout without any chronoid file (the relocatable build
# finds its share directory beside its bin, so share is a link to where
# Debian keeps it), and a dpkg database copied from the machine's.
ROOT=$OUT/root
install_dir=$(dirname "$("$PG_CONFIG" --bindir)")
mkdir -p "$ROOT/usr/lib/postgresql" "$ROOT/usr/share/postgresql" "$ROOT/var/lib/dpkg/info" "$ROOT/var/lib/dpkg/updates"
cp -a "$install_dir" "$ROOT/usr/lib/postgresql/$MAJOR"
mv "$ROOT/usr/lib/postgresql/$MAJOR/share" "$ROOT/usr/share/postgresql/$MAJOR"
ln -s "../../../share/postgresql/$MAJOR" "$ROOT/usr/lib/postgresql/$MAJOR/share"
rm -f "$ROOT$LIBDIR/chronoid.so" "$ROOT$EXTDIR"/chronoid*
chmod 755 "$ROOT" "$ROOT/usr" "$ROOT/usr/lib" "$ROOT/usr/share" "$ROOT/usr/lib/postgresql" "$ROOT/usr/share/postgresql"
cp /var/lib/dpkg/status "$ROOT/var/lib/dpkg/status"
: >"$ROOT/var/lib/dpkg/available"
if ! dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${db:Status-Status}' "postgresql-$MAJOR" 2>/dev/null | grep -q '^installed$'; then
    # The copied server is postgresql-NN as far as this root is concerned.
    printf '\nPackage: postgresql-%s\nStatus: install ok installed\nPriority: optional\nSection: database\nMaintainer: chronoid tests <tests@chronoid.invalid>\nArchitecture: %s\nVersion: %s\nDescription: PostgreSQL %s (the copy in this test root)\n' \
        "$MAJOR" "$(dpkg --print-architecture)" "$("$PG_CONFIG" --version | cut -d' ' -f2)" "$MAJOR" >>"$ROOT/var/lib/dpkg/status"
fi
DPKG=(dpkg --instdir="$ROOT" --admindir="$ROOT/var/lib/dpkg" --force-not-root)
# "installed VERSION", or "not-installed" (also when dpkg never heard of it).
installed() {
    local s
    s=$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${db:Status-Status} ${Version}' "$PKG" 2>/dev/null || true)
    case "$s" in ''|not-installed*) echo not-installed ;; *) echo "$s" ;; esac
}
PG_CONFIG=$ROOT/usr/lib/postgresql/$MAJOR/bin/pg_config
export PG_CONFIG
is "$("$PG_CONFIG" --pkglibdir)|$("$PG_CONFIG" --sharedir)" "$ROOT$LIBDIR|$ROOT/usr/lib/postgresql/$MAJOR/share" \
    "the root's PostgreSQL $MAJOR reads its modules from $LIBDIR and extensions from /usr/share/postgresql/$MAJOR"
BIN=$("$PG_CONFIG" --bindir)
PSQL=("$BIN/psql" "${PSQL[@]:1}")
DATA=$OUT/data
PORT=$(free_port)
trap 'scripts/cluster.sh stop "$DATA" >/dev/null 2>&1 || true' EXIT

run_ok "dpkg -i $(basename "$old")" "${DPKG[@]}" -i "$old"
is "$(installed)" "installed $previous" "dpkg knows $PKG $previous as installed"
scripts/cluster.sh start "$DATA" "$PORT"
sql_on "$PORT" "CREATE EXTENSION chronoid"
is "$(sql_on "$PORT" "SELECT extversion FROM pg_extension WHERE extname = 'chronoid'")" "$previous" \
    "CREATE EXTENSION chronoid gives $previous from the package"
sql_on "$PORT" "CREATE TABLE kept (n int PRIMARY KEY, nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60);
    INSERT INTO kept SELECT g, gen_nanoflake(), gen_scru160(), codokey(now() - g * interval '1 hour', g % 7),
        gen_caloriosa(), gen_uid60() FROM generate_series(1, 2000) g;
    CREATE INDEX ON kept (nf); CREATE INDEX ON kept (s); CREATE INDEX ON kept (ck)"
fingerprint() { sql_on "$PORT" "SELECT md5(string_agg(concat_ws('|', n, nf, s, ck, c, u), ',' ORDER BY n)) FROM kept"; }
before=$(fingerprint)

# A session that has the library loaded stays open across the upgrade.
open_session "$PORT"
is "$(ask "SELECT count(gen_scru160()) FROM generate_series(1, 10);")" "10" "an open session generates before the upgrade"

run_ok "dpkg -i $(basename "$new") upgrades the package while the server runs" "${DPKG[@]}" -i "$new"
is "$(installed)" "installed $version" "dpkg knows $PKG $version as installed"
is "$(ask "SELECT count(gen_scru160()) FROM generate_series(1, 10);")" "10" "the open session still generates after the upgrade"
close_session
if grep -E "terminated by signal" "$DATA/server.log"; then ok 1 "no backend died of a signal"; else ok 0 "no backend died of a signal"; fi

sql_on "$PORT" "ALTER EXTENSION chronoid UPDATE"
is "$(sql_on "$PORT" "SELECT extversion FROM pg_extension WHERE extname = 'chronoid'")" "$version" \
    "ALTER EXTENSION chronoid UPDATE goes to $version with the packaged scripts"
is "$(fingerprint)" "$before" "every value is kept across the upgrade"
is "$(sql_on "$PORT" "SET enable_seqscan = off; SELECT count(*) FROM kept WHERE nf >= (SELECT nf FROM kept WHERE n = 1000)::bigint")" \
    "$(sql_on "$PORT" "SELECT count(*) FROM kept WHERE nf >= (SELECT nf FROM kept WHERE n = 1000)")" \
    "$version's comparisons with bigint work on the upgraded database"

# The regress suite on a fresh cluster that has only the packaged files.
scripts/cluster.sh stop "$DATA"
rm -rf "$DATA"
scripts/cluster.sh start "$DATA" "$PORT"
PG_REGRESS=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress
mkdir -p "$OUT/regress"
if "$PG_REGRESS" --bindir="$BIN" --inputdir=tests/regress --outputdir="$OUT/regress" \
    --host=127.0.0.1 --port="$PORT" --user=postgres --dbname=chronoid_regress \
    --schedule=tests/regress/schedule >"$OUT/regress.log" 2>&1; then
    ok 0 "pg_regress passes against the packaged files ($(grep -oE '[0-9]+ tests passed' "$OUT/regress.log" || true))"
else
    ok 1 "pg_regress passes against the packaged files"
    tail -20 "$OUT/regress.log" | sed 's/^/# /'
    head -60 "$OUT/regress/regression.diffs" 2>/dev/null | sed 's/^/# /'
fi
scripts/cluster.sh stop "$DATA"

files=$(dpkg-query --admindir="$ROOT/var/lib/dpkg" -L "$PKG" | while read -r p; do [ -f "$ROOT$p" ] && echo "$ROOT$p"; done)
run_ok "dpkg -r $PKG" "${DPKG[@]}" -r "$PKG"
is "$(installed)" "not-installed" "dpkg no longer knows $PKG as installed"
left=$(for p in $files; do [ -e "$p" ] && echo "$p"; done; true)
is "$left" "" "dpkg -r leaves none of the package's $(echo "$files" | wc -l) files behind"
is "$(ls -d "$ROOT/usr/share/doc/$PKG" "$ROOT$LIBDIR"/chronoid.so "$ROOT$EXTDIR"/chronoid* 2>/dev/null || true)" "" \
    "no chronoid file and no doc directory remain"

done_testing
