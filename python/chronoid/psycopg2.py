"""psycopg 2: ``register_chronoid(conn)`` makes results of the five types
(and their arrays) arrive as chronoid values, and lets the values be query
parameters. psycopg 2 speaks text only."""

from __future__ import annotations

from typing import Any

import psycopg2.extensions as ext

from ._values import TYPES, ChronoidValue

__all__ = ["register_chronoid"]


class _Literal:
    """A value as a SQL literal of its type: ``'<text>'::<type>``."""

    def __init__(self, value: ChronoidValue) -> None:
        self._sql = ext.QuotedString(value.to_text()).getquoted() + b"::" + value.sql_type.encode()

    def getquoted(self) -> bytes:
        return self._sql


def _caster(cls: type[ChronoidValue]) -> Any:
    def cast(value: str | bytes | None, _cur: Any) -> ChronoidValue | None:
        if value is None:
            return None
        return cls.from_text(value.decode() if isinstance(value, bytes) else value)

    return cast


def register_chronoid(conn_or_curs: Any, globally: bool = False) -> None:
    """Registers the types' casters on the connection (or cursor), or for
    every connection with ``globally=True``; parameters adapt everywhere
    (psycopg 2's adapters are global)."""
    cur = conn_or_curs.cursor() if hasattr(conn_or_curs, "cursor") else conn_or_curs
    scope = None if globally else conn_or_curs
    for name, cls in TYPES.items():
        cur.execute("SELECT oid, typarray FROM pg_type WHERE oid = to_regtype(%s)", (name,))
        row = cur.fetchone()
        if row is None:
            raise LookupError(f"type {name} not found: run CREATE EXTENSION chronoid in this database")
        oid, array_oid = row

        caster = ext.new_type((oid,), name.upper(), _caster(cls))
        ext.register_type(caster, scope)
        ext.register_type(ext.new_array_type((array_oid,), name.upper() + "[]", caster), scope)
        ext.register_adapter(cls, _Literal)
