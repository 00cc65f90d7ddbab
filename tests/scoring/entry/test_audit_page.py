"""The audit log names each action in the reader's language, from one table of actions."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments import audit
from tournaments.models import Tournament
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "label"), [("en", "Round published"), ("ru", "Тур опубликован")]
)
def test_the_audit_page_says_what_happened_in_the_readers_language(client, demo, language, label):
    tournament = Tournament.objects.get(slug=SWISS_SLUG)
    organiser = get_user_model().objects.get(username="organiser")
    rnd = tournament.rounds.get(number=3)
    audit.record(organiser, tournament, "round.publish", rnd, None, rnd)
    client.force_login(organiser)
    page = client.get(
        reverse("audit-log", kwargs={"slug": SWISS_SLUG}), HTTP_ACCEPT_LANGUAGE=language
    )
    assert page.status_code == 200
    assert label in page.content.decode()


def test_every_audited_action_has_both_labels():
    for code, (en, ru) in audit.ACTIONS.items():
        assert en and ru and en != ru, code
        assert audit.action_label(code, "en") == en and audit.action_label(code, "ru") == ru
    assert audit.action_label("something.new", "ru") == "something.new"  # shown as it is


@pytest.mark.parametrize(
    ("language", "line", "when"),
    [
        ("en", "Status</span>: Checked in → Withdrawn", "When"),
        ("ru", "Статус</span>: Отметился → Выбыл", "Когда"),
    ],
)
def test_the_audit_page_shows_changes_in_words_and_local_time_only(client, demo, language, line, when):
    """Issue 44: the Russian log showed raw JSON diffs with UTC times beside local ones. Each
    change is now a field's label with its value before and after, in the reader's language; every
    time is in the site's zone (named once in the header), a snapshot's UTC time included."""
    tournament = Tournament.objects.get(slug=SWISS_SLUG)
    organiser = get_user_model().objects.get(username="organiser")
    entry = tournament.entries.first()
    rnd = tournament.rounds.get(number=3)
    audit.record(organiser, tournament, "entry.withdraw", entry,
                 {**audit.snapshot(entry), "status": "checked_in"}, {**audit.snapshot(entry), "status": "withdrawn"})  # fmt: skip
    audit.record(organiser, tournament, "round.publish", rnd,
                 {"published_at": None}, {"published_at": "2026-12-07T09:05:00Z"})  # fmt: skip
    client.force_login(organiser)
    body = client.get(reverse("audit-log", kwargs={"slug": SWISS_SLUG}), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert line in body
    assert "&quot;" not in body and '"status"' not in body  # no JSON
    assert "2026-12-07 12:05" in body and "09:05" not in body  # Moscow time, not UTC beside it
    assert f"{when} <span class=\"meta\">(Europe/Moscow)</span>" in body
