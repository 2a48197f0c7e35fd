"""Each driver behind PgBouncer 1.18 in transaction mode
(CHRONOID_PGBOUNCER_URL, set by tests/t/024_python_package.pl: a pool of
two server connections in front of DATABASE_URL's database), with several
concurrent clients, so that server connections are shared by clients and a
client's consecutive transactions meet different ones: every type written
and read back, in text and binary where the driver has both, in arrays,
with the server's generated defaults.

PgBouncer 1.18 does not follow prepared statements: a named statement lives
on the one server connection it was prepared on, where other clients may
prepare the same name (psycopg counts names per connection, asyncpg per
process) and from where the client's next transaction may have moved. What each driver needs
(psycopg 3: prepare_threshold=None; asyncpg: statement_cache_size=0; the
same through SQLAlchemy) is shown by a test that fails without it, the
specific error pinned; pg8000 needs its statements with parameters inside
transactions (test_pg8000 says why). chronoid's registration keeps nothing
on the server (OIDs looked up, adapters kept in the client), so it needs
nothing more."""

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlparse

import asyncpg
import pg8000.dbapi
import pg8000.native
import psycopg
import pytest
import sqlalchemy as sa
from psycopg_pool import AsyncConnectionPool, ConnectionPool
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import create_async_engine

from chronoid import Caloriosa, Codokey, Nanoflake, Scru160, Uid60
from chronoid import asyncpg as chronoid_asyncpg, pg8000 as chronoid_pg8000, psycopg as chronoid_psycopg
from chronoid import sqlalchemy as chronoid_sqlalchemy
from chronoid.sqlalchemy import CALORIOSA, CODOKEY, NANOFLAKE, SCRU160, UID60

CLIENTS = 6  # more than PgBouncer's two server connections
# More than psycopg's default prepare_threshold (5) executions of each
# statement per connection: without the setting, psycopg would prepare.
ROUNDS = 8

TYPES = ["nanoflake", "scru160", "codokey", "caloriosa", "uid60"]
COLUMNS = ["nf", "s", "ck", "c", "u"]
ARRAY_COLUMNS = [f"{c}_array" for c in COLUMNS]
MADE_COLUMNS = ["made_s", "made_ck", "made_c", "made_u"]  # the server's defaults
VALUES = [Nanoflake("3kgeoqm2h3"), Scru160("05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51"), Codokey("yla0"),
          Caloriosa("b8MpZ6ZrkE9"), Uid60("xinaS8QBh")]
ARRAYS = [[v, None] for v in VALUES]
SELECT_PARAMS = "SELECT " + ", ".join(f"%s::{t}" for t in TYPES)
# What clients with prepared statements leave on the server connections:
# the working settings never meet them.
LEFTOVERS = ("_pg3_0", "__asyncpg_stmt_1__")


@pytest.fixture(scope="module")
def bouncer() -> str:
    url = os.environ.get("CHRONOID_PGBOUNCER_URL")
    if not url:
        pytest.fail("CHRONOID_PGBOUNCER_URL is not set: run through tests/t/024_python_package.pl")
    return url


@pytest.fixture
def table(conn: psycopg.Connection, request: pytest.FixtureRequest) -> Iterator[str]:
    """A table of every type, plain (a temporary table is session state,
    which transaction mode does not keep), made directly on the server."""
    name = "pgb_" + request.node.name.replace("[", "_").replace("]", "").replace("-", "_")
    conn.execute(f"DROP TABLE IF EXISTS {name}")
    conn.execute(f"""CREATE TABLE {name} (
        id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), client int NOT NULL,
        {", ".join(f"{c} {t}" for c, t in zip(COLUMNS, TYPES))},
        {", ".join(f"{c} {t}[]" for c, t in zip(ARRAY_COLUMNS, TYPES))},
        made_s scru160 DEFAULT gen_scru160(), made_ck codokey DEFAULT codokey(now()),
        made_c caloriosa DEFAULT gen_caloriosa(), made_u uid60 DEFAULT gen_uid60())""")
    yield name
    conn.execute(f"DROP TABLE {name}")


def check_row(row: Any) -> None:
    """(id, five values, five arrays, four generated): as written, and of
    the types' classes."""
    row = list(row)
    assert isinstance(row[0], Nanoflake)
    assert row[1:6] == VALUES
    assert row[6:11] == ARRAYS
    assert [type(v) for v in row[11:]] == [Scru160, Codokey, Caloriosa, Uid60]


def insert_sql(table: str, placeholder: Callable[[int], str]) -> str:
    columns = ["client", *COLUMNS, *ARRAY_COLUMNS]
    return (f"INSERT INTO {table} ({', '.join(columns)})"
            f" VALUES ({', '.join(placeholder(i) for i in range(len(columns)))}) RETURNING id")


def select_sql(table: str, placeholder: str) -> str:
    return f"SELECT id, {', '.join(COLUMNS + ARRAY_COLUMNS + MADE_COLUMNS)} FROM {table} WHERE id = {placeholder}"


def in_threads(work: Callable[[int], Any]) -> list[Any]:
    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(work, range(CLIENTS)))


# psycopg 3 ------------------------------------------------------------------

def reset_server_connections(bouncer: str, *names: str) -> None:
    """Empties PgBouncer's two server connections of prepared statements and
    prepares the statements named on each, as earlier clients (of other
    processes, or with other settings) leave them: two transactions held at
    once are on the two."""
    held = [psycopg.connect(bouncer, prepare_threshold=None) for _ in range(2)]
    try:
        for conn in held:
            conn.execute("DEALLOCATE ALL")
            for name in names:
                conn.execute(f"PREPARE {name} AS SELECT 1")
        assert len({conn.execute("SELECT pg_backend_pid()").fetchone() for conn in held}) == 2
        for conn in held:
            conn.commit()
    finally:
        for conn in held:
            conn.close()


def test_psycopg_pool_without_prepare_threshold_none_fails(bouncer: str) -> None:
    reset_server_connections(bouncer, "_pg3_0")  # the first name of every psycopg connection
    with ConnectionPool(bouncer, configure=chronoid_psycopg.register_chronoid, min_size=1, max_size=1) as pool:
        with pytest.raises(psycopg.errors.DuplicatePreparedStatement, match='"_pg3_0" already exists'):
            for _ in range(6):  # the 6th execution prepares (prepare_threshold=5)
                with pool.connection() as c:
                    assert list(c.execute(SELECT_PARAMS, VALUES).fetchone() or ()) == VALUES


def test_psycopg_pool(bouncer: str, table: str) -> None:
    reset_server_connections(bouncer, *LEFTOVERS)
    backends: set[int] = set()

    def client(n: int) -> None:
        for i in range(ROUNDS):
            binary = i % 2 == 1  # parameters and results in binary, or both in text
            mark = "%b" if binary else "%t"
            with pool.connection() as c:
                cur = c.cursor(binary=binary)
                [new_id] = cur.execute(insert_sql(table, lambda _: mark), [n, *VALUES, *ARRAYS]).fetchone() or ()
                check_row(cur.execute(select_sql(table, mark), [new_id]).fetchone())
                backends.add((cur.execute("SELECT pg_backend_pid()").fetchone() or ())[0])
        with pool.connection() as c, c.cursor().copy(
                f"COPY {table} (client, {', '.join(COLUMNS)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["int4", *TYPES])
            copy.write_row([n, *VALUES])

    # prepare_threshold=None: never a named prepared statement.
    with ConnectionPool(bouncer, configure=chronoid_psycopg.register_chronoid, kwargs={"prepare_threshold": None},
                        min_size=CLIENTS, max_size=CLIENTS) as pool:
        in_threads(client)
        with pool.connection() as c:
            rows = c.execute(f"SELECT client, {', '.join(COLUMNS)} FROM {table}").fetchall()
    assert len(rows) == CLIENTS * (ROUNDS + 1) and all(list(r[1:]) == VALUES for r in rows)
    assert len(backends) <= 2 < CLIENTS  # the clients shared PgBouncer's two server connections


def test_psycopg_async_pool(bouncer: str, table: str) -> None:
    reset_server_connections(bouncer, *LEFTOVERS)
    async def client(pool: AsyncConnectionPool, n: int) -> None:
        for i in range(ROUNDS):
            binary = i % 2 == 1
            mark = "%b" if binary else "%t"
            async with pool.connection() as c:
                cur = c.cursor(binary=binary)
                await cur.execute(insert_sql(table, lambda _: mark), [n, *VALUES, *ARRAYS])
                [new_id] = await cur.fetchone() or ()
                await cur.execute(select_sql(table, mark), [new_id])
                check_row(await cur.fetchone())

    async def main() -> None:
        async with AsyncConnectionPool(bouncer, configure=chronoid_psycopg.register_chronoid_async,
                                       kwargs={"prepare_threshold": None}, min_size=CLIENTS,
                                       max_size=CLIENTS, open=False) as pool:
            await asyncio.gather(*(client(pool, n) for n in range(CLIENTS)))

    asyncio.run(main())


# asyncpg --------------------------------------------------------------------

async def hold_server_connection(bouncer: str, pid: int) -> Any:
    """Opens transactions until one holds PgBouncer's server connection pid
    (there are two; any others opened on the way are ended) and returns it:
    the next transaction of any other client is then on the other one."""
    held = []
    while True:
        conn = await asyncpg.connect(bouncer, statement_cache_size=0)
        transaction = conn.transaction()
        await transaction.start()
        if await conn.fetchval("SELECT pg_backend_pid()") == pid:
            for other, other_transaction in held:
                await other_transaction.rollback()
                await other.close()
            return conn, transaction
        held.append((conn, transaction))


def test_asyncpg_statement_cache_fails(bouncer: str) -> None:
    """asyncpg's statement cache (on by default) names each statement once
    (one counter for all the connections of a process, so two of them never
    collide; other processes count from the same start) and prepares it on
    the server connection of that moment. An explicit transaction keeps one
    server connection for its length, which lets a statement be prepared
    and used in it, but the cache outlives the transaction: the next one,
    on the other server connection, finds no such statement. The same
    happens between the Parse and the Bind of a statement outside a
    transaction when other clients are busy. chronoid's registration
    (queries and set_type_codec's introspection, all through the cache)
    meets it as any statement does, and needs nothing of its own."""
    reset_server_connections(bouncer)

    async def main() -> None:
        conn = await asyncpg.connect(bouncer)
        try:
            async with conn.transaction():
                await chronoid_asyncpg.register_chronoid(conn)  # its statements, prepared in this transaction
                assert await conn.fetchval("SELECT $1::nanoflake", VALUES[0]) == VALUES[0]
                pid = await conn.fetchval("SELECT pg_backend_pid()")
            held, transaction = await hold_server_connection(bouncer, pid)
            try:
                async with conn.transaction():
                    with pytest.raises(asyncpg.exceptions.InvalidSQLStatementNameError,
                                       match=r'prepared statement "__asyncpg_stmt_\w+__" does not exist') as error:
                        await conn.fetchval("SELECT $1::nanoflake", VALUES[0])
                assert "pgbouncer" in str(error.value)  # asyncpg's hint: statement_cache_size=0
            finally:
                await transaction.rollback()
                await held.close()
        finally:
            await conn.close()

    asyncio.run(main())


ANOTHER_PROCESS = """
import asyncio, os
import asyncpg
from chronoid.asyncpg import register_chronoid

async def main() -> None:
    conn = await asyncpg.connect(os.environ["CHRONOID_PGBOUNCER_URL"])
    try:
        await register_chronoid(conn)
        print("registered")
    except asyncpg.PostgresError as e:
        print(type(e).__name__, e.sqlstate)
    finally:
        await conn.close()

asyncio.run(main())
"""


def test_asyncpg_statement_cache_names_collide_across_processes(bouncer: str) -> None:
    """Each process (each worker of an application) names its statements
    from __asyncpg_stmt_1__ on: a server connection another process used
    holds them already."""
    reset_server_connections(bouncer, "__asyncpg_stmt_1__")
    run = subprocess.run([sys.executable, "-c", ANOTHER_PROCESS], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "CHRONOID_PGBOUNCER_URL": bouncer})
    assert run.stdout.split() == ["DuplicatePreparedStatementError", "42P05"], run.stdout + run.stderr


def test_asyncpg_pool_without_statement_cache(bouncer: str, table: str) -> None:
    reset_server_connections(bouncer, *LEFTOVERS)
    insert = insert_sql(table, lambda i: f"${i + 1}")
    select = select_sql(table, "$1")

    async def client(pool: Any, n: int) -> None:
        for i in range(ROUNDS):
            async with pool.acquire() as c:
                # an explicit transaction, or a statement on its own
                async with c.transaction() if i % 2 else contextlib.nullcontext():
                    new_id = await c.fetchval(insert, n, *VALUES, *ARRAYS)
                    check_row(await c.fetchrow(select, new_id))
        async with pool.acquire() as c:
            await c.copy_records_to_table(table, records=[(n, *VALUES)], columns=["client", *COLUMNS])

    async def main() -> None:
        # statement_cache_size=0: unnamed statements, parsed again with each
        # execution (asyncpg's own provision for PgBouncer).
        async with asyncpg.create_pool(bouncer, statement_cache_size=0, init=chronoid_asyncpg.register_chronoid,
                                       min_size=CLIENTS, max_size=CLIENTS) as pool:
            await asyncio.gather(*(client(pool, n) for n in range(CLIENTS)))
            rows = await pool.fetch(f"SELECT {', '.join(COLUMNS)} FROM {table}")
        assert len(rows) == CLIENTS * (ROUNDS + 1) and all(list(r) == VALUES for r in rows)

    asyncio.run(main())


# pg8000 ---------------------------------------------------------------------

def test_pg8000(bouncer: str, table: str) -> None:
    """pg8000 sends a statement with parameters as Parse, Describe and Bind
    with a Sync after each: outside a transaction, PgBouncer may hand each
    to another server connection ("unnamed prepared statement does not
    exist", or another client's statement bound), so each such statement
    belongs in a transaction. A DB-API connection begins one itself; a
    native one (autocommit) needs START TRANSACTION ... COMMIT. chronoid's
    registration is one simple query, safe outside a transaction."""
    u = urlparse(bouncer)
    connect: dict[str, Any] = {"user": u.username, "host": u.hostname, "port": u.port, "database": u.path[1:]}
    insert = insert_sql(table, lambda i: f":p{i}")
    select = select_sql(table, ":id")

    def client(n: int) -> None:
        native = pg8000.native.Connection(**connect)
        try:
            chronoid_pg8000.register_chronoid(native)
            for _ in range(ROUNDS):
                native.run("START TRANSACTION")
                [[new_id]] = native.run(insert, **{f"p{i}": v for i, v in enumerate([n, *VALUES, *ARRAYS])})
                check_row(native.run(select, id=new_id)[0])
                native.run("COMMIT")
        finally:
            native.close()
        dbapi = pg8000.dbapi.connect(**connect)
        try:
            chronoid_pg8000.register_chronoid(dbapi)
            cur = dbapi.cursor()
            for _ in range(ROUNDS):
                cur.execute(insert_sql(table, lambda _: "%s"), [n, *VALUES, *ARRAYS])
                [new_id] = cur.fetchone()
                cur.execute(select_sql(table, "%s"), [new_id])
                check_row(cur.fetchone())
                dbapi.commit()
        finally:
            dbapi.close()

    in_threads(client)


# SQLAlchemy -----------------------------------------------------------------

def sa_table(name: str) -> Any:
    types = [NANOFLAKE, SCRU160, CODOKEY, CALORIOSA, UID60]
    return sa.Table(
        name, sa.MetaData(),
        sa.Column("id", NANOFLAKE, primary_key=True, server_default=sa.text("gen_nanoflake()")),
        sa.Column("client", sa.Integer),
        *[sa.Column(c, t) for c, t in zip(COLUMNS, types)],
        *[sa.Column(c, postgresql.ARRAY(t)) for c, t in zip(ARRAY_COLUMNS, types)],
        *[sa.Column(c, t) for c, t in zip(MADE_COLUMNS, [SCRU160, CODOKEY, CALORIOSA, UID60])])


def sa_round_trip(conn: Any, t: Any, n: int) -> Any:
    """The statements of one transaction (for a sync or an async connection's
    run_sync)."""
    values = dict(zip(COLUMNS + ARRAY_COLUMNS, VALUES + ARRAYS))
    new_id = conn.execute(sa.insert(t).values(client=n, **values).returning(t.c.id)).scalar_one()
    row = conn.execute(sa.select(t.c.id, *[t.c[c] for c in COLUMNS + ARRAY_COLUMNS + MADE_COLUMNS])
                       .where(t.c.id == new_id)).one()
    check_row(row)
    at = new_id.datetime  # and a range query of floor and ceil
    assert conn.execute(sa.select(sa.func.count()).where(
        t.c.client == n, t.c.id.between(Nanoflake.floor(at), Nanoflake.ceil(at)))).scalar_one() >= 1
    return new_id


def test_sqlalchemy_psycopg(bouncer: str, table: str) -> None:
    reset_server_connections(bouncer, *LEFTOVERS)
    t = sa_table(table)
    # prepare_threshold=None, as for psycopg itself; register_chronoid for the arrays.
    engine = sa.create_engine(bouncer.replace("postgresql://", "postgresql+psycopg://"),
                              connect_args={"prepare_threshold": None}, pool_size=CLIENTS)
    chronoid_sqlalchemy.register_chronoid(engine)

    def client(n: int) -> None:
        for _ in range(ROUNDS):
            with engine.begin() as conn:
                sa_round_trip(conn, t, n)

    try:
        in_threads(client)
    finally:
        engine.dispose()


def test_sqlalchemy_psycopg_without_prepare_threshold_none_fails(bouncer: str) -> None:
    reset_server_connections(bouncer, "_pg3_0")
    engine = sa.create_engine(bouncer.replace("postgresql://", "postgresql+psycopg://"), pool_size=1)
    try:
        with pytest.raises(sa.exc.ProgrammingError) as error:
            for _ in range(6):
                # committed (a rollback would reset psycopg's counts)
                with engine.begin() as conn:
                    conn.execute(sa.text("SELECT CAST(:v AS nanoflake)"), {"v": "3kgeoqm2h3"}).scalar_one()
        assert isinstance(error.value.orig, psycopg.errors.DuplicatePreparedStatement)
    finally:
        engine.dispose()


def test_sqlalchemy_asyncpg(bouncer: str, table: str) -> None:
    reset_server_connections(bouncer, *LEFTOVERS)
    t = sa_table(table)

    async def client(engine: Any, n: int) -> None:
        for _ in range(ROUNDS):
            async with engine.begin() as conn:
                await conn.run_sync(sa_round_trip, t, n)

    async def main() -> None:
        # statement_cache_size=0: the dialect's prepare() then makes
        # unnamed statements (asyncpg names them only with its cache on).
        engine = create_async_engine(bouncer.replace("postgresql://", "postgresql+asyncpg://"),
                                     connect_args={"statement_cache_size": 0}, pool_size=CLIENTS)
        try:
            await asyncio.gather(*(client(engine, n) for n in range(CLIENTS)))
        finally:
            await engine.dispose()

    asyncio.run(main())


def test_sqlalchemy_asyncpg_without_statement_cache_size_0_fails(bouncer: str) -> None:
    """The dialect runs each statement in a transaction and keeps its
    prepared statements for the next: as asyncpg's own cache does."""
    query = sa.select(sa.cast(sa.literal("3kgeoqm2h3"), NANOFLAKE()))

    reset_server_connections(bouncer)

    async def main() -> None:
        engine = create_async_engine(bouncer.replace("postgresql://", "postgresql+asyncpg://"), pool_size=1)
        try:
            async with engine.connect() as conn:
                assert (await conn.execute(query)).scalar_one() == VALUES[0]
                pid = (await conn.execute(sa.text("SELECT pg_backend_pid()"))).scalar_one()
            held, transaction = await hold_server_connection(bouncer, pid)
            try:
                with pytest.raises(sa.exc.DBAPIError) as error:
                    async with engine.connect() as conn:
                        await conn.execute(query)
                assert isinstance(error.value.orig.__cause__, asyncpg.exceptions.InvalidSQLStatementNameError)
            finally:
                await transaction.rollback()
                await held.close()
        finally:
            await engine.dispose()

    asyncio.run(main())

