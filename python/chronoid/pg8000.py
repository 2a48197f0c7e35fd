"""pg8000 (native or DB-API connections): ``register_chronoid(conn)`` makes
results of the five types arrive as chronoid values and lets the values be
parameters. pg8000 speaks text."""

from __future__ import annotations

import importlib
from typing import Any

from ._values import TYPES, ChronoidValue

__all__ = ["register_chronoid"]


# One statement, without parameters, so that pg8000 sends it as a simple
# query: a parameterized one goes out as Parse, Describe and Bind with a
# Sync after each, and behind PgBouncer in transaction mode, outside a
# transaction, those may reach different server connections (and bind
# another client's unnamed statement).
_LOOKUP = ("SELECT n.name, t.oid, t.typarray FROM (VALUES "
           + ", ".join(f"('{name}')" for name in TYPES)
           + ") AS n(name) LEFT JOIN pg_type t ON t.oid = to_regtype(n.name)")


# pg8000 writes an array parameter's elements through its own array_out (a
# singledispatch function of the module, not of a connection), which quotes
# only the strings that need it: a value spelt like NULL (uid60 has one) must
# be quoted too, or it arrives as SQL NULL. Registered once, at import.
_converters: Any = importlib.import_module("pg8000.converters")
_converters.array_out.register(ChronoidValue)(lambda v: _converters.array_string_escape(str(v)))


def _lookup(conn: Any) -> list[Any]:
    if hasattr(conn, "run"):  # pg8000.native.Connection
        return list(conn.run(_LOOKUP))
    cur = conn.cursor()  # pg8000.dbapi.Connection
    cur.execute(_LOOKUP)
    return list(cur.fetchall())


def register_chronoid(conn: Any) -> None:
    oids = {name: (oid, array_oid) for name, oid, array_oid in _lookup(conn)}
    for name, cls in TYPES.items():
        oid, array_oid = oids[name]
        if oid is None:
            raise LookupError(f"type {name} not found: run CREATE EXTENSION chronoid in this database")

        def load(text: str, cls: type[ChronoidValue] = cls) -> ChronoidValue:
            return cls.from_text(text)

        def load_array(text: str, cls: type[ChronoidValue] = cls) -> list[ChronoidValue | None]:
            # One-dimensional; the types' texts hold no comma, quote or
            # backslash, but one spelt like NULL comes quoted.
            inner = text[1:-1]
            if not inner:
                return []
            return [None if e == "NULL" else cls.from_text(e.strip('"')) for e in inner.split(",")]

        conn.register_in_adapter(oid, load)
        conn.register_in_adapter(array_oid, load_array)
        conn.register_out_adapter(cls, str)
