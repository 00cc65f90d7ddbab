"""A real Celery worker analyses an attached record (CI's PostgreSQL pass with Redis)."""

from __future__ import annotations

import time

import pytest

from scoring.analysis.models import AnalysisState, MatchAnalysis

from .conftest import needs_gnubg
from .test_services import attach

pytestmark = [pytest.mark.celery_worker, needs_gnubg]


def test_a_real_worker_analyses_an_attached_record(transactional_db, celery_worker_app, analysed_match, referee):
    attach(analysed_match, referee)  # committed: the hook sends analysis.run_next to the broker
    row = None
    for _ in range(300):
        row = MatchAnalysis.objects.filter(match=analysed_match).first()
        if row is not None and row.state in (AnalysisState.DONE, AnalysisState.FAILED):
            break
        time.sleep(0.1)
    assert row is not None and row.state == AnalysisState.DONE, row and row.problem
    assert row.pr_a * 2 == pytest.approx(row.engine_rate_a, abs=0.06)
