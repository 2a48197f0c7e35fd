#!/usr/bin/env bash
# `make test` must leave the system's PostgreSQL alone: users run it on the
# machine where their databases live. scripts/test.sh calls this twice:
#
#   tests/system_untouched.sh start DIR   before any other test
#   tests/system_untouched.sh check DIR   after all of them (TAP output)
#
# start records the checksum and inode of every chronoid file installed in
# the system's PostgreSQL (none, on a machine without `make demo` or `make
# install`). Where chronoid is installed there, it also starts a sentinel: a
# cluster of the system's PostgreSQL with chronoid preloaded (as the demo's
# and a user's are), and a loop that asks it for gen_nanoflake() from a new
# connection every 3 seconds for the whole run. check stops both and fails
# unless every answer came and every file is the same file, unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

cmd=${1:?usage: system_untouched.sh start|check DIR}
dir=${2:?directory}
libdir=$("$SYSTEM_PG_CONFIG" --pkglibdir)
extdir=$("$SYSTEM_PG_CONFIG" --sharedir)/extension

fingerprint() {
    local f
    for f in "$libdir"/chronoid* "$extdir"/chronoid*; do
        [ -e "$f" ] || continue
        echo "$(stat -c '%i %s' "$f") $(sha256sum "$f")"
    done
}

case "$cmd" in
start)
    mkdir -p "$dir" && chmod 755 "$dir"
    fingerprint >"$dir/files.before"
    if [ ! -f "$libdir/chronoid.so" ] || [ ! -f "$extdir/chronoid.control" ]; then
        echo "the system's PostgreSQL has no chronoid installed: no sentinel cluster (run make demo first for one); its chronoid files are checked"
        exit 0
    fi
    port=$(scripts/cluster.sh port)
    PG_CONFIG=$SYSTEM_PG_CONFIG scripts/cluster.sh start "$dir/data" "$port"
    PG_CONFIG=$SYSTEM_PG_CONFIG scripts/cluster.sh psql "$dir/data" "$port" -q -c "CREATE EXTENSION chronoid"
    psql=$("$SYSTEM_PG_CONFIG" --bindir)/psql
    : >"$dir/answers"
    : >"$dir/failures"
    (
        while [ ! -e "$dir/stop" ]; do
            if out=$("$psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -XAtq -c "SELECT gen_nanoflake()" 2>&1); then
                echo "$(date -u +%T) $out" >>"$dir/answers"
            else
                echo "$(date -u +%T) $out" >>"$dir/failures"
            fi
            sleep 3
        done
    ) >/dev/null 2>&1 &
    echo $! >"$dir/loop.pid"
    echo "sentinel: a cluster of the system's PostgreSQL with chronoid preloaded on port $port, asked for gen_nanoflake() every 3 s"
    ;;
check)
    n=0 failed=0
    ok() {
        n=$((n + 1))
        if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
    }
    if [ -f "$dir/loop.pid" ]; then
        touch "$dir/stop"
        wait_for=$(cat "$dir/loop.pid")
        while kill -0 "$wait_for" 2>/dev/null; do sleep 0.5; done
        PG_CONFIG=$SYSTEM_PG_CONFIG scripts/cluster.sh stop "$dir/data" || true
        answers=$(wc -l <"$dir/answers")
        failures=$(wc -l <"$dir/failures")
        sed 's/^/# sentinel failure: /' "$dir/failures" | head -20
        status=1
        if [ "$answers" -gt 0 ] && [ "$failures" = 0 ]; then status=0; fi
        ok $status "the sentinel on the system's PostgreSQL answered gen_nanoflake() all through make test ($answers answers, $failures failures)"
    fi
    fingerprint >"$dir/files.after"
    diff "$dir/files.before" "$dir/files.after" | sed 's/^/# /' || true
    status=1
    if cmp -s "$dir/files.before" "$dir/files.after"; then status=0; fi
    ok $status "the system's PostgreSQL chronoid files are the same files, unchanged ($(wc -l <"$dir/files.after") files)"
    echo "1..$n"
    exit $failed
    ;;
esac
