from django.db import models
from django.db.models.expressions import RawSQL

from chronoid_django import CodokeyField, NanoflakeField, Scru160Field


class Event(models.Model):
    # db_default: the database's generator fills the key (Django 5).
    id = NanoflakeField(primary_key=True, db_default=RawSQL("gen_nanoflake()", []))
    upload = Scru160Field(db_default=RawSQL("gen_scru160()", []))
    day = CodokeyField(db_default=RawSQL("codokey(now())", []))
    what = models.TextField()

    class Meta:
        app_label = "djangoapp"
