#!/usr/bin/env python3
"""Latency of the generators as an application sees it, at rates from one
call every 2 s to flat out (issue 29): what a caller pays for the counter
generators' durable high-water marks, against gen_scru160() (no mark) and a
bigint identity, in the same run.

Each session is a process with its own connection (autocommit, as an
application's single statements are). In one round it runs every statement
once, in an order rotated per round and per session, spread evenly over the
round; a round lasts 1/rate seconds (flat out: no pause). So at "1 per 2 s"
each statement is called once every 2 s by each session, each generator
pausing about as long between its calls. Latency is measured around
execute() (round trip included: what the application waits), in
microseconds.

    reservation.py DSN RATE SESSIONS SECONDS   # one run: JSON lines on stdout
"""
import json
import multiprocessing
import sys
import time

import psycopg

STATEMENTS = [
    ("SELECT gen_scru160()", "SELECT gen_scru160()"),
    ("SELECT gen_nanoflake()", "SELECT gen_nanoflake()"),
    ("SELECT gen_caloriosa()", "SELECT gen_caloriosa()"),
    ("SELECT gen_uid60()", "SELECT gen_uid60()"),
    ("INSERT bigint identity", "INSERT INTO r_bigint DEFAULT VALUES"),
    ("INSERT scru160 DEFAULT", "INSERT INTO r_scru160 DEFAULT VALUES"),
    ("INSERT nanoflake DEFAULT", "INSERT INTO r_nanoflake DEFAULT VALUES"),
    ("INSERT caloriosa DEFAULT", "INSERT INTO r_caloriosa DEFAULT VALUES"),
    ("INSERT uid60 DEFAULT", "INSERT INTO r_uid60 DEFAULT VALUES"),
]

SETUP = """
DROP TABLE IF EXISTS r_bigint, r_scru160, r_nanoflake, r_caloriosa, r_uid60;
CREATE TABLE r_bigint (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY);
CREATE TABLE r_scru160 (id scru160 DEFAULT gen_scru160() PRIMARY KEY);
CREATE TABLE r_nanoflake (id nanoflake DEFAULT gen_nanoflake() PRIMARY KEY);
CREATE TABLE r_caloriosa (id caloriosa DEFAULT gen_caloriosa() PRIMARY KEY);
CREATE TABLE r_uid60 (id uid60 DEFAULT gen_uid60() PRIMARY KEY);
"""


def session(dsn, rate, seconds, index, sessions, queue):
    latencies = {name: [] for name, _ in STATEMENTS}
    with psycopg.connect(dsn, autocommit=True) as conn:
        cur = conn.cursor()
        # Prepared on the server, as a driver's repeated statements are.
        for _, sql in STATEMENTS:
            cur.execute(sql, prepare=True)
        n = len(STATEMENTS)
        step = 0.0 if rate is None else 1.0 / rate / n
        start = time.monotonic()
        # Sessions start staggered across one step.
        next_at = start + step * index / sessions
        round_no = 0
        while time.monotonic() - start < seconds:
            order = [(round_no + index + k) % n for k in range(n)]
            for k in order:
                if step:
                    pause = next_at - time.monotonic()
                    if pause > 0:
                        time.sleep(pause)
                    next_at += step
                name, sql = STATEMENTS[k]
                t0 = time.perf_counter_ns()
                cur.execute(sql, prepare=True)
                latencies[name].append((time.perf_counter_ns() - t0) // 1000)
            round_no += 1
    queue.put(latencies)


def percentile(sorted_values, p):
    if not sorted_values:
        return None
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def main():
    dsn, rate, sessions, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    rate = None if rate == "max" else float(rate)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(SETUP)
    queue = multiprocessing.Queue()
    procs = [
        multiprocessing.Process(target=session, args=(dsn, rate, seconds, i, sessions, queue))
        for i in range(sessions)
    ]
    for p in procs:
        p.start()
    merged = {name: [] for name, _ in STATEMENTS}
    for _ in procs:
        for name, values in queue.get().items():
            merged[name].extend(values)
    for p in procs:
        p.join()
    for name, _ in STATEMENTS:
        values = sorted(merged[name])
        print(json.dumps({
            "statement": name,
            "rate": "flat out" if rate is None else rate,
            "sessions": sessions,
            "calls": len(values),
            "p50_us": percentile(values, 50),
            "p99_us": percentile(values, 99),
            "max_us": values[-1] if values else None,
        }))


if __name__ == "__main__":
    main()
