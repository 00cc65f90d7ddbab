"""Two (or eight) people saving the same match at the same moment, on PostgreSQL.

Real threads, each with its own database connection, released together by a barrier:
exactly one save wins, every other one is refused plainly (a stale version or "already
confirmed"), no update is lost and no match gets two confirmed results. SQLite has no row
locks and serialises writers on a file lock, so this proves nothing there: skipped,
unless ZARIK_REQUIRE_POSTGRES=1 (CI) makes that a failure.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import IntegrityError, close_old_connections, connection, connections

from scoring import workflow
from scoring.models import Result, ResultState
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tournaments.models import Match, Round, RoundStatus

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
THREADS = 8


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        if os.environ.get("ZARIK_REQUIRE_POSTGRES", "") not in ("", "0"):
            pytest.fail(
                "ZARIK_REQUIRE_POSTGRES is set but the tests run on "
                f"{connection.vendor}; set DATABASE_URL=postgres://…"
            )
        pytest.skip(
            "the concurrency test needs PostgreSQL row locks (set DATABASE_URL); "
            "SQLite serialises all writers, so a race cannot be shown there"
        )


def race(calls: list[Callable[[], object]]) -> list[object]:
    """Run the calls in threads released at once; each returns its value or its exception."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        try:
            barrier.wait(timeout=20)
            return call()
        except Exception as exc:  # the outcome under test
            return exc
        finally:
            connections.close_all()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.fixture
def board(transactional_db):
    """A published round of ``THREADS`` matches, a referee, an organiser, player accounts."""
    t = TournamentFactory(
        name="Race cup", slug="race-cup", starts_on=dt.date(2026, 5, 1), rounds_planned=None
    )
    rnd = RoundFactory(tournament=t, number=1, match_length=5)
    officials = {
        name: OfficialFactory(tournament=t, role=name, user__username=f"race-{name}").user
        for name in ("referee", "organiser")
    }
    matches = []
    for i in range(THREADS):
        pair = enter(
            t,
            [
                {"last_name": f"P{i}{side}", "short": True, "user": UserFactory(username=f"p{i}{side}")}
                for side in "ab"
            ],
            first_number=2 * i + 1,
        )
        matches.append(
            MatchFactory(round=rnd, table=i + 1, entry_a=pair[0], entry_b=pair[1], match_length=5)
        )
    close_old_connections()
    return {"round": rnd, "matches": matches, **officials}


def test_eight_referees_save_one_match_at_once_exactly_one_wins(board):
    match = board["matches"][0]
    version = match.version
    scores = [(5, i % 5) for i in range(THREADS)]
    outcomes = race(
        [
            (
                lambda s=s: workflow.submit_result(
                    match.pk, board["referee"], version=version, final=s, confirm=True
                )
            )
            for s in scores
        ]
    )
    winners = [o for o in outcomes if isinstance(o, Result)]
    refused = [o for o in outcomes if isinstance(o, workflow.StaleVersion)]
    assert len(winners) == 1 and len(refused) == THREADS - 1, outcomes
    m = Match.objects.get(pk=match.pk)
    assert (m.score_a, m.score_b) == (winners[0].score_a, winners[0].score_b)  # nothing lost
    assert m.version == version + 1
    assert Result.objects.filter(match=match).count() == 1
    assert "Someone else saved this match" in refused[0].message or "версия" in refused[0].message


def test_opponent_and_referee_confirm_together_one_confirmation(board):
    match = board["matches"][1]
    player_a = match.entry_a.player.user
    opponent = match.entry_b.player.user
    reported = workflow.submit_result(match.pk, player_a, version=match.version, final=(5, 2))
    version = Match.objects.get(pk=match.pk).version
    confirmers = [opponent, board["referee"], board["organiser"]] * 2
    outcomes = race(
        [
            (lambda u=u: workflow.confirm_result(match.pk, reported.pk, u, version=version))
            for u in confirmers
        ]
    )
    assert sum(isinstance(o, Result) for o in outcomes) == 1, outcomes
    assert all(isinstance(o, (Result, workflow.ResultError)) for o in outcomes), outcomes
    assert Result.objects.filter(match=match, state=ResultState.CONFIRMED).count() == 1


def test_without_version_checks_the_lock_and_state_still_allow_one(board):
    """Version None (e.g. an API caller that skips it): the row lock and state check hold."""
    match = board["matches"][2]
    reported = workflow.submit_result(
        match.pk, match.entry_a.player.user, version=match.version, final=(5, 4)
    )
    outcomes = race(
        [
            (lambda u=u: workflow.confirm_result(match.pk, reported.pk, u, version=None))
            for u in [board["referee"], board["organiser"], match.entry_b.player.user] * 2
        ]
    )
    assert sum(isinstance(o, Result) for o in outcomes) == 1, outcomes
    refused = [o for o in outcomes if isinstance(o, workflow.ResultError)]
    assert {o.code for o in refused} == {"duplicate"}
    assert Result.objects.filter(match=match, state=ResultState.CONFIRMED).count() == 1


def test_the_database_index_stops_a_double_confirmation_that_skips_the_services(board):
    match = board["matches"][3]
    outcomes = race(
        [
            (
                lambda a=a: Result.objects.create(
                    match=match, score_a=5, score_b=a, state=ResultState.CONFIRMED
                )
            )
            for a in range(4)
        ]
    )
    assert sum(isinstance(o, Result) for o in outcomes) == 1
    assert sum(isinstance(o, IntegrityError) for o in outcomes) == 3
    assert Result.objects.filter(match=match, state=ResultState.CONFIRMED).count() == 1


def test_last_results_confirmed_together_still_close_the_round(board):
    rnd = board["round"]
    matches = board["matches"]
    for m in matches[: -THREADS // 2]:
        workflow.submit_result(
            m.pk, board["referee"], version=m.version, final=(5, 1), confirm=True
        )
    last = matches[-THREADS // 2 :]
    outcomes = race(
        [
            (
                lambda m=m: workflow.submit_result(
                    m.pk, board["referee"], version=m.version, final=(3, 5), confirm=True
                )
            )
            for m in last
        ]
    )
    assert all(isinstance(o, Result) for o in outcomes), outcomes
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.FINISHED


def test_eight_confirmations_in_one_rating_pool_get_distinct_ordered_sequences(board):
    """The pool lock serialises raters: sequences 1…8, and the ratings equal the replay."""
    from clubs.models import PlayerRating
    from clubs.ratings.history import RatedMatch, replay
    from tournaments.models import RatingChange

    matches = board["matches"]
    outcomes = race(
        [
            (lambda m=m: workflow.submit_result(
                m.pk, board["referee"], version=m.version, final=(5, 3), confirm=True))
            for m in matches
        ]
    )  # fmt: skip
    assert all(isinstance(o, Result) for o in outcomes), outcomes
    rows = RatingChange.objects.filter(pool="backgammon").order_by("sequence", "pk")
    assert sorted({r.sequence for r in rows}) == list(range(1, THREADS + 1))
    order = sorted({(r.sequence, r.match_id) for r in rows})
    by_id = {m.pk: m for m in matches}
    table, _ = replay(None, [
        RatedMatch(by_id[mid].entry_a.player_id, by_id[mid].entry_b.player_id, 5, 5, 3)
        for _, mid in order
    ])  # fmt: skip
    stored = dict(PlayerRating.objects.values_list("player_id", "rating"))
    assert stored == pytest.approx({pid: s.rating for pid, s in table.items()})


def test_two_directors_publish_the_same_draft_at_once_one_wins_the_other_is_told(board):
    from tournaments.models import AuditEntry
    from tournaments.rounds import pairing_manager as pm

    rnd = board["round"]
    Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.DRAFT)
    org = board["organiser"]
    outcomes = race([lambda: pm.publish_round(Round.objects.get(pk=rnd.pk), user=org) for _ in range(4)])
    won = [o for o in outcomes if isinstance(o, Round)]
    told = [o for o in outcomes if isinstance(o, pm.PairingRefused)]
    assert len(won) == 1 and len(told) == 3, outcomes
    assert all(p.code == "pairing.not_draft" for t in told for p in t.problems)
    assert AuditEntry.objects.filter(action="round.publish", object_id=str(rnd.pk)).count() == 1


def test_two_directors_close_the_same_round_at_once_one_closes_the_other_is_told(board):
    from tournaments.models import AuditEntry, ResultStatus
    from tournaments.rounds import flow as round_flow

    rnd = board["round"]
    Match.objects.filter(round=rnd).update(score_a=5, score_b=1, winner="a", result_status=ResultStatus.CONFIRMED)
    outcomes = race([lambda: round_flow.close(Round.objects.get(pk=rnd.pk), board["organiser"]) for _ in range(4)])
    assert sorted(outcomes) == sorted([round_flow.CLOSED] + [round_flow.ALREADY_CLOSED] * 3), outcomes
    assert AuditEntry.objects.filter(action="round.close", object_id=str(rnd.pk)).count() == 1
