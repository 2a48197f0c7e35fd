"""asyncpg: ``await register_chronoid(conn)`` sets a binary codec per type,
so that parameters, results, arrays and ``copy_records_to_table`` carry
chronoid values. In a pool: ``asyncpg.create_pool(..., init=register_chronoid)``."""

from __future__ import annotations

from typing import Any

from ._values import TYPES, ChronoidValue

__all__ = ["register_chronoid"]


def _encoder(cls: type[ChronoidValue]) -> Any:
    def encode(value: Any) -> bytes:
        return bytes(value if isinstance(value, cls) else cls(value))

    return encode


async def register_chronoid(conn: Any) -> None:
    for name, cls in TYPES.items():
        schema = await conn.fetchval(
            "SELECT n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace"
            " WHERE t.oid = to_regtype($1)", name)
        if schema is None:
            raise LookupError(f"type {name} not found: run CREATE EXTENSION chronoid in this database")
        await conn.set_type_codec(name, schema=schema, format="binary",
                                  encoder=_encoder(cls), decoder=cls.from_binary)
