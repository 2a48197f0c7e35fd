#!/usr/bin/env python3
"""Where `make test`'s time went: the table at the end of the run.

    python3 scripts/test_times.py TIMES KEEP

TIMES is the run's tab-separated "seconds<TAB>step" rows (scripts/test.sh
writes them: each step it times, each TAP file's own seconds from prove's
--timer, and the total wall time). The table lists them slowest first, with
the seconds of the run before beside them when KEEP (a directory under
target/, the checkout's scratch) holds that run's rows; the run's rows
then become KEEP/last.tsv, and the one before KEEP/previous.tsv.

Rows of TAP files overlap (several run at once) and sit inside their
"tests/t, all files (wall)" row: only the steps' rows add up to the total.
The two "cpu:" rows (the whole machine's CPU, every core, busy and idle
during the run) make one line: how much CPU the run left unused.
"""
import os
import shutil
import sys


def read(path):
    rows = {}
    try:
        with open(path) as f:
            for line in f:
                seconds, _, name = line.rstrip("\n").partition("\t")
                if name:
                    rows[name] = rows.get(name, 0.0) + float(seconds)
    except FileNotFoundError:
        pass
    return rows


def main():
    times, keep = sys.argv[1], sys.argv[2]
    now = read(times)
    before = read(os.path.join(keep, "last.tsv"))
    total = now.pop("total (wall)", None)
    busy = now.pop("cpu: busy (core-seconds)", None)
    idle = now.pop("cpu: idle (core-seconds)", None)
    steps = sorted(now.items(), key=lambda kv: -kv[1])
    width = max([len(n) for n in now] + [10])
    print(f"{'seconds':>8} {'last run':>9}  step (TAP files: inside their major's 'all files' row)")
    for name, seconds in steps:
        last = before.get(name)
        last = f"{last:9.1f}" if last is not None else f"{'':9}"
        print(f"{seconds:8.1f} {last}  {name:<{width}}")
    if total is not None:
        last = before.get("total (wall)")
        last = f"{last:9.1f}" if last is not None else f"{'':9}"
        print(f"{total:8.1f} {last}  total (wall): {total / 60:.1f} min")
    if busy is not None and idle is not None and busy + idle > 0:
        print(f"CPU (the whole machine's, every core): {busy:.0f} core-seconds busy, "
              f"{idle:.0f} idle ({100 * idle / (busy + idle):.0f} % idle)")
    taps = [s for n, s in now.items() if "tests/t/" in n and "all files" not in n]
    if taps:
        print(f"TAP files: {len(taps)}, {sum(taps) / 60:.1f} min of their own time in all")
    os.makedirs(keep, exist_ok=True)
    last_path = os.path.join(keep, "last.tsv")
    if os.path.exists(last_path):
        shutil.copyfile(last_path, os.path.join(keep, "previous.tsv"))
    shutil.copyfile(times, last_path)
    print(f"(these figures: {times}, and {last_path} for the next run)")


if __name__ == "__main__":
    main()
