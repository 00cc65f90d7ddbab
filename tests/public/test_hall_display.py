"""The hall display: paged pairings then standings, live scores, htmx fragment, drafts never shown."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.workflow import submit_result
from tests.factories import OfficialFactory, RoundFactory, UserFactory, swiss_event
from tournaments.models import Match, OfficialRole, Round


@pytest.fixture
def big(db, fresh_cache):
    """40 players: round 1 finished, round 2 published with results pending (20 tables)."""
    t = swiss_event(40, slug="hall-big", rounds_done=1, open_round=True)
    referee = UserFactory(username="hall-ref")
    OfficialFactory(tournament=t, user=referee, role=OfficialRole.REFEREE)
    return {"t": t, "referee": referee}


def _frame(client, page, **extra):
    url = reverse("hall-frame", kwargs={"slug": "hall-big"})
    query = "&".join(f"{k}={v}" for k, v in {"page": page, **extra}.items())
    return client.get(f"{url}?{query}")


def test_the_page_polls_one_fragment_without_history(client, big):
    response = client.get(reverse("hall", kwargs={"slug": "hall-big"}))
    body = response.content.decode()
    assert response.status_code == 200
    assert "js/htmx.min.js" in body and "<script>" not in body
    assert 'hx-trigger="every 10s"' in body and 'hx-swap="outerHTML"' in body
    assert 'hx-push-url="false"' in body and 'hx-history="false"' in body
    assert reverse("hall-frame", kwargs={"slug": "hall-big"}) + "?page=2&amp;every=10" in body


def test_frames_page_the_round_then_the_standings_and_wrap(client, big):
    # 20 tables → 2 screens of 16 + 4; 40 standings rows → 3 screens: 5 screens in all
    first = _frame(client, 1).content.decode()
    assert 'data-pages="5"' in first and ("Round 2" in first or "Тур 2" in first)
    assert len(re.findall(r'<td class="table-no">\d+</td>', first)) == 16
    second = _frame(client, 2).content.decode()
    assert len(re.findall(r'<td class="table-no">\d+</td>', second)) == 4
    assert 'class="hall-table standings"' in _frame(client, 3).content.decode()
    assert "?page=1&amp;every=10" in _frame(client, 5).content.decode()  # back to the start
    assert 'data-page="1"' in _frame(client, 6).content.decode()  # wraps
    assert 'hx-trigger="every 30s"' in _frame(client, 1, every=30).content.decode()
    assert _frame(client, "x", every="y").status_code == 200  # bad numbers: defaults, never a 500


def test_a_confirmed_result_appears_in_the_next_frame(client, big):
    t = big["t"]
    client.cookies["django_language"] = "en"
    before = _frame(client, 1).content.decode()
    assert "5 : 3" not in before
    match = Match.objects.get(round__tournament=t, round__number=2, table=1)
    submit_result(match.pk, big["referee"], version=match.version, final=(5, 3), confirm=True)
    after = _frame(client, 1).content.decode()
    assert "5 : 3" in after


def test_a_draft_round_is_never_shown(client, big):
    t = big["t"]
    draft = RoundFactory(tournament=t, number=3, status="draft")
    entries = list(t.entries.order_by("draw_number"))
    Match.objects.create(round=draft, table=1, entry_a=entries[0], entry_b=entries[39])
    body = _frame(client, 1).content.decode()
    assert "Round 3" not in body and "Тур 3" not in body
    assert Round.objects.filter(tournament=t, number=3).exists()


def test_hall_is_public_like_the_pairings(client, big):
    t = big["t"]
    t.public = False
    t.save()
    assert client.get(reverse("hall", kwargs={"slug": "hall-big"})).status_code == 404
    assert _frame(client, 1).status_code == 404
    client.force_login(big["referee"])
    assert _frame(client, 1).status_code == 200
