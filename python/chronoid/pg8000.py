"""pg8000 (native or DB-API connections): ``register_chronoid(conn)`` makes
results of the five types arrive as chronoid values and lets the values be
parameters. pg8000 speaks text."""

from __future__ import annotations

from typing import Any

from ._values import TYPES, ChronoidValue

__all__ = ["register_chronoid"]


def _run(conn: Any, sql: str, name: str) -> Any:
    if hasattr(conn, "run"):  # pg8000.native.Connection
        rows = conn.run(sql, name=name)
    else:  # pg8000.dbapi.Connection
        cur = conn.cursor()
        cur.execute(sql.replace(":name", "%s"), (name,))
        rows = cur.fetchall()
    return rows[0] if rows else None


def register_chronoid(conn: Any) -> None:
    for name, cls in TYPES.items():
        row = _run(conn, "SELECT oid, typarray FROM pg_type WHERE oid = to_regtype(:name)", name)
        if row is None:
            raise LookupError(f"type {name} not found: run CREATE EXTENSION chronoid in this database")
        oid, array_oid = row

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
