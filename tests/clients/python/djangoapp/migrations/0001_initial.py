from django.contrib.postgres.operations import CreateExtension
from django.db import migrations, models
from django.db.models.expressions import RawSQL

import chronoid_django


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        CreateExtension("chronoid"),
        migrations.CreateModel(
            name="Event",
            fields=[
                ("id", chronoid_django.NanoflakeField(primary_key=True, serialize=False,
                                                      db_default=RawSQL("gen_nanoflake()", []))),
                ("upload", chronoid_django.Scru160Field(db_default=RawSQL("gen_scru160()", []))),
                ("day", chronoid_django.CodokeyField(db_default=RawSQL("codokey(now())", []))),
                ("what", models.TextField()),
            ],
        ),
    ]
