"""Results that are not (only) played out: forfeits, lateness penalties and the clock.

Why a module of its own: :mod:`scoring.rules.match.check` checks what was *played*; a hall
also produces results nobody played to the end — a player who does not turn up, a
player whose flag falls, a pairing cancelled when a player withdraws — and a match
that *starts* from penalty points because someone came late. Their scores follow
the organiser's rule, not the games, so they are computed here, once, for every
shell (pages, API, admin, commands).

Conventions (issue 15; the lead's closing note lists them with their sources):

* :class:`ResultKind` — ``played``; ``forfeit`` (one player did not play, the other
  wins); ``double_forfeit`` (neither played: both lose, nobody wins); ``time_forfeit``
  (lost on the clock: games were played, so it counts as a played match for
  opponent-based tie-breaks, like a loss on time in chess); ``void`` (the pairing
  is cancelled and counts for nobody).
* :class:`ForfeitScore` — the organiser's rule for the score of a forfeit:
  ``full`` — the winner is given the whole match ("the match length to 0"; in a
  fixed-games match every game not played is a single game won), the loser keeps
  what they had; ``played`` — the points already on the sheet stand (for a no-show,
  the starting score: 0:0 or the lateness penalty).
* Lateness (:class:`LatenessRule`): one penalty point to the opponent per N whole
  minutes late, a forfeit from M minutes on; a penalty that would reach the match
  length is a forfeit too. The director enters the whole lateness, so entering it
  again corrects it rather than adding to it. The match then starts from the penalty score
  (``MatchSpec.start``), which the ledger and the final-score check start from.
* Time control (:class:`TimeControl`): the book's limit per move (Part 9: "до 30, 35,
  40 или 45-ти секунд на один ход (не более)") and, when the director installs
  clocks (same paragraph: "обратиться к директору … с просьбой об установке
  шахматных часов"), minutes per point of match length with a delay *or* an
  increment per move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from scoring.rules.errors import Problem
from scoring.rules.match.spec import SIDES, MatchSpec, Number, _is_int, format_score
from scoring.rules.problems.match import MATCH, RESULT_KIND_NAMES


class ResultKind(StrEnum):
    PLAYED = "played"
    FORFEIT = "forfeit"
    DOUBLE_FORFEIT = "double_forfeit"
    TIME_FORFEIT = "time_forfeit"
    VOID = "void"


class ForfeitScore(StrEnum):
    FULL = "full"
    PLAYED = "played"


#: Kinds with a winner named by the director (not by the score).
WITH_WINNER = frozenset({ResultKind.FORFEIT, ResultKind.TIME_FORFEIT})
#: Kinds in which the players did not meet over the board: no opponent for tie-breaks,
#: never rated (FIDE: forfeits are not rated; a loss on time is a played game).
UNPLAYED = frozenset({ResultKind.FORFEIT, ResultKind.DOUBLE_FORFEIT, ResultKind.VOID})

assert set(RESULT_KIND_NAMES) == {k.value for k in ResultKind}  # one vocabulary


@dataclass(frozen=True, slots=True)
class KindVerdict:
    """The score and winner a non-played result gets, or the problems why it cannot be."""

    ok: bool
    problems: tuple[Problem, ...]
    score: tuple[Number, Number] = (0, 0)
    winner: str | None = None


def _unit(spec: MatchSpec) -> int:
    """What one game not played is worth to the winner (a single game of the scoring table)."""
    return min(v for _, v in spec.table.kinds)


def _decided(spec: MatchSpec, score: Sequence[Number]) -> bool:
    if spec.is_points and _is_int(spec.length):
        return max(score) >= spec.length
    return False


def result_for_kind(
    spec: MatchSpec,
    kind: str,
    winner: str | None,
    *,
    rule: str = ForfeitScore.FULL,
    played: Sequence[Number] | None = None,
    games_played: int = 0,
) -> KindVerdict:
    """The official score of a forfeit, double forfeit, time forfeit or void match.

    ``played`` is the score on the sheet when the match stopped (default: the
    match's starting score, ``spec.start``); ``games_played`` how many games of a
    fixed-games match were finished (the rest go to the winner under ``full``).
    """
    try:
        kind = ResultKind(kind)
    except ValueError:
        known = ", ".join(k.value for k in ResultKind if k is not ResultKind.PLAYED)
        return KindVerdict(False, (MATCH.problem("bad_result_kind", value=kind, known=known),))
    if kind is ResultKind.PLAYED:
        known = ", ".join(k.value for k in ResultKind if k is not ResultKind.PLAYED)
        return KindVerdict(False, (MATCH.problem("bad_result_kind", value=kind, known=known),))
    found: list[Problem] = []
    if kind in WITH_WINNER and winner not in SIDES:
        found.append(MATCH.problem("forfeit_needs_winner", result_kind=kind.value))
    if kind not in WITH_WINNER and winner:
        found.append(MATCH.problem("forfeit_no_winner", result_kind=kind.value))
    if spec.must_decide and kind in (ResultKind.VOID, ResultKind.DOUBLE_FORFEIT):
        # A cup's loser leaves and its winner takes the next slot (book, Part 9: the Olympic
        # system); a match settled for nobody would leave that slot empty and the bracket
        # could never be paired on.
        found.append(MATCH.problem("knockout_no_winner", result_kind=kind.value))
    start = tuple(Fraction(s) for s in spec.start)
    now = tuple(Fraction(s) for s in (played if played is not None else spec.start))
    halves = spec.draw == Fraction(1, 2) and not spec.is_points
    if len(now) != 2 or any(s < 0 or (s.denominator != 1 and not (halves and s.denominator == 2))
                            for s in now):
        found.append(MATCH.problem("bad_score", value=[float(s) for s in now], halves=halves))
    elif spec.fixed_games is not None and not 0 <= games_played <= spec.fixed_games:
        found.append(MATCH.problem("too_many_games", fixed=spec.fixed_games))
    elif any(n < s for n, s in zip(now, start, strict=True)):
        found.append(
            MATCH.problem("below_start", score=format_score(now), start=format_score(start))
        )
    elif _decided(spec, now):
        found.append(MATCH.problem("forfeit_played_decided", score=format_score(now)))
    if found:
        return KindVerdict(False, tuple(found))
    if kind is ResultKind.VOID:
        return KindVerdict(True, (), (0, 0), None)
    score = list(now)
    if kind in WITH_WINNER and rule == ForfeitScore.FULL:
        i = SIDES.index(winner)  # type: ignore[arg-type]
        if spec.is_points:
            score[i] = Fraction(spec.length)  # type: ignore[arg-type]
        else:
            left = max(int(spec.fixed_games or 0) - max(games_played, 0), 0)
            score[i] = score[i] + left * _unit(spec)
    out = tuple(int(s) if s.denominator == 1 else s for s in score)
    return KindVerdict(True, (), (out[0], out[1]), winner if kind in WITH_WINNER else None)


# --------------------------------------------------------------------------- lateness


@dataclass(frozen=True, slots=True)
class LatenessRule:
    """The organiser's lateness rule: a point per ``every`` minutes, a forfeit after ``forfeit_after``."""

    every: int | None = None
    forfeit_after: int | None = None

    @property
    def active(self) -> bool:
        return self.every is not None or self.forfeit_after is not None

    def problems(self) -> list[Problem]:
        bad = any(v is not None and not (_is_int(v) and v >= 1) for v in (self.every, self.forfeit_after))
        if not bad and self.every and self.forfeit_after and self.forfeit_after < self.every:
            bad = True
        if bad:
            return [MATCH.problem("bad_late_rule", every=self.every, forfeit=self.forfeit_after)]
        return []


@dataclass(frozen=True, slots=True)
class Lateness:
    """What lateness costs: penalty points to the opponent, or the match (a forfeit)."""

    points: int
    forfeit: bool
    start: tuple[Number, Number] = (0, 0)
    problems: tuple[Problem, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems


def lateness_penalty(rule: LatenessRule, spec: MatchSpec, late_side: str, minutes: object) -> Lateness:
    """The penalty for ``late_side`` arriving ``minutes`` late, and the score the match starts from.

    ``minutes`` is the whole lateness, so the director may correct it: the opponent's
    starting score *becomes* the penalty (it is not added to an earlier one), and the
    late side's own starting score (the other player's lateness) is kept. A penalty
    reaching the match length, or the rule's forfeit time, is a forfeit.
    """
    if not rule.active:
        return Lateness(0, False, spec.start, (MATCH.problem("no_late_rule"),))
    found = rule.problems()
    if not _is_int(minutes) or minutes < 0:  # type: ignore[operator]
        found.append(MATCH.problem("bad_minutes_late", value=minutes))
    if late_side not in SIDES:
        found.append(MATCH.problem("bad_winner", value=late_side))
    if found:
        return Lateness(0, False, spec.start, tuple(found))
    late = int(minutes)  # type: ignore[call-overload]
    points = late // rule.every if rule.every else 0
    other = 1 - SIDES.index(late_side)
    start = list(spec.start)
    start[other] = points
    forfeit = bool(rule.forfeit_after and late >= rule.forfeit_after) or _decided(spec, start)
    return Lateness(points, forfeit, (start[0], start[1]))


# --------------------------------------------------------------------------- time control


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Time as data: the limit per move, and the clock when one is installed."""

    move_seconds: int | None = None
    minutes_per_point: int | None = None
    delay_seconds: int = 0
    increment_seconds: int = 0

    def problems(self) -> list[Problem]:
        found: list[Problem] = []
        if self.move_seconds is not None and not (
            _is_int(self.move_seconds) and 1 <= self.move_seconds <= 45
        ):
            found.append(MATCH.problem("move_limit_range", value=self.move_seconds))
        for name in ("minutes_per_point", "delay_seconds", "increment_seconds"):
            value = getattr(self, name)
            if value is not None and not (_is_int(value) and value >= 0):
                found.append(MATCH.problem("bad_clock", field=name, value=value))
        if found:
            return found
        if self.delay_seconds and self.increment_seconds:
            found.append(MATCH.problem("delay_and_increment"))
        if (self.delay_seconds or self.increment_seconds) and not self.minutes_per_point:
            found.append(MATCH.problem("clock_bonus_without_clock"))
        return found

    def clock_minutes(self, length: int | None) -> int | None:
        """Each player's time on the clock for a match of ``length`` points (games)."""
        if not self.minutes_per_point or not length:
            return None
        return self.minutes_per_point * length

    def describe(self, language: str, length: int | None = None) -> str:
        """ "45 s a move; clock 2 min × 5 = 10 min each, delay 12 s" — for sheets and pairings."""
        en = language.lower().startswith("en")
        parts: list[str] = []
        if self.move_seconds:
            parts.append(
                f"{self.move_seconds} s a move" if en else f"{self.move_seconds} с на ход"
            )
        if self.minutes_per_point:
            total = self.clock_minutes(length)
            per = f"{self.minutes_per_point} min a point" if en else f"{self.minutes_per_point} мин на очко"
            if total:
                per += f" = {total} min each" if en else f" = {total} мин каждому"
            clock = ("clock: " if en else "часы: ") + per
            if self.delay_seconds:
                clock += f", delay {self.delay_seconds} s" if en else f", задержка {self.delay_seconds} с"
            if self.increment_seconds:
                clock += (
                    f", +{self.increment_seconds} s a move" if en
                    else f", +{self.increment_seconds} с за ход"
                )
            parts.append(clock)
        return "; ".join(parts)
