"""psycopg 3 adapters for chronoid. Text mode works as is (values are str);
``register(conn)`` adds binary loaders and dumpers returning typed values
(chronoid_types), array types, and what binary COPY needs."""
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo

from chronoid_types import TYPES


def register(conn):
    for name, cls in TYPES.items():
        info = TypeInfo.fetch(conn, name)
        info.register(conn)  # arrays, and the name for COPY's set_types()

        class TextLoader(Loader):
            def load(self, data, cls=cls):
                return cls(bytes(data).decode())

        class BinaryLoader(Loader):
            format = Format.BINARY

            def load(self, data, cls=cls):
                return cls.from_binary(bytes(data))

        class BinaryDumper(Dumper):
            format = Format.BINARY
            oid = info.oid

            def dump(self, obj):
                return obj.to_binary()

        conn.adapters.register_loader(info.oid, TextLoader)
        conn.adapters.register_loader(info.oid, BinaryLoader)
        conn.adapters.register_dumper(cls, BinaryDumper)
