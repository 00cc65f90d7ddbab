"""A club organiser runs a chouette night in the browser: starts it, enters games, reads the totals."""

from __future__ import annotations

import pytest

from clubs.models import ChouetteSession, ClubRole
from tests.factories import ClubFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TIMEOUT = 15_000


def test_a_chouette_session_with_a_few_games(chromium, live_server):
    club = ClubFactory(slug="zarik", name="Зарик")
    ClubRole.objects.create(club=club, user=UserFactory(username="boss"))
    base = live_server.url
    ctx = chromium.new_context(locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    page = ctx.new_page()
    page.goto(f"{base}/accounts/login/?next=/clubs/zarik/")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", "zarik-test")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("main form button[type=submit]")

    # From the club page to a new session.
    with page.expect_navigation(timeout=TIMEOUT):
        page.get_by_role("link", name="New chouette").click()
    page.get_by_label("Name").fill("Friday night")
    page.get_by_label("Players in the order of the draw").fill("Анна\nБорис\nВера\nГлеб")
    page.get_by_label("Stake per point").fill("10")
    with page.expect_navigation(timeout=TIMEOUT):
        page.get_by_role("button", name="Start the session").click()
    session = ChouetteSession.objects.get()
    assert page.url.endswith(f"/clubs/zarik/chouette/{session.pk}/")

    def enter(winner: str, kind: str = "single game", cubes: dict | None = None, passed=()) -> None:
        for player, cube in (cubes or {}).items():
            page.get_by_label(f"Cube of {player}").select_option(str(cube))
        for player in passed:
            page.get_by_label(f"{player} passed the double").check()
        page.get_by_label(winner, exact=True).check()
        page.get_by_label("Result").select_option(label=kind)
        with page.expect_navigation(timeout=TIMEOUT):
            page.get_by_role("button", name="Enter the game").click()

    # 1: the team (captain Борис) wins a gammon → Борис is the box.
    enter("the team", "gammon")
    assert page.locator("#game-h").inner_text() == "Game 2"
    assert page.locator("#id_box").input_value() == "Борис"
    # 2: the box doubles Глеб to 2, who passes; the box beats the rest.
    enter("the box", cubes={"Глеб": 2}, passed=["Глеб"])
    # 3: a box out of order is refused and the form keeps what was typed.
    page.locator("#id_box").select_option("Анна")
    enter("the box")
    alert = page.get_by_role("alert")
    assert "By the rotation the box is Борис and the captain Глеб" in alert.inner_text()
    assert page.locator("#id_box").input_value() == "Анна"
    page.locator("#id_box").select_option("Борис")
    enter("the team")  # Глеб (captain) wins: 1 each from Борис

    totals = {name: page.locator(f'#chouette-totals td[data-player="{name}"]').inner_text()
              for name in ("Анна", "Борис", "Вера", "Глеб")}  # fmt: skip
    assert totals == {"Анна": "-6", "Борис": "2", "Вера": "2", "Глеб": "2"}
    assert sum(int(v) for v in totals.values()) == 0
    page.get_by_role("link", name="← Chouette · Зарик").click()
    page.locator("#chouette-sessions", has_text="Friday night").wait_for(timeout=TIMEOUT)
    assert "Анна -6" in page.locator("#chouette-sessions").inner_text()
    ctx.close()
