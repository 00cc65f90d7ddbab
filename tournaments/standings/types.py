"""Plain input types of the standings core.

The Django shell fills these from its models with one query per table (entries →
:class:`Player`, matches → :class:`Match`), so every field is a primitive that a
``values_list`` row can supply directly. Nothing here knows about models, and the
core never has to reach back into the database for more.

:class:`Player` and :class:`Match` are read-only by convention rather than ``frozen``:
a frozen dataclass sets each field through ``object.__setattr__``, five times slower
to build, and a 10,000-player Swiss's standings build 25,000 matches and 10,000
players from rows every time its results change (issue 32). Build a changed copy with
:func:`dataclasses.replace`, never assign to a field.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

Score = int | float
"""Game points: whole numbers in backgammon, halves where a drawn game scores ½."""


class MatchStatus(StrEnum):
    """Only finished matches count; the others still appear on pairing sheets."""

    FINISHED = "finished"
    PENDING = "pending"


class System(StrEnum):
    """Competition systems of Part 9; they choose the default tie-breaks."""

    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    SCHEVENINGEN = "scheveningen"


class ByeValue(StrEnum):
    """What a bye contributes to Buchholz-type sums (and to Sonneborn-Berger).

    A bye has no opponent, so opponent-strength tie-breaks need a stand-in:

    * ``VIRTUAL`` — a virtual opponent (the FIDE rule): someone with the player's
      own score before the bye round, who lost that round and then wins half of
      every remaining round. Neutral: it neither rewards nor punishes the bye.
    * ``OWN`` — the player's own final score counts as the opponent's.
    * ``ZERO`` — the bye adds nothing (strict: byes weaken the tie-break).
    """

    VIRTUAL = "virtual"
    OWN = "own"
    ZERO = "zero"


@dataclass(slots=True)
class Player:
    """One entry of a tournament (a registered player in one section).

    ``id`` is the entry's primary key; ``draw_number`` is the number given by the
    open draw (открытая номерная жеребьёвка) and orders the crosstable like the
    book's table. ``section`` is the category key; players of one section only
    play each other.
    """

    id: int
    name_ru: str
    name_latin: str = ""
    section: str = ""
    draw_number: int | None = None
    rating: float | None = None
    club: str = ""
    withdrawn: bool = False
    removal: str = ""
    """``disqualified`` or ``removed``: the director's or the jury's sanction (Part 9,
    part9_competition_rules.ru.txt line 39: «дисквалификация, удаление с соревнований»), else
    empty. Such a player has no place and no prize (:attr:`excluded`)."""

    @property
    def excluded(self) -> bool:
        """Disqualified or removed from the event: ranked after everyone, with no place and no
        prize; his games stay in the crosstable and count for his opponents, as the director
        chose (past results kept or voided)."""
        return bool(self.removal)

    def name(self, language: str = "ru") -> str:
        """The name to show in ``language``; a missing Latin spelling falls back to Russian."""
        if language.startswith("en") and self.name_latin:
            return self.name_latin
        return self.name_ru or self.name_latin


@dataclass(slots=True)
class Match:
    """One pairing and, when finished, its result.

    ``player_b is None`` marks a bye for ``player_a``; the points the organiser
    awards for a bye go in ``score_a`` (and ``score_b`` stays 0). ``winner`` is a
    player id, or ``None`` for a drawn match (fixed-number-of-games events) or an
    unfinished one. ``gammons_a``/``gammons_b`` count games that side won by a
    gammon/mars or more; ``None`` means the result sheet did not say.
    """

    round: int
    player_a: int
    player_b: int | None
    score_a: Score = 0
    score_b: Score = 0
    winner: int | None = None
    gammons_a: int | None = None
    gammons_b: int | None = None
    status: MatchStatus = MatchStatus.FINISHED
    table: int | None = None
    #: A bye the player did not get from the pairing — asked for in advance, or a round
    #: missed by a late entry: the result it counts (0, ½, 1) by the organiser's rule.
    #: ``None``: a pairing bye, counted by ``StandingsOptions.bye_is_win``.
    bye_result: float | None = None
    kind: str = "played"
    """How the result came about (:class:`scoring.rules.match.result_kinds.ResultKind`): a forfeit
    counts as a match win/loss, a double forfeit as a loss for both, a void match not at all."""
    bracket: str = ""
    """The knockout bracket the match belongs to (the pairing core's names: ``main``,
    ``third_place``, ``consolation``, ``last_chance``, ``progressive``, ``losers``,
    ``grand_final``); empty in other systems and in a cup entered without a drawn bracket
    (then it is a main-draw match). A cup ranks by it (:mod:`.cup`)."""
    bracket_round: int | None = None
    """The round inside its bracket (a stage of the event can mix brackets); ``None``: ``round``."""

    @property
    def is_bye(self) -> bool:
        return self.player_b is None

    @property
    def finished(self) -> bool:
        return self.status == MatchStatus.FINISHED


@dataclass(frozen=True, slots=True)
class Adjustment:
    """Points a ruling adds to (negative: takes from) one player's metric, with its reason.

    A penalty of the director or the jury (Part 9: "директор может оштрафовать
    медленного игрока") is data, not a special case: the metric ``metric`` (a
    key of the registry; ``None`` = the table's main score) sums the player's
    results plus every adjustment of that player for it, so opponents' sums
    (Buchholz, Sonneborn-Berger) read the adjusted score like the table shows.
    ``mark`` is the sign the pages print next to the value (legend: reason).
    """

    player: int
    amount: Score
    reason: str = ""
    metric: str | None = None
    mark: str = "*"


@dataclass(frozen=True, slots=True)
class StandingsOptions:
    """How the organiser wants the table ranked.

    ``tiebreaks`` is the ordered list of metric keys (the first is the main
    score); empty means the default for ``system``. ``score_basis`` is the metric
    whose totals Buchholz, Sonneborn-Berger and the progressive score add up —
    match wins in a Swiss, game points in a round robin like the book's.
    """

    system: System = System.ROUND_ROBIN
    tiebreaks: tuple[str, ...] = ()
    score_basis: str | None = None
    bye_is_win: bool = True
    bye_value: ByeValue = ByeValue.VIRTUAL
    median_cut: int = 1
    total_rounds: int | None = None
    cycles: int = 1
    """A round robin's cycles (how many times each pair meets): the number of games each
    player is scheduled for is ``(players of the schedule − 1) × cycles`` (FIDE C.06's
    "half of his games", :func:`~.ranking.not_counted`)."""
