"""The package and the server agree: 100,000 random values per type made
by the server read here to the same text and bytes, values made here read
there to the same text and bytes, and both sort them alike."""

import datetime as dt
import os
import random

import psycopg
import pytest

from chronoid import Caloriosa, Codokey, Nanoflake, Scru160, Uid60
from chronoid.psycopg import register_chronoid

N = int(os.environ.get("CHRONOID_CROSS_CHECK_N", "100000"))

# SQL for N random values of each type, over its whole domain.
SERVER_RANDOM = {
    "nanoflake": "(floor(random() * 9223372036854775807::numeric))::bigint::nanoflake",
    "caloriosa": "(-1 - floor(random() * 9223372036854775807::numeric))::bigint::caloriosa",
    "uid60": "(floor(random() * 1152921504606846976::numeric))::bigint::uid60",
    "scru160": "decode(md5(random()::text) || substr(md5(random()::text), 1, 8), 'hex')::scru160",
    "codokey": "codokey(timestamptz '1970-01-01 00:00:00+00' + random() * interval '1295 years',"
               " (random() * 6)::int, 1970, 3265, (ARRAY[9, 99, 999, 9999, 999999])[1 + (random() * 4)::int])",
}
CLASSES = {"nanoflake": Nanoflake, "caloriosa": Caloriosa, "uid60": Uid60, "scru160": Scru160, "codokey": Codokey}


@pytest.mark.parametrize("name", list(CLASSES))
def test_server_values_read_the_same_here(conn: psycopg.Connection, name: str) -> None:
    cls = CLASSES[name]
    rows = conn.execute(
        f"SELECT v::text, {name}_send(v) FROM (SELECT {SERVER_RANDOM[name]} AS v FROM generate_series(1, %s)) r",
        [N]).fetchall()
    assert len(rows) == N
    for text, sent in rows:
        assert cls.from_binary(sent).to_text() == text
        assert cls.from_text(text).to_binary() == sent


def random_values(name: str, rng: random.Random) -> list:
    cls = CLASSES[name]
    if name == "nanoflake":
        return [Nanoflake.from_int(rng.randrange(1 << 63)) for _ in range(N)]
    if name == "caloriosa":
        return [Caloriosa.from_int(-1 - rng.randrange(1 << 63)) for _ in range(N)]
    if name == "uid60":
        return [Uid60.from_int(rng.randrange(1 << 60)) for _ in range(N)]
    if name == "scru160":
        return [Scru160.from_binary(rng.randbytes(20)) for _ in range(N)]
    start = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    return [cls.encode(start + dt.timedelta(microseconds=rng.randrange(1295 * 365 * 86_400_000_000)), rng.randrange(7))
            for _ in range(N)]


@pytest.mark.parametrize("name", list(CLASSES))
def test_values_made_here_read_the_same_there_and_sort_alike(conn: psycopg.Connection, name: str) -> None:
    register_chronoid(conn)
    values = random_values(name, random.Random(name))
    with conn.cursor() as cur:
        cur.execute(f"CREATE TEMP TABLE made_here (n int, v {name}, t text, b bytea)")
        with cur.copy("COPY made_here (n, v, t, b) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["int4", name, "text", "bytea"])
            for n, v in enumerate(values):
                copy.write_row([n, v, v.to_text(), v.to_binary()])
        bad = cur.execute(f"SELECT count(*) FROM made_here WHERE v::text <> t OR {name}_send(v) <> b"
                          f" OR t::{name} <> v").fetchone()
        assert bad == (0,)
        server_order = [n for (n,) in cur.execute("SELECT n FROM made_here ORDER BY v, n")]
        cur.execute("DROP TABLE made_here")
    here = sorted(range(N), key=lambda n: (values[n], n))
    assert server_order == here
