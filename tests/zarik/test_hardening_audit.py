"""The audit log cannot be forged through a restore, and its append-only holes are closed.

Performed for real: an archive carrying a forged line ("2020-01-01, organiser,
result.correct") is restored and the line reads as imported, never as the local
account; an account is deleted and its lines keep its name; a line is rewritten
with SQL (SQLite's trigger, PostgreSQL's triggers) and TRUNCATE is tried on PostgreSQL.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.urls import reverse

from scoring.archive import backup as archive
from tests.factories import TournamentFactory, UserFactory
from tournaments import audit
from tournaments.models import AuditEntry, Tournament
from zarik.management.demo import SWISS_SLUG, load_demo

User = get_user_model()


@pytest.fixture
def demo(db, settings):
    from tests.conftest import FAST_HASHERS

    settings.PASSWORD_HASHERS = FAST_HASHERS
    load_demo()
    return Tournament.objects.get(slug=SWISS_SLUG)


def _forged(demo: Tournament) -> dict:
    """The demo's archive with one more line: the organiser "corrected a result" in 2020."""
    data = json.loads(json.dumps(archive.dump(demo), cls=archive.Encoder))
    data = copy.deepcopy(data)
    organiser = User.objects.get(username="organiser")
    data["users"][str(organiser.pk)] = "organiser"
    head = data["tables"]["tournament"][0]
    data["tables"]["audit"].append({
        "id": 10**9, "at": "2020-01-01T00:00:00+00:00", "user_id": organiser.pk,
        "tournament_id": head["id"], "action": "result.correct", "object_type": "match",
        "object_id": "1", "before": None, "after": {"score_a": 7}, "reason": "forged",
        "imported_from": "", "imported_by": "", "imported_at": None,
    })  # fmt: skip
    return data


def test_a_restored_archives_audit_lines_are_marked_imported_never_a_local_account(demo, client):
    restorer = User.objects.get(username="organiser")

    done = archive.load(_forged(demo), restorer, slug="forged-history")

    lines = AuditEntry.objects.filter(tournament=done.tournament)
    forged = lines.get(reason="forged")
    assert forged.user_id is None  # not attributed to the local "organiser" account
    assert forged.actor == "organiser"  # the archive's claim, as a name
    assert forged.imported_from.startswith(SWISS_SLUG)
    assert forged.imported_by == "organiser" and forged.imported_at is not None
    assert forged.at.year == 2020  # history keeps its time
    assert not lines.exclude(action="tournament.import").filter(imported_from="").exists()
    assert not lines.exclude(action="tournament.import").exclude(user=None).exists()
    restore_line = lines.get(action="tournament.import")
    assert restore_line.user == restorer and restore_line.imported_from == ""
    assert restore_line.after["audit_lines_imported"] == lines.count() - 1

    client.force_login(restorer)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("audit-log", kwargs={"slug": "forged-history"})).content.decode()
    assert "imported from the archive" in page and "not an action on this site" in page


def test_the_command_line_restore_says_who_restored(demo):
    done = archive.load(_forged(demo), None, slug="by-command")
    forged = AuditEntry.objects.get(tournament=done.tournament, reason="forged")
    assert forged.imported_by == archive.COMMAND_LINE


@pytest.mark.django_db
def test_deleting_an_account_keeps_its_name_on_its_audit_lines():
    director = UserFactory(username="director-gone")
    t = TournamentFactory(slug="kept-name")
    audit.record(director, t, "tournament.settings", t, None, t)

    director.delete()

    line = AuditEntry.objects.get(tournament=t, action="tournament.settings")
    assert line.user_id is None and line.actor == "director-gone"


@pytest.mark.django_db
def test_an_audit_line_cannot_be_rewritten_with_sql():
    director = UserFactory(username="director")
    t = TournamentFactory(slug="rewrite")
    line = audit.record(director, t, "tournament.settings", t, None, t)
    for change in ({"reason": "rewritten"}, {"actor": "someone else"}, {"action": "forged"}):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            AuditEntry.objects.filter(pk=line.pk).update(**change)
    line.refresh_from_db()
    assert (line.reason, line.actor, line.action) == ("", "director", "tournament.settings")


@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_detaching_a_line_from_a_living_account_or_tournament():
    if connection.vendor != "postgresql":
        pytest.skip("a deferred constraint trigger is PostgreSQL's (migration 0013_audit_provenance)")
    director = UserFactory(username="director")
    t = TournamentFactory(slug="detach")
    line = audit.record(director, t, "tournament.settings", t, None, t)
    for change in ({"user_id": None}, {"tournament_id": None}):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            AuditEntry.objects.filter(pk=line.pk).update(**change)
    line.refresh_from_db()
    assert (line.user_id, line.tournament_id) == (director.pk, t.pk)


@pytest.mark.django_db(transaction=True)
def test_postgresql_refuses_truncate_of_the_audit_log():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no TRUNCATE; the statement trigger is PostgreSQL's")
    t = TournamentFactory(slug="truncate")
    audit.record(None, t, "tournament.settings", t, None, t)
    table = connection.ops.quote_name(AuditEntry._meta.db_table)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL zarik.audit_truncate = 'refuse'")  # production behaviour
            cursor.execute(f"TRUNCATE {table} CASCADE")
    assert AuditEntry.objects.filter(tournament=t).exists()
