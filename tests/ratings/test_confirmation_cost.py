"""A confirmation costs what it changes, not what the round already has (issue 50).

A rated Swiss's round is entered result by result through the API, every confirmation's whole
path counted: the request (authentication, the workflow, the answer and its ETag) and its
after-commit work, run in the request (Celery eager, as in every test): the rating, the
standings' and pages' versions, the events and their webhooks, the round's closing check.
Two ways a round is entered:

* the hall's referee enters each result confirmed (``POST /api/matches/<id>/report/`` with
  ``confirm``, the organiser's token);
* the players: A reports with his token, B confirms with his (``POST …/confirm/``).

On PostgreSQL (CI's second pass) the round has a few hundred players; on SQLite a smaller one
keeps the first pass quick. No confirmation late in the round makes more database queries
than the round's first ones, and a late one rewrites no rating change of the results
confirmed before it.
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


def _players() -> int:
    """A few hundred on PostgreSQL (the engine of production and of CI's second pass)."""
    return 200 if connection.vendor == "postgresql" else 40


def _round_two(players: int, *, accounts: bool = False):
    """A rated Swiss of ``players``: round 1 played and rated, round 2 published; the
    organiser's client. ``accounts``: every player has an account (his own token)."""
    director = UserFactory()
    t = TournamentFactory(rated=True, rounds_planned=3)
    OfficialFactory(tournament=t, user=director, role="organiser")
    people = [PlayerFactory(user=UserFactory()) if accounts else PlayerFactory() for _ in range(players)]
    enter(t, people)
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
    return second, _client(director)


def _client(user) -> Client:
    _token, key = issue_token(user, "hall", TokenScope.WRITE)
    return Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")


def _counted(post) -> tuple[int, dict]:
    """(queries, answer) of one write, its after-commit work included (the test's transaction
    never commits: its hooks are run here)."""
    connection.queries_log.clear()  # a full log (9,000 queries) would count nothing new
    with CaptureQueriesContext(connection) as captured, TestCase.captureOnCommitCallbacks(execute=True):
        answer = post()
    assert answer.status_code in (200, 201), answer.content[:300]
    return len(captured), answer.json()


def _version(match: Match) -> int:
    return Match.objects.values_list("version", flat=True).get(pk=match.pk)


def _rated_before(rnd) -> set:
    return set(RatingChange.objects.filter(match__round=rnd).values_list("pk", "rating_after"))


def test_a_late_referee_entry_costs_the_queries_of_the_first_and_rewrites_no_earlier_rating():
    rnd, client = _round_two(_players())
    # tables from the last to the first: every result sorts before the ones rated already
    matches = list(rnd.matches.filter(entry_b__isnull=False).order_by("-table"))
    assert len(matches) == _players() // 2

    def enter_confirmed(match: Match) -> int:
        return _counted(lambda: client.post(f"/api/matches/{match.pk}/report/", {
            "final": [5, 3], "version": _version(match), "confirm": True}, content_type="application/json"))[0]  # fmt: skip

    counts = [enter_confirmed(m) for m in matches[:-2]]
    earlier = _rated_before(rnd)
    assert len(earlier) == 2 * (len(matches) - 2)
    late = enter_confirmed(matches[-2])  # not the round's last: that one also finishes the round
    # the first one pays a few reads once (caches of the round, the token); none grows after it
    assert 0 < late <= counts[0], f"the first confirmation took {counts[0]} queries, a late one {late}"
    assert max(counts[len(counts) // 10 :]) <= counts[0], f"queries per confirmation along the round: {counts}"
    assert earlier <= _rated_before(rnd)
    assert RatingChange.objects.filter(match=matches[-2]).count() == 2


def test_a_players_confirmation_late_in_the_round_costs_the_queries_of_the_first():
    rnd, _organiser = _round_two(_players(), accounts=True)
    matches = list(rnd.matches.filter(entry_b__isnull=False).select_related("entry_a__player__user",
                                                                             "entry_b__player__user"))  # fmt: skip
    random.Random(5).shuffle(matches)
    clients = {m.pk: (_client(m.entry_a.player.user), _client(m.entry_b.player.user)) for m in matches}
    reports, confirms = [], []
    for match in matches[:-1]:  # the round's last also finishes the round: its own work
        a, b = clients[match.pk]
        queries, report = _counted(lambda a=a, match=match: a.post(
            f"/api/matches/{match.pk}/report/", {"final": [5, 2], "version": _version(match)},
            content_type="application/json"))  # fmt: skip
        reports.append(queries)
        queries, _answer = _counted(lambda b=b, match=match, report=report: b.post(
            f"/api/matches/{match.pk}/confirm/", {"result": report["id"], "version": report["match_version"]},
            content_type="application/json"))  # fmt: skip
        confirms.append(queries)
    tenth = max(1, len(confirms) // 10)
    # Each action's first one in the round reads what is then kept (the round's version, the
    # rated pool's last change); the last tenth of the round may not cost more than the first.
    for name, counts in (("report", reports), ("confirmation", confirms)):
        assert max(counts[-tenth:]) <= max(counts[:tenth]), f"queries per {name} along the round: {counts}"
    assert RatingChange.objects.filter(match__round=rnd).count() == 2 * (len(matches) - 1)
