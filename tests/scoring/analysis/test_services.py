"""Analysis states on a match: attach starts it, faults fail it with a reason, re-runs work."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import threading
import time

import pytest
from django.test import override_settings
from django.utils import timezone

from scoring.analysis import services
from scoring.analysis.models import AnalysisSettings, AnalysisState, MatchAnalysis
from scoring.archive import backup as archive
from scoring.models import MatchFile
from scoring.records import match_files
from tests.factories import MatchFactory, RoundFactory, TournamentFactory
from tournaments.models import AuditEntry

from .conftest import DATA, ENGINE_NOISE, NOISY3, needs_gnubg

pytestmark = pytest.mark.django_db


def attach(match, user, text=NOISY3, first_is="a"):
    check = match_files.read_file(text.encode(), name="m.mat", variant=match.round.tournament.variant)
    mf = match_files.store(check, tournament=match.round.tournament, match=match, user=user)
    # The samples are made by gnubg under its own players' names, and their score is not the
    # pairing's: the referee attaches them despite those problems, with a reason (the attach guard).
    match_files.attach(mf, user, first_is=first_is, despite=True, despite_reason="gnubg's sample match")
    return mf


@needs_gnubg
def test_attaching_a_record_analyses_the_match(analysed_match, referee, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        attach(analysed_match, referee, first_is="b")
    row = MatchAnalysis.objects.get(match=analysed_match)
    assert row.state == AnalysisState.DONE, row.problem
    # The file's first player (PR 32.49) is side B as the referee said.
    assert row.pr_b == pytest.approx(32.49, abs=ENGINE_NOISE) and row.pr_a == pytest.approx(14.23, abs=ENGINE_NOISE)
    assert (row.decisions_a, row.decisions_b) == (41, 32)
    assert row.pr_a * 2 == pytest.approx(row.engine_rate_a, abs=0.06)
    assert row.pr_b * 2 == pytest.approx(row.engine_rate_b, abs=0.06)
    assert row.plies == 0 and row.attempts == 1
    assert AuditEntry.objects.filter(action="analysis.request", object_id=row.pk).exists()


@needs_gnubg
def test_killed_engine_fails_and_a_retry_works(analysed_match, referee, django_capture_on_commit_callbacks):
    """gnubg killed mid-analysis: the match says failed (with why); re-running analyses it."""
    AnalysisSettings.objects.create(tournament=analysed_match.round.tournament, plies=2)
    longer = (DATA / "noisy5.mat").read_text()
    attach(analysed_match, referee, text=longer)  # queued (no commit in this test's transaction)
    row = services.claim_next()
    assert row is not None and row.state == AnalysisState.RUNNING

    def killer():
        # The engine is our own child process (no database from this thread: the test's
        # transaction is not visible to another connection).
        for _ in range(400):
            pid = _gnubg_child()
            if pid:
                time.sleep(0.3)
                os.kill(pid, signal.SIGKILL)
                return
            time.sleep(0.05)

    thread = threading.Thread(target=killer)
    thread.start()
    services.run(row)
    thread.join()
    row.refresh_from_db()
    assert row.state == AnalysisState.FAILED
    assert row.problem["code"] == "analysis.crashed"
    assert "signal 9" in services.problem_of(row).message("en")
    assert "запустите анализ ещё раз" in services.problem_of(row).message("ru")
    # The record is untouched, and a retry (at 0-ply, quicker) finishes.
    assert MatchFile.objects.get(match=analysed_match).text == longer
    AnalysisSettings.objects.filter(tournament=analysed_match.round.tournament).update(plies=0)
    services.request(analysed_match, referee)
    services.run_next()
    row.refresh_from_db()
    assert row.state == AnalysisState.DONE and row.attempts == 2 and row.pr_a is not None
    assert AuditEntry.objects.filter(action="analysis.rerun", object_id=row.pk).exists()


@needs_gnubg
def test_a_match_over_the_time_limit_is_stopped(analysed_match, referee):
    attach(analysed_match, referee, text=(DATA / "noisy11.mat").read_text())
    with override_settings(ANALYSIS_TIME_LIMIT=0.2):
        row = services.run_next()
    assert row.state == AnalysisState.FAILED and row.problem["code"] == "analysis.timeout"
    assert "limit" in services.problem_of(row).message("en")


@needs_gnubg
def test_a_record_gnubg_cannot_import_fails_clearly_and_stays(analysed_match, referee, monkeypatch):
    mf = attach(analysed_match, referee)
    broken = "; a file gnubg refuses\n\n 3 point match\n\n Game 1\n nobody here\n"
    MatchFile.objects.filter(pk=mf.pk).update(text=broken)
    row = services.run_next()
    assert row.state == AnalysisState.FAILED, row.report
    assert row.problem["code"] == "analysis.import_failed"
    assert "could not read the record" in services.problem_of(row).message("en")
    assert "не" in services.problem_of(row).message("ru")
    assert MatchFile.objects.get(pk=mf.pk).text == broken


def test_without_gnubg_the_match_says_analysis_unavailable(analysed_match, referee, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with override_settings(ANALYSIS_GNUBG_DIRS=[]):
        assert not services.available()
        mf = attach(analysed_match, referee)
    row = MatchAnalysis.objects.get(match=analysed_match)
    assert row.state == AnalysisState.FAILED and row.problem["code"] == "analysis.unavailable"
    assert services.problem_of(row).message("en").startswith("Analysis unavailable")
    assert services.problem_of(row).message("ru").startswith("Анализ недоступен")
    mf.refresh_from_db()
    assert mf.state == "attached"  # everything else goes on


def test_nardy_has_no_engine(db, referee):
    tournament = TournamentFactory(variant="long_nardy", match_length=3)
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    row = services.request(match)
    assert row.state == AnalysisState.FAILED and row.problem["code"] == "analysis.no_engine"
    assert "No engine for this variant" in services.problem_of(row).message("en")


def test_fair_queue_serves_another_event_before_a_bulk(db):
    """50 queued in one event, then 1 in another: the other event's match goes second, not 51st."""
    big = TournamentFactory(match_length=3)
    small = TournamentFactory(match_length=3)
    rb, rs = RoundFactory(tournament=big), RoundFactory(tournament=small)
    rows = [MatchAnalysis.objects.create(match=MatchFactory(round=rb), tournament=big, queued_at=_t(i)) for i in range(6)]
    lone = MatchAnalysis.objects.create(match=MatchFactory(round=rs), tournament=small, queued_at=_t(10))
    first = services.claim_next()
    assert first.pk == rows[0].pk
    second = services.claim_next()
    assert second.pk == lone.pk


def _gnubg_child() -> int | None:
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == me and b"gnubg" in cmd:
            return int(entry)
    return None


def _t(i):
    return dt.datetime(2026, 11, 27, 8, 0, i, tzinfo=dt.UTC)


def test_a_tournament_backup_keeps_its_analyses_and_settings(db):
    tournament = TournamentFactory(match_length=3)
    match = MatchFactory(round=RoundFactory(tournament=tournament))
    AnalysisSettings.objects.create(tournament=tournament, plies=2, public=True)
    MatchAnalysis.objects.create(match=match, tournament=tournament, state=AnalysisState.DONE, pr_a=4.5, pr_b=9.0, decisions_a=120, decisions_b=118, report={"players": {}})
    data = json.loads(json.dumps(archive.dump(tournament), cls=archive.Encoder))
    copy = archive.load(data, slug="copy-with-pr").tournament
    restored = MatchAnalysis.objects.get(tournament=copy)
    assert (restored.pr_a, restored.pr_b, restored.state) == (4.5, 9.0, "done")
    assert restored.match.round.tournament == copy and restored.match_id != match.pk
    assert AnalysisSettings.objects.get(tournament=copy).plies == 2


def test_an_analysis_left_running_by_a_dead_worker_fails_and_can_be_retried(analysed_match):
    row = MatchAnalysis.objects.create(
        match=analysed_match, tournament=analysed_match.round.tournament, state=AnalysisState.RUNNING,
        started_at=timezone.now() - dt.timedelta(seconds=services.time_limit() + 300),
    )
    assert services.reap_stale() == 1
    row.refresh_from_db()
    assert row.state == AnalysisState.FAILED and row.problem["code"] == "analysis.worker_lost"
    assert "запустите анализ ещё раз" in services.problem_of(row).message("ru")
