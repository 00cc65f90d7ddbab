"""Long work never inside a request under ``make run`` (issue 45): "Analyse again" answers at once.

Under ``make run`` (no broker: Celery's eager mode) the button ran GNU Backgammon inside
the request — the browser waited 36–39 s at 2-ply with no word on the page. On a real
``bin/run`` server (:mod:`tests.zarik.hall_server`) with the real gnubg, the answer now
comes before the analysis has even finished, the page says it is queued or running and
polls itself (htmx), and the analysis then ends done on the embedded runner's thread.
"""

from __future__ import annotations

import sqlite3
import time

import pytest

from tests.scoring.analysis.conftest import needs_gnubg
from tests.zarik.hall_server import EMBEDDED_ONLY, Browser, HallServer

pytestmark = [EMBEDDED_ONLY, needs_gnubg, pytest.mark.long]

SEED = """
from django.contrib.auth.models import User
from scoring.records import match_files
from tests.factories import MatchFactory, OfficialFactory, RoundFactory, TournamentFactory
from tests.scoring.analysis.conftest import NOISY3
from tournaments.jobs import embedded
event = TournamentFactory(slug="hall", match_length=3, cube=True, public=True)
match = MatchFactory(round=RoundFactory(tournament=event))
referee = User.objects.create_user("referee", password="hall-referee-pass")
OfficialFactory(tournament=event, user=referee, role="referee")
check = match_files.read_file(NOISY3.encode(), name="m.mat", variant=event.variant)
mf = match_files.store(check, tournament=event, match=match, user=referee)
match_files.attach(mf, referee, first_is="a", despite=True, despite_reason="gnubg's sample match")
embedded.drain()  # the first analysis, done before the server starts
print(match.pk)
"""


def _analysis(server: HallServer) -> tuple[str, str | None]:
    with sqlite3.connect(server.db_file) as db:
        return db.execute("SELECT state, finished_at FROM analysis_matchanalysis").fetchone()


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    with HallServer(tmp_path_factory.mktemp("hall"), SEED) as server:
        yield server


def test_analyse_again_answers_before_gnubg_is_done_and_the_page_polls_until_it_is(hall):
    with sqlite3.connect(hall.db_file) as db:
        [(match_id, first_finished)] = db.execute("SELECT match_id, finished_at FROM analysis_matchanalysis").fetchall()
    assert _analysis(hall)[0] == "done"
    referee = Browser(hall.base)
    token = referee.token("/accounts/login/")
    referee.post("/accounts/login/", {"username": "referee", "password": "hall-referee-pass"}, token)
    page = f"/t/hall/match/{match_id}/analysis/"
    token = referee.token(page)

    answer = referee.post(f"/t/hall/match/{match_id}/analysis/run/", {}, token)  # redirected to the page
    state_at_answer = _analysis(hall)
    assert answer.status == 200, answer.body[:500]
    assert state_at_answer[0] in ("queued", "running"), state_at_answer  # gnubg not waited for
    assert "The analysis is queued." in answer.body or "GNU Backgammon is analysing" in answer.body
    assert 'hx-trigger="every 3s"' in answer.body and 'id="analysis-live"' in answer.body

    deadline = time.monotonic() + 300
    while _analysis(hall)[0] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(1)
    state, finished = _analysis(hall)
    assert state == "done" and finished != first_finished, hall.log()
    done = referee.get(page)
    assert "Analysed by GNU Backgammon" in done.body and 'hx-trigger="every 3s"' not in done.body
