"""A phone opens a private link (no account), checks in and reports a result; the other
player's link confirms it. Debian's chromium through Playwright against the live server."""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, RoundFactory, TournamentFactory
from tournaments.access import private_links
from tournaments.models import EntryStatus, Match, ResultStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TIMEOUT = 15_000


def phone(chromium, lang="ru"):
    return chromium.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True,
        locale="ru-RU" if lang == "ru" else "en-GB", extra_http_headers={"Accept-Language": lang},
    )


def test_phone_checks_in_and_reports_the_other_link_confirms(chromium, live_server):
    event = TournamentFactory(match_length=5)
    match = MatchFactory(round=RoundFactory(tournament=event, number=1), table=3)
    base = live_server.url

    ctx_a = phone(chromium, "ru")
    a = ctx_a.new_page()
    a.goto(base + private_links.path_for(match.entry_a))
    assert match.entry_b.player.full_name in a.inner_text("#current-match")
    assert "стол 3" in a.inner_text("#current-match")
    with a.expect_navigation(timeout=TIMEOUT):
        a.click("#check-in")
    assert "Вы отмечены" in a.inner_text("main")
    assert a.locator("#check-in").count() == 0
    with a.expect_navigation(timeout=TIMEOUT):
        a.click("#report-link")
    a.fill("input[name=score_a]", "5")
    a.fill("input[name=score_b]", "3")
    with a.expect_navigation(timeout=TIMEOUT):
        a.click("form.result button[type=submit]")
    assert "5:3" in a.inner_text("ul.reports")
    assert a.locator("ul.reports button.big").count() == 0  # never confirms their own report
    assert a.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    ctx_b = phone(chromium, "en")
    b = ctx_b.new_page()
    b.goto(base + private_links.path_for(match.entry_b))
    with b.expect_navigation(timeout=TIMEOUT):
        b.click("#report-link")
    assert match.entry_a.player.latin_name in b.inner_text("ul.reports")  # the reader's alphabet
    with b.expect_navigation(timeout=TIMEOUT):
        b.click("ul.reports button.big")
    assert b.inner_text("#official-score") == "5:3"

    match = Match.objects.get(pk=match.pk)
    assert (match.result_status, match.score_a, match.score_b) == (ResultStatus.CONFIRMED, 5, 3)
    assert match.entry_a.status == EntryStatus.CHECKED_IN
    ctx_a.close()
    ctx_b.close()
