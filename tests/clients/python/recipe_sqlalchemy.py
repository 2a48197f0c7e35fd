"""SQLAlchemy 2 (and alembic): chronoid column types that write, read,
reflect and compare."""
import os
import warnings

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Column, MetaData, Table, Text, create_engine, inspect, select, text

import chronoid_types
from chronoid_sqlalchemy import Caloriosa, Codokey, Nanoflake, Scru160, Uid60

engine = create_engine(os.environ["CHRONOID_TEST_URL"].replace("postgresql://", "postgresql+psycopg://"))
metadata = MetaData()
event = Table("sa_event", metadata,
              Column("id", Nanoflake, primary_key=True, server_default=text("gen_nanoflake()")),
              Column("upload", Scru160, server_default=text("gen_scru160()")),
              Column("day", Codokey, server_default=text("codokey(now())")),
              Column("device", Caloriosa), Column("ticket", Uid60), Column("what", Text))

with engine.begin() as conn:
    conn.execute(text("CREATE EXTENSION IF NOT EXISTS chronoid"))
    metadata.drop_all(conn)
    metadata.create_all(conn)
    new_id = conn.execute(event.insert().values(what="hello", device="b8MpZ6ZrkE9", ticket="xinaS8QBh")
                          .returning(event.c.id)).scalar_one()
    assert isinstance(new_id, chronoid_types.Nanoflake)
    row = conn.execute(select(event).where(event.c.id == new_id)).one()
    assert row.what == "hello" and row.device == "b8MpZ6ZrkE9" and isinstance(row.ticket, chronoid_types.Uid60)

    # Reflection sees the types (no "Did not recognize type" warning) ...
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        columns = {c["name"]: c["type"] for c in inspect(conn).get_columns("sa_event")}
    assert isinstance(columns["id"], Nanoflake) and isinstance(columns["upload"], Scru160), columns
    # ... so alembic's autogenerate finds no difference, and does find a type change.
    def diffs_of(meta):  # alembic's autogenerate diff, for this table only
        context = MigrationContext.configure(conn, opts={
            "compare_type": True, "include_name": lambda name, kind, parent: kind != "table" or name == "sa_event"})
        return compare_metadata(context, meta)
    assert diffs_of(metadata) == [], diffs_of(metadata)
    changed = MetaData()
    Table("sa_event", changed, *[Column(c.name, Uid60 if c.name == "upload" else c.type, primary_key=c.primary_key,
                                        server_default=c.server_default) for c in event.columns])
    diffs = diffs_of(changed)
    assert any(d[0][0] == "modify_type" and d[0][3] == "upload" for d in diffs), diffs
print("ok - SQLAlchemy 2: insert, select, reflection, alembic compare")
