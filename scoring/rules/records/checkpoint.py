"""A printed checkpoint compared with the replayed board, point by point.

The book prints a position now and then (``Проверочная позиция``) so a reader can check
they are still in step. The comparison is kept apart from the replayer, as a pure
function, because it is the one place that reads the board back into the record's
labels; what to do about a mismatch (report it, then take the printed position as the
board so one misprint does not bury the rest) is the replayer's decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.rules.board.position import Position
from scoring.rules.records.events import CheckpointEvent, side_index

#: ``{"white": {label: {"expected": n, "actual": m}}, "black": {...}}``, differing points only.
Diff = dict[str, dict[str, dict[str, int]]]


@dataclass(frozen=True, slots=True)
class CheckpointComparison:
    """What :func:`compare_checkpoint` found.

    ``boards`` are the printed white and black boards (checkers not on the board counted
    as borne off), ready to replace the replayed ones; ``bad_labels`` the ``(side,
    label)`` of a printed point that does not exist in the numbering (the last per side).
    """

    diff: Diff
    boards: tuple[tuple[int, ...], tuple[int, ...]]
    bad_labels: tuple[tuple[str, str], ...]

    @property
    def ok(self) -> bool:
        return not self.diff


def compare_checkpoint(
    event: CheckpointEvent,
    position: Position,
    index_of: Callable[[str, str], int],
    label_of: Callable[[int, str], str],
    checkers: int,
) -> CheckpointComparison:
    """Compare ``event`` with ``position``; ``index_of(label, side)`` reads a printed label
    (``ValueError`` if it does not exist), ``label_of(index, side)`` prints one back."""
    diff: Diff = {}
    boards: list[tuple[int, ...]] = []
    bad_labels: list[tuple[str, str]] = []
    for side_name, items in (("white", event.white), ("black", event.black)):
        expected = [0] * 26
        bad_label = None
        for label, count in items:
            try:
                expected[index_of(label, side_name)] += count
            except ValueError:
                bad_label = label
        if bad_label is not None:
            bad_labels.append((side_name, bad_label))
        actual = position.board(side_index(side_name))
        differing: dict[str, dict[str, int]] = {}
        for index in range(1, 26):
            if expected[index] != actual[index]:
                differing[label_of(index, side_name)] = {
                    "expected": expected[index],
                    "actual": actual[index],
                }
        if differing:
            diff[side_name] = differing
        expected[0] = max(checkers - sum(expected[1:]), 0)
        boards.append(tuple(expected))
    return CheckpointComparison(diff, (boards[0], boards[1]), tuple(bad_labels))
