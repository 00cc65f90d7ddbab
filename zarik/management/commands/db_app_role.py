"""Create (or bring up to date) the database role the application runs as: it does not own the tables.

Run as the tables' owner (the role migrations run as), with the application's own
``DATABASE_URL`` given as ``--app-url``; ``bin/serve`` does it before each start when
``DATABASE_OWNER_URL`` is set (``make serve`` sets both)::

    DATABASE_URL=$DATABASE_OWNER_URL manage.py db_app_role --app-url "$DATABASE_URL"

The role (``zarik_app`` in the manual) may log in and read and write rows — SELECT,
INSERT, UPDATE, DELETE on the tables, USAGE and SELECT on their sequences, on those
made by later migrations too (default privileges) — and nothing else: no DDL, no TRUNCATE,
no superuser, no CREATEROLE/CREATEDB, no replication or BYPASSRLS. So what the append-only
audit log's trigger refuses cannot be done around it: ``SET session_replication_role =
replica`` needs a superuser, ``ALTER TABLE … DISABLE TRIGGER`` and ``DROP TRIGGER`` need the
owner (issue 45: ``make serve`` connected as ``postgres`` and could do both).
"""

from __future__ import annotations

import dj_database_url
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from psycopg import sql

#: What the application role may do with rows; nothing else is granted.
TABLE_PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE"
SEQUENCE_PRIVILEGES = "USAGE, SELECT"
#: The role's attributes: it logs in, and is nobody special.
ATTRIBUTES = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT"


def app_role(app_url: str) -> tuple[str, str | None]:
    """The role name and password in the application's database URL."""
    config = dj_database_url.parse(app_url)
    if not config.get("USER"):
        raise CommandError("--app-url names no user: postgres://zarik_app:PASSWORD@host:5432/db")
    return config["USER"], config.get("PASSWORD") or None


def grant(role: str, password: str | None, schema: str = "public") -> list[str]:
    """Create or update ``role`` and grant it row access to this database's tables; returns what was done."""
    if connection.vendor != "postgresql":
        raise CommandError("an application role is for PostgreSQL (the embedded SQLite has no roles)")
    done = []
    r, s = sql.Identifier(role), sql.Identifier(schema)
    with connection.cursor() as cur:
        # Checked before anything is altered: ALTER ROLE below strips the role of every power, so
        # naming the owner (or another superuser) would demote the very role that runs the database.
        cur.execute("SELECT current_database(), current_user")
        database, owner = cur.fetchone()
        if role == owner:
            raise CommandError(f"the application role {role} is the role running this: it would own the tables")
        cur.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
        row = cur.fetchone()
        if row is not None and row[0]:
            raise CommandError(f"{role} is a superuser: the application role must be a role of its own")
        if row is None:
            cur.execute(sql.SQL("CREATE ROLE {} " + ATTRIBUTES).format(r))
            done.append(f"role {role} created")
        cur.execute(sql.SQL("ALTER ROLE {} " + ATTRIBUTES).format(r))
        if password:
            cur.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(r, sql.Literal(password)))
        cur.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(database), r))
        cur.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(s, r))
        cur.execute(sql.SQL("REVOKE CREATE ON SCHEMA {} FROM {}").format(s, r))
        cur.execute(sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA {} FROM {}").format(s, r))
        cur.execute(sql.SQL(f"GRANT {TABLE_PRIVILEGES} ON ALL TABLES IN SCHEMA {{}} TO {{}}").format(s, r))
        cur.execute(sql.SQL(f"GRANT {SEQUENCE_PRIVILEGES} ON ALL SEQUENCES IN SCHEMA {{}} TO {{}}").format(s, r))
        # Tables and sequences the owner's later migrations create get the same grants.
        cur.execute(sql.SQL(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {{}} GRANT {TABLE_PRIVILEGES} ON TABLES TO {{}}")
                    .format(s, r))
        cur.execute(sql.SQL(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {{}} GRANT {SEQUENCE_PRIVILEGES} ON SEQUENCES "
                            "TO {}").format(s, r))
    done.append(f"{role}: {TABLE_PRIVILEGES} on the tables of {database}.{schema} (owner {owner}), no DDL")
    return done


class Command(BaseCommand):
    help = ("Create or update the application's database role (PostgreSQL): row access only, it does not "
            "own the tables. Run as the owner, before the web and the worker start (bin/serve does).")

    def add_arguments(self, parser):
        parser.add_argument("--app-url", required=True,
                            help="the application's DATABASE_URL: its user and password make the role")
        parser.add_argument("--schema", default="public")

    def handle(self, *args, app_url: str, schema: str, **options):
        role, password = app_role(app_url)
        for line in grant(role, password, schema):
            self.stdout.write(line)
