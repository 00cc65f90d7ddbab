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

from scoring import services
from scoring.demo import SWISS_SLUG
from scoring.models import Sanction
from tournaments.export_tasks import build_workbook
from tournaments.models import AuditEntry, StandingsAdjustment, Tournament
from tournaments.standings_service import load_event

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
    services.record_sanction(swiss, entry, organiser, kind="warning", reason="talking")
    client.force_login(organiser)
    response = client.post(
        reverse("sanction-list", kwargs={"slug": SWISS_SLUG}),
        {"entry": entry.pk, "kind": "penalty", "points": "", "reason": "prompting"},
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    text = response.content.decode()
    assert response.status_code == 200 and words in text and "prompting" in text
    assert not StandingsAdjustment.objects.filter(entry=entry).exists()
    with pytest.raises(services.ResultError) as refused:
        services.record_sanction(
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
