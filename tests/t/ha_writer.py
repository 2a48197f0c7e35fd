#!/usr/bin/env python3
"""A writer as applications write under a failover manager: one multi-host
connection string with target_session_attrs=read-write, INSERTs whose IDs
come from column DEFAULTs, and a reconnect whenever the leader goes away.
Every row whose commit was acknowledged is printed (server port, nanoflake,
uid60, caloriosa); every spell without a leader is printed as "outage <s>".

    ha_writer.py psycopg|asyncpg DSN OUT STOP_FILE

psycopg is libpq (as psql and most drivers are); asyncpg speaks the
protocol itself, with its own multi-host and target_session_attrs.
"""
import asyncio
import os
import sys
import time

driver, dsn, out_path, stop_path = sys.argv[1:5]
INSERT = "INSERT INTO t DEFAULT VALUES RETURNING inet_server_port(), nf::text, u::text, c::text"


class Log:
    def __init__(self, path):
        self.out = open(path, "a", buffering=1)
        self.down_since = None

    def row(self, row):
        self.out.write("|".join(str(v) for v in row) + "\n")
        if self.down_since is not None:
            self.out.write(f"outage {time.monotonic() - self.down_since:.2f}\n")
            self.down_since = None

    def failed(self):
        if self.down_since is None:
            self.down_since = time.monotonic()


def run_psycopg(log):
    import psycopg

    conn = None
    while not os.path.exists(stop_path):
        try:
            if conn is None:
                conn = psycopg.connect(dsn, autocommit=True, connect_timeout=2)
            log.row(conn.execute(INSERT).fetchone())
            time.sleep(0.01)
        except psycopg.Error:
            log.failed()
            if conn is not None:
                conn.close()
            conn = None
            time.sleep(0.1)


async def run_asyncpg(log):
    import asyncpg

    conn = None
    while not os.path.exists(stop_path):
        try:
            if conn is None:
                conn = await asyncpg.connect(dsn, timeout=2)
            log.row(tuple(await conn.fetchrow(INSERT)))
            await asyncio.sleep(0.01)
        # Any failure (a refused connection, a server gone mid-statement,
        # asyncpg's own InternalClientError when the socket dies under a
        # query): not acknowledged, reconnect.
        except Exception:  # noqa: BLE001
            log.failed()
            if conn is not None and not conn.is_closed():
                conn.terminate()
            conn = None
            await asyncio.sleep(0.1)


log = Log(out_path)
if driver == "psycopg":
    run_psycopg(log)
else:
    asyncio.run(run_asyncpg(log))
