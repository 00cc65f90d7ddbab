"""Round 1 of a Swiss in the book's order, changed only as much as a forbidden pair requires.

The book (Part 9, ``part9_competition_rules.ru.txt`` line 9): «В первом туре встречаются
номера 1 и 2, 3 и 4, 5 и 6, и т. д.» — round 1 is fixed by the open draw of numbers, so a
pair that may not meet (a director's forbidden pair, players of one club kept apart) must
not reshuffle the round: every table the book's order allows stays as it is, and the
forbidden table exchanges partners with its neighbour. The same holds for the optional
"top half v bottom half" order (1 v n/2+1, …), whose neighbouring pairs are 1–(n/2+1) and
2–(n/2+2).

What is guaranteed (``tests/core/test_forbidden_pair_minimal_change.py`` checks it):

- no pair that may not meet is made, whenever the players can be paired at all (otherwise
  :func:`first_round` answers ``None`` and the general Swiss pairing makes its flagged
  proposal);
- every book pair outside the repair windows is kept; a window starts as the forbidden
  book pair with the pair above and below it and triples until its players can be paired
  (a window above ``EXACT_LIMIT`` players that cannot be paired becomes the whole section:
  with a club holding more than half the field that is where the search ends anyway);
- inside a window of at most ``EXACT_LIMIT`` players the fewest book pairs change, then the
  changed players meet the nearest pairs, then the higher tables are the ones kept (one
  maximum-weight matching whose weights spell these criteria as digits); larger windows keep
  book pairs greedily from the top, each only if the rest can still be paired;
- hence with exactly one forbidden pair among 2n ≥ 4 players exactly two pairings differ
  from the book's order when it is a book pair (it and the pair below, or above for the
  last table), none otherwise.

The players whose book pairs changed are paired among themselves in the order's own
manner: from the top, each takes the nearest player below (adjacent order) or the first of
the lower half (halves order) he may meet and whose choice still lets the rest be paired.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tournaments.pairing.matching import Matcher
from tournaments.pairing.swiss_input import FIRST_ROUND_ADJACENT
from tournaments.pairing.weighted import max_weight_matching

Pair = tuple[int, int]
MayMeet = Callable[[int, int], bool]

#: Largest window (players) repaired by the exact weighted matching (O(n³)); above it the
#: greedy guarded pass keeps the section's cost near a sort.
EXACT_LIMIT = 64


@dataclass(frozen=True, slots=True)
class Repair:
    """One window's change: the book's pairs it replaced, which of them may not meet, the new."""

    book: tuple[Pair, ...]
    blocked: tuple[Pair, ...]
    made: tuple[Pair, ...]


@dataclass(frozen=True, slots=True)
class FirstRound:
    pairs: tuple[Pair, ...]
    repairs: tuple[Repair, ...] = ()


def book_order(ids: list[int], rule: str) -> list[Pair]:
    """The round-1 pairs of ``ids`` (ranked, even count) in the chosen order."""
    if rule == FIRST_ROUND_ADJACENT:
        return [(ids[i], ids[i + 1]) for i in range(0, len(ids) - 1, 2)]
    h = len(ids) // 2
    return [(ids[i], ids[i + h]) for i in range(h)]


def first_round(ids: list[int], rule: str, may_meet: MayMeet) -> FirstRound | None:
    """Round 1 in the book's order, repaired window by window around each pair that may not
    meet (the guarantees are in the module's docstring); ``None`` if no valid pairing exists."""
    book = book_order(ids, rule)
    last = len(book) - 1
    broken = [k for k, (a, b) in enumerate(book) if not may_meet(a, b)]
    if not broken:
        return FirstRound(tuple(book))
    rank = {pid: i for i, pid in enumerate(ids)}
    windows = _merge((max(0, k - 1), min(last, k + 1)) for k in broken)
    solved: dict[tuple[int, int], list[Pair]] = {}
    while True:
        grown = []
        for lo, hi in windows:
            if (lo, hi) not in solved:
                made = _repair(book[lo : hi + 1], rule, rank, may_meet)
                if made is None:
                    if lo == 0 and hi == last:
                        return None
                    span = hi - lo + 1
                    if 2 * span > EXACT_LIMIT:  # a large window failed: only the whole is left
                        span = len(book)
                    grown.append((max(0, lo - span), min(last, hi + span)))
                    continue
                solved[(lo, hi)] = made
            grown.append((lo, hi))
        merged = _merge(grown)
        if all(w in solved for w in merged):
            break
        windows = merged
    pairs: list[Pair] = []
    repairs: list[Repair] = []
    start = 0
    for lo, hi in merged:
        pairs.extend(book[start:lo])
        made = solved[(lo, hi)]
        pairs.extend(made)
        kept = set(made)
        repairs.append(
            Repair(
                book=tuple(p for p in book[lo : hi + 1] if p not in kept),
                blocked=tuple(p for p in book[lo : hi + 1] if not may_meet(*p)),
                made=tuple(p for p in made if p not in book[lo : hi + 1]),
            )
        )
        start = hi + 1
    pairs.extend(book[start:])
    return FirstRound(tuple(pairs), tuple(repairs))


def _merge(windows: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping windows become one (they compete for the same players)."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(windows):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _repair(
    book: list[Pair], rule: str, rank: dict[int, int], may_meet: MayMeet
) -> list[Pair] | None:
    """The window's new pairs in table order (kept book pairs and the changed ones), or ``None``."""
    players = [pid for pair in book for pid in pair]
    if len(players) <= EXACT_LIMIT:
        kept = _kept_exact(book, may_meet)
    else:
        kept = _kept_greedy(book, players, may_meet)
    if kept is None:
        return None
    changed = sorted(
        (pid for k, pair in enumerate(book) if k not in kept for pid in pair), key=rank.__getitem__
    )
    made = _book_manner(changed, rule, may_meet)
    return [pair for k, pair in enumerate(book) if k in kept] + made


def _kept_exact(book: list[Pair], may_meet: MayMeet) -> set[int] | None:
    """Indices of the book pairs an optimal repair keeps, or ``None`` if nobody-left-out fails.

    Criteria as digits of one integer weight per edge, most significant first: every player
    paired; most book pairs kept; the smallest total distance (in tables) of the new pairs;
    the higher book pairs kept rather than the lower.
    """
    m = len(book)
    table = {pid: k for k, pair in enumerate(book) for pid in pair}
    players = [pid for pair in book for pid in pair]
    keep_high = m * (m + 1) // 2 + 1  # one unit of distance outweighs every keep-high bonus
    distance = keep_high
    keep = (m * m + 1) * distance  # one more kept pair outweighs every distance total
    everyone = (m + 1) * (keep + keep_high)
    edges = []
    for i, u in enumerate(players):
        for j in range(i + 1, len(players)):
            w = players[j]
            if not may_meet(u, w):
                continue
            if table[u] == table[w]:
                weight = everyone + keep + (m - table[u])
            else:
                weight = everyone - distance * abs(table[u] - table[w])
            edges.append((i, j, weight))
    mate = max_weight_matching(len(players), edges)
    if any(v == -1 for v in mate):
        return None
    return {k for k in range(m) if mate[2 * k] == 2 * k + 1}


def _kept_greedy(book: list[Pair], players: list[int], may_meet: MayMeet) -> set[int] | None:
    """Large windows: keep book pairs from the top while the rest can still be paired."""
    seed = [-1] * len(players)  # the book's allowed pairs: only the broken ones need a path
    for k, (a, b) in enumerate(book):
        if may_meet(a, b):
            seed[2 * k], seed[2 * k + 1] = 2 * k + 1, 2 * k
    matcher = _matcher(players, may_meet, seed)
    if matcher.maximise() * 2 < len(players):
        return None
    kept = set()
    for k, (a, b) in enumerate(book):
        if may_meet(a, b) and matcher.fix_pair(2 * k, 2 * k + 1):
            kept.add(k)
    return kept


def _book_manner(players: list[int], rule: str, may_meet: MayMeet) -> list[Pair]:
    """Pair ``players`` (ranked, known to be pairable) as the order would, minus who may not meet."""
    index = {pid: i for i, pid in enumerate(players)}
    matcher = _matcher(players, may_meet)
    matcher.maximise()
    live = list(players)
    out: list[Pair] = []
    while live:
        p, others = live[0], live[1:]
        if rule == FIRST_ROUND_ADJACENT:
            order = others
        else:
            h = (len(others) + 1) // 2
            order = others[h - 1 :] + list(reversed(others[: h - 1]))
        for q in order:
            if may_meet(p, q) and matcher.fix_pair(index[p], index[q]):
                out.append((p, q))
                live.remove(p)
                live.remove(q)
                break
        else:  # cannot happen: the players were shown pairable
            raise AssertionError(f"round 1 repair lost a perfect pairing at {p}")
    return out


def _matcher(players: list[int], may_meet: MayMeet, seed: list[int] | None = None) -> Matcher:
    n = len(players)

    def neighbours(v: int) -> Iterable[int]:
        return (u for u in range(n) if u != v and may_meet(players[v], players[u]))

    def adjacent(u: int, v: int) -> bool:
        return u != v and may_meet(players[u], players[v])

    return Matcher(n, neighbours, adjacent, seed)
