"""chronoid's time-ordered IDs for Python.

    from chronoid import Nanoflake, Scru160, Codokey, Caloriosa, Uid60

Each value parses from and prints as the text PostgreSQL prints
(``from_text``/``to_text``/``str``), reads and writes the server's binary
form (``from_binary``/``to_binary``/``bytes``), compares and hashes as the
server's operator classes do, and gives its fields and instant. The codecs
are the chronoid-formats crate's, the code the server runs.

One call per driver: ``chronoid.psycopg.register_chronoid(conn)``,
``chronoid.psycopg2``, ``chronoid.asyncpg``, ``chronoid.pg8000``; column types
in ``chronoid.sqlalchemy``, ``chronoid.django`` and ``chronoid.peewee``.
"""

from ._values import (
    DEFAULT_CODOKEY_CONTEXT,
    DEFAULT_CODOKEY_PRECISION,
    DEFAULT_NANOFLAKE_EPOCH,
    TYPES,
    Caloriosa,
    ChronoidValue,
    Codokey,
    CodokeyContext,
    Nanoflake,
    Scru160,
    Uid60,
)

__version__ = "0.7.0"
__all__ = [
    "DEFAULT_CODOKEY_CONTEXT",
    "DEFAULT_CODOKEY_PRECISION",
    "DEFAULT_NANOFLAKE_EPOCH",
    "TYPES",
    "Caloriosa",
    "ChronoidValue",
    "Codokey",
    "CodokeyContext",
    "Nanoflake",
    "Scru160",
    "Uid60",
]
