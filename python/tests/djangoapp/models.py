from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models.expressions import RawSQL

from chronoid.django import CaloriosaField, CodokeyField, NanoflakeField, Scru160Field, Uid60Field


class Event(models.Model):
    id = NanoflakeField(primary_key=True, db_default=RawSQL("gen_nanoflake()", []))
    upload = Scru160Field(db_default=RawSQL("gen_scru160()", []))
    day = CodokeyField(null=True)
    device = CaloriosaField(null=True)
    ticket = Uid60Field(null=True)
    what = models.TextField()
    tickets = ArrayField(Uid60Field(), null=True)
