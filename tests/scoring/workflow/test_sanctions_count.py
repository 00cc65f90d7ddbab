"""Sanctions that count (issue 15, item 4): a penalty comes off the tournament score.

The book, Part 9: the director "может оштрафовать медленного игрока (но с
первоначальным предупреждением)". The penalty's points become a standings
adjustment that the core counts and every table marks with its reason.
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from openpyxl import load_workbook
from rest_framework.test import APIClient

from scoring import workflow
from scoring.models import Sanction
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import AuditEntry, StandingsAdjustment, Tournament
from tournaments.standings_service import load_event
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db
User = get_user_model()
REASON = "slow play: three minutes a move after a warning"


@pytest.fixture
def swiss(demo_once, db):
    return Tournament.objects.get(slug=SWISS_SLUG)


def _leader(tournament):
    event = load_event(tournament)
    key, table = next(iter(event.standings.items()))
    return key, table.rows[0]


def test_a_penalty_comes_off_the_score_and_is_marked_on_every_table(client, swiss):
    key, leader = _leader(swiss)
    wins = leader.values["wins"]
    entry = swiss.entries.get(pk=leader.player.id)
    client.force_login(User.objects.get(username="organiser"))
    sanctions = reverse("sanction-list", kwargs={"slug": SWISS_SLUG})
    for kind, points in (("warning", ""), ("penalty", "1")):
        reason = REASON if kind == "penalty" else "slow play"
        response = client.post(
            sanctions, {"entry": entry.pk, "kind": kind, "points": points, "reason": reason}
        )
        assert response.status_code == 302
    adjustment = StandingsAdjustment.objects.get(entry=entry)
    assert adjustment.points == -1 and adjustment.sanction.kind == "penalty"
    assert AuditEntry.objects.filter(action="sanction.penalty", tournament=swiss).exists()

    row = load_event(swiss).standings[key].row(entry.pk)
    assert row.values["wins"] == wins - 1
    assert [a.reason for a in row.adjustments] == [REASON]

    page = client.get(reverse("public-standings", kwargs={"slug": SWISS_SLUG})).content.decode()
    assert '<sup class="mark">*</sup>' in page and REASON in page
    cross = client.get(reverse("public-crosstable-rounds", kwargs={"slug": SWISS_SLUG}))
    assert '<sup class="mark">*</sup>' in cross.content.decode() and REASON in cross.content.decode()

    out = io.BytesIO()
    build_workbook(swiss, out, "en")
    sheet = load_workbook(io.BytesIO(out.getvalue()))["Standings"]
    cells = [[c for c in r if c is not None] for r in sheet.iter_rows(values_only=True)]
    name = leader.player.name("en")
    (mine,) = [r for r in cells if name in r and REASON not in r]
    assert f"{int(wins - 1)}*" in mine
    assert any(REASON in r for r in cells)  # the legend


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "positive number"), ("ru", "положительное число")]
)
def test_a_penalty_without_points_is_refused_and_the_form_keeps_the_input(client, swiss, lang, words):
    entry = swiss.entries.order_by("draw_number").first()
    organiser = User.objects.get(username="organiser")
    workflow.record_sanction(swiss, entry, organiser, kind="warning", reason="talking")
    client.force_login(organiser)
    response = client.post(
        reverse("sanction-list", kwargs={"slug": SWISS_SLUG}),
        {"entry": entry.pk, "kind": "penalty", "points": "", "reason": "prompting"},
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    text = response.content.decode()
    assert response.status_code == 200 and words in text and "prompting" in text
    assert not StandingsAdjustment.objects.filter(entry=entry).exists()
    with pytest.raises(workflow.ResultError) as refused:
        workflow.record_sanction(
            swiss, entry, organiser, kind="penalty", reason="x", points="0.3"
        )
    assert refused.value.problem.code == "workflow.penalty_points"


def test_the_api_records_a_penalty_with_the_same_rules_as_the_page(swiss):
    entry = swiss.entries.order_by("draw_number").last()
    api = APIClient()
    url = f"/api/tournaments/{SWISS_SLUG}/sanctions/"
    api.force_authenticate(entry.player.user)
    assert api.post(url, {"entry": entry.pk, "kind": "warning", "reason": "x"}).status_code == 403
    api.force_authenticate(User.objects.get(username="jury"))
    refused = api.post(url, {"entry": entry.pk, "kind": "penalty", "points": "1", "reason": "x"})
    assert refused.status_code == 409 and refused.json()["code"] == "workflow.warning_first"
    assert api.post(url, {"entry": entry.pk, "kind": "warning", "reason": "noise"}).status_code == 201
    made = api.post(url, {"entry": entry.pk, "kind": "penalty", "points": "0.5", "reason": "noise again"})
    assert made.status_code == 201 and made.json()["decided_as"] == "jury"
    assert StandingsAdjustment.objects.get(entry=entry).points == -0.5
    listed = api.get(url).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert {r["kind"] for r in rows} >= {"warning", "penalty"}
    assert Sanction.objects.filter(entry=entry).count() == 2


# --------------------------------------------------------------------------- annulled game

def _match(swiss):
    from tournaments.models import Match

    return Match.objects.select_related("entry_a__player", "entry_b__player").get(
        round__tournament=swiss, round__number=3, table=1
    )


def _fresh(match):
    from tournaments.models import Match

    return Match.objects.get(pk=match.pk)


def test_an_annulled_game_leaves_the_ledger_and_the_result_is_corrected(client, swiss):
    """Part 9: "партия игрока, получившего подсказку, аннулируется"."""
    match = _match(swiss)
    referee, organiser = User.objects.get(username="referee"), User.objects.get(username="organiser")
    games = [
        {"winner": "a", "kind": "backgammon"},
        {"winner": "b", "kind": "single"},
        {"winner": "a", "kind": "backgammon"},
        {"winner": "a", "kind": "gammon"},
    ]
    workflow.submit_result(match.pk, referee, version=match.version, games=games, confirm=True)
    assert (_fresh(match).score_a, _fresh(match).score_b) == (8, 1)
    client.force_login(organiser)
    answer = client.post(
        reverse("sanction-list", kwargs={"slug": SWISS_SLUG}),
        {"entry": match.entry_b_id, "kind": "annul", "match": match.pk, "game": 2,
         "reason": "a spectator prompted the move"},
    )  # fmt: skip
    assert answer.status_code == 302
    m = _fresh(match)
    assert (m.score_a, m.score_b, m.result_status) == (8, 0, "confirmed")
    assert m.games.count() == 3
    assert Sanction.objects.get(kind="annul").game == 2
    assert AuditEntry.objects.filter(action="sanction.annul").exists()
    assert AuditEntry.objects.filter(action="result.correct", reason__contains="prompted").exists()
    with pytest.raises(workflow.ResultError) as refused:
        workflow.record_sanction(
            swiss, match.entry_b, organiser, kind="annul", match=m, game=9, reason="typo"
        )
    assert refused.value.problem.code == "workflow.annul_no_game"
    assert "there is no game 9" in refused.value.problem.message("en")


def test_annulling_a_deciding_game_sends_the_match_back_to_play(swiss):
    match = _match(swiss)
    referee, jury = User.objects.get(username="referee"), User.objects.get(username="jury")
    games = [{"winner": "a", "kind": "backgammon"}] * 3
    workflow.submit_result(match.pk, referee, version=match.version, games=games, confirm=True)
    workflow.record_sanction(
        swiss, match.entry_a, jury, kind="annul", match=_fresh(match), game=3, reason="prompting"
    )
    m = _fresh(match)
    assert (m.score_a, m.result_status) == (None, "pending")  # 6:0, not finished: play on
    # in play again with nothing reported: the annulment is recorded, the players report without it
    workflow.record_sanction(swiss, match.entry_b, jury, kind="annul", match=m, game=5, reason="again")
    assert _fresh(match).result_status == "pending"
    workflow.submit_result(match.pk, referee, version=_fresh(match).version, final=(7, 2), confirm=True)
    with pytest.raises(workflow.ResultError) as refused:
        workflow.record_sanction(
            swiss, match.entry_a, jury, kind="annul", match=_fresh(match), game=1, reason="x"
        )
    assert refused.value.problem.code == "workflow.annul_needs_ledger"


def test_a_penalty_from_the_match_score_goes_to_the_opponent_and_the_match_plays_on(client, swiss):
    """The organiser's rule "from the match": the points go to the opponent's score in the match."""
    t = Tournament.objects.get(pk=swiss.pk)  # saved, as the organiser's form does: the signals move its cache version on
    t.penalty_from = "match"
    t.save(update_fields=["penalty_from"])
    swiss.refresh_from_db()
    match = _match(swiss)  # round 3 of the demo: published, not played yet
    director = User.objects.get(username="organiser")
    workflow.record_sanction(swiss, match.entry_a, director, kind="warning", reason="slow play")
    workflow.record_sanction(
        swiss, match.entry_a, director, kind="penalty", points="2", match=match, reason=REASON
    )
    m = _fresh(match)
    assert (m.start_a, m.start_b, m.result_status) == (0, 2, "pending")
    assert not StandingsAdjustment.objects.filter(entry=match.entry_a).exists()
    assert AuditEntry.objects.filter(action="match.penalty", tournament=swiss).exists()
    length = m.match_length or m.round.match_length or swiss.match_length
    with pytest.raises(workflow.InvalidResult) as below:  # B starts from 2: a final 1 is below it
        workflow.check_result(m, (length, 1), None)
    assert "match.below_start" in [p.code for p in below.value.problems]
    with pytest.raises(workflow.ResultError) as refused:
        workflow.record_sanction(swiss, match.entry_a, director, kind="penalty", points="1.5",
                                 match=m, reason="again")  # fmt: skip
    assert refused.value.problem.code == "workflow.penalty_whole"
    with pytest.raises(workflow.ResultError) as refused:
        workflow.record_sanction(swiss, match.entry_a, director, kind="penalty", points="1", reason="no match")
    assert "choose the player's match" in refused.value.problem.message("en")
    workflow.record_sanction(swiss, match.entry_a, director, kind="penalty", points=str(length),
                             match=_fresh(match), reason="enough")  # fmt: skip
    ended = _fresh(match)
    assert (ended.result_kind, ended.result_status, ended.winner) == ("forfeit", "confirmed", "b")
