"""A whole match recorded by taps on a 390 px phone through a player's private link, watched
live on a second browser page; the attached record reads back as recorded (and, with gnubg,
is analysed). Prints the taps per move and the delay from a tap to the watcher's screen."""

from __future__ import annotations

import statistics
import time

import pytest
from django.urls import reverse

from scoring.analysis import services as analysis
from scoring.analysis.models import AnalysisState, MatchAnalysis
from scoring.live.models import LiveRecording
from scoring.models import MatchFile, MatchFileState
from scoring.rules.records import live as core
from scoring.viewer.frames import view_text
from tests.factories import MatchFactory, RoundFactory, TournamentFactory
from tests.scoring.live.helpers import match_steps
from tournaments.access import private_links
from tournaments.validation import match_spec

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TIMEOUT = 15_000


def _record(chromium, live_server, match, steps, lang):
    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                               extra_http_headers={"Accept-Language": lang})
    rec = ctx.new_page()
    token = private_links.token_for(match.entry_a)
    rec.goto(live_server.url + reverse("private-live", kwargs={"token": token, "match_id": match.pk}))
    assert rec.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    watch_ctx = chromium.new_context(extra_http_headers={"Accept-Language": lang})
    watch = watch_ctx.new_page()
    slug = match.round.tournament.slug
    watch.goto(live_server.url + reverse("live-match", kwargs={"slug": slug, "match_id": match.pk}))
    spec, variant = match_spec(match), match.round.tournament.variant
    state = core.start(spec, variant)
    taps, moves, delays = 0, 0, []
    seq = 0

    def tap(selector):
        nonlocal taps
        rec.locator(selector).first.click()
        taps += 1

    for step in steps:
        if state.phase == core.OVER:
            break
        if step["kind"] == "roll":
            if state.phase == core.OPENING:
                rec.check(f"input[name=first][value={step['side']}]")
            for d in step["dice"]:
                tap(f".live-die[data-die='{d}']")
            sent = step
        elif step["kind"] == "play":
            moves += 1
            target = core.play_options(state)[0]
            for src, dst, _hit in target["steps"]:
                if rec.locator("#live-send").is_enabled():
                    break
                tap(f".live-point[data-point='{src}']")
                if rec.locator(".live-point.is-from").count():
                    tap(f".live-point[data-point='{dst}']")
            if not rec.locator("#live-send").is_enabled():  # taps went another way: the keyboard path
                while rec.locator("#live-undo").is_enabled():
                    tap("#live-undo")
                rec.fill("#live-notation", target["text"])
                tap("#live-text button[type=submit]")
                sent = {"kind": "play", "text": target["text"]}
            else:
                sent = {"kind": "play", "text": rec.inner_text("#live-chosen").strip()}
                tap("#live-send")
        else:
            tap(f"#live-cube-actions button[data-kind='{step['kind']}']")
            sent = step
        state = core.apply(state, sent)
        seq += 1
        clicked = time.monotonic()
        rec.wait_for_selector(f"#live-recorder[data-seq='{seq}'][data-queued='0']", state="attached", timeout=TIMEOUT)
        if seq % 15 == 0 or state.phase == core.OVER:
            watch.wait_for_selector(f"#live-watch[data-seq='{seq}']", state="attached", timeout=TIMEOUT)
            delays.append(time.monotonic() - clicked)
    assert state.phase == core.OVER
    ctx.close()
    watch_ctx.close()
    return state, taps / max(moves, 1), delays


def _report(name, taps, delays):
    print(f"\n{name}: {taps:.2f} taps per move; tap → watcher delay median {statistics.median(delays):.2f} s,"
          f" max {max(delays):.2f} s over {len(delays)} samples")


def test_a_three_point_backgammon_match_by_taps_watched_live(chromium, live_server):
    tournament = TournamentFactory(match_length=3, cube=True)
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    steps = match_steps(match_spec(match), "backgammon", seed=3, double_every=9)
    state, taps, delays = _record(chromium, live_server, match, steps, "en")
    _report("backgammon", taps, delays)
    mf = MatchFile.objects.get(match=match, state=MatchFileState.ATTACHED)
    assert mf.text == core.to_mat(state, (match.entry_a.player.full_name, match.entry_b.player.full_name))
    assert list(view_text(mf.text, variant="backgammon").final_score) == list(state.score)
    assert LiveRecording.objects.get(match=match).problem is None
    row = MatchAnalysis.objects.get(match=match)  # queued the moment the record was attached
    if analysis.available():
        if row.state == AnalysisState.QUEUED:  # with a broker a worker runs it; here we do
            row = analysis.run_next()
        assert row.state == AnalysisState.DONE, row.problem
        assert row.report  # PR per player, from the recorded match
    else:
        assert row.state == AnalysisState.FAILED  # "gnubg is not installed", said on the match page


def test_a_long_nardy_game_by_taps_watched_live(chromium, live_server):
    tournament = TournamentFactory(variant="long_nardy", scoring="long_nardy", match_length=1)
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    steps = match_steps(match_spec(match), "long_nardy", seed=5)
    state, taps, delays = _record(chromium, live_server, match, steps, "ru")
    _report("long nardy", taps, delays)
    mf = MatchFile.objects.get(match=match, state=MatchFileState.ATTACHED)
    names = (match.entry_a.player.full_name, match.entry_b.player.full_name)
    assert mf.text == core.to_book_text(state, names)
    assert list(view_text(mf.text, variant="long_nardy").final_score) == list(state.score)


def test_a_lost_connection_keeps_the_steps_on_the_phone_and_sends_them_once(chromium, live_server):
    tournament = TournamentFactory(match_length=3, cube=True)
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    ctx = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, extra_http_headers={"Accept-Language": "en"})
    page = ctx.new_page()
    token = private_links.token_for(match.entry_a)
    url = live_server.url + reverse("private-live", kwargs={"token": token, "match_id": match.pk})
    page.goto(url)
    ctx.set_offline(True)
    page.click(".live-die[data-die='3']")
    page.click(".live-die[data-die='1']")
    page.wait_for_selector("#live-recorder[data-queued='1']", state="attached", timeout=TIMEOUT)
    assert "1 steps waiting for the network" in page.inner_text("#live-status")
    page.close()  # the phone's page is gone too: the step waits in localStorage
    ctx.set_offline(False)
    again = ctx.new_page()
    again.goto(url)
    again.wait_for_selector("#live-recorder[data-seq='1'][data-queued='0']", state="attached", timeout=TIMEOUT)
    again.reload()  # nothing is sent twice
    again.wait_for_selector("#live-recorder[data-seq='1'][data-queued='0']", state="attached", timeout=TIMEOUT)
    rec = LiveRecording.objects.get(match=match)
    assert rec.seq == 1 and rec.steps.get().data == {"kind": "roll", "dice": [3, 1], "side": "white"}
    ctx.close()
