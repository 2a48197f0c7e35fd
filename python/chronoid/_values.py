"""The five value classes. Each holds its binary form (the bytes the
server's send function writes); text and fields come from the formats
crate through chronoid._native, the same code the server runs. Values of
one class compare and hash as the server's btree and hash operator classes
do (an order of the binary forms, which tests/t/024_python_package.pl checks
against the server's ORDER BY on random values)."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, Union

from . import _native

UTC = _dt.timezone.utc
_UNIX_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = _dt.timedelta(milliseconds=1)
_ONE_US = _dt.timedelta(microseconds=1)

#: nanoflake's default epoch (``chronoid.nanoflake_epoch``'s default).
DEFAULT_NANOFLAKE_EPOCH = _UNIX_EPOCH + _native.DEFAULT_NANOFLAKE_EPOCH_UNIX_MS * _ONE_MS

V = TypeVar("V", bound="ChronoidValue")
BinaryLike = Union[bytes, bytearray, memoryview]


def _aware(instant: _dt.datetime, what: str) -> _dt.datetime:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError(f"{what} needs an aware datetime (a timestamptz), got a naive one")
    return instant


def _unix_ms(instant: _dt.datetime, what: str) -> int:
    """Milliseconds since 1970, rounded down as the server truncates a
    timestamptz's microseconds."""
    return (_aware(instant, what) - _UNIX_EPOCH) // _ONE_MS


def _from_unix_ms(ms: int) -> _dt.datetime:
    return _UNIX_EPOCH + ms * _ONE_MS


class ChronoidValue:
    """A chronoid value. ``str(v)`` / ``v.to_text()`` is the text PostgreSQL
    prints, ``bytes(v)`` / ``v.to_binary()`` the binary form it sends."""

    __slots__ = ("_data",)
    #: The SQL type name.
    sql_type: ClassVar[str] = ""
    _data: bytes

    def __init__(self, value: str | BinaryLike | ChronoidValue) -> None:
        if isinstance(value, ChronoidValue):
            if type(value) is not type(self):
                raise TypeError(f"a {type(value).__name__} is not a {type(self).__name__}")
            data = value._data
        elif isinstance(value, str):
            data = _native.from_text(self.sql_type, value)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            data = bytes(value)
            _native.to_text(self.sql_type, data)  # checked as the receive function checks it
        else:
            raise TypeError(f"{type(self).__name__}() takes text or its binary form, not {type(value).__name__}")
        object.__setattr__(self, "_data", data)

    @classmethod
    def from_text(cls: type[V], text: str) -> V:
        """The value of its text form, as the type's input function reads it."""
        return cls(text)

    @classmethod
    def from_binary(cls: type[V], data: BinaryLike) -> V:
        """The value of its binary form (the server's send/receive bytes)."""
        return cls(bytes(data))

    @classmethod
    def _trusted(cls: type[V], data: bytes) -> V:
        value = object.__new__(cls)
        object.__setattr__(value, "_data", data)
        return value

    def to_text(self) -> str:
        return _native.to_text(self.sql_type, self._data)

    def to_binary(self) -> bytes:
        return self._data

    def __str__(self) -> str:
        return self.to_text()

    def __bytes__(self) -> bytes:
        return self._data

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_text()!r})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} values are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self).from_binary, (self._data,))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, ChronoidValue)
        return self._data == other._data

    def __hash__(self) -> int:
        return hash((self.sql_type, self._data))

    def _key(self, other: object) -> tuple[bytes, bytes]:
        if type(other) is not type(self):
            raise TypeError(f"cannot compare {type(self).__name__} with {type(other).__name__}")
        assert isinstance(other, ChronoidValue)
        return self._data, other._data

    def __lt__(self, other: object) -> bool:
        a, b = self._key(other)
        return a < b

    def __le__(self, other: object) -> bool:
        a, b = self._key(other)
        return a <= b

    def __gt__(self, other: object) -> bool:
        a, b = self._key(other)
        return a > b

    def __ge__(self, other: object) -> bool:
        a, b = self._key(other)
        return a >= b

    # pydantic (SQLModel, FastAPI): validated from text, serialized as text.
    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema  # type: ignore[import-not-found, unused-ignore]

        return core_schema.no_info_plain_validator_function(
            lambda v: v if isinstance(v, cls) else cls(v),
            serialization=core_schema.plain_serializer_function_ser_schema(str),
        )


class _Int8Value(ChronoidValue):
    """A type whose binary form is a big-endian int8 (and casts to bigint)."""

    __slots__ = ()

    @classmethod
    def from_int(cls: type[V], n: int) -> V:
        """The value of ``n::bigint::<type>`` (checked as the cast checks it)."""
        return cls._trusted(_native.from_int(cls.sql_type, n))

    def __int__(self) -> int:
        return _native.to_int(self.sql_type, self._data)

    def __index__(self) -> int:
        return int(self)


class Nanoflake(_Int8Value):
    """A 63-bit Snowflake-style ID: milliseconds since an epoch (41 bits), a
    node id (10 bits), a sequence (12 bits); text in base 36."""

    __slots__ = ()
    sql_type = "nanoflake"

    @property
    def ms_since_epoch(self) -> int:
        return _native.nanoflake_fields(self._data)[0]

    @property
    def node_id(self) -> int:
        """The generator (``chronoid.node_id``) that made it."""
        return _native.nanoflake_fields(self._data)[1]

    @property
    def sequence(self) -> int:
        return _native.nanoflake_fields(self._data)[2]

    @property
    def datetime(self) -> _dt.datetime:
        """Its instant at the default epoch; a server with another
        ``chronoid.nanoflake_epoch`` needs :meth:`datetime_at`."""
        return self.datetime_at(DEFAULT_NANOFLAKE_EPOCH)

    def datetime_at(self, epoch: _dt.datetime) -> _dt.datetime:
        return _aware(epoch, "epoch") + self.ms_since_epoch * _ONE_MS

    @classmethod
    def floor(cls, instant: _dt.datetime, epoch: _dt.datetime = DEFAULT_NANOFLAKE_EPOCH) -> Nanoflake:
        """The smallest nanoflake of the instant's millisecond (``nanoflake_floor``)."""
        return cls._trusted(_native.nanoflake_bounds(_unix_ms(instant, "floor"), _unix_ms(epoch, "epoch"))[0])

    @classmethod
    def ceil(cls, instant: _dt.datetime, epoch: _dt.datetime = DEFAULT_NANOFLAKE_EPOCH) -> Nanoflake:
        """The largest nanoflake of the instant's millisecond (``nanoflake_ceil``)."""
        return cls._trusted(_native.nanoflake_bounds(_unix_ms(instant, "ceil"), _unix_ms(epoch, "epoch"))[1])


class Caloriosa(_Int8Value):
    """A 64-bit ID with the top bit set: milliseconds since 2017 (41 bits),
    12 random bits, a 10-bit increment; text in base 62."""

    __slots__ = ()
    sql_type = "caloriosa"

    @property
    def datetime(self) -> _dt.datetime:
        return _from_unix_ms(_native.caloriosa_fields(self._data)[0])

    @property
    def random(self) -> int:
        return _native.caloriosa_fields(self._data)[1]

    @property
    def increment(self) -> int:
        return _native.caloriosa_fields(self._data)[2]

    @classmethod
    def floor(cls, instant: _dt.datetime) -> Caloriosa:
        return cls._trusted(_native.caloriosa_bounds(_unix_ms(instant, "floor"))[0])

    @classmethod
    def ceil(cls, instant: _dt.datetime) -> Caloriosa:
        return cls._trusted(_native.caloriosa_bounds(_unix_ms(instant, "ceil"))[1])

    @classmethod
    def from_core_name(cls, name: str) -> Caloriosa:
        """A name as Caloriosa's own code (``Caloriosa/core``) writes it: the
        same digits in the alphabet ``0-9A-Za-z``, the case-swap of this
        type's text (``caloriosa_from_core_name`` in SQL)."""
        return cls._trusted(_native.caloriosa_from_core_name(name))

    def to_core_name(self) -> str:
        """The name as ``Caloriosa/core`` writes it (``caloriosa_to_core_name``)."""
        return _native.caloriosa_to_core_name(self._data)


class Uid60(_Int8Value):
    """A 60-bit ID: milliseconds since 2018-03-01 (42 bits), a 9-bit
    sequence, 9 random bits; text in base 64 (URL-safe)."""

    __slots__ = ()
    sql_type = "uid60"

    @property
    def datetime(self) -> _dt.datetime:
        return _from_unix_ms(_native.uid60_fields(self._data)[0])

    @property
    def sequence(self) -> int:
        return _native.uid60_fields(self._data)[1]

    @property
    def random(self) -> int:
        return _native.uid60_fields(self._data)[2]

    @classmethod
    def floor(cls, instant: _dt.datetime) -> Uid60:
        return cls._trusted(_native.uid60_bounds(_unix_ms(instant, "floor"))[0])

    @classmethod
    def ceil(cls, instant: _dt.datetime) -> Uid60:
        return cls._trusted(_native.uid60_bounds(_unix_ms(instant, "ceil"))[1])


class Scru160(ChronoidValue):
    """A 160-bit ID: a 48-bit millisecond timestamp, a 16-bit counter, 96
    random bits; text in base32hex (32 characters; 40 hex digits also read)."""

    __slots__ = ()
    sql_type = "scru160"

    @classmethod
    def generate(cls) -> Scru160:
        """A new scru160 from this process's clock, by the spec's counter
        rules: IDs made in one process increase, and IDs from other
        processes and servers differ by their random bits."""
        return cls._trusted(_native.scru160_generate())

    @property
    def timestamp_ms(self) -> int:
        return _native.scru160_fields(self._data)[0]

    @property
    def datetime(self) -> _dt.datetime:
        return _from_unix_ms(self.timestamp_ms)

    @property
    def counter(self) -> int:
        return _native.scru160_fields(self._data)[1]

    @property
    def random16(self) -> int:
        return _native.scru160_fields(self._data)[2]

    @property
    def random80(self) -> int:
        return _native.scru160_fields(self._data)[3]

    def to_hex(self) -> str:
        """The 40 hex digits (``scru160_to_hex``)."""
        return _native.scru160_to_hex(self._data)

    @classmethod
    def floor(cls, instant: _dt.datetime) -> Scru160:
        return cls._trusted(_native.scru160_bounds(_unix_ms(instant, "floor"))[0])

    @classmethod
    def ceil(cls, instant: _dt.datetime) -> Scru160:
        return cls._trusted(_native.scru160_bounds(_unix_ms(instant, "ceil"))[1])


@dataclass(frozen=True)
class CodokeyContext:
    """What a codokey's instant depends on: the server's
    ``chronoid.codokey_year_zero``, ``codokey_max_year`` and
    ``codokey_fraction_max`` (defaults here as there)."""

    year_zero: int = 1970
    max_year: int = 3265
    fraction_max: int = 9

    def _args(self) -> tuple[int, int, int]:
        return self.year_zero, self.max_year, self.fraction_max


DEFAULT_CODOKEY_CONTEXT = CodokeyContext()
#: ``chronoid.codokey_precision``'s default: down to the day.
DEFAULT_CODOKEY_PRECISION = 2
CalendarValue = Union[_dt.datetime, _dt.date]


def _unix_micros(value: CalendarValue) -> int:
    """As the server reads timestamptz (an instant, keyed in UTC), timestamp
    (a naive datetime: its own calendar) and date."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is not None and value.utcoffset() is not None:
            return (value - _UNIX_EPOCH) // _ONE_US
        return (value.replace(tzinfo=UTC) - _UNIX_EPOCH) // _ONE_US
    return (_dt.datetime(value.year, value.month, value.day, tzinfo=UTC) - _UNIX_EPOCH) // _ONE_US


class Codokey(ChronoidValue):
    """A date as a short base-36 key that sorts newest first. Its instant and
    precision depend on a :class:`CodokeyContext`; text and binary forms do
    not (any key some context can make is a value, as on the server)."""

    __slots__ = ()
    sql_type = "codokey"

    @classmethod
    def encode(
        cls,
        value: CalendarValue,
        precision: int = DEFAULT_CODOKEY_PRECISION,
        context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT,
    ) -> Codokey:
        """``codokey(value, precision)`` in the context."""
        return cls(_native.codokey_encode(_unix_micros(value), precision, *context._args()))

    def decode(self, context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT) -> tuple[_dt.datetime, int]:
        """(instant truncated to the precision, precision) in the context
        (``codokey_timestamp``, ``codokey_precision``)."""
        micros, precision = _native.codokey_decode(self.to_text(), *context._args())
        return _UNIX_EPOCH + micros * _ONE_US, precision

    def datetime_in(self, context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT) -> _dt.datetime:
        return self.decode(context)[0]

    def precision_in(self, context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT) -> int:
        return self.decode(context)[1]

    @classmethod
    def floor(
        cls,
        value: CalendarValue,
        precision: int = DEFAULT_CODOKEY_PRECISION,
        context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT,
    ) -> Codokey:
        """The smallest key of the period (``codokey_floor``)."""
        return cls(_native.codokey_bounds(_unix_micros(value), precision, *context._args())[0])

    @classmethod
    def ceil(
        cls,
        value: CalendarValue,
        precision: int = DEFAULT_CODOKEY_PRECISION,
        context: CodokeyContext = DEFAULT_CODOKEY_CONTEXT,
    ) -> Codokey:
        """The largest key of the period (``codokey_ceil``)."""
        return cls(_native.codokey_bounds(_unix_micros(value), precision, *context._args())[1])


#: Every class by its SQL type name.
TYPES: dict[str, type[ChronoidValue]] = {
    cls.sql_type: cls for cls in (Nanoflake, Scru160, Codokey, Caloriosa, Uid60)
}
