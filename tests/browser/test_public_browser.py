"""The public pages in a real browser: find my table on a phone, the book's crosstable, print."""

from __future__ import annotations

import pytest

from tournaments.models import Match
from zarik.management.demo import BOOK_SLUG, SWISS_SLUG, load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def site(live_server):
    load_demo()
    return live_server.url


def test_player_finds_their_table_on_a_phone_in_russian(chromium, site):
    match = Match.objects.filter(round__tournament__slug=SWISS_SLUG, round__number=3).order_by("table").last()
    surname = match.entry_b.player.last_name
    context = chromium.new_context(viewport=PHONE, locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    page = context.new_page()
    page.goto(f"{site}/t/{SWISS_SLUG}/pairings/")
    assert page.locator("h1").inner_text() == "Пары"
    page.fill("input[type=search]", surname.lower())
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "q=" in page.url
    found = page.locator("tr.found")
    assert found.count() == 1
    assert surname in found.inner_text() and str(match.table) in found.inner_text()
    # No sideways scrolling of the page itself on a phone.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    context.close()


def test_book_crosstable_renders_totals_and_places_in_english(chromium, site):
    context = chromium.new_context(locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    page = context.new_page()
    page.goto(f"{site}/t/{BOOK_SLUG}/crosstable/")
    totals = page.locator("tr.totals td").all_inner_texts()
    assert [t.strip() for t in totals][-6:] == ["21", "22", "27", "26", "22", "19"]
    places = page.locator("tr.places td").all_inner_texts()
    assert [t.strip() for t in places][-6:] == ["5", "3", "1", "2", "4", "6"]
    context.close()


def test_printable_standings_hide_the_navigation(chromium, site):
    context = chromium.new_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    page = context.new_page()
    page.goto(f"{site}/t/{BOOK_SLUG}/standings/print/")
    page.emulate_media(media="print")
    assert page.locator("nav.tournament-nav").count() == 0 or not page.locator("nav.tournament-nav").is_visible()
    assert "Сидоров" in page.locator("table").first.inner_text()
    pdf = page.pdf(format="A4")
    assert pdf[:4] == b"%PDF" and len(pdf) > 1000
    context.close()
