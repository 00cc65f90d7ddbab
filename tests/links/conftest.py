"""The event and its logged-in organiser that the links and check-in pages are tried with."""

from __future__ import annotations

import pytest

from tests.factories import OfficialFactory, TournamentFactory
from tournaments.models import OfficialRole


@pytest.fixture
def event():
    return TournamentFactory()


@pytest.fixture
def organiser(event, client):
    user = OfficialFactory(tournament=event, role=OfficialRole.ORGANISER).user
    client.force_login(user)
    return user
