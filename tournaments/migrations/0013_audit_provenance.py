# Issue 29: the audit log's provenance and its remaining append-only holes.
#
# - ``actor``: a copy of who acted, so a deleted account leaves its name on its lines;
#   ``imported_*``: a line restored from an archive says so (which archive, who restored
#   it, when) and never points at a local account.
# - PostgreSQL: every UPDATE but the detaching of a deleted account or tournament is
#   refused (as in 0009), and now a detaching UPDATE too unless, at the commit, the
#   account or tournament it named is really gone (a deferred constraint trigger: Django
#   detaches before it deletes, in one transaction), so ``UPDATE … SET user_id = NULL``
#   cannot hide who acted; TRUNCATE is refused (a statement trigger), except in Django's
#   test databases (``test_…``), which the test runner flushes between tests (a test
#   sets ``zarik.audit_truncate = 'refuse'`` to see the production refusal).
# - SQLite (the embedded default): a trigger refuses every UPDATE but the detaching one.
#   SQLite has no TRUNCATE, and DELETE stays possible there (the test runner flushes with
#   DELETE); a later migration that rebuilds the table on SQLite must create it again.

from django.db import migrations, models

PG_ROW = """
CREATE OR REPLACE FUNCTION zarik_audit_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE'
       AND (to_jsonb(NEW) - 'user_id' - 'tournament_id') = (to_jsonb(OLD) - 'user_id' - 'tournament_id')
       AND (NEW.user_id IS NULL OR NEW.user_id IS NOT DISTINCT FROM OLD.user_id)
       AND (NEW.tournament_id IS NULL OR NEW.tournament_id IS NOT DISTINCT FROM OLD.tournament_id) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the audit log is append-only: % of entry % refused', TG_OP, OLD.id
        USING ERRCODE = 'insufficient_privilege';
END
$$ LANGUAGE plpgsql;
"""

PG_DETACH = """
CREATE OR REPLACE FUNCTION zarik_audit_detach_only_when_gone() RETURNS trigger AS $$
BEGIN
    IF OLD.user_id IS NOT NULL AND NEW.user_id IS NULL
       AND EXISTS (SELECT 1 FROM {users} WHERE id = OLD.user_id) THEN
        RAISE EXCEPTION 'the audit log is append-only: entry % cannot forget its account while it exists',
            OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF OLD.tournament_id IS NOT NULL AND NEW.tournament_id IS NULL
       AND EXISTS (SELECT 1 FROM {tournaments} WHERE id = OLD.tournament_id) THEN
        RAISE EXCEPTION 'the audit log is append-only: entry % cannot leave its tournament while it exists',
            OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
"""

PG_TRUNCATE = """
CREATE OR REPLACE FUNCTION zarik_audit_no_truncate() RETURNS trigger AS $$
BEGIN
    -- Django's test databases are flushed between tests; a test asks for the production
    -- behaviour with SET LOCAL zarik.audit_truncate = 'refuse' (the setting only tightens).
    IF current_database() LIKE 'test\\_%'
       AND coalesce(current_setting('zarik.audit_truncate', true), '') <> 'refuse' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'the audit log is append-only: TRUNCATE refused'
        USING ERRCODE = 'insufficient_privilege';
END
$$ LANGUAGE plpgsql;
"""


def _table(apps, schema_editor, model="AuditEntry", app="tournaments"):
    return schema_editor.quote_name(apps.get_model(app, model)._meta.db_table)


def _sqlite_update_trigger(apps, schema_editor):
    model = apps.get_model("tournaments", "AuditEntry")
    q = schema_editor.quote_name
    same = " AND ".join(
        f"NEW.{q(f.column)} IS OLD.{q(f.column)}"
        for f in model._meta.concrete_fields
        if f.column not in ("user_id", "tournament_id")
    )
    detach = (
        "(NEW.user_id IS NULL OR NEW.user_id IS OLD.user_id) AND "
        "(NEW.tournament_id IS NULL OR NEW.tournament_id IS OLD.tournament_id)"
    )
    return (
        f"CREATE TRIGGER audit_append_only BEFORE UPDATE ON {q(model._meta.db_table)} "
        f"WHEN NOT ({same} AND {detach}) "
        "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: UPDATE refused'); END"
    )


def drop_old(apps, schema_editor):
    """Backfilling ``actor`` is an UPDATE; the new triggers come back after it."""
    table = _table(apps, schema_editor)
    schema_editor.execute(f"DROP TRIGGER IF EXISTS audit_append_only ON {table}"
                          if schema_editor.connection.vendor == "postgresql"
                          else "DROP TRIGGER IF EXISTS audit_append_only")


def backfill_actor(apps, schema_editor):
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    User = apps.get_model("auth", "User")
    names = dict(User.objects.values_list("pk", "username"))
    for user_id in AuditEntry.objects.exclude(user_id=None).values_list("user_id", flat=True).distinct():
        AuditEntry.objects.filter(user_id=user_id).update(actor=names.get(user_id, "")[:150])


def add_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    table = _table(apps, schema_editor)
    if vendor == "sqlite":
        schema_editor.execute(_sqlite_update_trigger(apps, schema_editor))
        return
    if vendor != "postgresql":
        return
    users = _table(apps, schema_editor, "User", "auth")
    tournaments = _table(apps, schema_editor, "Tournament")
    schema_editor.execute(PG_ROW, params=None)  # no parameters: RAISE's % stays literal
    schema_editor.execute(PG_DETACH.format(users=users, tournaments=tournaments), params=None)
    schema_editor.execute(PG_TRUNCATE, params=None)
    schema_editor.execute(
        f"CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION zarik_audit_append_only()"
    )
    schema_editor.execute(f"DROP TRIGGER IF EXISTS audit_detach_only_when_gone ON {table}")
    schema_editor.execute(
        f"CREATE CONSTRAINT TRIGGER audit_detach_only_when_gone AFTER UPDATE ON {table} "
        "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
        "EXECUTE FUNCTION zarik_audit_detach_only_when_gone()"
    )
    schema_editor.execute(f"DROP TRIGGER IF EXISTS audit_no_truncate ON {table}")
    schema_editor.execute(
        f"CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION zarik_audit_no_truncate()"
    )


def drop_triggers(apps, schema_editor):
    table = _table(apps, schema_editor)
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS audit_append_only")
    elif schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS audit_detach_only_when_gone ON {table}")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS audit_no_truncate ON {table}")
        schema_editor.execute("DROP FUNCTION IF EXISTS zarik_audit_detach_only_when_gone()")
        schema_editor.execute("DROP FUNCTION IF EXISTS zarik_audit_no_truncate()")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS audit_append_only ON {table}")


def restore_old(apps, schema_editor):
    """Going back: 0009's row trigger as it was (PostgreSQL only)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    table = _table(apps, schema_editor)
    schema_editor.execute(PG_ROW, params=None)
    schema_editor.execute(
        f"CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION zarik_audit_append_only()"
    )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0012_prize_fund_sources'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.RunPython(drop_old, restore_old),
        migrations.AddField(
            model_name='auditentry',
            name='actor',
            field=models.CharField(blank=True, max_length=150, verbose_name='who (name kept)'),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='imported_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='restored at'),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='imported_by',
            field=models.CharField(blank=True, max_length=150, verbose_name='restored by'),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='imported_from',
            field=models.CharField(blank=True, max_length=200, verbose_name='imported from'),
        ),
        migrations.RunPython(backfill_actor, migrations.RunPython.noop),
        migrations.RunPython(add_triggers, drop_triggers),
    ]
