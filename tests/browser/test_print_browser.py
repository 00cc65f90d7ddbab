"""Printables checked in Chromium's print-to-PDF, and the hall display turning its pages by itself."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tournaments.models import OfficialRole
from tournaments.rounds import pairing_manager as pm

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "print-secret-1"


@pytest.fixture
def event(live_server):
    t = TournamentFactory(name="Кубок печати", slug="print-cup", match_length=5, cube=True, rounds_planned=None)
    org = UserFactory(username="printer")
    org.set_password(PASSWORD)
    org.save()
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    enter(t, [{"last_name": f"Печатников{i}", "first_name": "Пётр"} for i in range(1, 9)])
    [r1] = pm.generate_next(t, user=org)
    pm.publish_round(r1, user=org)
    return {"url": live_server.url, "round": r1}


def _login(page, site):
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", "printer")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit], form input[type=submit]").last.click()


def _pdf(page, url) -> tuple[bytes, PdfReader]:
    page.goto(url)
    page.emulate_media(media="print")
    data = page.pdf(format="A4", print_background=True)
    return data, PdfReader(io.BytesIO(data))


def test_score_sheets_and_table_cards_print_one_per_page(chromium, event):
    site, rnd = event["url"], event["round"]
    context = chromium.new_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    page = context.new_page()
    _login(page, site)
    first = rnd.matches.select_related("entry_a__player", "entry_b__player").order_by("table").first()

    data, pdf = _pdf(page, f"{site}/t/print-cup/manage/print/round/{rnd.pk}/sheets/")
    assert len(pdf.pages) == 4  # one sheet per match
    assert len(data) > 10_000
    text = " ".join(pdf.pages[0].extract_text().split())
    assert first.entry_a.player.last_name in text and first.entry_b.player.last_name in text
    assert "Стол 1" in text and "Бланк" in text

    data, pdf = _pdf(page, f"{site}/t/print-cup/manage/print/round/{rnd.pk}/tables/")
    assert len(pdf.pages) == 4  # one card per table
    assert len(data) > 10_000
    text = " ".join(pdf.pages[0].extract_text().split())
    assert first.entry_a.player.last_name in text and "1" in text
    squeezed = text.replace(" ", "")  # the address under the QR may wrap anywhere
    assert "/p/" not in squeezed and "/pairings/?round=" in squeezed  # the shared table gets the public link only

    data, pdf = _pdf(page, f"{site}/t/print-cup/manage/print/players/")
    assert len(pdf.pages) == 1  # eight cards, 2 × 4 on one A4
    context.close()


def test_hall_display_turns_its_pages_without_reloading(chromium, event):
    site = event["url"]
    context = chromium.new_context(locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    page = context.new_page()
    loads = []
    page.on("load", lambda _page: loads.append(1))
    page.goto(f"{site}/t/print-cup/hall/?every=5")
    assert page.locator("#hall-frame").get_attribute("data-page") == "1"
    history = page.evaluate("history.length")
    assert "Round 1" in page.locator("h1").inner_text()
    page.wait_for_selector('#hall-frame[data-page="2"]', timeout=9_000)
    assert "Standings" in page.locator("h1").inner_text()
    assert len(loads) == 1  # swapped in place: no page reload
    assert page.evaluate("history.length") == history  # nothing pushed to the history
    assert page.url.endswith("/hall/?every=5")
    context.close()
