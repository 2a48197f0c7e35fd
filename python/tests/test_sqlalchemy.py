"""SQLAlchemy 2 column types, alembic and SQLModel against the server."""

import pathlib
import textwrap
import warnings
from typing import Optional

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from chronoid import Caloriosa, Codokey, Nanoflake, Scru160, Uid60
from chronoid.sqlalchemy import CALORIOSA, CODOKEY, NANOFLAKE, SCRU160, UID60

VALUES = {"nf": Nanoflake("3kgeoqm2h3"), "s": Scru160("05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51"), "ck": Codokey("yla0"),
          "c": Caloriosa("b8MpZ6ZrkE9"), "u": Uid60("xinaS8QBh")}


@pytest.fixture
def engine(url: str) -> sa.Engine:
    return sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))


def test_write_read_reflect(engine: sa.Engine) -> None:
    metadata = sa.MetaData()
    event = sa.Table("sa_event", metadata,
                     sa.Column("id", NANOFLAKE, primary_key=True, server_default=sa.text("gen_nanoflake()")),
                     sa.Column("s", SCRU160), sa.Column("ck", CODOKEY), sa.Column("c", CALORIOSA),
                     sa.Column("u", UID60), sa.Column("nf", NANOFLAKE))
    with engine.begin() as conn:
        metadata.drop_all(conn)
        metadata.create_all(conn)
        new_id = conn.execute(event.insert().values(**VALUES).returning(event.c.id)).scalar_one()
        assert isinstance(new_id, Nanoflake)
        row = conn.execute(sa.select(event).where(event.c.id == new_id)).one()
        assert {k: getattr(row, k) for k in VALUES} == VALUES
        # text is accepted where a value is
        assert conn.execute(sa.select(event.c.id).where(event.c.nf == "3KGEOQM2H3")).scalar_one() == new_id
        # range queries with floor/ceil
        assert conn.execute(sa.select(sa.func.count()).where(
            event.c.id.between(Nanoflake.floor(new_id.datetime), Nanoflake.ceil(new_id.datetime)))).scalar_one() == 1
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no "Did not recognize type"
            reflected = {c["name"]: type(c["type"]) for c in sa.inspect(conn).get_columns("sa_event")}
        assert reflected == {"id": NANOFLAKE, "s": SCRU160, "ck": CODOKEY, "c": CALORIOSA, "u": UID60, "nf": NANOFLAKE}
        metadata.drop_all(conn)


@pytest.mark.parametrize("driver", ["psycopg", "psycopg2"])
def test_arrays(url: str, driver: str) -> None:
    from sqlalchemy.dialects import postgresql

    from chronoid.sqlalchemy import register_chronoid

    engine = sa.create_engine(url.replace("postgresql://", f"postgresql+{driver}://"))
    register_chronoid(engine)
    metadata = sa.MetaData()
    t = sa.Table(f"sa_arrays_{driver}", metadata, sa.Column("n", sa.Integer, primary_key=True),
                 *[sa.Column(k, postgresql.ARRAY(typ)) for k, typ in
                   [("nf", NANOFLAKE), ("s", SCRU160), ("ck", CODOKEY), ("c", CALORIOSA), ("u", UID60)]])
    with engine.begin() as conn:
        metadata.drop_all(conn)
        metadata.create_all(conn)
        conn.execute(t.insert().values(n=1, **{k: [v, v] for k, v in VALUES.items()}))
        row = conn.execute(sa.select(t)).one()
        assert {k: getattr(row, k) for k in VALUES} == {k: [v, v] for k, v in VALUES.items()}
        assert conn.execute(sa.select(t.c.n).where(t.c.nf.contains([VALUES["nf"]]))).scalar_one() == 1
        metadata.drop_all(conn)


MODELS = '''
import sqlalchemy as sa
from chronoid.sqlalchemy import CALORIOSA, CODOKEY, NANOFLAKE, SCRU160, UID60

metadata = sa.MetaData()
sa.Table("alembic_event", metadata,
         sa.Column("id", NANOFLAKE, primary_key=True, server_default=sa.text("gen_nanoflake()")),
         sa.Column("s", SCRU160), sa.Column("ck", CODOKEY), sa.Column("c", CALORIOSA), sa.Column("u", UID60))
'''


def test_alembic_autogenerate_renders_a_migration_that_runs_as_generated(engine: sa.Engine, url: str,
                                                                       tmp_path: pathlib.Path) -> None:
    (tmp_path / "models.py").write_text(MODELS)
    cfg = Config(str(tmp_path / "alembic.ini"))
    cfg.set_main_option("script_location", str(tmp_path / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("postgresql://", "postgresql+psycopg://"))
    command.init(cfg, str(tmp_path / "migrations"))
    env = tmp_path / "migrations" / "env.py"
    # The one-time env.py configuration the package's README shows.
    source = env.read_text().replace("target_metadata = None", textwrap.dedent(f"""\
        import sys; sys.path.insert(0, {str(tmp_path)!r})
        import chronoid.sqlalchemy
        from models import metadata as target_metadata"""))
    source = source.replace("target_metadata=target_metadata",
                            "target_metadata=target_metadata, render_item=chronoid.sqlalchemy.render_item")
    assert source.count("render_item=") == 2  # offline and online
    env.write_text(source)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE IF EXISTS alembic_event, alembic_version"))
    command.revision(cfg, message="chronoid types", autogenerate=True)
    [migration] = (tmp_path / "migrations" / "versions").glob("*.py")
    text = migration.read_text()
    assert "import chronoid.sqlalchemy" in text and "chronoid.sqlalchemy.SCRU160()" in text, text
    command.upgrade(cfg, "head")  # the file as generated
    with engine.begin() as conn:
        types = dict(conn.execute(sa.text(
            "SELECT attname, atttypid::regtype::text FROM pg_attribute"
            " WHERE attrelid = 'alembic_event'::regclass AND attnum > 0")).all())
        assert types == {"id": "nanoflake", "s": "scru160", "ck": "codokey", "c": "caloriosa", "u": "uid60"}
    # and a second autogenerate finds nothing to do
    command.revision(cfg, message="nothing", autogenerate=True)
    second = [p for p in (tmp_path / "migrations" / "versions").glob("*.py") if p != migration][0]
    assert "op.add_column" not in second.read_text() and "op.alter_column" not in second.read_text()
    command.downgrade(cfg, "base")


def test_sqlmodel(engine: sa.Engine) -> None:
    from sqlmodel import Field, Session, SQLModel, select

    class Upload(SQLModel, table=True):
        id: Optional[Nanoflake] = Field(default=None, sa_column=sa.Column(
            NANOFLAKE, primary_key=True, server_default=sa.text("gen_nanoflake()")))
        key: Scru160 = Field(sa_type=SCRU160)
        name: str

    SQLModel.metadata.drop_all(engine, tables=[Upload.__table__])  # type: ignore[attr-defined]
    SQLModel.metadata.create_all(engine, tables=[Upload.__table__])  # type: ignore[attr-defined]
    with Session(engine) as session:
        # validated (as table models are through model_validate) into a Scru160
        upload = Upload.model_validate({"key": "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51", "name": "a"})
        assert isinstance(upload.key, Scru160)
        session.add(upload)
        session.commit()
        session.refresh(upload)
        assert isinstance(upload.id, Nanoflake)
        found = session.exec(select(Upload).where(Upload.key == Scru160("05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51"))).one()
        assert found.id == upload.id
        assert upload.model_dump()["key"] == "05U0GF0J0SP1ADJPT0U4VHIMCJJAIP51"
    SQLModel.metadata.drop_all(engine, tables=[Upload.__table__])  # type: ignore[attr-defined]
