"""psycopg 3: text mode as is; binary mode, typed values and binary COPY
after chronoid_psycopg.register(conn)."""
import os

import psycopg

import chronoid_psycopg
from chronoid_types import TYPES, Nanoflake, Scru160

SAMPLES = {"nanoflake": "3kgeoqm2h3", "scru160": "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51",
           "codokey": "yjbu", "caloriosa": "b8MpZ6ZrkE9", "uid60": "xinaS8QBh"}

with psycopg.connect(os.environ["CHRONOID_TEST_DSN"], autocommit=True) as conn:
    conn.execute("CREATE EXTENSION IF NOT EXISTS chronoid")
    conn.execute("DROP TABLE IF EXISTS py_event")
    conn.execute("CREATE TABLE py_event (id nanoflake PRIMARY KEY DEFAULT gen_nanoflake(),"
                 " upload scru160 DEFAULT gen_scru160(), what text)")

    # Text mode, as is: values are str, parameters are bound as text.
    new_id = conn.execute("INSERT INTO py_event (what) VALUES ('hello') RETURNING id").fetchone()[0]
    assert isinstance(new_id, str)
    assert conn.execute("SELECT what FROM py_event WHERE id = %s", [new_id]).fetchone()[0] == "hello"

    # Binary mode: register once per connection; values come back typed.
    chronoid_psycopg.register(conn)
    cur = conn.cursor(binary=True)
    for name, text in SAMPLES.items():
        value = cur.execute(f"SELECT %s::{name}", [text]).fetchone()[0]
        assert type(value) is TYPES[name] and value == text, (name, value)
        echoed = cur.execute(f"SELECT %s::{name}::text", [value]).fetchone()[0]  # a binary parameter
        assert echoed == text, (name, echoed)
    ids = cur.execute("SELECT array_agg(id) FROM py_event").fetchone()[0]
    assert ids == [new_id] and type(ids[0]) is Nanoflake

    # Binary COPY: set_types() finds the registered types by name.
    with cur.copy("COPY py_event (id, upload, what) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(["nanoflake", "scru160", "text"])
        copy.write_row([Nanoflake.from_int(12345), Scru160(SAMPLES["scru160"]), "copied"])
    with cur.copy("COPY (SELECT id, upload FROM py_event WHERE what = 'copied') TO STDOUT (FORMAT BINARY)") as copy:
        copy.set_types(["nanoflake", "scru160"])
        rows = list(copy.rows())
    assert rows == [(Nanoflake.from_int(12345), Scru160(SAMPLES["scru160"]))], rows
    assert int(rows[0][0]) == 12345
print("ok - psycopg 3: text as is, binary typed values, arrays, binary COPY")
