"""A player's profile and rating history in a real browser, on a phone: reached in one click from the pairings."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.models import PlayerRating
from scoring.demo import SWISS_SLUG, load_demo
from tournaments.models import Match, RatingChange

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def site(live_server):
    load_demo()
    return live_server.url


def _rate_some(player):
    """A few rating changes for ``player`` (the ratings service is another part of issue 13)."""
    rating = 1500.0
    matches = Match.objects.filter(round__tournament__slug=SWISS_SLUG, entry_a__player=player,
                                   result_status="confirmed", entry_b__isnull=False)
    for seq, m in enumerate(matches, start=1):
        RatingChange.objects.create(
            match=m, player=player, opponent=m.entry_b.player, pool="backgammon", sequence=seq,
            played_on=dt.date(2026, 3, seq), length=5, score_for=m.score_a, score_against=m.score_b,
            result=1 if m.winner == "a" else 0, expected=0.5, rating_before=rating,
            rating_after=rating + (6 if m.winner == "a" else -6), experience_before=5 * seq,
        )
        rating += 6 if m.winner == "a" else -6
    PlayerRating.objects.update_or_create(player=player, pool="backgammon", defaults={"rating": rating})


def test_from_pairings_to_profile_to_rating_graph_on_a_phone(chromium, site):
    match = Match.objects.filter(round__tournament__slug=SWISS_SLUG, round__number=1).order_by("table").first()
    player = match.entry_a.player
    _rate_some(player)
    context = chromium.new_context(viewport=PHONE, locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    page = context.new_page()
    page.goto(f"{site}/t/{SWISS_SLUG}/pairings/?round=1")
    page.locator(f'a.profile-link[href="/players/{player.pk}/"]').first.click()
    page.wait_for_url(f"**/players/{player.pk}/")
    assert page.locator("h1").inner_text() == player.display_name("en")
    assert page.locator("table.player-matches tbody tr").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.locator("table.ratings a").first.click()
    page.wait_for_url(f"**/players/{player.pk}/rating/backgammon/")
    graph = page.locator("figure.rating-graph svg")
    assert graph.get_attribute("role") == "img"
    assert graph.bounding_box()["width"] <= PHONE["width"]
    assert page.locator("figure.rating-graph circle").count() == RatingChange.objects.filter(player=player).count() + 1
    page.screenshot(path="/tmp/profile-rating.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    context.close()
