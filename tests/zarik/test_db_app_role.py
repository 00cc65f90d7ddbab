"""The application's database role owns no table: it cannot delete audit lines around the trigger.

Issue 45: ``make serve`` connected as the superuser ``postgres``, so ``SET
session_replication_role = replica`` (triggers off for the session) or ``ALTER TABLE …
DISABLE TRIGGER ALL`` deleted lines of the append-only audit log. ``manage.py db_app_role``
(run by ``bin/serve`` as the owner) makes the role the web and the worker use: rows only.
Here a role made by it connects to the test database for real and tries every trick.
"""

from __future__ import annotations

import secrets

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from tournaments.models import AuditEntry

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the role's own connection must see the grants and the line
    pytest.mark.skipif(connection.vendor != "postgresql", reason="database roles are PostgreSQL's"),
]

AUDIT = AuditEntry._meta.db_table


@pytest.fixture
def app_role():
    """A fresh application role (roles are the cluster's: a name of its own), dropped afterwards."""
    db = connection.settings_dict
    role, password = f"zarik_app_test_{secrets.token_hex(4)}", secrets.token_urlsafe(16)
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    call_command("db_app_role", app_url=f"postgres://{role}:{password}@{host}:{port}/{db['NAME']}")
    conn = psycopg.connect(host=host, port=port, dbname=db["NAME"], user=role, password=password, autocommit=True)
    try:
        yield conn
    finally:
        conn.close()
        with connection.cursor() as cur:
            cur.execute(f'DROP OWNED BY "{role}"')  # its grants and default privileges in this database
            cur.execute(f'DROP ROLE "{role}"')


def _refused(conn, statement: str) -> str:
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as refused:
        conn.execute(statement)
    return str(refused.value)


def test_the_application_role_reads_and_writes_rows_but_cannot_remove_audit_lines(app_role):
    line = AuditEntry.objects.create(action="result.confirm", object_type="match", object_id="1", reason="kept")

    # Rows: it does what the application does.
    assert app_role.execute(f"SELECT count(*) FROM {AUDIT}").fetchone() == (1,)
    app_role.execute(f"INSERT INTO {AUDIT} (at, action, object_type, object_id, reason, actor, imported_from, "
                     "imported_by) VALUES (now(), 'test', 'match', '2', '', '', '', '')")
    app_role.execute("UPDATE clubs_player SET city = city")

    # Every way around the append-only trigger is refused.
    assert "append-only" in _refused(app_role, f"DELETE FROM {AUDIT} WHERE id = {line.pk}")
    assert "session_replication_role" in _refused(app_role, "SET session_replication_role = replica")
    assert "owner" in _refused(app_role, f"ALTER TABLE {AUDIT} DISABLE TRIGGER ALL")
    assert "owner" in _refused(app_role, f"DROP TRIGGER audit_append_only ON {AUDIT}")
    _refused(app_role, f"TRUNCATE {AUDIT}")
    _refused(app_role, "CREATE TABLE zarik_app_scratch (i int)")
    _refused(app_role, f"ALTER TABLE {AUDIT} DROP COLUMN reason")

    assert AuditEntry.objects.filter(pk=line.pk, reason="kept").exists()


def test_the_role_is_nobody_special_and_running_the_command_again_keeps_it_so(app_role):
    role = app_role.info.user
    with connection.cursor() as cur:
        cur.execute("SELECT rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls FROM pg_roles "
                    "WHERE rolname = %s", [role])
        assert cur.fetchone() == (False, False, False, False, False)
        cur.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner = %s", [role])
        assert cur.fetchone() == (0,)


def _powers(role: str) -> tuple:
    with connection.cursor() as cur:
        cur.execute("SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = %s", [role])
        return cur.fetchone()


def test_the_owner_is_refused_as_the_application_role_and_keeps_every_power():
    """Refused before anything is altered: the command once demoted the owner (NOSUPERUSER,
    NOCREATEDB) and only then noticed, leaving the server with no role that could create a
    database."""
    db = connection.settings_dict
    before = _powers(db["USER"])
    with pytest.raises(Exception, match="own the tables"):
        call_command("db_app_role", app_url=f"postgres://{db['USER']}@127.0.0.1/{db['NAME']}")
    assert _powers(db["USER"]) == before


def test_another_superuser_is_refused_as_the_application_role_and_keeps_every_power():
    db = connection.settings_dict
    role = f"zarik_super_test_{secrets.token_hex(4)}"
    with connection.cursor() as cur:
        cur.execute(f'CREATE ROLE "{role}" SUPERUSER')
    try:
        with pytest.raises(Exception, match="superuser"):
            call_command("db_app_role", app_url=f"postgres://{role}@127.0.0.1/{db['NAME']}")
        assert _powers(role)[0] is True
    finally:
        with connection.cursor() as cur:
            cur.execute(f'DROP ROLE "{role}"')
