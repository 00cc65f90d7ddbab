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
