"""The Swiss quality criteria as numbers, so any two pairings of a round can be compared.

One place for the order of the criteria (see :mod:`tournaments.pairing.swiss`):
after the absolute rules, a pairing is better when, going down the score
groups from the top, fewer players cross each boundary between a group and
the next (a player who floats two groups down crosses two boundaries and so
counts as a floater of both groups, as in the FIDE Dutch system); then, again
group by group from the top, when the tables its floaters play have smaller
score differences, the largest first. The generator, the
exhaustive oracle in the tests and the bbpPairings comparison all measure with
:func:`quality`, so they cannot disagree on what "better" means.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Quality = tuple[tuple[int, ...], tuple[tuple[float, ...], ...]]


def score_levels(scores: Iterable[float]) -> list[float]:
    """The distinct scores, highest first: the score groups' order."""
    return sorted(set(scores), reverse=True)


def crossings(pairs: Iterable[tuple[int, int]], score: Mapping[int, float]) -> tuple[int, ...]:
    """How many players cross each boundary, top boundary first (one entry per boundary)."""
    levels = score_levels(score.values())
    index = {s: i for i, s in enumerate(levels)}
    out = [0] * max(0, len(levels) - 1)
    for a, b in pairs:
        i, j = sorted((index[score[a]], index[score[b]]))
        for k in range(i, j):
            out[k] += 1
    return tuple(out)


def differences(
    pairs: Iterable[tuple[int, int]], score: Mapping[int, float]
) -> tuple[tuple[float, ...], ...]:
    """Per score group, top group first: the differences of its floaters' tables, largest first.

    A table belongs to the group of its higher-scored player. Compared as
    tuples, this prefers, group by group from the top, fewer tables with the
    largest difference, then with the next largest, and so on.
    """
    levels = score_levels(score.values())
    index = {s: i for i, s in enumerate(levels)}
    out: list[list[float]] = [[] for _ in levels]
    for a, b in pairs:
        if score[a] != score[b]:
            out[index[max(score[a], score[b])]].append(abs(score[a] - score[b]))
    return tuple(tuple(sorted(d, reverse=True)) for d in out)


def quality(pairs: Iterable[tuple[int, int]], score: Mapping[int, float]) -> Quality:
    """Smaller is better, compared as a tuple: crossings top-down, then the differences by group."""
    pairs = list(pairs)
    return crossings(pairs, score), differences(pairs, score)


def parity_bound(sizes: list[int]) -> tuple[int, ...]:
    """The fewest crossings any pairing can have if every group could pair freely.

    A boundary must be crossed by an odd number of players exactly when the
    groups above it hold an odd number of players.
    """
    out = []
    total = 0
    for size in sizes[:-1]:
        total += size
        out.append(total % 2)
    return tuple(out)
