"""asyncpg: one set_type_codec per type, in binary format, so that
parameters, results and copy_records_to_table all work."""
import asyncio
import os

import asyncpg

from chronoid_types import TYPES, Nanoflake


async def register(conn):
    for name, cls in TYPES.items():
        await conn.set_type_codec(name, schema="public", format="binary",
                                  encoder=lambda v, cls=cls: cls(v).to_binary(),
                                  decoder=cls.from_binary)


async def main():
    conn = await asyncpg.connect(os.environ["CHRONOID_TEST_URL"])
    await conn.execute("CREATE EXTENSION IF NOT EXISTS chronoid")
    await register(conn)
    await conn.execute("DROP TABLE IF EXISTS apg_event;"
                       " CREATE TABLE apg_event (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(), what text)")
    new_id = await conn.fetchval("INSERT INTO apg_event (what) VALUES ('hello') RETURNING id")
    assert isinstance(new_id, Nanoflake)
    assert await conn.fetchval("SELECT what FROM apg_event WHERE id = $1", new_id) == "hello"
    assert await conn.fetchval("SELECT $1::scru160", "05u0gf0j0sp1adjpt0u4vhimcjjaip51") == "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51"
    await conn.copy_records_to_table("apg_event", records=[(Nanoflake.from_int(12345), "copied")],
                                     columns=["id", "what"])
    assert await conn.fetchval("SELECT id::bigint FROM apg_event WHERE what = 'copied'") == 12345
    await conn.close()
    print("ok - asyncpg: set_type_codec (binary), parameters, results, copy_records_to_table")


asyncio.run(main())
