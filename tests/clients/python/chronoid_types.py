"""chronoid's five types as Python values: each is a ``str`` holding the text
form PostgreSQL prints, plus its binary form (PostgreSQL's send/recv bytes),
so any driver can read and write them in text or binary. Used by the
psycopg, asyncpg, SQLAlchemy and Django recipes next to this file.
"""

B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
B62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
B32HEX = "0123456789ABCDEFGHIJKLMNOPQRSTUV"


def _digits(value, alphabet, width=1):
    out = ""
    while value or len(out) < width:
        out = alphabet[value % len(alphabet)] + out
        value //= len(alphabet)
    return out


def _value(text, alphabet):
    n = 0
    for ch in text:
        n = n * len(alphabet) + alphabet.index(ch)
    return n


class ChronoidValue(str):
    """A value in its text form; ``bytes(v)`` is its binary form."""

    sql_type = ""

    def __bytes__(self):
        return self.to_binary()

    def __repr__(self):
        return f"{type(self).__name__}({str(self)!r})"


class Nanoflake(ChronoidValue):
    sql_type = "nanoflake"

    def __new__(cls, text):
        return super().__new__(cls, str(text).lower())

    @classmethod
    def from_int(cls, n):
        return cls(_digits(n, B36))

    def __int__(self):
        return _value(self, B36)

    def to_binary(self):
        return int(self).to_bytes(8, "big", signed=True)

    @classmethod
    def from_binary(cls, data):
        return cls.from_int(int.from_bytes(data, "big", signed=True))


class Caloriosa(ChronoidValue):
    sql_type = "caloriosa"

    def __int__(self):
        return _value(self, B62)  # the unsigned 64-bit number

    def to_binary(self):
        return int(self).to_bytes(8, "big")

    @classmethod
    def from_binary(cls, data):
        return cls(_digits(int.from_bytes(data, "big"), B62, 11))


class Uid60(ChronoidValue):
    sql_type = "uid60"

    def __int__(self):
        return _value(self[2:] + self[:2], B64)  # undo the rotation

    def to_binary(self):
        return int(self).to_bytes(8, "big")

    @classmethod
    def from_binary(cls, data):
        digits = _digits(int.from_bytes(data, "big"), B64, 4)
        return cls(digits[-2:] + digits[:-2])


class Scru160(ChronoidValue):
    sql_type = "scru160"

    def __new__(cls, text):
        text = str(text)
        if len(text) == 40:  # the hex input form
            return cls.from_binary(bytes.fromhex(text))
        return super().__new__(cls, text.upper())

    def to_binary(self):
        return _value(self, B32HEX).to_bytes(20, "big")

    @classmethod
    def from_binary(cls, data):
        return cls(_digits(int.from_bytes(data, "big"), B32HEX, 32))


class Codokey(ChronoidValue):
    sql_type = "codokey"

    def __new__(cls, text):
        return super().__new__(cls, str(text).lower())

    def to_binary(self):
        return bytes(B36.index(ch) for ch in self)

    @classmethod
    def from_binary(cls, data):
        return cls("".join(B36[b] for b in data))


TYPES = {t.sql_type: t for t in (Nanoflake, Scru160, Codokey, Caloriosa, Uid60)}
