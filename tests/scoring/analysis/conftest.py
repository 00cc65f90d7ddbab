"""Match analysis tests run the real GNU Backgammon (``.ci/run`` installs it: ``ensure_gnubg``)."""

from __future__ import annotations

import os

import pytest

from scoring.analysis import services
from tests import paths
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)

DATA = paths.DATA / "analysis"
#: A 3-point match gnubg played against itself with noise (committed; made by gnubg's
#: ``new match 3`` with both players' evaluation noise 0.08 / 0.04, exported as .mat).
NOISY3 = (DATA / "noisy3.mat").read_text()
#: How far gnubg's PR of the sample moves between machines: its neural net is evaluated with
#: the CPU's own vector instructions, which round differently (32.49 on one, 32.48 on another).
ENGINE_NOISE = 0.05

#: CI sets ZARIK_REQUIRE_GNUBG=1: there a missing gnubg is a failure, not a skip.
REQUIRED = os.environ.get("ZARIK_REQUIRE_GNUBG", "") not in ("", "0")

needs_gnubg = pytest.mark.skipif(
    not REQUIRED and not services.available(),
    reason="GNU Backgammon (gnubg) is not installed: `apt-get install gnubg` (.ci/run does it)",
)


@pytest.fixture(autouse=True)
def gnubg_when_required():
    if REQUIRED and not services.available():
        pytest.fail("ZARIK_REQUIRE_GNUBG is set but gnubg is not installed (apt-get install gnubg)")


@pytest.fixture
def analysed_match(db):
    """A backgammon match to 3 with the cube, no record yet (tests attach one)."""
    tournament = TournamentFactory(match_length=3, cube=True)
    rnd = RoundFactory(tournament=tournament)
    return MatchFactory(round=rnd)


@pytest.fixture
def referee(analysed_match):
    user = UserFactory()
    OfficialFactory(tournament=analysed_match.round.tournament, user=user, role="referee")
    return user
