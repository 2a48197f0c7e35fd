"""The values without a server: the shared conformance vectors, errors,
fields, floor/ceil, generation."""

import datetime as dt
import json
import os
import pathlib
import pickle
import sysconfig

import pytest

import chronoid
from chronoid import Caloriosa, Codokey, CodokeyContext, Nanoflake, Scru160, Uid60

UTC = dt.timezone.utc
VECTORS = pathlib.Path(os.environ.get("CHRONOID_VECTORS", "vectors"))


def test_imports_the_installed_package() -> None:
    assert pathlib.Path(chronoid.__file__).is_relative_to(sysconfig.get_paths()["purelib"]), chronoid.__file__


def load(name: str) -> dict:
    return json.loads((VECTORS / f"{name}.json").read_text())


def test_caloriosa_core_names() -> None:
    """Names written by Caloriosa's own code (alphabet 0-9A-Za-z), made by
    another encoder than chronoid's, read and written explicitly; the
    type's own text refuses them rather than reading another device."""
    names = load("caloriosa_core_names")
    assert len(names["vectors"]) >= 20
    for v in names["vectors"]:
        c = Caloriosa.from_core_name(v["core_name"])
        assert (int(c) % (1 << 64), str(c), c.to_core_name()) == (int(v["uint64"]), v["text"], v["core_name"])
        with pytest.raises(ValueError, match="invalid input syntax for type caloriosa"):
            Caloriosa(v["core_name"])
    for bad in names["invalid_core_names"]:
        with pytest.raises(ValueError, match="invalid Caloriosa/core name"):
            Caloriosa.from_core_name(bad)


def test_the_shared_vectors() -> None:
    checked = 0
    for v in load("nanoflake")["vectors"]:
        nf = Nanoflake(v["text"])
        assert (int(nf), nf.ms_since_epoch, nf.node_id, nf.sequence) == (int(v["int64"]), v["ms_since_epoch"], v["generator"], v["sequence"])
        checked += 1
    for v in load("caloriosa")["vectors"]:
        if "note" in v:  # the seed's example, in the old layout: refused, as by the server
            with pytest.raises(ValueError):
                Caloriosa(v["text"])
            continue
        c = Caloriosa(v["text"])
        assert int(c) % (1 << 64) == int(v["uint64"]) and (c.random, c.increment) == (v["random12"], v["increment10"])
        assert c.datetime == dt.datetime(2017, 1, 1, tzinfo=UTC) + dt.timedelta(milliseconds=v["ms_since_2017"])
        checked += 1
    for v in load("uid60")["vectors"]:
        u = Uid60(v["display"])
        assert (int(u), u.sequence, u.random) == (int(v["storage"]), v["seq"], v["rand"])
        checked += 1
    s160 = load("scru160")
    for v in s160["authoritative_inspect"]:
        s = Scru160(v["input"])
        assert (str(s), s.timestamp_ms, s.counter, s.random16, s.random80) == (
            v["canonical"], v["timestamp"], v["counter"], v["random16"], int(v["random80"]))
        checked += 1
    for v in s160["spec_examples_decoded"] + s160["python_readme_examples_decoded"] + s160["boundary_derived"]:
        assert str(Scru160(v["hex"])) == v["b32"] and Scru160(v["b32"]).to_hex() == v["hex"]
        checked += 1
    precisions = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "SPLIT"]
    for v in load("codokey")["vectors"]:
        ctx = CodokeyContext(fraction_max=v["untilSplit"])
        if "input_ms" in v or "time_ms" in v:
            micros = round(v.get("input_ms", v.get("time_ms")) * 1000)
        else:
            t = v.get("input", v.get("timestamp"))
            micros = t["value"] * 1_000_000 + round(t["split"] * 1000)
        at = dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=micros)
        precision = precisions.index(v["precision"])
        if v["kind"] == "encode":
            assert str(Codokey.encode(at, precision, ctx)) == v["key"], v
        else:
            assert Codokey(v["key"]).decode(ctx) == (at, precision), v
        checked += 1
    assert checked > 340


@pytest.mark.parametrize("cls", [Nanoflake, Scru160, Codokey, Caloriosa, Uid60])
def test_bad_text_and_bytes_raise_value_error(cls: type) -> None:
    for bad in ["", "!", "é", "z" * 60]:
        with pytest.raises(ValueError):
            cls.from_text(bad)
    for bad in [b"", b"\xff" * 7, b"\xff" * 21]:
        with pytest.raises(ValueError):
            cls.from_binary(bad)


def test_int8_types_refuse_what_the_casts_refuse() -> None:
    with pytest.raises(ValueError):
        Nanoflake.from_int(-5)
    with pytest.raises(ValueError):
        Caloriosa.from_int(5)
    with pytest.raises(ValueError):
        Uid60.from_int(1 << 60)
    assert int(Uid60.from_int((1 << 60) - 1)) == (1 << 60) - 1


def test_values_are_immutable_hashable_and_pickle() -> None:
    v = Nanoflake("3kgeoqm2h3")
    with pytest.raises(AttributeError):
        v._data = b""  # type: ignore[misc]
    assert {v: 1}[Nanoflake("3KGEOQM2H3")] == 1
    assert pickle.loads(pickle.dumps(v)) == v
    assert v != Uid60.from_int(int(v))  # values of two types never equal
    with pytest.raises(TypeError):
        _ = v < Uid60.from_int(1)


def test_fields() -> None:
    nf = Nanoflake.from_text("3kgeoqm2h3")
    assert (nf.ms_since_epoch << 22) | (nf.node_id << 12) | nf.sequence == int(nf)
    assert nf.datetime == chronoid.DEFAULT_NANOFLAKE_EPOCH + dt.timedelta(milliseconds=nf.ms_since_epoch)
    epoch = dt.datetime(2024, 1, 1, tzinfo=UTC)
    assert nf.datetime_at(epoch) - nf.datetime == epoch - chronoid.DEFAULT_NANOFLAKE_EPOCH
    s = Scru160("017c083c130732153679e83c4fc65664e6a964a1")
    assert (s.timestamp_ms, s.counter) == (0x017C083C1307, 12821)
    assert s.datetime == dt.datetime(2021, 9, 21, 12, 2, 7, 239000, tzinfo=UTC)


def test_floor_and_ceil_bound_every_id_of_the_millisecond() -> None:
    at = dt.datetime(2026, 11, 25, 12, 0, 0, 123456, tzinfo=UTC)
    for cls in (Nanoflake, Scru160, Caloriosa, Uid60):
        lo, hi = cls.floor(at), cls.ceil(at)  # type: ignore[attr-defined]
        assert lo < hi
        assert lo.datetime == hi.datetime == at.replace(microsecond=123000)
    with pytest.raises(ValueError):
        Nanoflake.floor(dt.datetime(2026, 1, 1))  # naive: no instant
    with pytest.raises(ValueError):
        Nanoflake.floor(dt.datetime(2019, 1, 1, tzinfo=UTC))  # before the epoch


def test_codokey_context_and_calendar() -> None:
    assert str(Codokey.encode(dt.date(2020, 2, 1))) == "ylas"
    assert str(Codokey.encode(dt.datetime(2022, 1, 1, tzinfo=UTC), 0)) == "yj"
    assert str(Codokey.encode(dt.datetime(1970, 1, 1, tzinfo=UTC), 6)) == "zzbun1n1n9"
    # aware instants are keyed in UTC, naive ones by their own calendar
    tokyo = dt.timezone(dt.timedelta(hours=9))
    assert Codokey.encode(dt.datetime(2020, 3, 1, 1, tzinfo=tokyo)) == Codokey.encode(dt.date(2020, 2, 29))
    assert Codokey.encode(dt.datetime(2020, 3, 1, 1)) == Codokey.encode(dt.date(2020, 3, 1))
    ctx = CodokeyContext(year_zero=2000, max_year=2999, fraction_max=999999)
    key = Codokey.encode(dt.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC), 6, ctx)
    assert key.decode(ctx) == (dt.datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC), 6)
    lo, hi = Codokey.floor(dt.date(2024, 5, 6)), Codokey.ceil(dt.date(2024, 5, 6))
    assert lo <= Codokey.encode(dt.datetime(2024, 5, 6, 23, tzinfo=UTC), 6) <= hi
    with pytest.raises(ValueError):
        CodokeyContext(year_zero=3000, max_year=2000).year_zero and Codokey.encode(dt.date(2020, 1, 1), 2, CodokeyContext(3000, 2000))


def test_scru160_generate_increases_and_is_unique() -> None:
    ids = [Scru160.generate() for _ in range(100_000)]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    now = dt.datetime.now(UTC)
    assert abs((ids[-1].datetime - now).total_seconds()) < 5
