"""psycopg 3: ``register_chronoid(conn)`` (or ``await
register_chronoid_async(conn)``) makes results of the five types arrive as
chronoid values, in text and binary format, arrays included, and lets the
values be parameters (sent in binary) and COPY rows (text or binary, with
``copy.set_types``)."""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection, AsyncCursor, Connection, Cursor
from psycopg.abc import AdaptContext
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from ._values import TYPES, ChronoidValue

__all__ = ["register_chronoid", "register_chronoid_async"]


def _missing(name: str) -> Exception:
    return LookupError(f"type {name} not found: run CREATE EXTENSION chronoid in this database (or put its schema on search_path)")


def _register(info: TypeInfo, cls: type[ChronoidValue], context: AdaptContext) -> None:
    info.register(context)  # the array type, and the name for COPY's set_types()

    class TextLoader(Loader):
        def load(self, data: Buffer) -> ChronoidValue:
            return cls.from_text(bytes(data).decode())

    class BinaryLoader(Loader):
        format = Format.BINARY

        def load(self, data: Buffer) -> ChronoidValue:
            return cls.from_binary(bytes(data))

    class TextDumper(Dumper):
        oid = info.oid

        def dump(self, obj: Any) -> bytes:
            return str(obj).encode()

    class BinaryDumper(Dumper):
        format = Format.BINARY
        oid = info.oid

        def dump(self, obj: Any) -> bytes:
            return bytes(obj)

    adapters = context.adapters
    adapters.register_loader(info.oid, TextLoader)
    adapters.register_loader(info.oid, BinaryLoader)
    adapters.register_dumper(cls, TextDumper)
    adapters.register_dumper(cls, BinaryDumper)


def register_chronoid(context: Connection[Any] | Cursor[Any]) -> None:
    """Registers the five types on a connection (or one cursor)."""
    conn = context if isinstance(context, Connection) else context.connection
    for name, cls in TYPES.items():
        info = TypeInfo.fetch(conn, name)
        if info is None:
            raise _missing(name)
        _register(info, cls, context)


async def register_chronoid_async(context: AsyncConnection[Any] | AsyncCursor[Any]) -> None:
    """The same for an ``AsyncConnection`` (or one of its cursors)."""
    conn = context if isinstance(context, AsyncConnection) else context.connection
    for name, cls in TYPES.items():
        info = await TypeInfo.fetch(conn, name)
        if info is None:
            raise _missing(name)
        _register(info, cls, context)
