"""Forbidden pairs (the director's "these two must not meet") are an absolute rule, like a rematch."""

from __future__ import annotations

from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.swiss_input import NO_REMATCH_FREE, OK, PairingInput, SwissPlayer


def field(n: int, points: float = 1.0) -> tuple[SwissPlayer, ...]:
    return tuple(SwissPlayer(i, i, match_points=points) for i in range(1, n + 1))


def test_a_forbidden_pair_is_avoided_exactly_like_a_former_opponent():
    # 1-3 would be the book's pairing of the group; forbidding it gives 1-4, 2-3.
    plain = pair_swiss(PairingInput(2, field(4)))
    assert {frozenset(p.players) for p in plain.pairings} == {frozenset((1, 3)), frozenset((2, 4))}
    res = pair_swiss(PairingInput(2, field(4), forbidden_pairs=frozenset({frozenset((1, 3))})))
    assert res.status == OK
    assert {frozenset(p.players) for p in res.pairings} == {frozenset((1, 4)), frozenset((2, 3))}


def test_a_forbidden_pair_that_cannot_be_avoided_is_only_a_flagged_proposal():
    ps = (SwissPlayer(1, 1, opponents=()), SwissPlayer(2, 2, opponents=()))
    res = pair_swiss(PairingInput(3, ps, forbidden_pairs=frozenset({frozenset((1, 2))})))
    assert res.status == NO_REMATCH_FREE
    table = res.pairings[0]
    assert table.rematch
    note = next(n for n in table.notes if n.code == "pairing.why.forbidden_proposed")
    assert "forbidden by the director" in note.en and "запрещена судьёй" in note.ru


def test_a_forbidden_pair_naming_an_unknown_player_is_an_input_problem():
    res = pair_swiss(PairingInput(2, field(4), forbidden_pairs=frozenset({frozenset((1, 99))})))
    assert res.status == "invalid"
    assert [p.code for p in res.problems] == ["pairing.swiss.forbidden_invalid"]
    assert "exactly two players" in res.problems[0].en


def test_a_float_forced_by_a_forbidden_pair_says_so_in_both_languages():
    # Group of 2 points: 1 and 2 may not meet, so both float into the 1-point group.
    ps = (
        SwissPlayer(1, 1, match_points=2.0),
        SwissPlayer(2, 2, match_points=2.0),
        SwissPlayer(3, 3, match_points=1.0),
        SwissPlayer(4, 4, match_points=1.0),
    )
    res = pair_swiss(PairingInput(3, ps, forbidden_pairs=frozenset({frozenset((1, 2))})))
    assert res.status == OK
    notes = [n for p in res.pairings for n in p.notes if n.code == "pairing.why.float_forced"]
    assert {n.details["player"] for n in notes} == {1, 2}
    first = next(n for n in notes if n.details["player"] == 1)
    assert first.details["forbidden"] == [2]
    assert "forbade №1 to meet №2" in first.en and "запретил №1 встречаться с: №2" in first.ru
    assert "rematch or a forbidden pair" in first.en
