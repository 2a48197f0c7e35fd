"""Peewee: field classes for the five types, ``NanoflakeField``,
``Scru160Field``, ``CodokeyField``, ``CaloriosaField`` and ``Uid60Field``.
Values are written as their text, cast to the column's type, and read back
as chronoid values, through psycopg 2 or psycopg 3 (``prefer_psycopg3``),
with or without the driver's ``register_chronoid``.

    from peewee import SQL
    from chronoid.peewee import NanoflakeField

    class Event(Model):
        id = NanoflakeField(primary_key=True, constraints=[SQL("DEFAULT gen_nanoflake()")])

    Event.select().where(Event.id.in_period(start, end))   # IDs made between two instants
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, Any, ClassVar

from peewee import Cast, Expression, Field, Value

from ._values import Caloriosa, ChronoidValue, Codokey, Nanoflake, Scru160, Uid60

__all__ = ["CaloriosaField", "ChronoidField", "CodokeyField", "NanoflakeField", "Scru160Field", "Uid60Field"]

if TYPE_CHECKING:
    # peewee's stubs make Field generic in the attribute's type; the class
    # itself is not subscriptable at run time.
    _FieldBase = Field[Any]
else:
    _FieldBase = Field


class ChronoidField(_FieldBase):
    """A column of a chronoid type; values are chronoid values."""

    value_class: ClassVar[type[ChronoidValue]] = ChronoidValue

    def db_value(self, value: Any) -> Any:
        if value is None:
            return None
        cls = self.value_class
        text = (value if isinstance(value, cls) else cls(value)).to_text()
        # Written as text, read by the server as the column's type, so that
        # a comparison uses the column's operators (and index) whatever type
        # the driver gives the parameter. converter=False: this is the value.
        return Cast(Value(text, converter=False), cls.sql_type)

    def python_value(self, value: Any) -> ChronoidValue | None:
        # Text from a plain connection, a value where the driver's
        # register_chronoid ran, bytes from a binary cursor.
        if value is None or isinstance(value, self.value_class):
            return value
        if isinstance(value, (bytes, bytearray, memoryview)):
            return self.value_class.from_binary(value)
        return self.value_class.from_text(str(value))

    def in_period(self, start: _dt.date, end: _dt.date) -> Expression:
        """The IDs whose instant lies between start and end, both included,
        as an indexable BETWEEN of the type's floor and ceil (aware
        datetimes; for codokey, datetimes or dates, whole days in the
        default context)."""
        cls = self.value_class
        if cls is Codokey:  # keys count down: the newest bound is the smallest
            return self.between(Codokey.floor(end), Codokey.ceil(start))
        bounds: Any = cls  # floor and ceil are each subclass's own
        return self.between(bounds.floor(start), bounds.ceil(end))


class NanoflakeField(ChronoidField):
    field_type = "nanoflake"
    value_class = Nanoflake


class Scru160Field(ChronoidField):
    field_type = "scru160"
    value_class = Scru160


class CodokeyField(ChronoidField):
    field_type = "codokey"
    value_class = Codokey


class CaloriosaField(ChronoidField):
    field_type = "caloriosa"
    value_class = Caloriosa


class Uid60Field(ChronoidField):
    field_type = "uid60"
    value_class = Uid60
