"""The audit log now belongs to tournaments (see tournaments 0002); only the state changes here."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_disputes_and_sanctions"),
        ("tournaments", "0002_auditentry_moves_here"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
            database_operations=[],
        ),
    ]
