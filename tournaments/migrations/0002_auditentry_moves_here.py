"""The audit log moves from the scoring app to tournaments (issue 11: one-way app dependencies).

The table is kept, only renamed: the model is created in tournaments' state on the
existing ``scoring_auditentry`` table, then the table is renamed to Django's default.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("scoring", "0002_disputes_and_sanctions"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("at", models.DateTimeField(auto_now_add=True, db_index=True, verbose_name="when")),
                        ("action", models.CharField(max_length=40, verbose_name="action")),
                        ("object_type", models.CharField(max_length=40, verbose_name="object type")),
                        ("object_id", models.CharField(max_length=40, verbose_name="object id")),
                        ("before", models.JSONField(blank=True, null=True, verbose_name="before")),
                        ("after", models.JSONField(blank=True, null=True, verbose_name="after")),
                        ("reason", models.TextField(blank=True, verbose_name="reason")),
                        ("tournament", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="audit_entries", to="tournaments.tournament", verbose_name="tournament")),
                        ("user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL, verbose_name="who")),
                    ],
                    options={
                        "verbose_name": "audit entry",
                        "verbose_name_plural": "audit log",
                        "ordering": ["-at"],
                        "indexes": [models.Index(fields=["object_type", "object_id"], name="scoring_aud_object__355c40_idx")],
                        "db_table": "scoring_auditentry",
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name="auditentry", table=None),
    ]
