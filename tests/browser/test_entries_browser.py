"""The organiser types "Semenov" on the entries desk, on a phone, and enters Семёнов (htmx live search)."""

from __future__ import annotations

import pytest

from clubs.models import ClubRole
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TIMEOUT = 15_000


def test_typing_semenov_finds_and_enters_semyonov(chromium, live_server):
    club = ClubFactory()
    TournamentFactory(slug="open", club=club)
    user = UserFactory(username="boss")
    ClubRole.objects.create(club=club, user=user)
    semenov = PlayerFactory(last_name="Семёнов", first_name="Юрий", last_name_latin="", first_name_latin="")
    PlayerFactory(last_name="Симонов", first_name="Юрий")
    base = live_server.url

    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB",
                               extra_http_headers={"Accept-Language": "en"})
    page = ctx.new_page()
    page.goto(f"{base}/accounts/login/?next=/t/open/manage/entries/")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", "zarik-test")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("main form button[type=submit]")
    assert page.url.endswith("/t/open/manage/entries/")

    page.locator("#q").press_sequentially("Semenov", delay=30)  # live results, no submit
    found = page.locator("#search-results li", has_text="Семёнов Юрий")
    found.wait_for(timeout=TIMEOUT)
    assert page.url.endswith("/t/open/manage/entries/")  # htmx swapped the results in place
    assert page.locator("#search-results li").count() == 1  # Симонов is another person
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the entries desk scrolls sideways on a phone ({width}px)"
    with page.expect_navigation(timeout=TIMEOUT):
        found.locator("button").click()
    page.locator("#entries", has_text="Семёнов Юрий").wait_for(timeout=TIMEOUT)
    assert Entry.objects.get(tournament__slug="open").player == semenov
    ctx.close()
