"""The doubling cube (дубль-куб) and the eastern davé ladder as a small state machine.

One immutable :class:`CubeState` per game: every action returns a new state or
raises :class:`~scoring.rules.errors.RuleViolation`, so the record replayer can
try an action written in a record and report the exact reason it is illegal,
and the match ledger can reuse the same notion of a legal cube value.

Sources: ch10 "Бэкгэммон" (double, take, pass, beaver, raccoon, automatic
doubles, values 2…64), ch14 (eastern davé: давэ ×2, давэ ба сэ ×3, ба чяр ×4,
ба бещ ×5, ба щещ ×6; each raise goes one step up and the stake *is* the step —
"mars 2:0 with ба сэ gives 6:0", so the legal stakes are 1…6, not products of
the multipliers), the glossary (Crawford, Holland) and Part 9 (agreed rules
are off unless agreed; Crawford is on in matches).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.problems.match import MATCH

Side = str
"""Any two distinct labels ("a"/"b" in a ledger, "white"/"black" in a record)."""

STANDARD_MAX = 64
"""ch10: "по 3 раза до шестидесяти четырёх очков: 2, 4, 8, 16, 32, 64"."""

DAVE_MAX = 6
"""ch14: the davé ladder ends at "давэ ба щещ" (×6)."""

DAVE_NAMES_RU: Mapping[int, str] = {
    2: "давэ",
    3: "давэ ба сэ",
    4: "давэ ба чяр",
    5: "давэ ба бещ",
    6: "давэ ба щещ",
}

OFFER_KINDS = ("double", "beaver", "raccoon")

def _fail(code: str, **values: Any) -> RuleViolation:
    return RuleViolation(MATCH.problem(code, **values))


@dataclass(frozen=True, slots=True)
class CubeRules:
    """What the players agreed about the cube for one game.

    ``autodoubles`` is the agreed limit of automatic doubles per game; ``None``
    means automatic doubles were agreed without a limit (Part 9: then they act in
    every game, bounded only by ``max_value``). ``crawford_game`` and
    ``holland_trailer`` are per-game facts the match supplies.
    """

    enabled: bool = True
    max_value: int = STANDARD_MAX
    dave: bool = False
    beaver: bool = False
    raccoon: bool = False
    autodoubles: int | None = 0
    crawford_game: bool = False
    holland_trailer: Side | None = None
    #: GNU Backgammon's beavers, for a ``.mat`` it wrote. The book keeps a beaver offered
    #: until the doubler answers, and a taken raccoon goes to the raccooner (ch10, «игрок-ракун
    #: становится держателем дубль-куба»). gnubg counts a beaver as taken at once (its file
    #: never writes that take, and a resignation may follow it directly) and gives a taken
    #: raccoon to its taker (its cube ends with the player not on roll; a real gnubg 1.07
    #: session doubles from there).
    gnubg_beavers: bool = False
    #: The Jacoby rule (money play only): a gammon or backgammon counts as a single game
    #: while the cube is in the middle — nobody has taken a double (automatic doubles leave
    #: it there). The book: «обычно не применяется в матчах»; GNU Backgammon scores it so
    #: (``fJacoby && fCubeOwner == -1 && !nMatchTo``).
    jacoby: bool = False

    @classmethod
    def dave_ladder(cls, **kwargs: Any) -> CubeRules:
        """Rules for the eastern davé ladder (stakes 1…6)."""
        kwargs.setdefault("max_value", DAVE_MAX)
        return cls(dave=True, **kwargs)

    def next_value(self, value: int) -> int:
        """The stake after one more raise: doubling, or one step up the davé ladder."""
        return value + 1 if self.dave else value * 2

    def legal_values(self) -> tuple[int, ...]:
        """Every stake the cube can show under these rules, 1 (untouched cube) included."""
        if not self.enabled:
            return (1,)
        values = [1]
        while self.next_value(values[-1]) <= self.max_value:
            values.append(self.next_value(values[-1]))
        return tuple(values)

    def is_cube_value(self, value: int) -> bool:
        """Whether ``value`` has the shape of a stake (a power of two, or any step of davé).

        Deliberately ignores the maximum so callers can tell "not a cube value at
        all" (3 on a doubling cube) from "above the agreed maximum" (128).
        """
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return False
        return self.dave or value & (value - 1) == 0

    def problems(self) -> list[Problem]:
        """Contradictions inside the agreement itself (checked once per match)."""
        found: list[Problem] = []
        if self.dave:
            if not (isinstance(self.max_value, int) and 2 <= self.max_value <= DAVE_MAX):
                found.append(
                    MATCH.problem(
                        "bad_max_cube",
                        value=self.max_value,
                        dave=True,
                    )
                )
        elif not (
            isinstance(self.max_value, int)
            and 2 <= self.max_value <= STANDARD_MAX
            and self.is_cube_value(self.max_value)
        ):
            found.append(
                MATCH.problem(
                    "bad_max_cube",
                    value=self.max_value,
                    dave=False,
                )
            )
        if self.raccoon and not self.beaver:
            found.append(MATCH.problem("raccoon_needs_beaver"))
        limit = self.autodoubles
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 0
        ):
            found.append(MATCH.problem("bad_autodouble_limit", value=limit))
        elif limit != 0 and self.enabled and self.dave:
            found.append(MATCH.problem("autodouble_in_dave"))
        elif limit != 0 and not self.enabled:
            found.append(MATCH.problem("autodoubles_without_cube"))
        return found


@dataclass(frozen=True, slots=True)
class PendingOffer:
    """An offer on the table: who made it, the stake offered, and what kind it is."""

    by: Side
    value: int
    kind: str = "double"


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube during one game; ``owner is None`` means the cube is in the middle."""

    rules: CubeRules = field(default_factory=CubeRules)
    value: int = 1
    owner: Side | None = None
    pending: PendingOffer | None = None
    autodoubles: int = 0
    offers: int = 0
    passed_by: Side | None = None
    winner_by_pass: Side | None = None

    @classmethod
    def start(cls, rules: CubeRules | None = None) -> CubeState:
        return cls(rules=rules or CubeRules())

    @property
    def is_over(self) -> bool:
        """True once a double was passed: the game ends there (Part 9, exception 1)."""
        return self.passed_by is not None

    @property
    def stake(self) -> int:
        """The multiplier for the game's result (after a pass: what the doubler wins)."""
        return self.value

    def points(self, kind_value: int) -> int:
        """Points won: a pass scores the stake before the offer, otherwise kind × stake."""
        return self.value if self.is_over else kind_value * self.value

    # -- automatic doubles -------------------------------------------------

    def autodouble(self) -> CubeState:
        """Equal dice at the opening roll turn the cube in the middle (ch10 "Автодубль")."""
        rules = self.rules
        self._require_live()
        if not rules.enabled:
            raise _fail("autodoubles_without_cube")
        if rules.dave:
            raise _fail("autodouble_in_dave")
        if rules.crawford_game:
            raise _fail("cube_in_crawford")
        if self.offers or self.pending is not None:
            raise _fail("autodouble_after_offer")
        count = self.autodoubles + 1
        if rules.autodoubles is not None and count > rules.autodoubles:
            raise _fail("autodoubles_exceeded", limit=rules.autodoubles, count=count)
        new_value = rules.next_value(self.value)
        if new_value > rules.max_value:
            raise _fail("cube_above_max", max=rules.max_value, value=new_value)
        return replace(self, value=new_value, autodoubles=count)

    # -- offers and answers ------------------------------------------------

    def offer_problem(self, by: Side, *, moves_each: int | None = None) -> Problem | None:
        """Why ``by`` may not double now, or None if they may.

        ``moves_each`` is the smaller of the two players' completed move counts;
        it is needed only for the Holland rule and, when not given, that check is
        skipped (a ledger cannot know it; a record replayer should pass it).
        """
        rules = self.rules
        if self.is_over:
            return MATCH.problem("game_over")
        if not rules.enabled:
            return MATCH.problem("cube_off")
        if rules.crawford_game:
            return MATCH.problem("cube_in_crawford")
        if self.pending is not None:
            return MATCH.problem("offer_pending", kind=self.pending.kind, value=self.pending.value)
        if self.owner is not None and self.owner != by:
            return MATCH.problem("cube_not_owner", by=by, owner=self.owner)
        new_value = rules.next_value(self.value)
        if new_value > rules.max_value:
            return MATCH.problem("cube_above_max", max=rules.max_value, value=new_value)
        if (
            rules.holland_trailer is not None
            and by == rules.holland_trailer
            and moves_each is not None
            and moves_each < 2
        ):
            return MATCH.problem("holland_too_early", by=by, moves=moves_each)
        return None

    def offer(self, by: Side, *, moves_each: int | None = None) -> CubeState:
        """``by`` turns the cube to the next value and offers it (record "D2x")."""
        problem = self.offer_problem(by, moves_each=moves_each)
        if problem is not None:
            raise RuleViolation(problem)
        offer = PendingOffer(by=by, value=self.rules.next_value(self.value))
        return replace(self, pending=offer, offers=self.offers + 1)

    def take(self, by: Side) -> CubeState:
        """Accept the offer on the table.

        A taken double gives the cube to the taker; a taken beaver or raccoon
        leaves it with the player who made that redouble (ch10: after a beaver
        "держателем дубль-куба становится противник", the beaverer).
        """
        offer = self._answerable_by(by)
        taker_holds = offer.kind == "double" or (offer.kind == "raccoon" and self.rules.gnubg_beavers)
        owner = by if taker_holds else offer.by
        return replace(self, value=offer.value, owner=owner, pending=None)

    def drop(self, by: Side) -> CubeState:
        """Pass: the game ends and the offerer wins the stake from before the offer."""
        offer = self._answerable_by(by)
        return replace(self, pending=None, passed_by=by, winner_by_pass=offer.by)

    def beaver(self, by: Side) -> CubeState:
        """Take a double and at once redouble, keeping the cube (record "D2, B4x")."""
        offer = self._answerable_by(by)
        if not self.rules.beaver:
            raise _fail("beaver_not_agreed")
        if offer.kind != "double":
            raise _fail("beaver_not_after_double", kind=offer.kind)
        return self._redouble(by, offer, "beaver")

    def raccoon(self, by: Side) -> CubeState:
        """Take a beaver and at once redouble it again, keeping the cube."""
        offer = self._answerable_by(by)
        if not self.rules.raccoon:
            raise _fail("raccoon_not_agreed")
        if offer.kind != "beaver":
            raise _fail("raccoon_not_after_beaver", kind=offer.kind)
        return self._redouble(by, offer, "raccoon")

    def _redouble(self, by: Side, offer: PendingOffer, kind: str) -> CubeState:
        new_value = self.rules.next_value(offer.value)
        if new_value > self.rules.max_value:
            raise _fail("cube_above_max", max=self.rules.max_value, value=new_value)
        return replace(
            self,
            value=offer.value,
            owner=by,
            pending=PendingOffer(by=by, value=new_value, kind=kind),
            offers=self.offers + 1,
        )

    def _answerable_by(self, by: Side) -> PendingOffer:
        self._require_live()
        if self.pending is None:
            raise _fail("no_offer")
        if self.pending.by == by:
            raise _fail("wrong_responder", by=by)
        return self.pending

    def _require_live(self) -> None:
        if self.is_over:
            raise _fail("game_over")
