"""The record viewer on a phone (390×844, Debian's chromium): the whole board fits, the pip
counts show, ←/→/Home/End and swipes step through a multi-game match with the move list in
step, the first/last controls draw, the reader's notation and a turned board stay while
stepping, and the page loads with no Content-Security-Policy complaint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.records import match_files
from tests.factories import MatchFactory, PlayerFactory, RoundFactory, TournamentFactory, enter
from tournaments.access import private_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TIMEOUT = 15_000
MAT = (Path(__file__).resolve().parents[1] / "data" / "records" / "gnubg_match7_seed5.mat").read_text()
WIDTH, HEIGHT = 390, 844


def _current(page) -> int:
    return int(page.get_attribute('.moves [aria-current="step"]', "data-ply"))


def _swipe(page, dx: int) -> None:
    """A horizontal swipe on the board, as touch events (what a finger sends)."""
    page.evaluate(
        """(dx) => {
          const el = document.querySelector('.board-figure');
          const r = el.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          const t = (cx) => new Touch({identifier: 1, target: el, clientX: cx, clientY: y});
          el.dispatchEvent(new TouchEvent('touchstart', {touches: [t(x)], changedTouches: [t(x)], bubbles: true}));
          el.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [t(x + dx)], bubbles: true}));
        }""",
        dx,
    )


def test_the_viewer_fits_a_phone_and_steps_in_step(chromium, live_server):
    event = TournamentFactory(match_length=7, cube=True, rounds_planned=None)
    petrov = PlayerFactory(last_name="Петров", last_name_latin="Petrov")
    orlov = PlayerFactory(last_name="Орлов", last_name_latin="Orlov")
    a, b = enter(event, [petrov, orlov])
    match = MatchFactory(round=RoundFactory(tournament=event, number=1, match_length=7), table=1,
                         entry_a=a, entry_b=b, match_length=7)
    text = re.sub(r"^ gnubg : (\d+)(\s+)root : (\d+)", r" Petrov : \1\2Orlov : \3", MAT, flags=re.M)
    check = match_files.check_text(text)
    mf = match_files.store(check, tournament=event, match=match)
    match_files.attach(mf, None, first_is="a")
    last = len(check.view.frames) - 1
    token = private_links.token_for(a)

    context = chromium.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=3, is_mobile=True, has_touch=True,
        locale="en-GB", extra_http_headers={"Accept-Language": "en"},
    )
    page = context.new_page()
    complaints: list[str] = []
    page.on("console", lambda msg: complaints.append(msg.text) if msg.type == "error" else None)
    url = live_server.url + f"/p/{token}/match/{match.pk}/record/"
    page.goto(url)

    # Fits: no sideways scrolling; the whole board — points 12 and 13, the cube — on screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    board = page.locator("svg.board-svg").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= WIDTH
    for selector in ("svg.board-svg .cube", "svg.board-svg text.label-traditional"):
        for box in (page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())):
            assert 0 <= box["x"] and box["x"] + box["width"] <= WIDTH, (selector, box)
    label = page.locator("svg.board-svg text.label-traditional").first.bounding_box()
    assert label["height"] >= 9  # readable, not 7.7 px
    assert "167" in page.inner_text(".pips")
    # The first/last controls draw (an inline icon, not a glyph Debian's fonts lack).
    for which in ("first", "last"):
        icon = page.locator(f'#record-board [data-nav="{which}"] svg.icon').bounding_box()
        assert icon and icon["width"] >= 8

    # Keys: the board and the move list stay on the same position.
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#record-board[data-ply='1']", timeout=TIMEOUT)
    assert _current(page) == 1
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#record-board[data-ply='2']", timeout=TIMEOUT)
    assert _current(page) == 2
    page.keyboard.press("End")
    page.wait_for_selector(f"#record-board[data-ply='{last}']", timeout=TIMEOUT)
    assert _current(page) == last
    last_game = check.view.games[-1].number
    assert page.inner_text("h2.frame-title").startswith(f"Game {last_game}")
    assert page.locator(".record-moves table.moves").count() >= 1
    assert page.locator(f'.moves a[data-ply="{last}"]').count() == 1  # the list shows the last game
    page.keyboard.press("Home")
    page.wait_for_selector("#record-board[data-ply='0']", timeout=TIMEOUT)
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#record-board[data-ply='1']", timeout=TIMEOUT)
    assert _current(page) == 1

    # Swipes: left goes on, right goes back, the list follows.
    _swipe(page, -120)
    page.wait_for_selector("#record-board[data-ply='2']", timeout=TIMEOUT)
    assert _current(page) == 2
    _swipe(page, 120)
    page.wait_for_selector("#record-board[data-ply='1']", timeout=TIMEOUT)
    assert _current(page) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH

    # GNU Backgammon's notation and a turned board: chosen once, kept while stepping.
    page.select_option("#id_notation", "own")
    page.check("input[name=flip]")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click(".viewer-options button[type=submit]")
    assert "notation=own" in page.url and "flip=1" in page.url
    black = next(f for f in check.view.frames if f.kind == "play" and f.side == "black")
    assert black.moves["own"] != black.moves["traditional"]
    # The move list writes Black's moves from Black's own home, as GNU Backgammon does.
    assert page.inner_text(f'.moves a[data-ply="{black.index}"]') == black.moves["own"]
    assert page.inner_text(".move-gnubg") == check.view.frames[1].moves["own"]
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#record-board[data-ply='2']", timeout=TIMEOUT)
    assert "flip=1" in page.url and "notation=own" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH

    assert not [c for c in complaints if "Content Security Policy" in c or "Refused" in c], complaints
    context.close()
