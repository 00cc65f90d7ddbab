"""The games of the nardy family as data, plus the few switches the move rules consult.

Every variant the book describes is one :class:`Variant` record, looked up by a stable
string key that is safe to store in the database and to put in URLs:

=============== ===================================================== ============
key             game (book chapter)                                   default table
=============== ===================================================== ============
``backgammon``  backgammon (ch10), rules of ch8                       ``backgammon``
``short_nardy`` short nardy / traditional trictrac (ch8)              ``trictrac``
``nackgammon``  nackgammon: backgammon from another start (ch10)      ``backgammon``
``hypergammon`` hypergammon: three checkers each (ch10)               ``backgammon``
``caucasian``   Caucasian short nardy: no hit-and-hide at home (ch10) ``trictrac``
``long_nardy``  long nardy, jang (ch9)                                ``long_nardy``
``karzar``      karzar: jang with only rule r6 for the six-prime (ch9) ``long_nardy``
=============== ===================================================== ============

The book's short nardy (ch8) and its Caucasian variant (ch10) also bear off by the exact
point (``exact_bear_off``, ch8 r22 and r26): a die that matches an occupied home point
bears a checker off from that point and may not be spent moving inside home first — with
6-1 and one checker on the 6 point, ``6/5/off`` is illegal. International backgammon and
GNU Backgammon allow that play, so backgammon, nackgammon and hypergammon keep the
international rule (our legal plays are cross-checked against gnubg there).

Why data and not subclasses: the move generator (:mod:`scoring.rules.board.generate.short`) is the hot
path, and reading a handful of booleans from a frozen record is cheaper and easier to
test than virtual dispatch; the differences between the games really are this small.

Geometry: ``"short"`` boards (backgammon family) have the sides moving towards each
other; ``"long"`` boards (long nardy) have both sides moving the same way round, each
starting from its *head* (голова). Internally every side counts points from its own
bear-off: index 1…24 (1 = the deepest home point, 24 = the farthest), 25 = the bar,
0 = borne off (двор). See :mod:`scoring.rules.board.position` for the conversions.

Scoring tables (RULES.md §4, ch8 r28–r31, ch9 r7–r9) are data as well
(:data:`SCORING_TABLES`): the table is chosen by the competition, so a variant only
names its *default* table and :func:`scoring.rules.board.position.game_result` accepts another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Geometry = Literal["short", "long"]
PrimeRule = Literal["none", "jang", "karzar"]


@dataclass(frozen=True, slots=True)
class ScoringTable:
    """How a finished game is valued: the kinds of win, best to worst for the winner.

    ``kinds`` maps a stable kind key to its multiplier of the stake (before the cube).
    The classification itself lives in :func:`scoring.rules.board.position.game_result`, because
    it needs the final position.
    """

    key: str
    name_en: str
    name_ru: str
    kinds: tuple[tuple[str, int], ...]

    def value(self, kind: str) -> int:
        for k, v in self.kinds:
            if k == kind:
                return v
        raise KeyError(f"scoring table {self.key!r} has no kind {kind!r}")


SCORING_TABLES: dict[str, ScoringTable] = {
    t.key: t
    for t in (
        ScoringTable(
            "backgammon",
            "backgammon (single 1, gammon 2, backgammon 3)",
            "бэкгэммон (гейм 1, гэммон 2, бэкгэммон 3)",
            (("single", 1), ("gammon", 2), ("backgammon", 3)),
        ),
        ScoringTable(
            "trictrac",
            "traditional trictrac (oyun 1, mars 2, home mars 4, koks 8)",
            "традиционный триктрак (оюн 1, марс 2, домашний марс 4, кокс 8)",
            (("oyun", 1), ("mars", 2), ("home_mars", 4), ("koks", 8)),
        ),
        ScoringTable(
            "long_nardy",
            "long nardy (oyun 1, mars 2, home mars 3)",
            "длинные нарды (оюн 1, марс 2, домашний марс 3)",
            (("oyun", 1), ("mars", 2), ("home_mars", 3)),
        ),
        ScoringTable(
            "oyun_mars",
            "oyun and mars only (oyun 1, mars 2)",
            "только оюн и марс (оюн 1, марс 2)",
            (("oyun", 1), ("mars", 2)),
        ),
    )
}


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of the family; the fields are exactly the switches the rules consult.

    ``start`` lists ``(index, count)`` from each side's own point of view (both sides
    start symmetrically in every game of the book). ``prime_rule`` is ``"jang"`` for
    ch9 r5+r6 (a six-prime needs an opposing checker ahead of it, or one already in its
    home), ``"karzar"`` for r6 alone, ``"none"`` where primes are free.

    ``exact_bear_off`` (ch8 r22, r26): once all the mover's checkers are home, a die
    whose number is a home point holding a checker of the mover must bear a checker off
    from exactly that point; and a checker on a point that a die still to be played
    this turn will need (as many checkers as such dice) may not be moved inside home
    first. Which order the player uses does not matter ("или – наоборот", r25): a play
    is legal when some order of its steps keeps the rule.
    """

    key: str
    name_en: str
    name_ru: str
    geometry: Geometry
    checkers: int
    start: tuple[tuple[int, int], ...]
    hitting: bool
    head_rule: bool
    prime_rule: PrimeRule
    caucasian: bool
    scoring: str
    exact_bear_off: bool = False

    @property
    def is_long(self) -> bool:
        return self.geometry == "long"

    @property
    def table(self) -> ScoringTable:
        return SCORING_TABLES[self.scoring]


_BG_START = ((24, 2), (13, 5), (8, 3), (6, 5))

VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant(
            "backgammon", "Backgammon", "Бэкгэммон", "short", 15, _BG_START,
            hitting=True, head_rule=False, prime_rule="none", caucasian=False,
            scoring="backgammon",
        ),
        Variant(
            "short_nardy", "Short nardy (trictrac)", "Короткие нарды (триктрак)", "short", 15,
            _BG_START, hitting=True, head_rule=False, prime_rule="none", caucasian=False,
            scoring="trictrac", exact_bear_off=True,
        ),
        Variant(
            "nackgammon", "Nackgammon", "Нэкгэммон", "short", 15,
            ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
            hitting=True, head_rule=False, prime_rule="none", caucasian=False,
            scoring="backgammon",
        ),
        Variant(
            "hypergammon", "Hypergammon", "Гипергэммон", "short", 3,
            ((24, 1), (23, 1), (22, 1)),
            hitting=True, head_rule=False, prime_rule="none", caucasian=False,
            scoring="backgammon",
        ),
        Variant(
            "caucasian", "Caucasian short nardy", "Кавказские короткие нарды", "short", 15,
            _BG_START, hitting=True, head_rule=False, prime_rule="none", caucasian=True,
            scoring="trictrac", exact_bear_off=True,
        ),
        Variant(
            "long_nardy", "Long nardy (jang)", "Длинные нарды (джанг)", "long", 15,
            ((24, 15),), hitting=False, head_rule=True, prime_rule="jang", caucasian=False,
            scoring="long_nardy",
        ),
        Variant(
            "karzar", "Karzar", "Карзар", "long", 15,
            ((24, 15),), hitting=False, head_rule=True, prime_rule="karzar", caucasian=False,
            scoring="long_nardy",
        ),
    )
}  # fmt: skip

#: Index of the head (голова) in long-nardy geometry, from the owner's point of view.
HEAD = 24


def get_variant(key: str | Variant) -> Variant:
    """The variant for ``key``; a :class:`Variant` passes through, unknown keys raise."""
    if isinstance(key, Variant):
        return key
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise ValueError(f"unknown variant {key!r} (known: {known})") from None
