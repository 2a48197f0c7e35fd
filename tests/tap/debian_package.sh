#!/usr/bin/env bash
# The Debian packages (scripts/deb.sh, `make deb`) of the major under test
# (PG_CONFIG): lintian finds no error in them; each holds only PGDG's
# directories and depends on postgresql-NN. Then, on the machine's own
# PostgreSQL 15 (Debian's): `dpkg -i` of the previous version's package
# gives a server that creates the extension at that version; `dpkg -i` of
# this version's upgrades it under a running server (which keeps working),
# ALTER EXTENSION UPDATE keeps every value, and the pg_regress suite passes
# on a fresh cluster against the packaged files; `dpkg -r` leaves none of
# them behind.
#
# It replaces what a source install (scripts/install.sh) put at the
# package's paths for the duration, and puts it back afterwards.
source "$(dirname "$0")/lib.bash"

MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
PKG=postgresql-$MAJOR-chronoid
LIBDIR=/usr/lib/postgresql/$MAJOR/lib EXTDIR=/usr/share/postgresql/$MAJOR/extension
# "installed VERSION", or "not-installed" (also when dpkg never heard of it).
installed() {
    local s
    s=$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$PKG" 2>/dev/null || true)
    case "$s" in ''|not-installed*) echo not-installed ;; *) echo "$s" ;; esac
}
# run_ok NAME COMMAND...: one TAP line for whether COMMAND succeeds.
run_ok() { local name=$1; shift; if "$@" >>"$OUT/commands.log" 2>&1; then ok 0 "$name"; else ok 1 "$name"; tail -5 "$OUT/commands.log" | sed 's/^/# /'; fi; }
if [ "$(installed)" != not-installed ]; then
    echo "Bail out! $PKG is installed here ($(installed)); this test would replace it"
    exit 1
fi

OUT=$CHRONOID_TEST_WORK/deb
rm -rf "$OUT" && mkdir -p "$OUT/saved"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
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

if [ "$MAJOR" != 15 ]; then
    # dpkg -i needs Debian's server of that major; this machine has 15.
    done_testing
fi
PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
BIN=$("$PG_CONFIG" --bindir)
PSQL=("$BIN/psql" "${PSQL[@]:1}")

# Move a source install's files aside (a rename or a copy to a new file:
# servers that have the library mapped keep their own), and put them back
# at the end whatever happens.
source_install=()
for f in "$LIBDIR/chronoid.so" "$EXTDIR"/chronoid.control "$EXTDIR"/chronoid--*.sql; do
    [ -e "$f" ] || continue
    source_install+=("$f")
    mv "$f" "$OUT/saved/$(basename "$f")"
done
DATA=$OUT/data
PORT=$(free_port)
restore() {
    scripts/cluster.sh stop "$DATA" >/dev/null 2>&1 || true
    [ "$(installed)" = not-installed ] || dpkg -r "$PKG" >/dev/null 2>&1 || true
    for f in "${source_install[@]}"; do mv "$OUT/saved/$(basename "$f")" "$f"; done
}
trap restore EXIT

run_ok "dpkg -i $(basename "$old")" dpkg -i "$old"
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

run_ok "dpkg -i $(basename "$new") upgrades the package while the server runs" dpkg -i "$new"
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

files=$(dpkg-query -L "$PKG" | while read -r p; do [ -f "$p" ] && echo "$p"; done)
run_ok "dpkg -r $PKG" dpkg -r "$PKG"
is "$(installed)" "not-installed" "dpkg no longer knows $PKG as installed"
left=$(for p in $files; do [ -e "$p" ] && echo "$p"; done; true)
is "$left" "" "dpkg -r leaves none of the package's $(echo "$files" | wc -l) files behind"
is "$(ls -d /usr/share/doc/$PKG "$LIBDIR"/chronoid.so "$EXTDIR"/chronoid* 2>/dev/null || true)" "" \
    "no chronoid file and no doc directory remain"

done_testing
