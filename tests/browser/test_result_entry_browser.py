"""A referee enters a result on a phone, the player confirms it, the public pages change.

Drives Debian's chromium through Playwright against the live server with the demo data
(demo-swiss, round 3, table 1). Marked ``browser``; skipped without /usr/bin/chromium.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.models import Match, ResultStatus
from zarik.management.demo import DEMO_PLAYER_PASSWORD, SWISS_SLUG, load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TIMEOUT = 15_000


def log_in(page, base: str, username: str, password: str, next_url: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("main form button[type=submit]")
    assert "/accounts/login/" not in page.url, page.inner_text("main")


def public_pages(base: str) -> list[str]:
    return [f"{base}/t/{SWISS_SLUG}/", base + reverse("public-standings", kwargs={"slug": SWISS_SLUG})]


def test_referee_on_a_phone_player_confirms_public_pages_change(chromium, live_server):
    load_demo()
    base = live_server.url
    match = Match.objects.select_related("entry_a__player__user", "entry_b__player__user").get(
        round__tournament__slug=SWISS_SLUG, round__number=3, table=1
    )
    opponent = match.entry_b.player.user.username
    assert re.fullmatch(r"player\d+", opponent)

    public = chromium.new_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    public_page = public.new_page()
    before = {}
    for url in public_pages(base):
        response = public_page.goto(url)
        if response is not None and response.status == 200:
            before[url] = public_page.inner_text("main")

    # The opponent has the match page open on their phone; it refreshes by itself.
    player_ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    player_ctx.add_init_script("window.zarikLiveInterval = 1;")
    player = player_ctx.new_page()
    log_in(player, base, opponent, DEMO_PLAYER_PASSWORD, f"/t/{SWISS_SLUG}/my-match/")
    assert player.locator("button.big").count() == 0  # nothing to confirm yet

    # The referee, on a phone: find table 1, type the score, send it for confirmation.
    referee_ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    referee = referee_ctx.new_page()
    log_in(referee, base, "referee", "zarik-referee", f"/t/{SWISS_SLUG}/referee/")
    referee.fill("#q", "1")
    referee.locator("#tables li:not([hidden]) a").first.click()
    referee.wait_for_selector("form.result", timeout=TIMEOUT)
    width = referee.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the entry page scrolls sideways on a phone ({width}px)"
    referee.fill("input[name=score_a]", "7")
    referee.fill("input[name=score_b]", "8")  # a slip: impossible in a match to 7
    referee.click("button[name=action][value=report]")
    referee.wait_for_selector(".errorlist", timeout=TIMEOUT)
    assert referee.input_value("input[name=score_b]") == "8"  # the input is kept
    referee.fill("input[name=score_b]", "3")
    referee.click("button[name=action][value=report]")
    referee.wait_for_url(f"**/t/{SWISS_SLUG}/referee/", timeout=TIMEOUT)
    assert Match.objects.get(pk=match.pk).result_status == ResultStatus.REPORTED

    # The player's page reloads itself and offers the confirmation.
    confirm = player.locator("button.big")
    confirm.wait_for(timeout=TIMEOUT)
    confirm.click()
    player.wait_for_selector("#official-score", timeout=TIMEOUT)
    assert player.inner_text("#official-score") == "7:3"
    m = Match.objects.get(pk=match.pk)
    assert (m.result_status, m.score_a, m.score_b) == (ResultStatus.CONFIRMED, 7, 3)

    # The public pages show the new result (and standings, where that page exists).
    for url, text in before.items():
        public_page.goto(url)
        after = public_page.inner_text("main")
        assert after != text, f"{url} did not change after the confirmation"
    public_page.goto(f"{base}/t/{SWISS_SLUG}/")
    row = public_page.locator("table.pairings").last.locator(
        "tr", has_text=match.entry_b.player.last_name
    )
    assert "7:3" in row.first.inner_text()
    for ctx in (public, player_ctx, referee_ctx):
        ctx.close()
