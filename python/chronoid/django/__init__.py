"""Django: model fields for the five types, a migration operation that
creates the extension, a ``__in_period`` lookup for time ranges, and form
fields that validate as the server does (what the admin uses).

    from chronoid.django import NanoflakeField, CreateChronoidExtension

    class Event(models.Model):
        id = NanoflakeField(primary_key=True, db_default=RawSQL("gen_nanoflake()", []))

    Event.objects.filter(id__in_period=(start, end))   # IDs made between two instants
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.postgres.operations import CreateExtension
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.lookups import Range

from .._values import Caloriosa, ChronoidValue, Codokey, Nanoflake, Scru160, Uid60

__all__ = ["CaloriosaField", "ChronoidField", "CodokeyField", "CreateChronoidExtension", "NanoflakeField",
           "Scru160Field", "Uid60Field"]


class CreateChronoidExtension(CreateExtension):
    """``CREATE EXTENSION IF NOT EXISTS chronoid`` as a migration step."""

    def __init__(self) -> None:
        self.name = "chronoid"


class ChronoidFormField(forms.CharField):
    def __init__(self, *, value_class: type[ChronoidValue], **kwargs: Any) -> None:
        self.value_class = value_class
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> ChronoidValue | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        try:
            return self.value_class(text)
        except ValueError as e:
            raise ValidationError(str(e), code="invalid") from e


class ChronoidField(models.Field):  # type: ignore[type-arg]
    """A column of a chronoid type; values are chronoid values."""

    value_class: type[ChronoidValue] = ChronoidValue

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"chronoid {self.value_class.sql_type}"

    def db_type(self, connection: Any) -> str:
        return self.value_class.sql_type

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> ChronoidValue | None:
        return self.to_python(value)

    def to_python(self, value: Any) -> ChronoidValue | None:
        if value is None or isinstance(value, self.value_class):
            return value
        try:
            if isinstance(value, (bytes, bytearray, memoryview)):
                return self.value_class.from_binary(value)
            return self.value_class(str(value))
        except ValueError as e:
            raise ValidationError(str(e), code="invalid") from e

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        if value is None or hasattr(value, "as_sql"):
            return value
        converted = self.to_python(value)
        return None if converted is None else converted.to_text()

    def get_placeholder(self, value: Any, compiler: Any, connection: Any) -> str:
        # Written as text, read by the server as the column's type.
        return f"%s::{self.value_class.sql_type}"

    def value_to_string(self, obj: Any) -> str:
        value = self.value_from_object(obj)
        return "" if value is None else str(value)

    def formfield(self, **kwargs: Any) -> Any:
        return super().formfield(**{"form_class": ChronoidFormField, "value_class": self.value_class, **kwargs})


class NanoflakeField(ChronoidField):
    value_class = Nanoflake


class Scru160Field(ChronoidField):
    value_class = Scru160


class CodokeyField(ChronoidField):
    value_class = Codokey


class CaloriosaField(ChronoidField):
    value_class = Caloriosa


class Uid60Field(ChronoidField):
    value_class = Uid60


class InPeriod(Range):
    """``field__in_period=(start, end)``: the IDs whose instant lies between
    start and end, both included, as an indexable BETWEEN of the types'
    floor and ceil (aware datetimes; for codokey, datetimes or dates, whole
    days in the default context: every key of those days, at day precision
    or finer)."""

    lookup_name = "in_period"

    def get_prep_lookup(self) -> Any:
        start, end = self.rhs
        cls = self.lhs.output_field.value_class
        if cls is Codokey:  # keys count down: the newest bound is the smallest
            self.rhs = (Codokey.floor(end), Codokey.ceil(start))
        else:
            self.rhs = (cls.floor(start), cls.ceil(end))
        return super().get_prep_lookup()


for _field in (NanoflakeField, Scru160Field, CodokeyField, CaloriosaField, Uid60Field):
    _field.register_lookup(InPeriod)

