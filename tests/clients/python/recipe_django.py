"""Django: the CreateExtension migration step, fields for the types, and
the ORM writing and reading them."""
import os
from urllib.parse import urlparse

import django
from django.conf import settings

url = urlparse(os.environ["CHRONOID_TEST_URL"])
settings.configure(
    INSTALLED_APPS=["django.contrib.postgres", "djangoapp"],
    DATABASES={"default": {"ENGINE": "django.db.backends.postgresql", "NAME": url.path[1:],
                           "USER": url.username, "HOST": url.hostname, "PORT": url.port}},
    DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
)
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

import chronoid_types  # noqa: E402
from djangoapp.models import Event  # noqa: E402

with connection.cursor() as cur:
    cur.execute("DROP TABLE IF EXISTS djangoapp_event; DELETE FROM django_migrations WHERE app = 'djangoapp'"
                if "django_migrations" in connection.introspection.table_names() else "SELECT 1")
call_command("migrate", "djangoapp", verbosity=0)

event = Event.objects.create(what="hello")
event.refresh_from_db()
assert isinstance(event.id, chronoid_types.Nanoflake) and isinstance(event.upload, chronoid_types.Scru160)
assert Event.objects.get(id=event.id).what == "hello"
assert Event.objects.filter(id__gte=event.id).count() == 1
Event.objects.create(id=chronoid_types.Nanoflake.from_int(12345), what="chosen")
assert Event.objects.get(what="chosen").id == "9ix"
print("ok - Django: CreateExtension migration, fields, ORM create/get/filter")
