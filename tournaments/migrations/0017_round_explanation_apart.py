"""A round's explanation moves to its own table (issue 32): existing explanations are copied over."""

import django.db.models.deletion
from django.db import migrations, models


def copy_explanations(apps, schema_editor):
    """One row per round that has an explanation, written in chunks (a big event has few rounds)."""
    Round = apps.get_model("tournaments", "Round")
    RoundExplanation = apps.get_model("tournaments", "RoundExplanation")
    rows = []
    for pk, data in Round.objects.exclude(explanation={}).values_list("pk", "explanation").iterator(chunk_size=100):
        rows.append(RoundExplanation(round_id=pk, data=data or {}))
        if len(rows) >= 100:
            RoundExplanation.objects.bulk_create(rows)
            rows = []
    RoundExplanation.objects.bulk_create(rows)


def copy_back(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    RoundExplanation = apps.get_model("tournaments", "RoundExplanation")
    for row in RoundExplanation.objects.iterator(chunk_size=100):
        Round.objects.filter(pk=row.round_id).update(explanation=row.data)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0016_entry_keeps_its_category"),
    ]

    operations = [
        migrations.CreateModel(
            name="RoundExplanation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("data", models.JSONField(blank=True, default=dict, verbose_name="pairing explanation")),
                ("round", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="explanation_row", to="tournaments.round", verbose_name="round")),
            ],
            options={
                "verbose_name": "pairing explanation",
                "verbose_name_plural": "pairing explanations",
            },
        ),
        migrations.RunPython(copy_explanations, copy_back),
        migrations.RemoveField(
            model_name="round",
            name="explanation",
        ),
    ]
