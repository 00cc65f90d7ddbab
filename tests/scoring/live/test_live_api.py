"""The live recording through its JSON API: every step checked by the rules core, ordered by
its number, deduplicated by its key; the end of the match attaches the record as a report."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse

from scoring.live.models import LiveRecording, LiveStep
from scoring.models import MatchFile, MatchFileState, Result, ResultState
from scoring.records import match_files
from scoring.rules.match.spec import MatchSpec
from scoring.rules.records import live as core
from scoring.viewer.frames import view_text
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.access import private_links

from .helpers import match_steps

pytestmark = pytest.mark.django_db


@pytest.fixture
def bg_match(db):
    tournament = TournamentFactory(match_length=3, cube=True, beaver=True)
    return MatchFactory(round=RoundFactory(tournament=tournament))


@pytest.fixture
def nardy_match(db):
    tournament = TournamentFactory(variant="long_nardy", scoring="long_nardy", match_length=1)
    return MatchFactory(round=RoundFactory(tournament=tournament))


def step_url(match, entry=None) -> str:
    entry = entry or match.entry_a
    return reverse("private-live-step", kwargs={"token": private_links.token_for(entry), "match_id": match.pk})


def send(client, url, seq, step, key=None, lang="en"):
    body = {"seq": seq, "key": key or uuid.uuid4().hex, "step": step}
    return client.post(url, json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)


def record_all(client, match, steps, url=None):
    url = url or step_url(match)
    for n, step in enumerate(steps, start=1):
        r = send(client, url, n, step)
        assert r.status_code == 200, r.json()
    return r.json()


def test_a_whole_backgammon_match_becomes_the_attached_record_and_a_report(client, bg_match):
    steps = match_steps(MatchSpec(length=3, cube=True, beaver=True), "backgammon", seed=3, double_every=9)
    last = record_all(client, bg_match, steps)
    assert last["finished"] and last["state"]["phase"] == "over"
    rec = LiveRecording.objects.get(match=bg_match)
    assert rec.seq == len(steps) and rec.steps.count() == len(steps) and rec.problem is None
    mf = MatchFile.objects.get(match=bg_match, state=MatchFileState.ATTACHED)
    assert mf.name == "recorded live.mat" and rec.record_file == mf and mf.kind == "mat"
    assert '[Source "Zarik live recording"]' in mf.text
    view = view_text(mf.text, variant="backgammon")
    assert not view.problems and list(view.final_score) == last["state"]["score"]
    report = Result.objects.get(match=bg_match, state=ResultState.REPORTED)
    assert (report.score_a, report.score_b) == tuple(last["state"]["score"])
    # The record reads back as recorded: the same plays in the same order.
    plays = [s["text"] for s in steps if s["kind"] == "play"]
    assert len([f for f in view.frames if f.kind == "play"]) == len(plays)
    assert match_files.match_record(bg_match)[1] == mf


def test_a_long_nardy_game_is_kept_in_the_books_notation(client, nardy_match):
    steps = match_steps(MatchSpec(length=1, scoring="long_nardy"), "long_nardy", seed=5)
    last = record_all(client, nardy_match, steps)
    assert last["finished"]
    mf = MatchFile.objects.get(match=nardy_match, state=MatchFileState.ATTACHED)
    assert mf.kind == "text" and "Партия №1" in mf.text
    view = view_text(mf.text, variant="long_nardy")
    assert not view.problems and list(view.final_score) == last["state"]["score"]
    assert Result.objects.filter(match=nardy_match, state=ResultState.REPORTED).exists()


@pytest.mark.parametrize("variant", ["backgammon", "long_nardy"])
def test_an_illegal_play_is_refused_where_it_is_entered_and_nothing_is_stored(client, variant):
    tournament = TournamentFactory(variant=variant, scoring=variant, match_length=1)
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    url = step_url(match)
    assert send(client, url, 1, {"kind": "roll", "dice": [6, 5], "side": "white"}).status_code == 200
    r = send(client, url, 2, {"kind": "play", "text": "1/off"})
    assert r.status_code == 422
    data = r.json()
    assert data["problems"][0]["code"] == "live.illegal_play" and "1/off" in data["problems"][0]["message"]
    assert data["expected"] == 2 and LiveStep.objects.filter(recording__match=match).count() == 1
    ru = send(client, url, 2, {"kind": "play", "text": "1/off"}, lang="ru").json()
    assert "невозможен" in ru["problems"][0]["message"]


@pytest.mark.parametrize("variant", ["backgammon", "long_nardy"])
def test_a_step_out_of_order_is_refused_with_the_step_and_position_expected(client, variant):
    tournament = TournamentFactory(variant=variant, scoring=variant, match_length=1)
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    url = step_url(match)
    send(client, url, 1, {"kind": "roll", "dice": [3, 1], "side": "white"})
    r = send(client, url, 5, {"kind": "double"})
    assert r.status_code == 409
    data = r.json()
    assert data["expected"] == 2 and data["problems"][0]["code"] == "live.out_of_order"
    message = data["problems"][0]["message"]
    assert "expected step 2" in message and "play for 3–1" in message
    if variant == "backgammon":
        assert "Position ID 4HPwATDgc/ABMA" in message
    ru = send(client, url, 5, {"kind": "double"}, lang="ru").json()["problems"][0]["message"]
    assert "ждала шаг 2" in ru


def test_a_resent_step_is_stored_once(client, bg_match):
    url = step_url(bg_match)
    key = "same-key-1"
    first = send(client, url, 1, {"kind": "roll", "dice": [3, 1], "side": "white"}, key=key).json()
    again = send(client, url, 1, {"kind": "roll", "dice": [3, 1], "side": "white"}, key=key).json()
    assert first["ok"] and again["ok"] and again["duplicate"] and not first["duplicate"]
    assert LiveStep.objects.filter(recording__match=bg_match).count() == 1


def test_two_devices_are_merged_when_they_agree_and_refused_when_they_do_not(client, bg_match):
    a, b = step_url(bg_match, bg_match.entry_a), step_url(bg_match, bg_match.entry_b)
    assert send(client, a, 1, {"kind": "roll", "dice": [3, 1], "side": "white"}).json()["ok"]
    same = send(client, b, 1, {"kind": "roll", "dice": [3, 1], "side": "white"}).json()
    assert same["ok"] and same["duplicate"]  # the opponent's phone saw the same roll: merged
    other = send(client, b, 1, {"kind": "roll", "dice": [6, 4], "side": "black"})
    assert other.status_code == 409 and other.json()["expected"] == 2
    assert other.json()["state"]["dice"] == [3, 1]  # the refusal carries the board as recorded
    assert LiveStep.objects.filter(recording__match=bg_match).count() == 1


def test_only_players_officials_and_the_appointed_recorder_may_record(client, bg_match):
    url = reverse("live-step", kwargs={"slug": bg_match.round.tournament.slug, "match_id": bg_match.pk})
    stranger = UserFactory()
    client.force_login(stranger)
    r = send(client, url, 1, {"kind": "roll", "dice": [3, 1], "side": "white"})
    assert r.status_code == 403 and r.json()["problems"][0]["code"] == "live.not_recorder"
    referee = UserFactory()
    OfficialFactory(tournament=bg_match.round.tournament, user=referee, role="referee")
    client.force_login(referee)
    appoint = reverse("live-appoint", kwargs={"slug": bg_match.round.tournament.slug, "match_id": bg_match.pk})
    assert client.post(appoint, {"recorder": stranger.username, "featured": "1"}).status_code == 302
    client.force_login(stranger)
    assert send(client, url, 1, {"kind": "roll", "dice": [3, 1], "side": "white"}).json()["ok"]
    feature = reverse("live-feature", kwargs={"slug": bg_match.round.tournament.slug})
    hall = client.get(feature, HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true")
    assert b"Feature table" in hall.content and b"4HPwATDgc/ABMA" in hall.content
    opened = client.get(feature)  # its address opened directly: the hall display holding it, not a bare fragment
    assert opened.status_code == 302 and opened["Location"].endswith(f"/t/{bg_match.round.tournament.slug}/hall/")


def test_a_recording_by_the_appointed_recorder_is_reported_by_the_referee(client, bg_match):
    referee, recorder = UserFactory(), UserFactory()
    OfficialFactory(tournament=bg_match.round.tournament, user=referee, role="referee")
    client.force_login(referee)
    appoint = reverse("live-appoint", kwargs={"slug": bg_match.round.tournament.slug, "match_id": bg_match.pk})
    client.post(appoint, {"recorder": recorder.username})
    client.force_login(recorder)
    url = reverse("live-step", kwargs={"slug": bg_match.round.tournament.slug, "match_id": bg_match.pk})
    record_all(client, bg_match, match_steps(MatchSpec(length=3, cube=True), "backgammon", seed=8), url=url)
    report = Result.objects.get(match=bg_match, state=ResultState.REPORTED)
    assert report.reported_by == referee


def test_a_recording_that_disagrees_with_the_opponents_report_is_kept_for_the_referee(client, bg_match):
    steps = match_steps(MatchSpec(length=3, cube=True), "backgammon", seed=3)
    final = core.replay(MatchSpec(length=3, cube=True), "backgammon", steps).score
    wrong = (0, 3) if final[0] >= 3 else (3, 0)
    Result.objects.create(match=bg_match, score_a=wrong[0], score_b=wrong[1], state=ResultState.REPORTED,
                          reported_side="b")
    last = record_all(client, bg_match, steps)
    assert last["finished"] and last["problems"][0]["code"] == "workflow.conflict"
    rec = LiveRecording.objects.get(match=bg_match)
    assert rec.record_file is not None and rec.record_file.state == MatchFileState.PENDING
    assert rec.steps.count() == len(steps)  # nothing recorded is lost


def test_watchers_poll_with_etags(client, bg_match):
    send(client, step_url(bg_match), 1, {"kind": "roll", "dice": [3, 1], "side": "white"})
    slug = bg_match.round.tournament.slug
    url = reverse("live-state", kwargs={"slug": slug, "match_id": bg_match.pk})
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    data = first.json()
    assert data["dice"] == [3, 1] and data["ids"]["position_id"] == "4HPwATDgc/ABMA" and data["ids"]["match_id"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    board = reverse("live-board", kwargs={"slug": slug, "match_id": bg_match.pk})
    page = client.get(board, HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and b"<svg" in page.content and b"4HPwATDgc/ABMA" in page.content
    assert client.get(board, HTTP_IF_NONE_MATCH=page["ETag"], HTTP_HX_REQUEST="true").status_code == 304
    opened = client.get(board)  # opened directly: the match's live page, with its language and title
    assert opened.status_code == 302 and opened["Location"].endswith(f"/match/{bg_match.pk}/live/")
    send(client, step_url(bg_match), 2, {"kind": "play", "text": "8/5, 6/5"})
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    public = client.get(reverse("live-match", kwargs={"slug": slug, "match_id": bg_match.pk}))
    assert public.status_code == 200 and b"every 2s" in public.content
