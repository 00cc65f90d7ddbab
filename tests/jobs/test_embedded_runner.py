"""The embedded runner (no broker, ``make run``): long jobs leave the request at once (issue 45).

Under Celery's eager mode "Attach" ran GNU Backgammon inside the request (36–39 s at
2-ply) and the Excel export built the workbook there. With ``EMBEDDED_JOBS = "thread"``
(``make run``'s default) the call returns with the job queued, a thread of the process
runs it, and its state is where the page reads it.
"""

from __future__ import annotations

import pytest

from scoring.analysis.models import AnalysisState, MatchAnalysis
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    swiss_event,
)
from tests.scoring.analysis.conftest import needs_gnubg
from tests.scoring.analysis.test_services import attach
from tournaments.jobs import embedded, exports
from tournaments.jobs import progress as jobs

pytestmark = pytest.mark.django_db(transaction=True)  # the runner's thread has its own connection


@pytest.fixture
def analysed_match(db):
    return MatchFactory(round=RoundFactory(tournament=TournamentFactory(match_length=3, cube=True)))


@pytest.fixture
def referee(analysed_match):
    user = UserFactory()
    OfficialFactory(tournament=analysed_match.round.tournament, user=user, role="referee")
    return user


@pytest.fixture
def threads(settings):
    settings.EMBEDDED_JOBS = "thread"
    yield
    embedded.drain()


@needs_gnubg
def test_attaching_a_record_queues_the_analysis_and_a_thread_runs_gnubg(analysed_match, referee, threads):
    attach(analysed_match, referee)  # autocommit: the analysis is sent when the attach commits
    row = MatchAnalysis.objects.get(match=analysed_match)
    assert row.state in (AnalysisState.QUEUED, AnalysisState.RUNNING)  # the caller did not wait for gnubg
    embedded.drain()
    row.refresh_from_db()
    assert row.state == AnalysisState.DONE, row.problem
    assert row.decisions_a and row.decisions_b


def test_an_export_started_without_a_broker_is_queued_and_then_built_off_the_request(threads):
    event = swiss_event(8, rounds_done=2, open_round=False)
    job = exports.start(event, "ru")
    assert jobs.read_status(event.slug, job)["state"] in (jobs.QUEUED, jobs.PROGRESS, jobs.SUCCESS)
    embedded.drain()
    assert exports.status(event, job)["state"] == jobs.SUCCESS
    assert exports.workbook(event, job).is_file()


def test_a_failing_job_leaves_the_runner_working(threads):
    def broken():
        raise RuntimeError("a job's own failure")

    embedded.submit(broken, "broken")
    done = embedded.submit(lambda: "still here", "next")
    assert done.result(timeout=30) == "still here"


def test_inline_runs_in_the_caller(settings):
    settings.EMBEDDED_JOBS = "inline"
    seen = []
    assert embedded.submit(lambda: seen.append(1), "inline") is None
    assert seen == [1]


