"""The workbook's standings agree with the standings API when the director has taken points
(found by a 30-minute soak of the whole-event simulator: the invariant read the penalties'
footnote as if it were a table)."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from openpyxl import load_workbook

from scoring import workflow
from scoring.models import SanctionKind
from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tests.simulator.invariants import _standings_names
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import OfficialRole

pytestmark = pytest.mark.django_db


def test_penalised_players_rank_in_the_workbook_as_in_the_standings_api():
    t = TournamentFactory(slug="penalised", rounds_planned=3)
    director = UserFactory(username="director")
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    entries = enter(t, [{"last_name": f"Штрафов{i}"} for i in range(5)])
    for entry in (entries[1], entries[3]):
        workflow.record_sanction(t, entry, director, kind=SanctionKind.WARNING, reason="slow play")
        workflow.record_sanction(t, entry, director, kind=SanctionKind.PENALTY, reason="slow play again", points=1)
    out = io.BytesIO()
    build_workbook(t, out, "ru")
    client = Client()
    client.force_login(director)
    api = client.get(f"/api/tournaments/{t.slug}/standings/").json()
    order = [row["name"] for section in api["sections"] for row in section["rows"]]
    sheet = load_workbook(io.BytesIO(out.getvalue()), read_only=True).worksheets[0]
    assert _standings_names(sheet) == order
    assert order[-2:] == [str(entries[1].player), str(entries[3].player)]  # the penalised last
    footnote = [row for row in sheet.iter_rows(values_only=True) if row and row[0] == "*"]
    assert [row[1] for row in footnote] == order[-2:]  # and named again under the table
