"""The record viewer for a screen reader and on a phone (issue 44).

Each step is announced (a polite live region that stays in the page while htmx swaps the board),
the position is told in words (whose move, the dice, the pip counts, the cube, the score), the
board is in view near the top of a 390×844 phone even with a match analysis above it (the PR
line, the graph and forty error links used to push it to y = 832), and the page logs no
Content-Security-Policy violation.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from scoring.analysis.models import AnalysisState, MatchAnalysis
from scoring.records import match_files
from tests.browser.test_accessibility_browser import check
from tests.factories import MatchFactory, PlayerFactory, RoundFactory, TournamentFactory, enter
from tests.paths import DATA
from tournaments.access import private_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TIMEOUT = 15_000
PHONE = {"width": 390, "height": 844}
MAT = (DATA / "records" / "gnubg_match7_seed5.mat").read_text()
#: Violations the page reports itself (securitypolicyviolation), beside the console's errors.
LISTEN = """window.__csp = []; document.addEventListener("securitypolicyviolation",
  e => window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || "")));"""


def _analysed_record(moves: int = 40):
    """A 7-point match with its record and a finished analysis whose strip has ``moves`` errors."""
    event = TournamentFactory(match_length=7, cube=True, rounds_planned=None)
    a, b = enter(event, [PlayerFactory(last_name="Петров", last_name_latin="Petrov"),
                         PlayerFactory(last_name="Орлов", last_name_latin="Orlov")])  # fmt: skip
    match = MatchFactory(round=RoundFactory(tournament=event, number=1, match_length=7), table=1,
                         entry_a=a, entry_b=b, match_length=7)  # fmt: skip
    text = re.sub(r"^ gnubg : (\d+)(\s+)root : (\d+)", r" Petrov : \1\2Orlov : \3", MAT, flags=re.M)
    check = match_files.check_text(text)
    mf = match_files.store(check, tournament=event, match=match)
    match_files.attach(mf, None, first_is="a")
    stats = {"pr": 6.5, "decisions": 120, "errors": 20, "blunders": 3}
    strip = [{"ply": 2 * i + 1, "side": ("first", "second")[i % 2], "error": 0.02 + (i % 7) / 40, "kind": "move"}
             for i in range(moves)]  # fmt: skip
    MatchAnalysis.objects.update_or_create(match=match, defaults=dict(
        tournament=event, state=AnalysisState.DONE, pr_a=6.5, pr_b=8.1, decisions_a=120,
        decisions_b=118, finished_at=timezone.now(),
        report={"players": {"first": stats, "second": {**stats, "pr": 8.1}}, "worst": {"first": [], "second": []},
                "games": [], "strip": strip, "partial": None},
    ))  # fmt: skip
    return match, a, check


def _phone(chromium, language: str):
    context = chromium.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True,
        locale={"ru": "ru-RU", "en": "en-GB"}[language], extra_http_headers={"Accept-Language": language},
    )  # fmt: skip
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    return context, page, console


def _csp(page, console: list[str]) -> list[str]:
    return [c for c in console if "Content Security Policy" in c] + page.evaluate("window.__csp")


WORDS = {
    "en": {"start": "Game 1, start.", "pips": "Pip count: ", "cube": "Cube 1, in the middle.",
           "score": "match to 7", "rolled": "rolled", "to play": "to play."},
    "ru": {"start": "Партия 1, начало.", "pips": "Счёт пунктов: ", "cube": "Куб 1, в центре.",
           "score": "матч до 7", "rolled": "зары", "to play": "Ходит"},
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_on_a_phone_the_board_is_near_the_top_and_each_step_is_announced_in_words(chromium, live_server, language):
    match, holder, check = _analysed_record()
    context, page, console = _phone(chromium, language)
    page.goto(live_server.url + private_links.path_for(holder) + f"match/{match.pk}/record/")
    words = WORDS[language]
    # The whole board on the first screen, in its upper half's reach (it started at y = 832).
    board = page.locator("svg.board-svg").bounding_box()
    assert board["y"] <= PHONE["height"] / 2 and board["y"] + board["height"] <= PHONE["height"], board
    assert page.locator(".error-strip li").count() > 0  # the analysis is still there, below
    told = page.inner_text("#position-words")
    for key in ("start", "pips", "cube", "score"):
        assert words[key] in told, (key, told)
    assert "167" in told
    region = page.locator("#record-announce")
    assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"

    first = check.view.frames[1]
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#record-board[data-ply='1']")
    said = page.inner_text("#record-announce")
    assert said == page.inner_text("#position-words")  # the region announces the position shown
    assert words["rolled"] in said and f"{first.dice[0]}–{first.dice[1]}" in said and words["to play"] in said
    for ply in (2, 3):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"#record-board[data-ply='{ply}']")
    assert page.locator("#record-announce").count() == 1 and page.inner_text("#record-announce") != said

    failures = check_a11y(page, f"{language} viewer")
    assert not _csp(page, console), _csp(page, console)
    # the pasted viewer (whole pages, no htmx) logs none either, and its step buttons describe the position
    page.goto(live_server.url + "/records/view/")
    page.fill("#id_text", MAT)
    with page.expect_navigation():
        page.click("#paste-form button[name=ply]")
    with page.expect_navigation():
        page.click("#record-board [data-nav=next]")
    assert page.get_attribute("#record-board [data-nav=next]", "aria-describedby") == "position-words"
    assert words["rolled"] in page.inner_text("#position-words")
    failures += check_a11y(page, f"{language} pasted viewer")
    assert not _csp(page, console), _csp(page, console)
    assert not failures, failures
    context.close()


def check_a11y(page, where: str) -> list[str]:
    """axe and the duplicate ids, as the page audit checks them."""
    return check(page, Axe(), where, Counter())
