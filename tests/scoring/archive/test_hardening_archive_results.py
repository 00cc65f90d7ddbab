"""A tampered archive is refused: every restored result passes the rules core as a typed one.

Each test edits a real archive of the demo Swiss the way an attacker would (a 7-point
match set to 99:0, a level 7:7 with a winner, games that contradict the score, a
winner the score does not give) and restores it by the command's code and the
organiser's page. The archive is refused with a problem naming the match and the
rule, in Russian and English, and nothing at all is written.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Player
from scoring.archive import backup as archive
from scoring.models import Result
from tests.conftest import FAST_HASHERS
from tournaments.models import AuditEntry, Game, Match, Tournament
from zarik.management.demo import SWISS_SLUG, load_demo

User = get_user_model()


@pytest.fixture
def dumped(db, settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS
    load_demo()
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    return json.loads(json.dumps(archive.dump(swiss), cls=archive.Encoder))


def _counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Tournament, Match, Game, Result, AuditEntry, Player)
    }


def _played_match(data: dict) -> dict:
    """The first confirmed, played match of the archive whose ledger has games."""
    with_games = {g["match_id"] for g in data["tables"]["games"]}
    return next(
        m for m in data["tables"]["matches"]
        if m["result_status"] == "confirmed" and m["result_kind"] == "played" and m["id"] in with_games
        and m["entry_b_id"] is not None
    )


def _confirmed_result(data: dict, match_id: int) -> dict:
    return next(r for r in data["tables"]["results"] if r["match_id"] == match_id and r["state"] == "confirmed")


def _refused(data: dict) -> archive.ArchiveError:
    before = _counts()
    with pytest.raises(archive.ArchiveError) as refused:
        archive.load(data, slug="tampered")
    assert _counts() == before, "a refused archive wrote something"
    assert not Tournament.objects.filter(slug="tampered").exists()
    return refused.value


def test_a_tampered_99_0_on_a_7_point_match_is_refused_and_nothing_is_written(dumped):
    data = copy.deepcopy(dumped)
    match = _played_match(data)
    match["score_a"], match["score_b"], match["winner"] = 99, 0, "a"
    match_id = match["id"]
    result = _confirmed_result(data, match_id)
    result["score_a"], result["score_b"] = 99, 0
    data["tables"]["games"] = [g for g in data["tables"]["games"] if g["match_id"] != match_id]

    error = _refused(data)
    assert error.problem.code == "archive.result"
    en, ru = error.message("en"), error.message("ru")
    assert "breaks the rules" in en and "нарушает правила" in ru
    assert "table" in en and "стол" in ru
    assert "99" in en and "99" in ru  # the core's own words about the impossible score


def test_a_level_7_7_with_a_winner_is_refused(dumped):
    data = copy.deepcopy(dumped)
    match = _played_match(data)
    match["score_a"], match["score_b"], match["winner"] = 7, 7, "a"
    data["tables"]["games"] = [g for g in data["tables"]["games"] if g["match_id"] != match["id"]]
    result = _confirmed_result(data, match["id"])
    result["score_a"], result["score_b"], result["games"] = 7, 7, []

    error = _refused(data)
    assert error.problem.code == "archive.result"
    assert {p.code.split(".")[0] for p in error.because} == {"match"}


def test_games_that_contradict_the_score_are_refused(dumped):
    data = copy.deepcopy(dumped)
    match = _played_match(data)
    for game in (g for g in data["tables"]["games"] if g["match_id"] == match["id"]):
        game["winner"] = "b" if match["winner"] == "a" else "a"  # every game to the loser

    error = _refused(data)
    assert error.problem.code == "archive.result"
    assert error.because


def test_a_winner_the_score_does_not_give_is_refused(dumped):
    data = copy.deepcopy(dumped)
    match = _played_match(data)
    match["winner"] = "b" if match["winner"] == "a" else "a"

    error = _refused(data)
    assert [p.code for p in error.because] == ["match.winner_contradicts"]
    names = error.names["en"]
    assert names[match["winner"]] in error.message("en")  # the players are named, not "A"/"B"


def test_a_tampered_report_alone_is_refused(dumped):
    """The ledger is right but the confirmed report behind it says 99:0: the report is checked too."""
    data = copy.deepcopy(dumped)
    match = _played_match(data)
    result = _confirmed_result(data, match["id"])
    result["score_a"], result["score_b"], result["games"] = 99, 0, []

    assert _refused(data).problem.code == "archive.result"


def test_the_untouched_archive_still_restores(dumped):
    done = archive.load(copy.deepcopy(dumped), slug="faithful")
    assert done.tournament.slug == "faithful"


@pytest.mark.parametrize(("language", "words"), [("en", "breaks the rules"), ("ru", "нарушает правила")])
def test_the_restore_page_refuses_a_tampered_archive_in_the_readers_language(dumped, client, language, words):
    data = copy.deepcopy(dumped)
    match = _played_match(data)
    match["score_a"], match["score_b"] = 99, 0
    club = Tournament.objects.get(slug=SWISS_SLUG).club
    client.force_login(User.objects.get(username="organiser"))
    client.cookies["django_language"] = language
    before = _counts()

    page = client.post(
        reverse("organise-restore", kwargs={"club_slug": club.slug}),
        {"slug": "tampered", "archive": SimpleUploadedFile("t.json", json.dumps(data).encode())},
    )

    assert page.status_code == 400
    assert words in page.content.decode()
    assert 'value="tampered"' in page.content.decode()  # the typed address is kept
    assert _counts() == before
