"""Django model fields for chronoid: the database type, and values returned
as chronoid_types values (text form, str subclasses)."""
from django.db import models

import chronoid_types


class ChronoidField(models.Field):
    value_class = chronoid_types.ChronoidValue

    def db_type(self, connection):
        return self.value_class.sql_type

    def from_db_value(self, value, expression, connection):
        return None if value is None else self.value_class(value)

    def to_python(self, value):
        return None if value is None else self.value_class(value)

    def get_placeholder(self, value, compiler, connection):
        # Bound as text, cast to the column's type.
        return f"%s::{self.value_class.sql_type}"


class NanoflakeField(ChronoidField):
    value_class = chronoid_types.Nanoflake


class Scru160Field(ChronoidField):
    value_class = chronoid_types.Scru160


class CodokeyField(ChronoidField):
    value_class = chronoid_types.Codokey


class CaloriosaField(ChronoidField):
    value_class = chronoid_types.Caloriosa


class Uid60Field(ChronoidField):
    value_class = chronoid_types.Uid60
