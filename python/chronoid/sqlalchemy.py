"""SQLAlchemy 2 column types: ``NANOFLAKE``, ``SCRU160``, ``CODOKEY``,
``CALORIOSA``, ``UID60``. Values bind from chronoid values (or their text)
and load as chronoid values, through any PostgreSQL driver. Importing this
module registers the types with the PostgreSQL dialect, so reflection gives
them back (and alembic's autogenerate sees no difference).

Array columns (``postgresql.ARRAY(NANOFLAKE)``) need the driver to read the
arrays: ``register_chronoid(engine)`` registers chronoid's psycopg 3 or
psycopg 2 adapters on every connection the engine opens.

For alembic, pass ``render_item=chronoid.sqlalchemy.render_item`` to
``context.configure`` in ``env.py``: generated migrations then import this
module themselves and run as generated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal

from sqlalchemy import literal_column
from sqlalchemy.dialects.postgresql import base as _pg_base
from sqlalchemy.sql.elements import BindParameter, ColumnElement
from sqlalchemy.types import UserDefinedType

from ._values import Caloriosa, ChronoidValue, Codokey, Nanoflake, Scru160, Uid60

__all__ = ["CALORIOSA", "CODOKEY", "NANOFLAKE", "SCRU160", "UID60", "register_chronoid", "render_item"]


class _ChronoidType(UserDefinedType[ChronoidValue]):
    cache_ok = True
    value_class: ClassVar[type[ChronoidValue]]

    def get_col_spec(self, **kw: Any) -> str:
        return self.value_class.sql_type

    @property
    def python_type(self) -> type[ChronoidValue]:
        return self.value_class

    def bind_processor(self, dialect: Any) -> Callable[[Any], str | None]:
        cls = self.value_class

        def process(value: Any) -> str | None:
            if value is None:
                return None
            return (value if isinstance(value, cls) else cls(value)).to_text()

        return process

    def result_processor(self, dialect: Any, coltype: Any) -> Callable[[Any], ChronoidValue | None]:
        cls = self.value_class

        def process(value: Any) -> ChronoidValue | None:
            if value is None or isinstance(value, cls):
                return value
            if isinstance(value, (bytes, bytearray, memoryview)):
                return cls.from_binary(value)
            return cls.from_text(str(value))

        return process

    def bind_expression(self, bindvalue: BindParameter[Any]) -> ColumnElement[Any]:
        # Parameters travel as text; the cast makes the server read them as
        # the column's type (a comparison with text would not use its index).
        return bindvalue.op("::", is_comparison=False)(literal_column(self.value_class.sql_type))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class NANOFLAKE(_ChronoidType):
    cache_ok = True
    value_class = Nanoflake


class SCRU160(_ChronoidType):
    cache_ok = True
    value_class = Scru160


class CODOKEY(_ChronoidType):
    cache_ok = True
    value_class = Codokey


class CALORIOSA(_ChronoidType):
    cache_ok = True
    value_class = Caloriosa


class UID60(_ChronoidType):
    cache_ok = True
    value_class = Uid60


for _type in (NANOFLAKE, SCRU160, CODOKEY, CALORIOSA, UID60):
    _pg_base.ischema_names[_type.value_class.sql_type] = _type


def render_item(type_: str, obj: Any, autogen_context: Any) -> str | Literal[False]:
    """alembic's ``render_item`` hook: renders the column types with the
    import they need, and leaves everything else to alembic."""
    if type_ == "type" and isinstance(obj, _ChronoidType):
        autogen_context.imports.add("import chronoid.sqlalchemy")
        return f"chronoid.sqlalchemy.{obj!r}"
    return False


def register_chronoid(engine: Any) -> None:
    """Registers the driver's chronoid adapters (``chronoid.psycopg`` or
    ``chronoid.psycopg2``) on each new connection of a psycopg or psycopg2
    engine, so that arrays of the types load as lists of values."""
    from sqlalchemy import event

    driver = engine.dialect.driver
    register: Callable[[Any], None]
    if driver == "psycopg":
        from .psycopg import register_chronoid as register_psycopg

        register = register_psycopg
    elif driver == "psycopg2":
        from .psycopg2 import register_chronoid as register_psycopg2

        register = register_psycopg2
    else:
        raise ValueError(f"register_chronoid supports the psycopg and psycopg2 drivers, not {driver}")

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        register(dbapi_connection)

    event.listen(engine, "connect", on_connect)

