#!/usr/bin/env bash
# Runs every test of chronoid:
#   0. the code's own checks: formatting (cargo fmt --check), lints (clippy
#      -D warnings, in every build of the workspace's crates below, see
#      "Lints"), src/'s layers (no import upward, no circle, no file over 500
#      lines), the explicit install SQL matches its generator, npm pack in a
#      clean checkout builds the Node package;
#   1. the formats crate's unit, property, fuzz and doc tests (plain cargo
#      test: no PostgreSQL involved);
# and on every supported PostgreSQL major, on one build of chronoid, the
# one installed (scripts/install.sh, with the pg_test feature):
#   2. pg_regress SQL tests (tests/regress) against a real cluster with
#      chronoid preloaded, started by scripts/cluster.sh;
#   3. Perl TAP tests (tests/t, PostgreSQL's own PostgreSQL::Test::Cluster
#      run by prove, each file with clusters of its own): the in-database
#      #[pg_test]s of pgrx-tests/ (034), crashes, restarts with the clock
#      behind, failover, concurrency, dump/restore, upgrades, pg_upgrade,
#      clients, installing under a running server, the Debian packages.
#
# The matrix (CHRONOID_MAJORS, default "15 18 16 17"): the whole suite on the
# majors in CHRONOID_FULL_MAJORS (default "15 18"); on the others
# pg_regress, the #[pg_test]s, dump/restore and the extension-upgrade tests
# (and on 16 the replication mesh). Every
# major runs on a private installation (scripts/postgres.sh --private: a copy
# of the relocatable build, 15 included) that only these tests install into,
# with cargo-pgrx's configuration of its own (PGRX_HOME): the system's
# PostgreSQL, its files and its servers are left alone, so `make test` can run
# beside the demo cluster and a user's databases (tests/system_untouched.sh
# checks it). PG_CONFIG=... tests just that PostgreSQL, fully.
#
# The builds, one per major: the first major's is the release build users
# install (LTO), the PGXN client's major builds from the make dist zip, the
# others take the quicker test-install profile, in the background. Besides
# them only the formats crate's tests and the client packages compile.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# Where the time goes: `timed NAME CMD...` runs CMD and adds its seconds
# under NAME to $TIMES; each TAP file's own seconds come from prove's
# --timer lines (tap_times). scripts/test_times.py prints the table at the
# end, slowest first, against the last run's.
SUITE_STARTED=$(date +%s.%N)
TIMES=
# The whole machine's CPU (every core) busy and idle since boot, in
# core-seconds, from /proc/stat: how CPU-bound the run was.
cpu_seconds() {
    awk -v hz="$(getconf CLK_TCK)" '/^cpu / { idle = $5 + $6; busy = $2 + $3 + $4 + $7 + $8 + $9; printf "%.1f %.1f\n", busy / hz, idle / hz }' /proc/stat
}
CPU_STARTED=$(cpu_seconds)
timed() {
    local name=$1 t0 status=0
    shift
    t0=$(date +%s.%N)
    "$@" || status=$?
    [ -z "$TIMES" ] || awk -v a="$t0" -v b="$(date +%s.%N)" -v n="$name" 'BEGIN { printf "%.1f\t%s\n", b - a, n }' >>"$TIMES"
    return $status
}
# Waits for FILE, which a background job writes when it is done; gives up
# (false) if that job (PID, when given) ended without writing it.
wait_for_file() {
    local file=$1 pid=${2:-}
    while [ ! -f "$file" ]; do
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
            [ -f "$file" ]
            return
        fi
        sleep 1
    done
}
# prove --timer prints "[hh:mm:ss] t/NAME.pl ..... ok  1234 ms": one row per file.
tap_times() {
    local label=$1 out=$2
    sed -nE 's/^\[[0-9:]+\] t\/([^ ]+)\.pl \.+ ok +([0-9]+) ms.*/\2\t\1/p' "$out" |
        awk -F'\t' -v l="$label" '{ printf "%.1f\t%s: tests/t/%s.pl\n", $1 / 1000, l, $2 }' >>"$TIMES"
}

if [ -n "${PG_CONFIG:-}" ]; then
    MAJORS=$(major_of "$PG_CONFIG")
    FULL=$MAJORS
    declare -A CONFIG=([$MAJORS]=$PG_CONFIG)
else
    MAJORS=${CHRONOID_MAJORS:-15 18 16 17}
    FULL=${CHRONOID_FULL_MAJORS:-15 18}
    declare -A CONFIG=()
fi

WORK=$(mktemp -d /tmp/chronoid-test.XXXXXX)
chmod 755 "$WORK"
TIMES=$WORK/times.tsv
: >"$TIMES"

timed "set-up: scripts/setup.sh --test" bash scripts/setup.sh --test
fetch_postgres() {
    for m in $MAJORS; do
        [ -n "${CONFIG[$m]:-}" ] || CONFIG[$m]=$(scripts/postgres.sh --private "$m")
    done
}
timed "set-up: the private PostgreSQL installations" fetch_postgres
# cargo pgrx knows every major's pg_config (one call: init rewrites its
# config), in a configuration of the tests' own: `make demo` keeps its own.
export PGRX_HOME=$(test_private_dir)/pgrx
mkdir -p "$PGRX_HOME"
init=()
for m in $MAJORS; do init+=("--pg$m" "${CONFIG[$m]}"); done
cargo pgrx init "${init[@]}" >/dev/null

# The one build of each major carries the in-database tests of pgrx-tests/
# (tests/t/034_pg_tests.pl calls them; scripts/install.sh keeps them out of
# the install script).
export CHRONOID_INSTALL_FEATURES=pg_test
# scripts/prove.sh takes the build a major installed for the files that
# need it (the Debian packages, 022's copy) instead of asking cargo, which
# may be building another major meanwhile in the same target directory.
export CHRONOID_INSTALLED_BUILD=made
# Lints: clippy's driver compiles every crate of this workspace that the
# suite builds anyway (the library for each major with pg_test, the
# formats crate's tests, the client tests, the Python and WebAssembly
# modules), with -D warnings, instead of a check build of its own (cargo
# clippy's; 221 s of two cores on a fresh machine). Other crates compile
# as usual (cargo gives the wrapper workspace members only). A lint fails
# the build it is found in, and the step that asked for that build. Exported
# for every build of the run, since cargo rebuilds a crate whose wrapper or
# CLIPPY_ARGS changed.
export RUSTC_WORKSPACE_WRAPPER=$(rustc --print sysroot)/bin/clippy-driver
export CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
[ -x "$RUSTC_WORKSPACE_WRAPPER" ] || { echo "clippy is not installed (rustup component add clippy)" >&2; exit 1; }

export CHRONOID_TEST_WORK=$WORK
# The client tests and packages the TAP files need are made once, for every
# major (scripts/prove.sh).
export CHRONOID_PREP_CACHE=$WORK/prep
prebuild_pid= prepare_pid=
tap_pids=()
stop_everything() {
    kill $prebuild_pid $prepare_pid "${tap_pids[@]}" 2>/dev/null || true
    for d in "$WORK"/*/data; do scripts/cluster.sh stop "$d" || true; done
    [ ! -d "$WORK/system/data" ] || PG_CONFIG=$SYSTEM_PG_CONFIG scripts/cluster.sh stop "$WORK/system/data" || true
}
trap stop_everything EXIT

step "The system's PostgreSQL: its chronoid files, and a sentinel server of it, watched during the run"
tests/system_untouched.sh start "$WORK/system"

failed=()
# TAP files at once per major (CHRONOID_PROVE_JOBS): two servers per core
# is normal for a suite that mostly waits.
PROVE_JOBS=${CHRONOID_PROVE_JOBS:-3}
# The major whose install is the PGXN client's (the first not fully tested).
pgxn_major=
for m in $MAJORS; do
    if [[ " $FULL " != *" $m "* ]]; then pgxn_major=$m; break; fi
done

first=$(echo $MAJORS | cut -d' ' -f1)
# The installed builds of the majors that take the quicker profile (all but
# the first, which ships the release build, and the PGXN client's, which
# builds from the unpacked zip) are made in the background, at the lowest
# priority, from the start: they take the CPU the foreground leaves, chiefly
# while the first major's tests (mostly servers waiting) run: a
# build is CPU, a TAP file mostly waits. Each major's install then finds its
# build made (scripts/install.sh --build is the same command).
# Each build's status goes to WORK/prebuild-MAJOR.status, so that a major
# waits for its own build only, not for the next major's; prebuild.done
# once all are made.
prebuild_installs() {
    local m status
    for m in $MAJORS; do
        [ "$m" != "$first" ] && [ "$m" != "$pgxn_major" ] || continue
        status=0
        PG_CONFIG=${CONFIG[$m]} CHRONOID_INSTALL_PROFILE=test-install nice -n 19 scripts/install.sh --build || status=$?
        echo $status >"$WORK/prebuild-$m.status"
    done
    touch "$WORK/prebuild.done"
}
prebuild_installs >"$WORK/prebuild.log" 2>&1 &
prebuild_pid=$!
# Citus, for the fully tested majors it supports (tests/t/032, `needs:
# citus`), in a job of its own that nothing waits for: prove.sh's own call
# of scripts/citus.sh waits for it (a lock) and finds it built, or reports
# why it could not be.
for m in $FULL; do
    [ "$m" -lt 16 ] || PG_CONFIG=${CONFIG[$m]} nice -n 19 scripts/citus.sh >"$WORK/citus-$m.log" 2>&1 &
done
# Likewise what the TAP files need whatever the major (the client tests, the
# Python and Node packages): made once, in the background, before the first
# TAP run waits for it.
# It builds in a cargo target directory of its own: cargo locks a profile's
# directory for a whole build, and a foreground step waiting for a build at
# the lowest priority would wait for all of it.
(
    status=0
    PG_CONFIG=${CONFIG[$first]} CARGO_TARGET_DIR=$PWD/target/prepare nice -n 19 scripts/prove.sh --prepare || status=$?
    echo $status >"$WORK/prepare.status"
) >"$WORK/prepare.log" 2>&1 &
prepare_pid=$!

step "Formatting, layers and the generated install SQL (the lints run in the builds)"
timed "cargo fmt --check" cargo fmt --all --check || failed+=("cargo fmt --check")
# src/'s layers as ARCHITECTURE.md draws them: types above durable above
# pg, no import upward, no import circle, no file over 500 lines.
python3 scripts/check_layers.py || failed+=("src/ breaks its layers (scripts/check_layers.py)")
python3 scripts/generate_sql.py --check || failed+=("sql/ differs from scripts/generate_sql.py")
python3 scripts/check_versions.py || failed+=("versions disagree (Cargo.toml, chronoid.control, META.json, sql/)")
python3 scripts/check_meta_json.py || failed+=("META.json does not follow the PGXN Meta Spec 1.0.0")
# chronoid-formats is ready for crates.io: it packages and builds alone.
timed "cargo package -p chronoid-formats" cargo package -q -p chronoid-formats --allow-dirty >/dev/null || failed+=("cargo package -p chronoid-formats")
# The error, refusal and settings tables and the README's benchmark figures
# against the code and BENCHMARKS.md.
python3 scripts/check_docs.py || failed+=("the docs disagree with the code or BENCHMARKS.md (scripts/check_docs.py)")
python3 scripts/check_docs.py --self-test || failed+=("scripts/check_docs.py misses a kind of drift (--self-test)")
python3 scripts/check_readme_recipes.py || failed+=("a README/docs snippet is not an excerpt of the recipe it names")
# The README is a front page: what it is, the two commands, a tour, links.
[ "$(wc -l <README.md)" -le 250 ] || failed+=("README.md is over 250 lines ($(wc -l <README.md)): move detail into docs/")
# The npm package as npm users pack it: npm pack in a clean checkout's node/
# builds it (its prepack hook), and node/ alone refuses with a message.
timed "npm pack in a clean checkout (tests/node_pack.sh)" bash tests/node_pack.sh || failed+=("npm pack in a clean checkout (tests/node_pack.sh)")
# The system PostgreSQL's path is written once, in scripts/lib.sh
# (SYSTEM_PG_CONFIG); everything else derives it from there or from the
# pg_config in use.
if grep -rn '/usr/lib/postgresql/[0-9]' scripts bench Makefile | grep -v '^scripts/lib.sh:'; then
    failed+=("a script names the system PostgreSQL's path outside scripts/lib.sh")
fi
# The PGXN zip: META.json at its top, the version it names, no build outputs.
if timed "make dist" bash scripts/dist.sh "$WORK/dist.zip" >/dev/null; then
    python3 - "$WORK/dist.zip" <<'PY' || failed+=("make dist")
import json, sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
top = names[0].split("/")[0]
meta = json.loads(zipfile.ZipFile(sys.argv[1]).read(f"{top}/META.json"))
assert top == f"chronoid-{meta['version']}", top
bad = [n for n in names if "/target/" in n or "node_modules" in n or n.endswith(".so")]
assert not bad, bad
PY
else
    failed+=("make dist")
fi
# The install SQL is a catalog of explicit statements: no statements built
# at install time (released scripts in sql/versions/ stay as released). The
# one function that builds statements, chronoid_adopt_column() (sql/adopt.sql
# and the upgrade script that adds it), builds them when it is called.
if perl -0pe 's/\$adopt\$.*?\$adopt\$//gs' sql/*.sql | grep -nE '^\s*DO\b|EXECUTE\s+format'; then
    failed+=("sql/*.sql builds statements at install time")
fi
# The formats crate needs only Rust: nothing of pgrx or PostgreSQL in its tree.
if cargo tree -p chronoid-formats -e normal,build,dev --prefix none | grep -E '^(pgrx|bindgen|clang-sys)'; then
    failed+=("chronoid-formats depends on pgrx")
fi

# A major's TAP files (mostly servers waiting) run in the background while
# the next major builds and runs its in-database tests (mostly CPU): one TAP
# run at a time (a lock), each writing its output to its major's directory
# (printed when the run ends) and its failure to $WORK/failed. Once a TAP run
# is on, the foreground's builds run at a lower priority (fg), so the TAP
# files' servers get the CPU when they want it.
: >"$WORK/failed"
fg=()
run_taps() {
    local m=$1 status
    shift
    # The clients and packages the first run needs, made in the background.
    wait_for_file "$WORK/prepare.status"
    if [ "$(cat "$WORK/prepare.status")" != 0 ]; then
        cat "$WORK/prepare.log"
        echo "the TAP files' clients and packages (scripts/prove.sh --prepare)" >>"$WORK/failed"
    fi
    status=0
    PROVE_FLAGS="-j$PROVE_JOBS --timer" timed "PostgreSQL $m: tests/t, all files (wall)" \
        flock "$WORK/tap.lock" scripts/prove.sh "$@" >"$WORK/$m/prove.out" 2>&1 || status=$?
    tap_times "PostgreSQL $m" "$WORK/$m/prove.out"
    [ $status = 0 ] || echo "PostgreSQL $m: tests/t (prove)" >>"$WORK/failed"
}
for m in $MAJORS; do
    export PG_CONFIG=${CONFIG[$m]}
    BIN=$("$PG_CONFIG" --bindir)
    if [ "$m" = "$pgxn_major" ] && [ -n "$prebuild_pid" ]; then
        # Its build (from the zip) takes the same target directory as the
        # background builds, whose lock it would wait for at their low
        # priority: it waits for all of them first, at its own.
        timed "waiting for the background builds" wait_for_file "$WORK/prebuild.done" "$prebuild_pid" || true
    elif [ "$m" != "$first" ]; then
        # Its build may still be on its way; the next major's goes on.
        timed "waiting for the background builds" wait_for_file "$WORK/prebuild-$m.status" "$prebuild_pid" || true
        if [ "$(cat "$WORK/prebuild-$m.status" 2>/dev/null)" != 0 ]; then
            cat "$WORK/prebuild.log"
            failed+=("PostgreSQL $m: the background build (scripts/install.sh --build)")
        fi
    fi
    PG_REGRESS=$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress
    full=no
    [[ " $FULL " == *" $m "* ]] && full=yes
    mkdir -p "$WORK/$m" && chown postgres: "$WORK/$m"
    export CHRONOID_TEST_WORK=$WORK/$m

    # 15, the system's, gets the release build users install; the other
    # majors a build that takes a third of the time (no LTO).
    if [ "$m" = "$(echo $MAJORS | cut -d' ' -f1)" ] && [ "${CHRONOID_RELEASE_BUILD:-yes}" = yes ]; then
        export CHRONOID_INSTALL_PROFILE=release
    else
        export CHRONOID_INSTALL_PROFILE=test-install
    fi
    if [ "$m" = "$pgxn_major" ]; then
        # As a PGXN user installs: the PGXN client unpacks the make dist zip
        # and runs `make all` and `make install` in it; this major's tests
        # then run on what it installed.
        step "PostgreSQL $m: pgxn install of the make dist zip ($CHRONOID_INSTALL_PROFILE build)"
        CARGO_TARGET_DIR=$PWD/target timed "PostgreSQL $m: pgxn install of the dist zip ($CHRONOID_INSTALL_PROFILE build)" \
            "${fg[@]}" "$CHRONOID_VENV/bin/pgxn" install --pg_config "$PG_CONFIG" "$WORK/dist.zip" || failed+=("PostgreSQL $m: pgxn install of the dist zip")
    else
        step "PostgreSQL $m: install ($CHRONOID_INSTALL_PROFILE build)"
        timed "PostgreSQL $m: install ($CHRONOID_INSTALL_PROFILE build)" "${fg[@]}" scripts/install.sh
    fi
    if [ "$m" = "$first" ]; then
        # As packagers call it: everything under DESTDIR, in the directories
        # pg_config names, and uninstall leaves nothing behind.
        stage=$WORK/destdir
        make -s install DESTDIR="$stage" PG_CONFIG="$PG_CONFIG" >/dev/null
        unexpected=$(cd "$stage" && find . -type f | sed 's|^\.||' | grep -v -e "^$("$PG_CONFIG" --pkglibdir)/chronoid\.so\$" \
            -e "^$("$PG_CONFIG" --sharedir)/extension/chronoid\(\.control\|--[0-9.]*\.sql\|--[0-9.]*--[0-9.]*\.sql\)\$" || true)
        count=$(find "$stage" -type f | wc -l)
        make -s uninstall DESTDIR="$stage" PG_CONFIG="$PG_CONFIG" >/dev/null
        left=$(find "$stage" -type f | wc -l)
        if [ -n "$unexpected" ] || [ "$count" -lt 3 ] || [ "$left" != 0 ]; then
            echo "make install DESTDIR: unexpected files: [$unexpected], $count installed, $left left after uninstall"
            failed+=("make install/uninstall DESTDIR")
        else
            echo "make install DESTDIR=…: $count files where pg_config says; make uninstall: none left"
        fi
    fi

    step "PostgreSQL $m: pg_regress (tests/regress)"
    # The server reads the conformance vectors, so give it a copy it can read.
    cp -r tests/vectors "$WORK/$m/vectors" && chmod -R a+rX "$WORK/$m/vectors"
    export CHRONOID_VECTORS=$WORK/$m/vectors
    PORT=$(scripts/cluster.sh port)
    scripts/cluster.sh start "$WORK/$m/data" "$PORT"
    mkdir -p "$WORK/$m/regress"
    if ! timed "PostgreSQL $m: pg_regress" "$PG_REGRESS" --bindir="$BIN" --inputdir=tests/regress \
        --outputdir="$WORK/$m/regress" --host=127.0.0.1 --port="$PORT" --user=postgres \
        --dbname=chronoid_regress --schedule=tests/regress/schedule; then
        head -200 "$WORK/$m/regress/regression.diffs" 2>/dev/null || true
        failed+=("PostgreSQL $m: pg_regress")
    fi

    scripts/cluster.sh stop "$WORK/$m/data"
    if [ $full = yes ]; then
        perl_taps=()   # all of tests/t
    else
        perl_taps=(tests/t/011_dump_restore.pl tests/t/012_codokey_restore.pl tests/t/018_extension_upgrade.pl tests/t/034_pg_tests.pl)
        # The mesh on the oldest major with origin = none too: its
        # questions to a peer are replication connections there.
        [ "$m" != 16 ] || perl_taps+=(tests/t/033_replication_mesh.pl)
    fi
    step "PostgreSQL $m: Perl TAP tests (tests/t, PostgreSQL::Test::Cluster), $PROVE_JOBS at a time, in the background"
    # Each file's clusters take free ports and private directories, and
    # most of a file's time is servers starting, waiting and replicating:
    # several files run at once (PROVE_JOBS), as check-world's PROVE_FLAGS=-j.
    run_taps "$m" "${perl_taps[@]}" &
    tap_pids+=($!)
    echo "PostgreSQL $m: the TAP files run in the background (pid $!); their output follows the last major"
    fg=(nice -n 10)
    if [ "$m" = "$first" ]; then
        step "The formats crate (formats/): unit, property, fuzz and doc tests, without PostgreSQL"
        # Mutation fuzzing of every decoder: CHRONOID_FUZZ_ITERATIONS inputs
        # each (formats/src/fuzz.rs). The dev profile optimises the crate
        # and its generator for the fuzzing's sake (Cargo.toml) and keeps
        # the overflow checks; the client libraries the features and the
        # examples need are the ones the client tests built (the prepare
        # job), in the target directory they share: cargo's lock on it
        # makes this wait for that build if it is still on its way.
        CHRONOID_FUZZ_ITERATIONS=${CHRONOID_FUZZ_ITERATIONS:-2000000} CARGO_TARGET_DIR=$PWD/target/prepare \
            timed "the formats crate (cargo test)" "${fg[@]}" cargo test -p chronoid-formats --all-features || failed+=("formats crate")
    fi
done

[ -z "$prebuild_pid" ] || wait "$prebuild_pid" 2>/dev/null || true
step "The TAP runs' output, each major's in turn"
for pid in "${tap_pids[@]}"; do
    timed "waiting for the TAP runs" wait "$pid" || true
done
for m in $MAJORS; do
    [ ! -f "$WORK/$m/prove.out" ] || { echo "-- PostgreSQL $m"; cat "$WORK/$m/prove.out"; }
done
mapfile -t tap_failed <"$WORK/failed"
failed+=("${tap_failed[@]}")

# A cluster of the oldest major, upgraded with pg_upgrade to the newest.
majors_sorted=$(printf '%s\n' $MAJORS | sort -n)
old=$(echo "$majors_sorted" | head -1) new=$(echo "$majors_sorted" | tail -1)
if [ "$old" != "$new" ]; then
    step "pg_upgrade from PostgreSQL $old to $new (tests/t/019_pg_upgrade.pl)"
    OLD_PG_CONFIG=${CONFIG[$old]} PG_CONFIG=${CONFIG[$new]} PROVE_FLAGS= \
        timed "pg_upgrade $old -> $new (tests/t/019_pg_upgrade.pl)" scripts/prove.sh tests/t/019_pg_upgrade.pl || failed+=("pg_upgrade $old -> $new")
fi

step "The system's PostgreSQL after the run"
tests/system_untouched.sh check "$WORK/system" || failed+=("the system's PostgreSQL was disturbed")

step "Where the time went"
awk -v a="$SUITE_STARTED" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\ttotal (wall)\n", b - a }' >>"$TIMES"
read -r busy0 idle0 <<<"$CPU_STARTED"
read -r busy1 idle1 <<<"$(cpu_seconds)"
awk -v b="$busy1" -v a="$busy0" 'BEGIN { printf "%.1f\tcpu: busy (core-seconds)\n", b - a }' >>"$TIMES"
awk -v b="$idle1" -v a="$idle0" 'BEGIN { printf "%.1f\tcpu: idle (core-seconds)\n", b - a }' >>"$TIMES"
python3 scripts/test_times.py "$TIMES" target/test-times || true

if [ ${#failed[@]} -gt 0 ]; then
    printf 'FAILED: %s\n' "${failed[@]}"
    echo "The run's clusters, logs and builds are kept in $WORK for a look; remove it after."
    exit 1
fi
# A passing run leaves nothing behind: its scratch directory (clusters,
# logs, the packages it built; over a gigabyte) goes once its clusters
# have stopped (the EXIT trap stops what is still running first).
trap - EXIT
stop_everything 2>/dev/null
rm -rf "$WORK"
step "all tests passed on PostgreSQL $(echo $MAJORS | tr ' ' ',')"
