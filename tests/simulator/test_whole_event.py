"""The whole-event simulator in the suite: a bounded budget here, ``make soak`` for a long run.

The suite plays each system in a test of its own (so each is played, whatever hypothesis
draws); a soak (``ZARIK_SIMULATOR_RANDOM=1``) draws the system with the other options.
``ZARIK_SIMULATOR_EXAMPLES`` (events a test) and ``ZARIK_SIMULATOR_STEPS`` (actions per event)
set the budget. ``ZARIK_SIMULATOR_SEED`` sets hypothesis's seed: CI passes the commit's (``.ci/run``), so
a commit always plays the same events and the next commit other ones; without it the seed is
the checkout's commit too (``git rev-parse HEAD``), and ``ZARIK_SIMULATOR_RANDOM=1`` (the soak)
draws a new one. The seed is printed, and a failure says the one command that replays it.
At the end the run prints what it played (:func:`tests.simulator.coverage.table`) and asserts
what its budget guarantees: its system played, and rounds closed in it.
"""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, seed
from hypothesis import settings as hypothesis_settings
from hypothesis.stateful import run_state_machine_as_test

from tests.simulator import coverage
from tests.simulator.event_machine import SYSTEMS, EventMachine, playing

pytestmark = [pytest.mark.django_db, pytest.mark.simulator]

#: The suite's budget: events per system and actions per event (measured in the README's
#: simulator paragraph).
EXAMPLES, STEPS = 6, 40
SOAK = os.environ.get("ZARIK_SIMULATOR_RANDOM", "") not in ("", "0")


def simulator_seed() -> str:
    """The seed this run uses: ``ZARIK_SIMULATOR_SEED``; else a fresh one for a soak
    (``ZARIK_SIMULATOR_RANDOM=1``); else the checkout's commit, as CI computes it (12 hex digits)."""
    given = os.environ.get("ZARIK_SIMULATOR_SEED", "").strip()
    if given:
        return given
    if SOAK:
        return f"{random.getrandbits(48):012x}"
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10,
                              cwd=Path(__file__).parent, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return "0"
    return head[:12] or "0"


@pytest.mark.parametrize("system", [None] if SOAK else sorted(SYSTEMS))
def test_whole_events_keep_every_invariant_after_every_step(settings, system):
    # Hundreds of reads a run from one client: the API's per-client rate limit is not under test.
    settings.ZARIK_API_THROTTLE_RATES = {}
    # Attaching a record queues its analysis: the simulator drives the settings, never gnubg itself
    # (no program found, every analysis says "unavailable").
    settings.ANALYSIS_GNUBG, settings.ANALYSIS_GNUBG_DIRS = "zarik-simulator-no-gnubg", ()
    examples = int(os.environ.get("ZARIK_SIMULATOR_EXAMPLES", EXAMPLES))
    steps = int(os.environ.get("ZARIK_SIMULATOR_STEPS", STEPS))
    chosen = simulator_seed()
    test = "tests/simulator/test_whole_event.py" + (f"::test_whole_events_keep_every_invariant_after_every_step[{system}]"
                                                    if system else "")  # fmt: skip
    replay = (f"ZARIK_SIMULATOR_SEED={chosen} ZARIK_SIMULATOR_EXAMPLES={examples} ZARIK_SIMULATOR_STEPS={steps} "
              f"{'ZARIK_SIMULATOR_RANDOM=1 ' if SOAK else ''}.venv/bin/python -m pytest -q -p no:logging '{test}'")  # fmt: skip
    print(f"\nsimulator seed {chosen} ({system or 'every system'}): {examples} events of {steps} actions; "
          f"replay: {replay}")  # fmt: skip
    budget = hypothesis_settings(
        max_examples=examples,
        stateful_step_count=steps,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        derandomize=False,
        database=None,
    )

    @seed(int(chosen, 16) if all(c in "0123456789abcdef" for c in chosen.lower()) else chosen)
    def machine():
        return playing(system)() if system else EventMachine()

    before = len(coverage.SESSION)
    try:
        run_state_machine_as_test(machine, settings=budget)
    except BaseException as failure:
        failure.add_note(f"replay this run (seed {chosen}) with: {replay}")
        raise
    finally:
        played = coverage.SESSION[before:]
        coverage.SUITE.extend(played)
        print(coverage.table(played, systems=[system] if system else None))
    for name in [system] if system else SYSTEMS:
        mine = [r for r in played if r.system == name]
        assert mine, f"no {name} event was played in {len(played)} events (seed {chosen})"
        if examples >= EXAMPLES:  # the suite's budget closes rounds in every system it plays
            assert sum(r.rounds_closed for r in mine) >= 1, f"no {name} round was closed (seed {chosen})"
