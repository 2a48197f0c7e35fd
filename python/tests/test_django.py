"""Django: the extension created by a migration, the fields through the
ORM, makemigrations rendering them, the in_period lookup, form fields."""

import datetime as dt
import io
import os
import pathlib
import shutil
import sys
from urllib.parse import urlparse

import pytest

UTC = dt.timezone.utc


@pytest.fixture(scope="module")
def django_db(url: str, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    import django
    from django.conf import settings

    # A copy of the app, so that makemigrations writes outside the tests.
    apps = tmp_path_factory.mktemp("apps")
    shutil.copytree(pathlib.Path(__file__).parent / "djangoapp", apps / "djangoapp")
    sys.path.insert(0, str(apps))
    u = urlparse(url)
    settings.configure(
        INSTALLED_APPS=["django.contrib.postgres", "chronoid.django", "djangoapp"],
        DATABASES={"default": {"ENGINE": "django.db.backends.postgresql", "NAME": u.path[1:],
                               "USER": u.username, "HOST": u.hostname, "PORT": u.port}},
        DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
        USE_TZ=True,
    )
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS djangoapp_event")
        if "django_migrations" in connection.introspection.table_names():
            cur.execute("DELETE FROM django_migrations WHERE app = 'djangoapp'")
    # makemigrations renders the fields and the extension step, as generated.
    call_command("makemigrations", "djangoapp", verbosity=0)
    [migration] = (apps / "djangoapp" / "migrations").glob("0001_*.py")
    text = migration.read_text()
    assert "chronoid.django.NanoflakeField(" in text, text
    # The extension first: what users add to their first migration.
    text = text.replace("operations = [", "operations = [\n        chronoid.django.CreateChronoidExtension(),", 1)
    migration.write_text(text)
    call_command("migrate", "djangoapp", verbosity=0)
    out = io.StringIO()
    call_command("makemigrations", "djangoapp", "--check", "--dry-run", stdout=out)  # nothing left to do
    yield apps


def test_orm(django_db: pathlib.Path) -> None:
    from djangoapp.models import Event

    from chronoid import Codokey, Nanoflake, Scru160, Uid60

    event = Event.objects.create(what="hello", day=Codokey.encode(dt.date(2020, 2, 29)), device="b8MpZ6ZrkE9")
    event.refresh_from_db()
    assert isinstance(event.id, Nanoflake) and isinstance(event.upload, Scru160)
    assert event.day == Codokey("yla0")
    assert Event.objects.get(id=event.id).what == "hello"
    assert Event.objects.filter(id__gte=event.id).count() == 1
    assert Event.objects.filter(device="b8MpZ6ZrkE9").get() == event
    Event.objects.create(id=Nanoflake.from_int(12345), what="chosen")
    assert Event.objects.get(what="chosen").id == Nanoflake("9ix")
    # in_period: indexable ranges from instants
    made = event.id.datetime
    assert list(Event.objects.filter(id__in_period=(made - dt.timedelta(seconds=1), made))) == [event]
    assert Event.objects.filter(upload__in_period=(made - dt.timedelta(minutes=5), dt.datetime.now(UTC))).count() == 2
    assert list(Event.objects.filter(day__in_period=(dt.date(2020, 2, 28), dt.date(2020, 3, 1)))) == [event]
    assert not Event.objects.filter(day__in_period=(dt.date(2020, 3, 1), dt.date(2020, 3, 2))).exists()
    sql = str(Event.objects.filter(id__in_period=(made, made)).query)
    assert "BETWEEN" in sql, sql
    # Arrays (the chronoid.django app registers the driver's adapters)
    tickets = [Uid60("xinaS8QBh"), Uid60("NULL")]
    with_tickets = Event.objects.create(what="tickets", tickets=tickets)
    with_tickets.refresh_from_db()
    assert with_tickets.tickets == tickets
    assert Event.objects.filter(tickets__contains=[Uid60("NULL")]).get() == with_tickets


def test_forms_validate_as_the_server(django_db: pathlib.Path) -> None:
    from django import forms
    from djangoapp.models import Event

    from chronoid import Caloriosa

    class EventForm(forms.ModelForm):  # what the admin builds
        class Meta:
            model = Event
            fields = ["what", "device"]

    good = EventForm({"what": "x", "device": "b8MpZ6ZrkE9"})
    assert good.is_valid(), good.errors
    assert good.cleaned_data["device"] == Caloriosa("b8MpZ6ZrkE9")
    bad = EventForm({"what": "x", "device": "not a caloriosa"})
    assert not bad.is_valid() and "caloriosa" in str(bad.errors["device"])
    assert os.environ["DATABASE_URL"]
