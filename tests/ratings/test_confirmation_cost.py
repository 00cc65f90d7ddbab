"""A confirmation costs what it changes, not what the round already has (issue 50).

A rated Swiss's round is entered result by result through the API by the organiser's token
(as a hall's referee does: ``POST /api/matches/<id>/report/`` with ``confirm``), its
after-commit work run in the request (Celery eager, as in every test). The first and the
late confirmations of the round make no more database queries than the first, and a late one
rewrites no rating change of the results confirmed before it. Runs on both engines.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext

from tests.factories import OfficialFactory, PlayerFactory, TournamentFactory, UserFactory, enter
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import Match, RatingChange, ResultStatus, TokenScope
from tournaments.ratings import service as ratings_service
from tournaments.rounds import flow
from tournaments.rounds import pairing_manager as pm

pytestmark = pytest.mark.django_db

PLAYERS = 40


def _round_two():
    """A rated Swiss of :data:`PLAYERS`: round 1 played and rated, round 2 published."""
    director = UserFactory()
    t = TournamentFactory(rated=True, rounds_planned=3)
    OfficialFactory(tournament=t, user=director, role="organiser")
    enter(t, PlayerFactory.create_batch(PLAYERS))
    rng = random.Random(50)
    (first,) = pm.generate_next(t, user=director)
    pm.publish_round(first, user=director)
    played = list(first.matches.filter(entry_b__isnull=False))
    for m in played:
        side, loser = rng.choice("ab"), rng.randrange(5)
        m.score_a, m.score_b = (5, loser) if side == "a" else (loser, 5)
        m.winner, m.result_status = side, ResultStatus.CONFIRMED
    Match.objects.bulk_update(played, ["score_a", "score_b", "winner", "result_status"])
    assert flow.close(first, director) == flow.CLOSED
    ratings_service.recompute(ratings_service.pool_for(t))
    (second,) = pm.generate_next(t, user=director)
    pm.publish_round(second, user=director)
    _token, key = issue_token(director, "hall", TokenScope.WRITE)
    return second, Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")


def _confirm(client, match: Match) -> int:
    """The organiser enters the match's result confirmed; returns the queries it took, its
    after-commit work included (the test's transaction never commits: its hooks are run here)."""
    version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
    connection.queries_log.clear()  # a full log (9,000 queries) would count nothing new
    with CaptureQueriesContext(connection) as captured, TestCase.captureOnCommitCallbacks(execute=True):
        answer = client.post(f"/api/matches/{match.pk}/report/", {"final": [5, 3], "version": version,
                             "confirm": True}, content_type="application/json")  # fmt: skip
    assert answer.status_code in (200, 201), answer.content[:300]
    return len(captured)


def test_a_late_confirmation_of_a_round_costs_the_queries_of_the_first_and_rewrites_no_earlier_rating():
    rnd, client = _round_two()
    # tables from the last to the first: every result sorts before the ones rated already
    matches = list(rnd.matches.filter(entry_b__isnull=False).order_by("-table"))
    assert len(matches) == PLAYERS // 2
    first = _confirm(client, matches[0])
    for match in matches[1:-2]:
        _confirm(client, match)
    earlier = set(RatingChange.objects.filter(match__round=rnd).values_list("pk", "rating_after"))
    assert len(earlier) == 2 * (len(matches) - 2)
    late = _confirm(client, matches[-2])  # not the round's last: that one also finishes the round
    # the first one pays a few reads once (caches of the round, the token); none grows after it
    assert 0 < late <= first, f"the first confirmation took {first} queries, a late one {late}"
    assert earlier <= set(RatingChange.objects.filter(match__round=rnd).values_list("pk", "rating_after"))
    assert RatingChange.objects.filter(match=matches[-2]).count() == 2
