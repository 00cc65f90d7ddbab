"""A player's profile and rating history in a real browser, on a phone: reached in one click from the pairings."""

from __future__ import annotations

import pytest

from tournaments.models import Match, RatingChange
from zarik.management.demo import SWISS_SLUG, load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def site(live_server):
    load_demo()
    return live_server.url


def test_from_pairings_to_profile_to_rating_graph_on_a_phone(chromium, site):
    match = Match.objects.filter(round__tournament__slug=SWISS_SLUG, round__number=1).order_by("table").first()
    player = match.entry_a.player  # the demo rates its results (load_demo)
    assert RatingChange.objects.filter(player=player).exists()
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
