"""Records in a real browser: a player uploads a .mat through their private link, says who
is who (the names only propose it), attaches it; then the viewer steps with ← and → (htmx
swaps the board), and a GNU ID can be copied. Debian's chromium against the live server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.models import MatchFile, MatchFileState, Result
from tests.factories import MatchFactory, PlayerFactory, RoundFactory, TournamentFactory, enter
from tournaments.access import private_links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TIMEOUT = 15_000
MAT = (Path(__file__).resolve().parents[1] / "data" / "records" / "gnubg_match7_seed5.mat").read_text()


def test_upload_with_mapping_then_keyboard_viewer(chromium, live_server, tmp_path):
    event = TournamentFactory(match_length=7, cube=True, rounds_planned=None)
    petrov = PlayerFactory(last_name="Петров", last_name_latin="Petrov")
    orlov = PlayerFactory(last_name="Орлов", last_name_latin="Orlov")
    a, b = enter(event, [petrov, orlov])
    match = MatchFactory(round=RoundFactory(tournament=event, number=1, match_length=7), table=1,
                         entry_a=a, entry_b=b, match_length=7)
    text = re.sub(r"^ gnubg : (\d+)(\s+)root : (\d+)", r" Orlov : \1\2Petrov : \3", MAT, flags=re.M)
    upload = tmp_path / "orlov-petrov.mat"
    upload.write_text(text)
    token = private_links.token_for(a)
    base = live_server.url

    context = chromium.new_context(locale="en-GB", extra_http_headers={"Accept-Language": "en"})
    page = context.new_page()
    page.goto(base + f"/p/{token}/match/{match.pk}/")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click(".record-links >> text=upload a match file")
    page.set_input_files("#id_file", str(upload))
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("#check-file")
    # The decision page: proposed mapping (Orlov is the file's first player → B), side by side.
    assert page.is_checked("input[name=first_is][value=b]")
    assert "proposed from the names" in page.inner_text("fieldset.mapping")
    assert "8:4" in page.inner_text("table.comparison")
    page.check("input[name=use_result]")
    with page.expect_navigation(timeout=TIMEOUT):
        page.click("button[name=action][value=attach]")
    result = Result.objects.get(match=match)
    assert (result.score_a, result.score_b) == (8, 4)
    assert MatchFile.objects.get().state == MatchFileState.ATTACHED

    page.goto(base + f"/p/{token}/match/{match.pk}/record/")
    assert page.locator("svg.board-svg").count() == 1
    assert page.inner_text("h2.frame-title").startswith("Game 1")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#record-board[data-ply='1']", timeout=TIMEOUT)
    assert "012/11" in page.inner_text(".move-traditional")
    assert "13/11" in page.inner_text(".move-through")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#record-board[data-ply='2']", timeout=TIMEOUT)
    # htmx swapped the board in: the focus is on "Next" again, not lost to the page (issue 34).
    page.wait_for_function("() => document.activeElement && document.activeElement.dataset.nav === 'next'",
                           timeout=TIMEOUT)
    assert "ply=2" in page.url  # htmx pushed the address: a link to this position
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#record-board[data-ply='1']", timeout=TIMEOUT)
    page.keyboard.press("End")
    page.wait_for_selector("#record-board[data-ply]:not([data-ply='1'])", timeout=TIMEOUT)
    position_id = page.input_value("#posid")
    assert len(position_id) == 14
    page.click("[data-copy=posid]")
    assert page.get_attribute("[data-copy=posid]", "data-copied") == "1"
    # A link to a position opens it directly.
    page.goto(base + f"/p/{token}/match/{match.pk}/record/?ply=5")
    assert page.get_attribute("#record-board", "data-ply") == "5"
    context.close()
