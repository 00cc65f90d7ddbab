"""A cup's public pages (issue 43): a finished cup says it is finished with the rounds it
played; its leaders, standings, hall display and workbook say the stage reached in words
(RU/EN), not a stage code."""

from __future__ import annotations

import io
import re

import pytest
from openpyxl import load_workbook

from tests.rounds.test_knockout_formats import cup, play
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db


def test_a_finished_cup_says_it_is_finished_and_its_leaders_show_the_stage_in_words(client):
    t, org = cup(4, third_place=True)
    t.rounds_planned = 5  # what the settings page leaves in from a Swiss preset
    t.save(update_fields=["rounds_planned"])
    played = play(t, org, lambda a, b, _m: "a" if a < b else "b")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and played[-1] in ("M2-1", "3P")
    ru = client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "2 тура, все сыграны" in ru and "/ 5" not in ru
    leaders = re.sub(r"\s+", " ", ru.split("leaders")[1].split("</ul>")[0])
    assert "Победитель" in leaders and "Финал" in leaders and "Третье место" in leaders
    assert not re.search(r"— \d", leaders)  # no stage number (5, 4, 2) after a name
    en = client.get(f"/t/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for words in ("Winner", "Final", "Third place", "Semi-final"):
        assert f">{words}<" in en, words
    hall = "".join(
        client.get(f"/t/{t.slug}/hall/frame/?page={page}", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        for page in (1, 2, 3)
    )
    assert 'class="hall-table standings"' in hall and "Победитель" in hall and "Полуфинал" in hall
    out = io.BytesIO()
    build_workbook(t, out, "en")
    cells = {c for row in load_workbook(io.BytesIO(out.getvalue()))["Standings"].iter_rows(values_only=True) for c in row}
    assert {"Winner", "Final", "Third place", "Semi-final"} <= cells
