"""``INSTALLED_APPS = [..., "chronoid.django"]``: every new database
connection (psycopg 3 or psycopg 2) gets chronoid's adapters, so that
``ArrayField(NanoflakeField())`` columns load as lists of values."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _register(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor != "postgresql":
        return
    raw = connection.connection
    if type(raw).__module__.startswith("psycopg2"):
        from ..psycopg2 import register_chronoid
    else:
        from ..psycopg import register_chronoid  # type: ignore[assignment]
    register_chronoid(raw)


class ChronoidConfig(AppConfig):
    name = "chronoid.django"
    label = "chronoid"
    verbose_name = "chronoid"

    def ready(self) -> None:
        connection_created.connect(_register)
