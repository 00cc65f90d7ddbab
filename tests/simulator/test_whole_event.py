"""The whole-event simulator in the suite: a bounded budget here, ``make soak`` for a long run.

``ZARIK_SIMULATOR_EXAMPLES`` (events) and ``ZARIK_SIMULATOR_STEPS`` (actions per event) set the
budget; CI runs the default on both database engines.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis.stateful import run_state_machine_as_test

from tests.simulator.event_machine import EventMachine

pytestmark = [pytest.mark.django_db, pytest.mark.simulator]


def test_whole_events_keep_every_invariant_after_every_step(settings):
    # Hundreds of reads a run from one client: the API's per-client rate limit is not under test.
    settings.ZARIK_API_THROTTLE_RATES = {}
    # Attaching a record queues its analysis: the simulator drives the settings, never gnubg itself
    # (no program found, every analysis says "unavailable").
    settings.ANALYSIS_GNUBG, settings.ANALYSIS_GNUBG_DIRS = "zarik-simulator-no-gnubg", ()
    budget = hypothesis_settings(
        max_examples=int(os.environ.get("ZARIK_SIMULATOR_EXAMPLES", "12")),
        stateful_step_count=int(os.environ.get("ZARIK_SIMULATOR_STEPS", "30")),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        derandomize=os.environ.get("ZARIK_SIMULATOR_RANDOM", "") in ("", "0"),
        database=None,
    )
    run_state_machine_as_test(EventMachine, settings=budget)
