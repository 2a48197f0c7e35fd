"""Each driver, after its one call: all five types as parameters and
results, in arrays, in binary where the driver has binary, through COPY
where it has COPY."""

import asyncio
import io
from typing import Any
from urllib.parse import urlparse

import psycopg
import pytest

from chronoid import Caloriosa, Codokey, Nanoflake, Scru160, Uid60, psycopg as chronoid_psycopg

VALUES = [Nanoflake("3kgeoqm2h3"), Scru160("05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51"), Codokey("yla0"),
          Caloriosa("b8MpZ6ZrkE9"), Uid60("xinaS8QBh")]
TYPES = ["nanoflake", "scru160", "codokey", "caloriosa", "uid60"]
SELECT_PARAMS = "SELECT " + ", ".join(f"%s::{t}" for t in TYPES)
GENERATED = "SELECT gen_nanoflake(), gen_scru160(), codokey(now()), gen_caloriosa(), gen_uid60()"


def check_generated(row: Any) -> None:
    assert [type(v) for v in row] == [type(v) for v in VALUES]


@pytest.mark.parametrize("binary", [False, True])
def test_psycopg(conn: psycopg.Connection, binary: bool) -> None:
    chronoid_psycopg.register_chronoid(conn)
    cur = conn.cursor(binary=binary)
    assert list(cur.execute(SELECT_PARAMS, VALUES).fetchone()) == VALUES
    check_generated(cur.execute(GENERATED).fetchone())
    arrays = cur.execute("SELECT " + ", ".join(f"ARRAY[%s::{t}, NULL]" for t in TYPES), VALUES).fetchone()
    assert list(arrays) == [[v, None] for v in VALUES]
    assert cur.execute("SELECT %s::nanoflake[]", [[VALUES[0], None]]).fetchone() == ([VALUES[0], None],)
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS five (nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60)")
    conn.execute("TRUNCATE five")
    for fmt in ("TEXT", "BINARY"):
        with cur.copy(f"COPY five FROM STDIN (FORMAT {fmt})") as copy:
            copy.set_types(TYPES)
            copy.write_row(VALUES)
        with cur.copy(f"COPY five TO STDOUT (FORMAT {fmt})") as copy:
            copy.set_types(TYPES)
            assert all(list(row) == VALUES for row in copy.rows())
    assert conn.execute("SELECT count(*) FROM five").fetchone() == (2,)


def test_psycopg_async(url: str) -> None:
    async def main() -> None:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as aconn:
            await chronoid_psycopg.register_chronoid_async(aconn)
            cur = await aconn.execute(SELECT_PARAMS, VALUES)
            assert list(await cur.fetchone() or ()) == VALUES

    asyncio.run(main())


def test_psycopg2(url: str) -> None:
    import psycopg2

    from chronoid.psycopg2 import register_chronoid

    conn = psycopg2.connect(url)
    try:
        register_chronoid(conn)
        cur = conn.cursor()
        cur.execute(SELECT_PARAMS, VALUES)
        assert list(cur.fetchone()) == VALUES
        cur.execute(GENERATED)
        check_generated(cur.fetchone())
        cur.execute("SELECT " + ", ".join("%s" for _ in TYPES), [[v, None] for v in VALUES])
        assert list(cur.fetchone()) == [[v, None] for v in VALUES]
        # COPY (text): values written as their text, read back through the casters' classes
        cur.execute("CREATE TEMP TABLE five (nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60)")
        cur.copy_expert("COPY five FROM STDIN", io.StringIO("\t".join(map(str, VALUES)) + "\n"))
        out = io.StringIO()
        cur.copy_expert("COPY five TO STDOUT", out)
        assert [type(v).from_text(t) for v, t in zip(VALUES, out.getvalue().rstrip("\n").split("\t"))] == VALUES
        conn.rollback()
    finally:
        conn.close()


def test_asyncpg(url: str) -> None:
    import asyncpg

    from chronoid.asyncpg import register_chronoid

    async def main() -> None:
        conn = await asyncpg.connect(url)
        try:
            await register_chronoid(conn)
            sql = "SELECT " + ", ".join(f"${i + 1}::{t}" for i, t in enumerate(TYPES))
            assert list(await conn.fetchrow(sql, *VALUES)) == VALUES
            check_generated(await conn.fetchrow(GENERATED))
            sql = "SELECT " + ", ".join(f"${i + 1}::{t}[]" for i, t in enumerate(TYPES))
            assert list(await conn.fetchrow(sql, *[[v, None] for v in VALUES])) == [[v, None] for v in VALUES]
            await conn.execute("CREATE TEMP TABLE five (nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60)")
            await conn.copy_records_to_table("five", records=[tuple(VALUES)])
            assert list(await conn.fetchrow("SELECT * FROM five")) == VALUES
        finally:
            await conn.close()

    asyncio.run(main())


def test_pg8000(url: str) -> None:
    import pg8000.dbapi
    import pg8000.native

    from chronoid.pg8000 import register_chronoid

    u = urlparse(url)
    native = pg8000.native.Connection(u.username or "postgres", host=u.hostname, port=u.port or 5432,
                                      database=u.path[1:])
    try:
        register_chronoid(native)
        sql = "SELECT " + ", ".join(f":p{i}::{t}" for i, t in enumerate(TYPES))
        assert native.run(sql, **{f"p{i}": v for i, v in enumerate(VALUES)})[0] == VALUES
        check_generated(native.run(GENERATED)[0])
        arrays = native.run("SELECT " + ", ".join(f"ARRAY[:p{i}::{t}, NULL]" for i, t in enumerate(TYPES)),
                            **{f"p{i}": v for i, v in enumerate(VALUES)})[0]
        assert arrays == [[v, None] for v in VALUES]
        tricky = Uid60("NULL")  # an array's text quotes an element spelt like NULL
        assert native.run("SELECT ARRAY[:u::uid60]", u=tricky)[0] == [[tricky]]
        # and so does one sent in an array parameter: unquoted, NULL would be SQL NULL
        assert native.run("SELECT :a::uid60[]", a=[tricky, None, VALUES[4]])[0] == [[tricky, None, VALUES[4]]]
        assert native.run("SELECT :a::nanoflake[]", a=[VALUES[0]])[0] == [[VALUES[0]]]
        # COPY (text) in and out
        native.run("CREATE TEMP TABLE five (nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60)")
        native.run("COPY five FROM STDIN", stream=io.BytesIO(("\t".join(map(str, VALUES)) + "\n").encode()))
        out = io.BytesIO()
        native.run("COPY five TO STDOUT", stream=out)
        texts = out.getvalue().decode().rstrip("\n").split("\t")
        assert [type(v).from_text(t) for v, t in zip(VALUES, texts)] == VALUES
    finally:
        native.close()
    dbapi = pg8000.dbapi.connect(u.username or "postgres", host=u.hostname, port=u.port or 5432, database=u.path[1:])
    try:
        register_chronoid(dbapi)
        cur = dbapi.cursor()
        cur.execute(SELECT_PARAMS, VALUES)
        assert list(cur.fetchone()) == VALUES
    finally:
        dbapi.close()
