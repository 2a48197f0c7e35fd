"""Peewee's fields against the server, through psycopg 2 (peewee's default)
and psycopg 3, with and without the driver's register_chronoid: every type
written and read back, NULL, server-generated IDs, ORDER BY, and range
queries of floor and ceil."""

import datetime as dt
from collections.abc import Iterator

import pytest
from peewee import SQL, IntegerField, Model, PostgresqlDatabase

from chronoid import Caloriosa, Codokey, Nanoflake, Scru160, Uid60
from chronoid.peewee import CaloriosaField, CodokeyField, NanoflakeField, Scru160Field, Uid60Field

VALUES = {"nf": Nanoflake("3kgeoqm2h3"), "s": Scru160("05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51"), "ck": Codokey("yla0"),
          "c": Caloriosa("b8MpZ6ZrkE9"), "u": Uid60("xinaS8QBh")}


class Event(Model):
    id = NanoflakeField(primary_key=True, constraints=[SQL("DEFAULT gen_nanoflake()")])
    n = IntegerField(null=True)
    nf = NanoflakeField(null=True)
    s = Scru160Field(null=True)
    ck = CodokeyField(null=True)
    c = CaloriosaField(null=True)
    u = Uid60Field(null=True)
    made_s = Scru160Field(null=True, constraints=[SQL("DEFAULT gen_scru160()")])
    made_ck = CodokeyField(null=True, constraints=[SQL("DEFAULT codokey(now())")])
    made_c = CaloriosaField(null=True, constraints=[SQL("DEFAULT gen_caloriosa()")])
    made_u = Uid60Field(null=True, constraints=[SQL("DEFAULT gen_uid60()")])

    class Meta:
        table_name = "pw_event"


@pytest.fixture(params=["psycopg2", "psycopg3", "psycopg3-registered"])
def db(url: str, request: pytest.FixtureRequest) -> Iterator[PostgresqlDatabase]:
    database = PostgresqlDatabase(url, prefer_psycopg3=request.param != "psycopg2")
    if request.param == "psycopg3-registered":
        # Results then arrive as values already; the fields pass them through.
        from chronoid.psycopg import register_chronoid

        register_chronoid(database.connection())
    with database.bind_ctx([Event]):
        database.drop_tables([Event])
        database.create_tables([Event])
        yield database
        database.drop_tables([Event])
    database.close()


def test_columns_have_the_types(db: PostgresqlDatabase) -> None:
    types = dict(db.execute_sql("SELECT attname, atttypid::regtype::text FROM pg_attribute"
                                " WHERE attrelid = 'pw_event'::regclass AND attnum > 0").fetchall())
    assert types == {"id": "nanoflake", "n": "integer", "nf": "nanoflake", "s": "scru160", "ck": "codokey",
                     "c": "caloriosa", "u": "uid60", "made_s": "scru160", "made_ck": "codokey",
                     "made_c": "caloriosa", "made_u": "uid60"}


def test_round_trip_every_type_and_null(db: PostgresqlDatabase) -> None:
    written = Event.create(**VALUES)
    assert isinstance(written.id, Nanoflake)  # the server's default, returned by INSERT
    row = Event.get_by_id(written.id)
    assert {k: getattr(row, k) for k in VALUES} == VALUES
    # text is accepted where a value is, in writes and in comparisons
    assert Event.get(Event.nf == "3KGEOQM2H3").id == written.id
    assert Event.select().where(Event.s.in_([VALUES["s"], Scru160.generate()])).count() == 1
    empty = Event.create()
    row = Event.get_by_id(empty.id)
    assert [getattr(row, k) for k in VALUES] == [None] * len(VALUES)
    assert Event.select().where(Event.nf.is_null()).count() == 1
    # an update, found again by its value
    Event.update(u=Uid60("NULL")).where(Event.id == empty.id).execute()
    assert Event.get(Event.u == Uid60("NULL")).id == empty.id


def test_generated_defaults(db: PostgresqlDatabase) -> None:
    made = Event.get_by_id(Event.create(n=1).id)
    assert isinstance(made.id, Nanoflake)
    assert [type(made.made_s), type(made.made_ck), type(made.made_c), type(made.made_u)] == [
        Scru160, Codokey, Caloriosa, Uid60]


def test_order_by_is_the_values_order(db: PostgresqlDatabase) -> None:
    ids = [Event.create(n=n).id for n in range(5)]
    assert ids == sorted(ids)  # one server's nanoflakes increase
    assert [e.id for e in Event.select().order_by(Event.id.desc())] == ids[::-1]
    scrus = sorted(Scru160.generate() for _ in range(5))
    for n, s in enumerate(reversed(scrus)):
        Event.update(s=s).where(Event.id == ids[n]).execute()
    assert [e.s for e in Event.select().order_by(Event.s)] == scrus


def test_range_queries_of_floor_and_ceil(db: PostgresqlDatabase) -> None:
    made = Event.create(ck=Codokey.encode(dt.date(2020, 2, 29)))
    at = made.id.datetime
    assert Event.select().where(Event.id.between(Nanoflake.floor(at), Nanoflake.ceil(at))).count() == 1
    assert Event.select().where(Event.id.in_period(at - dt.timedelta(hours=1), at)).count() == 1
    later = at + dt.timedelta(seconds=1)
    assert Event.select().where(Event.id.in_period(later, later + dt.timedelta(hours=1))).count() == 0
    day = dt.datetime(2020, 2, 29, tzinfo=dt.timezone.utc)
    assert Event.select().where(Event.ck.in_period(day, day)).count() == 1
    assert Event.select().where(Event.ck.in_period(day + dt.timedelta(days=1), day + dt.timedelta(days=2))).count() == 0
    # the generated columns: made now, inside the last minute
    now = dt.datetime.now(dt.timezone.utc)
    since, until = now - dt.timedelta(minutes=1), now + dt.timedelta(seconds=1)
    for field in (Event.made_s, Event.made_c, Event.made_u):
        assert Event.select().where(field.in_period(since, until)).count() == 1
