"""A confirmation re-rates what depends on it, and nothing else (issue 50).

The stored ratings after any sequence of first confirmations, corrections and voided
results equal a rebuild of the pool from scratch (:func:`ratings_service.recompute` from 1):
the same rating, experience, match count, start and last date for every player, and the
same rating change of every player in every match. Meanwhile a late confirmation of a
round leaves the round's other changes as they were (rows not rewritten), and a
correction rewrites only its dependency closure.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import PlayerRating
from tests.factories import MatchFactory, PlayerFactory, RoundFactory, TournamentFactory, enter
from tournaments.models import Match, RatingChange, ResultStatus
from tournaments.ratings import service as ratings_service

pytestmark = pytest.mark.django_db

POOL = "backgammon"
PLAYERS = 6
ROUNDS = 3


def _rated_state() -> tuple[dict, dict]:
    """Every player's rating row and every (match, player) change, as plain comparable values."""
    players = {
        pid: tuple(values)
        for pid, *values in PlayerRating.objects.filter(pool=POOL).values_list(
            "player_id", "rating", "experience", "matches", "last_played", "start_rating", "start_source"
        )
    }  # fmt: skip
    changes = {
        (m, p): rest
        for m, p, *rest in RatingChange.objects.filter(pool=POOL).values_list(
            "match_id", "player_id", "rating_before", "rating_after", "expected", "experience_before", "played_on"
        )
    }  # fmt: skip
    return players, changes


def assert_equals_a_full_recompute() -> None:
    now = _rated_state()
    with transaction.atomic():
        ratings_service.recompute(POOL, 1)
        rebuilt = _rated_state()
        transaction.set_rollback(True)
    assert now[0] == rebuilt[0], "players' ratings differ from a full recompute"
    assert now[1] == rebuilt[1], "rating changes differ from a full recompute"


def _schedule(draw) -> list[Match]:
    """Two rated events a day apart (some entries with a rating at entry: the start rule),
    each round a random pairing of all players, every match pending."""
    players = PlayerFactory.create_batch(PLAYERS)
    matches = []
    for day in (1, 2):
        t = TournamentFactory(rated=True, starts_on=dt.date(2026, 3, day), match_length=5)
        seeds = draw(st.lists(st.sampled_from([None, 1500, 1650, 1320]), min_size=PLAYERS, max_size=PLAYERS))
        entries = enter(t, players)
        for entry, seed in zip(entries, seeds, strict=True):
            entry.seed_rating = seed
            entry.save(update_fields=["seed_rating"])
        for number in range(1, ROUNDS + 1):
            rnd = RoundFactory(tournament=t, number=number)
            order = draw(st.permutations(entries))
            for table in range(PLAYERS // 2):
                a, b = order[2 * table], order[2 * table + 1]
                matches.append(MatchFactory(round=rnd, entry_a=a, entry_b=b, table=table + 1))
    return matches


def _score(draw) -> tuple[int, int]:
    loser = draw(st.integers(0, 4))
    return (5, loser) if draw(st.booleans()) else (loser, 5)


def _set(match: Match, score: tuple[int, int] | None) -> None:
    if score is None:
        match.score_a = match.score_b = None
        match.winner, match.result_status = "", ResultStatus.PENDING
    else:
        match.score_a, match.score_b = score
        match.winner = "a" if score[0] > score[1] else "b"
        match.result_status = ResultStatus.CONFIRMED
    match.save()


def _rerate(match: Match) -> None:
    """What the workflow's after-commit tasks do for a correction (``rate_match``, then the recompute)."""
    again = ratings_service.rate_confirmed(Match.objects.get(pk=match.pk))
    if again is not None:
        ratings_service.recompute(*again, closure=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_sequence_of_confirmations_and_corrections_equals_a_full_recompute(data):
    with transaction.atomic():
        matches = _schedule(data.draw)
        for _step in range(data.draw(st.integers(4, 24), label="steps")):
            match = data.draw(st.sampled_from(matches), label="match")
            match.refresh_from_db()
            if match.result_status == ResultStatus.PENDING:
                _set(match, _score(data.draw))
                if data.draw(st.booleans(), label="one by one"):
                    _rerate(match)  # the single-match task
                else:
                    ratings_service.rate_new(POOL)  # the batch after a burst of first confirmations
            elif data.draw(st.sampled_from(["correct", "void"]), label="action") == "void":
                _set(match, None)
                again = ratings_service.unrate(match)
                if again is not None:
                    ratings_service.recompute(*again)
            else:
                _set(match, _score(data.draw))
                _rerate(match)
            assert_equals_a_full_recompute()
        transaction.set_rollback(True)


def _round_of(t, number: int, pairs, scores) -> list[Match]:
    rnd = RoundFactory(tournament=t, number=number)
    return [MatchFactory(round=rnd, entry_a=a, entry_b=b, table=i + 1, confirmed=True, score_a=x, score_b=y)
            for i, ((a, b), (x, y)) in enumerate(zip(pairs, scores, strict=True))]  # fmt: skip


def _change_ids(matches) -> dict[int, set[int]]:
    return {m.pk: set(RatingChange.objects.filter(match=m).values_list("pk", flat=True)) for m in matches}


def test_a_late_confirmation_of_a_round_leaves_the_rounds_other_changes_untouched():
    t = TournamentFactory(rated=True)
    e = enter(t, PlayerFactory.create_batch(8))
    ratings_service.recompute(POOL, 1)
    rnd = RoundFactory(tournament=t, number=1)
    first = MatchFactory(round=rnd, entry_a=e[0], entry_b=e[1], table=1)
    later = [MatchFactory(round=rnd, entry_a=e[2 * i], entry_b=e[2 * i + 1], table=i + 1, confirmed=True)
             for i in range(1, 4)]  # fmt: skip
    ratings_service.rate_new(POOL)
    before = _change_ids(later)
    last_sequence = RatingChange.objects.order_by("-sequence").first().sequence
    _set(first, (5, 3))  # table 1 comes last: it sorts before the other three
    assert ratings_service.rate_new(POOL) == 1
    assert _change_ids(later) == before  # not rewritten
    assert set(RatingChange.objects.filter(match=first).values_list("sequence", flat=True)) == {last_sequence + 1}
    assert_equals_a_full_recompute()


def test_a_correction_rewrites_only_the_later_matches_it_reaches():
    t = TournamentFactory(rated=True)
    e = enter(t, PlayerFactory.create_batch(8))
    round_1 = _round_of(t, 1, [(e[0], e[1]), (e[2], e[3]), (e[4], e[5]), (e[6], e[7])], [(5, 1)] * 4)
    # round 2: 0 meets 2 (reached by the correction), 4 and 6 meet the others (not reached)
    round_2 = _round_of(t, 2, [(e[0], e[2]), (e[4], e[6]), (e[1], e[3]), (e[5], e[7])], [(5, 2)] * 4)
    round_3 = _round_of(t, 3, [(e[2], e[4]), (e[6], e[5])], [(3, 5), (5, 0)])
    ratings_service.recompute(POOL, 1)
    before = _change_ids(round_1 + round_2 + round_3)
    _set(round_1[1], (2, 5))  # 2:3 corrected
    _rerate(round_1[1])
    after = _change_ids(round_1 + round_2 + round_3)
    rewritten = {m for m in before if before[m] != after[m]}
    # 2:3, then 0:2 and 1:3 (their next matches), then 2:4 (2's next); 0:1, 4:5, 6:7 before it and
    # 4:6, 5:7, 6:5 after it not reached: the rows of these six stay as they were
    assert rewritten == {round_1[1].pk, round_2[0].pk, round_2[2].pk, round_3[0].pk}
    assert_equals_a_full_recompute()
