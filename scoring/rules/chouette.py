"""The chouette («Швец», book ch10–11): one box against a team, a ledger of games and totals.

What the book says (ch10–11, «Швец / Chouette»), and how it is kept here:

* Three or more players. The draw: the highest die is the **box** («бокс»), who plays
  alone against all the others, the **team**; the second highest is the **captain**
  («капитан»), who rolls and moves for the team; the others wait in the **queue** in
  the order of the draw. A session is started from that order: ``[box, captain, *queue]``.
* The box wins: each team member pays the box one stake (times the cube and the kind of
  win); the captain goes to the end of the queue and the first in the queue becomes captain.
* The team wins: the box pays each member; the captain becomes the box, the next in the
  queue the captain, and the box goes to the end of the queue.
* The box doubles: members who take play on; those who pass are out of this game and
  each pays the box one stake. With their own cubes («Каждый из них выплачивает по
  одной ставке боксу»), as in any game the pass loses what the cube showed before the
  refused double (ch10: «проигрыш партии со счётом, который стоял … на верхней грани
  дубль-куба до удвоения»): ``cube ÷ 2``. With one cube for the whole team the book
  says, ch10–11: «Когда же дубль-куб один на всю команду, то в ответ на давэ от бокса
  каждый член команды решает лично – принять давэ или отклонить давэ (т. е.
  спасовать). В случае паса игрок платит боксу одинарную ставку.» — a single stake,
  one point, whatever the cube shows (after a team redouble ``cube ÷ 2`` would be
  more), so that is what a pass costs here in ``"common"`` mode.
* Mixed results (the box beat the members who passed, the others beat the box): the box
  keeps its place if it beat the captain. So the rotation follows the captain's own
  result: the captain won → the team-won rotation; otherwise the box stays.
* «У каждого члена команды был свой дубль-куб» — by default every member has their own
  cube (``cube_mode="own"``); ``"common"`` is one cube for the whole team, so every
  member who plays on has the same cube and every pass is at the same offer.

Amounts are in stakes (points): a member's game is worth ``cube × kind`` (single 1,
gammon 2, backgammon 3: the backgammon scoring table), a pass ``cube ÷ 2`` with own
cubes and one stake with the common cube (:func:`pass_cost`). Every game
is zero-sum: the box's amount is minus the sum of the members'. Bad input is refused with
``chouette.*`` problems (RU/EN), located at the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from scoring.rules.errors import Catalogue, Problem, RuleViolation
from scoring.rules.variants import get_variant

CubeMode = Literal["own", "common"]
Winner = Literal["box", "team"]
#: The kinds of win and what each multiplies the cube by: the backgammon table (ch10–11:
#: «в остальном действуют правила бэкгэммона»).
KINDS: dict[str, int] = dict(get_variant("backgammon").table.kinds)
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)

CHOUETTE = Catalogue(
    "chouette",
    {
        "too_few_players": (
            "A chouette needs at least three players (the box and a team of two); {count} given.",
            "В швец играют втроём и больше (бокс и команда из двух); указано игроков: {count}.",
        ),
        "duplicate_player": (
            "{player} is listed twice; each player has one seat.",
            "{player} указан дважды; у каждого игрока одно место.",
        ),
        "blank_player": (
            "Player {n} has no name.",
            "У игрока № {n} нет имени.",
        ),
        "rotation_out_of_order": (
            "By the rotation the box is {box} and the captain {captain}, not {given_box} and {given_captain} "
            "(ch10–11: the box stays after beating the captain; a winning captain becomes the box).",
            "По очереди бокс — {box}, капитан — {captain}, а не {given_box} и {given_captain} "
            "(гл. 10–11: бокс остаётся, если выиграл у капитана; выигравший капитан становится боксом).",
        ),
        "members_mismatch": (
            "The team is {team}; every member has exactly one line (given: {given}).",
            "Команда — {team}; у каждого её члена ровно одна строка (указано: {given}).",
        ),
        "bad_cube": (
            "{player}: the cube shows {cube}; it can only be 1, 2, 4, 8, 16, 32 or 64.",
            "{player}: на кубе {cube}, а бывает только 1, 2, 4, 8, 16, 32 или 64.",
        ),
        "pass_without_double": (
            "{player} passed, but their cube was never turned (1): nobody passes without a double.",
            "{player} спасовал, но куб не поворачивали (1): пас бывает только в ответ на давэ.",
        ),
        "pass_over_stake": (
            "{player} passed the double to {cube} and so pays {owed} stake(s) (with their own cube the "
            "stake before the double, with the common cube a single stake), not {paid}.",
            "{player} спасовал при давэ до {cube} и платит {owed} (при своём дубль-кубе — ставку до "
            "удвоения, при общем — одинарную ставку), а не {paid}.",
        ),
        "common_cube_differs": (
            "With one common cube every member's cube is the same; here it shows {cubes}.",
            "При одном общем кубе у всех членов команды одно значение, а здесь: {cubes}.",
        ),
        "bad_kind": (
            "“{kind}” is not a result: single, gammon or backgammon.",
            "«{kind}» — не результат: гейм, гэммон или бэкгэммон.",
        ),
        "team_won_all_passed": (
            "Every member passed, so the box won this game; the team cannot have won it.",
            "Все члены команды спасовали, значит партию выиграл бокс; команда выиграть не могла.",
        ),
    },
)


@dataclass(frozen=True, slots=True)
class Member:
    """One team member's line of a game: their cube and whether they passed a double.

    ``cube`` is the cube's value at the end of the game for that member; for a pass, the
    value the box offered. ``paid`` is what a score sheet says a passed member paid (in
    stakes), if it says so: it must be the stake before the double.
    """

    player: str
    cube: int = 1
    passed: bool = False
    paid: int | None = None


@dataclass(frozen=True, slots=True)
class Game:
    """One game as the table saw it: who was box and captain, each member's line, the result."""

    box: str
    captain: str
    members: tuple[Member, ...]
    winner: Winner
    kind: str = "single"


@dataclass(frozen=True, slots=True)
class Lineup:
    """The seats before a game: the box, the captain and the queue behind the captain."""

    box: str
    captain: str
    queue: tuple[str, ...]

    @property
    def team(self) -> tuple[str, ...]:
        return (self.captain, *self.queue)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A settled game: each player's amount in stakes (the box's included) and the seats after."""

    number: int
    game: Game
    before: Lineup
    after: Lineup
    amounts: dict[str, int]
    captain_won: bool


@dataclass(slots=True)
class Ledger:
    """A session's games in order, each player's running total, and the seats for the next game."""

    players: tuple[str, ...]
    lineup: Lineup
    outcomes: list[Outcome] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)

    def add(self, game: Game, cube_mode: CubeMode = "own") -> Outcome:
        """Settle ``game`` against the current seats, or raise :class:`RuleViolation`."""
        number = len(self.outcomes) + 1
        amounts, captain_won = settle(self.lineup, game, cube_mode, number=number)
        after = rotate(self.lineup, captain_won)
        outcome = Outcome(number, game, self.lineup, after, amounts, captain_won)
        self.outcomes.append(outcome)
        for player, amount in amounts.items():
            self.totals[player] += amount
        self.lineup = after
        return outcome


def start(players: list[str] | tuple[str, ...]) -> Ledger:
    """A new session in the order of the draw: ``[box, captain, *queue]``."""
    names = [p.strip() for p in players]
    problems: list[Problem] = []
    for n, name in enumerate(names, start=1):
        if not name:
            problems.append(CHOUETTE.problem("blank_player", n=n))
    seen: set[str] = set()
    for name in names:
        if name and name in seen:
            problems.append(CHOUETTE.problem("duplicate_player", player=name))
        seen.add(name)
    if len(names) < 3:
        problems.append(CHOUETTE.problem("too_few_players", count=len(names)))
    if problems:
        raise RuleViolation(problems)
    lineup = Lineup(names[0], names[1], tuple(names[2:]))
    return Ledger(tuple(names), lineup, [], {name: 0 for name in names})


def settle(
    lineup: Lineup, game: Game, cube_mode: CubeMode = "own", *, number: int | None = None
) -> tuple[dict[str, int], bool]:
    """Each player's amount for ``game`` (zero-sum) and whether the captain won; or refuse it."""
    problems: list[Problem] = []

    def refuse(code: str, **details: object) -> None:
        problems.append(CHOUETTE.problem(code, game=number, **details))

    if (game.box, game.captain) != (lineup.box, lineup.captain):
        refuse(
            "rotation_out_of_order",
            box=lineup.box,
            captain=lineup.captain,
            given_box=game.box,
            given_captain=game.captain,
        )
        raise RuleViolation(problems)
    given = [m.player for m in game.members]
    if sorted(given) != sorted(lineup.team):
        refuse("members_mismatch", team=", ".join(lineup.team), given=", ".join(given) or "—")
        raise RuleViolation(problems)
    multiplier = KINDS.get(game.kind)
    if multiplier is None:
        refuse("bad_kind", kind=game.kind)
    for m in game.members:
        if m.cube not in CUBE_VALUES:
            refuse("bad_cube", player=m.player, cube=m.cube)
        elif m.passed and m.cube < 2:
            refuse("pass_without_double", player=m.player)
        elif m.passed and m.paid is not None and m.paid != pass_cost(m.cube, cube_mode):
            owed = pass_cost(m.cube, cube_mode)
            refuse("pass_over_stake", player=m.player, cube=m.cube, owed=owed, paid=m.paid)
    if cube_mode == "common" and len({m.cube for m in game.members}) > 1:
        refuse("common_cube_differs", cubes=", ".join(f"{m.player} {m.cube}" for m in game.members))
    if all(m.passed for m in game.members) and game.winner == "team":
        refuse("team_won_all_passed")
    if problems:
        raise RuleViolation(problems)
    amounts = {name: 0 for name in (lineup.box, *lineup.team)}
    sign = 1 if game.winner == "team" else -1
    for m in game.members:
        amount = -pass_cost(m.cube, cube_mode) if m.passed else sign * m.cube * (multiplier or 1)
        amounts[m.player] = amount
        amounts[lineup.box] -= amount
    captain = next(m for m in game.members if m.player == lineup.captain)
    captain_won = not captain.passed and game.winner == "team"
    return amounts, captain_won


def pass_cost(cube: int, cube_mode: CubeMode) -> int:
    """What a member who passes the box's double pays the box (module docstring, the book's
    words): the cube before the double with their own cube, one stake with the common one."""
    return 1 if cube_mode == "common" else cube // 2


def rotate(lineup: Lineup, captain_won: bool) -> Lineup:
    """The seats after a game, by the book (ch10–11).

    The captain won: the captain becomes the box, the first in the queue the captain, the
    box goes to the end of the queue. Otherwise the box keeps its place, the captain goes
    to the end of the queue and the first in the queue becomes captain.
    """
    queue = lineup.queue
    if captain_won:
        return Lineup(lineup.captain, queue[0], (*queue[1:], lineup.box))
    return Lineup(lineup.box, queue[0], (*queue[1:], lineup.captain))


def run(
    players: list[str] | tuple[str, ...], games: list[Game], cube_mode: CubeMode = "own"
) -> Ledger:
    """A whole session: every game settled in order (the first refused game raises)."""
    ledger = start(players)
    for game in games:
        ledger.add(game, cube_mode)
    return ledger


__all__ = [
    "CHOUETTE",
    "KINDS",
    "Game",
    "Ledger",
    "Lineup",
    "Member",
    "Outcome",
    "pass_cost",
    "rotate",
    "run",
    "settle",
    "start",
]
