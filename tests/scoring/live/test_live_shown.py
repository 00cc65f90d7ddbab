"""The live board where watchers find it: the API's ``/api/matches/<id>/live/`` answers what the
board page polls (one builder), with its ETag and 304; the public pairings row and the match's
page mark a match "live" from its first recorded step to its end, in words."""

from __future__ import annotations

import lxml.html
import pytest
from django.urls import reverse

from scoring.live.models import LiveRecording
from scoring.rules.match.spec import MatchSpec
from tests.factories import MatchFactory, RoundFactory, TournamentFactory, UserFactory
from tournaments.models import RoundStatus

from .helpers import match_steps
from .test_live_api import record_all, send, step_url

pytestmark = pytest.mark.django_db

ROLL = {"kind": "roll", "dice": [3, 1], "side": "white"}


@pytest.fixture
def bg_match(db):
    tournament = TournamentFactory(match_length=3, cube=True, beaver=True)
    return MatchFactory(round=RoundFactory(tournament=tournament))


def api_url(match) -> str:
    return f"/api/matches/{match.pk}/live/"


def state_url(match) -> str:
    return reverse("live-state", kwargs={"slug": match.round.tournament.slug, "match_id": match.pk})


def test_the_api_answers_what_the_board_page_polls_with_an_etag_and_304(client, bg_match):
    send(client, step_url(bg_match), 1, ROLL)
    answer = client.get(api_url(bg_match))
    assert answer.status_code == 200 and answer["ETag"]
    assert answer.json() == client.get(state_url(bg_match)).json()
    data = answer.json()
    assert data["dice"] == [3, 1] and data["ids"]["position_id"] == "4HPwATDgc/ABMA" and data["ids"]["match_id"]
    assert data["seq"] == 1 and data["state"] == "recording" and data["match"] == bg_match.pk
    assert client.get(api_url(bg_match), HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304
    # The same read under the tournament's matches.
    slug = bg_match.round.tournament.slug
    assert client.get(f"/api/tournaments/{slug}/matches/{bg_match.pk}/live/").json() == data
    # The next step changes the answer: the old ETag no longer matches.
    send(client, step_url(bg_match), 2, {"kind": "play", "text": "8/5, 6/5"})
    after = client.get(api_url(bg_match), HTTP_IF_NONE_MATCH=answer["ETag"])
    assert after.status_code == 200 and after.json()["last"].endswith("8/5, 6/5")
    assert after.json() == client.get(state_url(bg_match)).json()


def test_a_match_never_recorded_is_a_404_problem(client, bg_match):
    answer = client.get(api_url(bg_match), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 404 and answer["Content-Type"].startswith("application/problem+json")


@pytest.mark.parametrize("hidden", ["draft_round", "private_tournament"])
def test_an_unpublished_match_is_not_shown_to_an_anonymous_caller(client, bg_match, hidden):
    send(client, step_url(bg_match), 1, ROLL)  # its players record it on their private links
    if hidden == "draft_round":
        bg_match.round.status = RoundStatus.DRAFT
        bg_match.round.save()
    else:
        bg_match.round.tournament.public = False
        bg_match.round.tournament.save()
    answer = client.get(api_url(bg_match))
    assert answer.status_code in (403, 404) and "dice" not in answer.content.decode()
    assert client.get(state_url(bg_match)).status_code in (403, 404)
    client.force_login(UserFactory())  # a stranger's account sees no more
    assert client.get(api_url(bg_match)).status_code in (403, 404)


def _pairings_badges(client, match, language="en") -> dict[int, tuple[str, str]]:
    url = reverse("public-pairings", kwargs={"slug": match.round.tournament.slug})
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    out = {}
    for link in lxml.html.fromstring(html).xpath("//table[contains(@class,'pairings')]//a[contains(@class,'live')]"):
        out[int(link.get("href").split("/match/")[1].split("/")[0])] = (link.text_content().strip(), link.get("href"))
    return out


@pytest.mark.parametrize(("language", "word"), [("en", "● live"), ("ru", "● идёт запись")])
def test_the_pairings_row_and_the_match_page_show_live_while_recording_and_not_after(client, bg_match, language, word):
    other = MatchFactory(round=bg_match.round, table=2)
    assert _pairings_badges(client, bg_match, language) == {}  # read once: the row is kept
    LiveRecording.objects.create(match=other, tournament=other.round.tournament)  # a recorder page opened
    steps = match_steps(MatchSpec(length=3, cube=True, beaver=True), "backgammon", seed=3)
    send(client, step_url(bg_match), 1, steps[0])
    live_url = reverse("live-match", kwargs={"slug": bg_match.round.tournament.slug, "match_id": bg_match.pk})
    assert _pairings_badges(client, bg_match, language) == {bg_match.pk: (word, live_url)}
    page = client.get(reverse("live-match", kwargs={"slug": bg_match.round.tournament.slug, "match_id": bg_match.pk}))
    assert page.status_code == 200
    client.force_login(UserFactory(is_superuser=True))
    match_page = client.get(reverse("result-match", kwargs={"slug": bg_match.round.tournament.slug,
                                                            "match_id": bg_match.pk}), HTTP_ACCEPT_LANGUAGE=language)
    assert live_url in match_page.content.decode()
    client.logout()
    for n, step in enumerate(steps[1:], start=2):
        assert send(client, step_url(bg_match), n, step).status_code == 200
    assert LiveRecording.objects.get(match=bg_match).state == LiveRecording.FINISHED
    assert _pairings_badges(client, bg_match, language) == {}
    client.force_login(UserFactory(is_superuser=True))
    match_page = client.get(reverse("result-match", kwargs={"slug": bg_match.round.tournament.slug,
                                                            "match_id": bg_match.pk}))
    assert live_url not in match_page.content.decode()


def test_after_the_last_step_the_api_answers_the_finished_board(client, bg_match):
    """The whole match recorded through the helper leaves the API answering the finished board."""
    steps = match_steps(MatchSpec(length=3, cube=True, beaver=True), "backgammon", seed=5)
    record_all(client, bg_match, steps)
    data = client.get(api_url(bg_match)).json()
    assert data["state"] == "finished" and data["phase"] == "over" and data["seq"] == len(steps)
