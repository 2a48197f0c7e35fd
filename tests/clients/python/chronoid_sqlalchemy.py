"""SQLAlchemy 2 column types for chronoid, registered with the PostgreSQL
dialect so that reflection (and therefore alembic's autogenerate) sees them
instead of NullType."""
from sqlalchemy.dialects.postgresql import base as pg_base
from sqlalchemy.types import UserDefinedType

import chronoid_types


def _column_type(value_class):
    class ChronoidType(UserDefinedType):
        cache_ok = True

        def get_col_spec(self, **kw):
            return value_class.sql_type

        def bind_processor(self, dialect):
            return lambda value: None if value is None else str(value)

        def result_processor(self, dialect, coltype):
            return lambda value: None if value is None else value_class(value)

        def bind_expression(self, bindvalue):
            # Parameters arrive as text; cast them to the column's type.
            from sqlalchemy import literal_column
            return bindvalue.op("::", is_comparison=False)(literal_column(value_class.sql_type))

    ChronoidType.__name__ = value_class.__name__
    return ChronoidType


Nanoflake = _column_type(chronoid_types.Nanoflake)
Scru160 = _column_type(chronoid_types.Scru160)
Codokey = _column_type(chronoid_types.Codokey)
Caloriosa = _column_type(chronoid_types.Caloriosa)
Uid60 = _column_type(chronoid_types.Uid60)

for _t in (Nanoflake, Scru160, Codokey, Caloriosa, Uid60):
    pg_base.ischema_names[_t().get_col_spec()] = _t
