"""The chouette ledger (book ch10–11 «Швец»): settlement, rotation, refusals, invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.chouette import Game, Lineup, Member, rotate, run, settle, start
from scoring.rules.errors import RuleViolation

PLAYERS = ["Анна", "Борис", "Вера", "Глеб"]


def _codes(exc: pytest.ExceptionInfo) -> list[str]:
    return [p.code for p in exc.value.problems]


def test_the_box_wins_keeps_its_place_and_the_captain_goes_to_the_end_of_the_queue() -> None:
    ledger = start(PLAYERS)
    members = tuple(Member(p) for p in PLAYERS[1:])
    outcome = ledger.add(Game("Анна", "Борис", members, "box"))
    assert outcome.amounts == {"Анна": 3, "Борис": -1, "Вера": -1, "Глеб": -1}
    assert ledger.lineup == Lineup("Анна", "Вера", ("Глеб", "Борис"))


def test_the_team_wins_the_captain_becomes_the_box_and_the_box_goes_to_the_end() -> None:
    ledger = start(PLAYERS)
    members = tuple(Member(p) for p in PLAYERS[1:])
    outcome = ledger.add(Game("Анна", "Борис", members, "team", "gammon"))
    assert outcome.amounts == {"Анна": -6, "Борис": 2, "Вера": 2, "Глеб": 2}
    assert ledger.lineup == Lineup("Борис", "Вера", ("Глеб", "Анна"))


def test_own_cubes_a_pass_pays_the_stake_before_the_double_and_mixed_results() -> None:
    # The box doubled everyone to 2: Вера passed (pays 1), the captain and Глеб took and won.
    ledger = start(PLAYERS)
    game = Game("Анна", "Борис", (Member("Борис", 2), Member("Вера", 2, True), Member("Глеб", 2)), "team")
    outcome = ledger.add(game)
    assert outcome.amounts == {"Анна": -3, "Борис": 2, "Вера": -1, "Глеб": 2}
    assert outcome.captain_won and ledger.lineup.box == "Борис"


def test_the_box_that_beat_the_passing_captain_keeps_its_place() -> None:
    # ch10–11: «бокс сохраняет своё место, если выиграл у капитана команды».
    ledger = start(PLAYERS)
    game = Game("Анна", "Борис", (Member("Борис", 2, True), Member("Вера", 2), Member("Глеб", 2)), "team")
    outcome = ledger.add(game)
    assert outcome.amounts == {"Анна": -3, "Борис": -1, "Вера": 2, "Глеб": 2}
    assert not outcome.captain_won
    assert ledger.lineup == Lineup("Анна", "Вера", ("Глеб", "Борис"))


@pytest.mark.parametrize(
    ("game", "code"),
    [
        (Game("Борис", "Анна", (), "box"), "chouette.rotation_out_of_order"),
        (Game("Анна", "Борис", (Member("Борис"), Member("Вера")), "box"), "chouette.members_mismatch"),
        (Game("Анна", "Борис", (Member("Борис", 3), Member("Вера"), Member("Глеб")), "box"), "chouette.bad_cube"),
        (Game("Анна", "Борис", (Member("Борис", 1, True), Member("Вера"), Member("Глеб")), "box"),
         "chouette.pass_without_double"),
        (Game("Анна", "Борис", (Member("Борис", 4, True, paid=4), Member("Вера"), Member("Глеб")), "box"),
         "chouette.pass_over_stake"),
        (Game("Анна", "Борис", tuple(Member(p, 2, True) for p in PLAYERS[1:]), "team"),
         "chouette.team_won_all_passed"),
        (Game("Анна", "Борис", tuple(Member(p) for p in PLAYERS[1:]), "box", "mars"), "chouette.bad_kind"),
    ],
)  # fmt: skip
def test_an_impossible_game_is_refused_with_its_code_and_the_ledger_is_unchanged(game: Game, code: str) -> None:
    ledger = start(PLAYERS)
    with pytest.raises(RuleViolation) as exc:
        ledger.add(game)
    assert code in _codes(exc)
    problem = exc.value.problems[0]
    assert problem.game == 1 and problem.en != problem.ru
    assert ledger.outcomes == [] and set(ledger.totals.values()) == {0}


def test_common_cube_must_be_one_value() -> None:
    game = Game("Анна", "Борис", (Member("Борис", 2), Member("Вера", 4), Member("Глеб", 2)), "box")
    with pytest.raises(RuleViolation) as exc:
        run(PLAYERS, [game], "common")
    assert _codes(exc) == ["chouette.common_cube_differs"]
    run(PLAYERS, [game], "own")  # with own cubes it is fine


def test_a_session_needs_three_distinct_named_players() -> None:
    with pytest.raises(RuleViolation) as exc:
        start(["Анна", "Анна"])
    assert _codes(exc) == ["chouette.duplicate_player", "chouette.too_few_players"]
    with pytest.raises(RuleViolation) as exc:
        start(["Анна", " ", "Вера"])
    assert _codes(exc) == ["chouette.blank_player"]


@st.composite
def sessions(draw: st.DrawFn) -> tuple[list[str], list[tuple], str]:
    n = draw(st.integers(3, 7))
    players = [f"P{i}" for i in range(n)]
    mode = draw(st.sampled_from(["own", "common"]))
    plays = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["box", "team"]),
                st.sampled_from(["single", "gammon", "backgammon"]),
                st.integers(0, 6),  # the (common) cube's power
                st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=n - 1, max_size=n - 1),
            ),
            max_size=15,
        )
    )
    return players, plays, mode


@settings(max_examples=150, deadline=None)
@given(sessions())
def test_every_session_is_zero_sum_and_the_seats_rotate_by_the_book(session) -> None:
    players, plays, mode = session
    ledger = start(players)
    for winner, kind, common, lines in plays:
        before = ledger.lineup
        members = []
        for player, (power, passed) in zip(before.team, lines, strict=True):
            cube = 2 ** (common if mode == "common" else power)
            members.append(Member(player, cube, passed and cube > 1))
        if all(m.passed for m in members):
            winner = "box"
        outcome = ledger.add(Game(before.box, before.captain, tuple(members), winner, kind), mode)
        assert sum(outcome.amounts.values()) == 0
        # The seats are always every player once; the box changes exactly when the captain won.
        after = ledger.lineup
        assert sorted((after.box, *after.team)) == sorted(players)
        assert (after.box == before.captain) == outcome.captain_won
        assert after == rotate(before, outcome.captain_won)
        assert after.queue[-1] == (before.box if outcome.captain_won else before.captain)
    assert sum(ledger.totals.values()) == 0
    for player in players:
        assert ledger.totals[player] == sum(o.amounts.get(player, 0) for o in ledger.outcomes)


def test_a_pass_costs_one_stake_with_the_common_cube_and_the_stake_before_the_double_with_own() -> None:
    """Book ch10–11: «Когда же дубль-куб один на всю команду … В случае паса игрок платит
    боксу одинарную ставку» — after a team redouble (the box doubles 4 → 8) a pass is still 1."""
    # Анна is the box; the common cube went 2 (box), 4 (team), now the box offers 8.
    members = (Member("Борис", 8), Member("Вера", 8, passed=True), Member("Глеб", 8, passed=True))
    common = run(PLAYERS, [Game("Анна", "Борис", members, "box", "single")], "common")
    assert common.outcomes[0].amounts == {"Анна": 10, "Борис": -8, "Вера": -1, "Глеб": -1}
    own = run(PLAYERS, [Game("Анна", "Борис", members, "box", "single")], "own")
    assert own.outcomes[0].amounts == {"Анна": 16, "Борис": -8, "Вера": -4, "Глеб": -4}
    # A score sheet that charged the common-cube pass as cube ÷ 2 is refused, saying why.
    sheet = (Member("Борис", 8), Member("Вера", 8, passed=True, paid=4), Member("Глеб", 8))
    with pytest.raises(RuleViolation) as exc:
        run(PLAYERS, [Game("Анна", "Борис", sheet, "box", "single")], "common")
    assert _codes(exc) == ["chouette.pass_over_stake"]
    assert "одинарную ставку" in exc.value.problems[0].message("ru")


def test_under_a_common_cube_a_pass_needs_the_double_and_one_cube_for_all():
    """Issue 46: "passed the double" with every cube at 1 under the common cube is refused
    (nobody passes an offer never made), and a common cube shows one value for everyone."""
    lineup = start(["Box", "Cap", "Q1"]).lineup

    def codes(*members):
        game = Game(box=lineup.box, captain=lineup.captain, members=members, winner="team")
        try:
            settle(lineup, game, "common", number=1)
        except RuleViolation as exc:
            return [p.code for p in exc.problems]
        return []

    assert codes(Member("Cap", 1), Member("Q1", 1, passed=True)) == ["chouette.pass_without_double"]
    assert codes(Member("Cap", 4), Member("Q1", 2, passed=True)) == ["chouette.common_cube_differs"]
    assert codes(Member("Cap", 2), Member("Q1", 2, passed=True)) == []
