"""One play in the book's notation, read and written against a position (like SAN in python-chess).

:mod:`scoring.rules.records.notation` reads a cell's *text* (labels stay labels, because only a
whole record knows its numbering); here a position is known, so a play can be checked:
:func:`parse_play` turns ``"6–5 13/7*, 13/8"`` into the legal :class:`Play` it names (or
raises :class:`~scoring.rules.errors.RuleViolation` with the ``record.*`` problems that
say why it is not legal), and :func:`format_play` prints a legal play so that
``parse_play(position, format_play(position, play), dice=...)`` gives it back, in either
of the book's numberings (``"traditional"`` 1…12/01…012, ``"through"`` 1…24).
"""

from __future__ import annotations

from dataclasses import replace

from scoring.rules.board.legal import legal_plays
from scoring.rules.board.play_check import _fmt, check_play
from scoring.rules.board.position import Position, label_to_index
from scoring.rules.board.steps import Play, Step
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.problems.record import RECORD
from scoring.rules.records.notation import NotationError, parse_ply
from scoring.rules.variants import get_variant


def parse_play(
    position: Position,
    text: str,
    *,
    dice: tuple[int, int] | None = None,
    numbering: str = "traditional",
) -> Play:
    """The legal play ``text`` names for the side on roll in ``position``.

    The roll is read from the text (``"6–5 13/7, 13/11"``) or given as ``dice`` (a bare
    ``"13/7, 13/11"``); ``"Ø"`` is a pass. Raises :class:`RuleViolation` carrying the
    ``record.*`` problems (unreadable text, a missing roll, an illegal play).
    """
    try:
        ply = parse_ply(text)
    except NotationError as exc:
        raise RuleViolation(exc.problem) from None
    roll = ply.dice or dice
    if roll is None:
        raise RuleViolation(RECORD.problem("missing_dice", text=text))
    geometry = get_variant(position.variant).geometry
    steps: list[Step] = []
    for chain in ply.chains:
        try:
            path = [label_to_index(label, position.turn, numbering, geometry) for label in chain.path]
        except ValueError:
            bad = next(label for label in chain.path if not _is_label(label, position, numbering))
            problem = RECORD.problem("bad_point", text=text, label=bad, scope="numbering", numbering=numbering)
            raise RuleViolation(problem) from None
        hits = chain.hits[1:]
        one = [Step(path[i], path[i + 1], True if hits[i] else None) for i in range(len(hits))]
        steps.extend(one * chain.repeat)
    check = check_play(position, roll, steps, numbering=numbering)
    if not check.ok:
        raise RuleViolation([_with_text(p, text) for p in check.problems])
    for play in legal_plays(position, roll):
        if play.position == check.position:
            return play
    return Play((), position.passed())  # a forced pass: check_play accepted no steps


def format_play(position: Position, play: Play, *, numbering: str = "traditional") -> str:
    """``play`` (made from ``position``) as the book prints it: ``13/7*, 13/11``, or ``Ø``."""
    return _fmt(position, play.steps, numbering)


def _is_label(label: str, position: Position, numbering: str) -> bool:
    try:
        label_to_index(label, position.turn, numbering, get_variant(position.variant).geometry)
    except ValueError:
        return False
    return True


def _with_text(problem: Problem, text: str) -> Problem:
    return replace(problem, text=text)


__all__ = ["format_play", "parse_play"]
