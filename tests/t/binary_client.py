"""A real binary-protocol client (psycopg 3, libpq underneath) reading and
writing every chronoid type in binary format: results come back through the
types' send functions, parameters go in through their receive functions.
Prints TAP (tests/t/020_binary_client.pl runs it against its own cluster,
named by CHRONOID_TEST_DSN)."""

import os
import struct
import sys

import psycopg
from psycopg import pq

conn = psycopg.connect(os.environ["CHRONOID_TEST_DSN"], autocommit=True)
pgconn = conn.pgconn
n = 0
failed = False


def ok(cond, name):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok"), n, "-", name)
    failed |= not cond


def binary_query(sql, params=(), types=()):
    """exec_params with binary parameters and binary results."""
    res = pgconn.exec_params(sql.encode(), list(params), list(types), [1] * len(params), result_format=1)
    return res


conn.execute("CREATE EXTENSION IF NOT EXISTS chronoid")
oid = {t: conn.execute("SELECT %s::regtype::oid", [t]).fetchone()[0]
       for t in ("nanoflake", "scru160", "codokey", "caloriosa", "uid60")}

conn.execute("DROP TABLE IF EXISTS binclient")
conn.execute("CREATE TABLE binclient (nf nanoflake, s scru160, ck codokey, c caloriosa, u uid60)")
conn.execute("""INSERT INTO binclient SELECT gen_nanoflake(), gen_scru160(),
                codokey(now() - g * interval '7 hours', g % 7), gen_caloriosa(), gen_uid60()
                FROM generate_series(1, 1000) g""")

# Read in binary: the bytes are the documented wire forms.
res = binary_query("SELECT nf, s, ck, c, u, nf::bigint, scru160_to_hex(s), ck::text, c::bigint, u::bigint FROM binclient")
ok(res.status == pq.ExecStatus.TUPLES_OK and res.ntuples == 1000, "1000 rows read with binary results")
rows = [[res.get_value(r, f) for f in range(10)] for r in range(res.ntuples)]
digits = b"0123456789abcdefghijklmnopqrstuvwxyz"
ok(all(len(r[0]) == 8 and struct.unpack(">q", r[0])[0] == struct.unpack(">q", r[5])[0] for r in rows),
   "nanoflake: 8 bytes, big-endian, the bigint's value")
ok(all(len(r[1]) == 20 and r[1].hex().encode() == r[6] for r in rows), "scru160: the 20 raw bytes")
ok(all(bytes(digits[v] for v in r[2]) == r[7] for r in rows), "codokey: one byte per digit value")
ok(all(struct.unpack(">q", r[3])[0] == struct.unpack(">q", r[8])[0] < 0 for r in rows),
   "caloriosa: 8 bytes, the (negative) bigint's bits")
ok(all(struct.unpack(">q", r[4])[0] == struct.unpack(">q", r[9])[0] for r in rows), "uid60: 8 bytes")

# Write in binary: send every value back as a binary parameter.
conn.execute("CREATE TEMP TABLE back (LIKE binclient)")
types = [oid["nanoflake"], oid["scru160"], oid["codokey"], oid["caloriosa"], oid["uid60"]]
bad = 0
for r in rows:
    res = binary_query("INSERT INTO back VALUES ($1, $2, $3, $4, $5)", r[:5], types)
    bad += res.status != pq.ExecStatus.COMMAND_OK
ok(bad == 0, "1000 rows written with binary parameters")
same = conn.execute("""SELECT count(*) FROM binclient a JOIN back b
                       ON (a.nf, a.s, a.ck, a.c, a.u) = (b.nf, b.s, b.ck, b.c, b.u)""").fetchone()[0]
ok(same == 1000, "every value written back equals the original")

# Bad binary parameters are refused with the receive functions' SQLSTATEs.
cases = [
    ("nanoflake", struct.pack(">q", -5), "22P03"),
    ("nanoflake", b"\x00\x01", "08P01"),
    ("scru160", b"\x00" * 19, "08P01"),
    ("scru160", b"\x00" * 21, "22P03"),
    ("codokey", bytes([35, 19, 40]), "22P03"),
    ("caloriosa", struct.pack(">q", 5), "22P03"),
    ("uid60", struct.pack(">q", 1 << 60), "22P03"),
]
for typ, data, state in cases:
    res = binary_query(f"SELECT $1::{typ}", [data], [oid[typ]])
    got = res.error_field(pq.DiagnosticField.SQLSTATE)
    ok(got == state.encode(), f"{typ}: binary {data.hex()} refused with {state} (got {got})")

conn.execute("DROP TABLE binclient")
print(f"1..{n}")
sys.exit(1 if failed else 0)
