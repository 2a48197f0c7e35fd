#!/usr/bin/env python3
"""The "reservation" block of BENCHMARKS.md, from the JSON lines
scripts/bench_reservation.sh collected in its work directory.

    reservation_report.py WORK MACHINE BASE SETTINGS SCALE
"""
import json
import pathlib
import sys

work, machine, base, settings, scale = sys.argv[1:6]
work = pathlib.Path(work)


def lines(name):
    path = work / name
    return [json.loads(l) for l in path.read_text().splitlines() if l.strip()] if path.exists() else []


latency = lines("latency.jsonl")
writes = lines("writes.jsonl")
replay = lines("replay.jsonl")

RATES = [(0.5, "1 per 2 s"), (1.0, "1/s"), (100.0, "100/s"), (1111.0, "~1,100/s"), ("flat out", "flat out")]
COUNTERS = ["nanoflake", "caloriosa", "uid60"]


def cell(server, statement, rate, sessions):
    for r in latency:
        if r["server"] == server and r["statement"] == statement and r["rate"] == rate and r["sessions"] == sessions:
            return r
    return None


def fmt_us(v):
    return "" if v is None else f"{v / 1000:.2f}"


out = []
w = out.append
w("<!-- BEGIN reservation (scripts/bench_reservation.sh writes this block) -->")
w("## What a caller pays for the durable high-water marks (issue 29)")
w("")
w(f"Produced by `scripts/bench_reservation.sh`{'' if scale == '1' else f' with CHRONOID_BENCH_SCALE={scale}'}: "
  f"this tree (\"new\") against 0.5.0 (\"0.5.0\", commit {base}), each on a private copy of the "
  f"same PostgreSQL, {machine}. Settings of both: {settings}; logged tables.")
w("")
w("Latency is measured by the client around each statement (round trip included: what an application "
  "waits), per session a process with its own connection, autocommit, prepared statements. In one round "
  "a session runs the nine statements once each, in an order rotated per round and per session, spread "
  "evenly over the round; the rate is calls of each statement per second per session, so at \"1 per 2 s\" "
  "every generator pauses about 2 s between calls (0.5.0 then reserved at nearly every call). The two "
  "servers ran each cell one after the other. Ratios are against `gen_scru160()` (no mark) on the same server "
  "in the same cell: `SELECT` against `SELECT gen_scru160()`, `INSERT` against the `INSERT` with a scru160 "
  "DEFAULT. The goal: p99 and max of the counter generators within 1.1× of gen_scru160()'s from 1 per 2 s to "
  "10,000/s.")
w("")
for sessions in (1, 8):
    w(f"### {sessions} session{'s' if sessions > 1 else ''}: p99 in ms (× gen_scru160's p99), new and 0.5.0")
    w("")
    w("| statement | " + " | ".join(label for _, label in RATES) + " |")
    w("|---|" + "---:|" * len(RATES))
    statements = []
    for r in latency:
        if r["statement"] not in statements:
            statements.append(r["statement"])
    for statement in statements:
        row = [f"`{statement}`"]
        ref_name = "SELECT gen_scru160()" if statement.startswith("SELECT") else "INSERT scru160 DEFAULT"
        for rate, _ in RATES:
            parts = []
            for server in ("new", "base"):
                c = cell(server, statement, rate, sessions)
                ref = cell(server, ref_name, rate, sessions)
                if not c:
                    parts.append("")
                    continue
                ratio = f" ({c['p99_us'] / ref['p99_us']:.2f}×)" if ref and ref["p99_us"] else ""
                parts.append(f"{fmt_us(c['p99_us'])}{ratio}")
            row.append(f"**{parts[0]}**<br>{parts[1]}")
        w("| " + " | ".join(row) + " |")
    w("")
    w(f"### {sessions} session{'s' if sessions > 1 else ''}: new, p50 / p99 / max in ms, and max × gen_scru160's max")
    w("")
    w("| statement | " + " | ".join(label for _, label in RATES) + " |")
    w("|---|" + "---:|" * len(RATES))
    for statement in statements:
        row = [f"`{statement}`"]
        ref_name = "SELECT gen_scru160()" if statement.startswith("SELECT") else "INSERT scru160 DEFAULT"
        for rate, _ in RATES:
            c = cell("new", statement, rate, sessions)
            ref = cell("new", ref_name, rate, sessions)
            if not c:
                row.append("")
                continue
            ratio = f" ({c['max_us'] / ref['max_us']:.2f}×)" if ref and ref["max_us"] else ""
            row.append(f"{fmt_us(c['p50_us'])} / {fmt_us(c['p99_us'])} / {fmt_us(c['max_us'])}{ratio}<br>n={c['calls']}")
        w("| " + " | ".join(row) + " |")
    w("")

w("### Replay of mark records (crash recovery, the server's \"redo done\" line)")
w("")
w("| records | WAL bytes | replay, s | µs per record |")
w("|---|---:|---:|---:|")
for r in replay:
    what = ("`chronoid_set_high_water_mark()` (chronoid's records)" if r["kind"] == "marks"
            else "`setval()` (sequence records)")
    per = "" if r["elapsed_s"] is None else f"{r['elapsed_s'] * 1e6 / r['records']:.1f}"
    w(f"| {r['records']:,} × {what} | {r['wal_bytes']:,} | {r['elapsed_s']} | {per} |")
w("")
w("0.5.0 rewrote and fsynced the marks file for every record replayed (about 18 ms a record on a busy "
  "disk, issue 29); its records cannot be made 100,000 at a time (one a second), so it is not in this table.")
w("")
w("### What the new server writes per hour")
w("")
w("| server | reservations (each one WAL flush + one file fsync) | WAL bytes |")
w("|---|---:|---:|")
for r in writes:
    w(f"| {r['what']} | {r['reservations_per_hour']:,} | {r['wal_bytes_per_hour']:,} |")
w("")
w("<!-- END reservation -->")
print("\n".join(out))
