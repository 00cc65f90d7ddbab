"""Prize money by place and the organiser's rule for tied places (Part 9).

The book (Part 9, «Жеребьёвка, регистрация и взносы»): players pay the entry
fee the organisers set, and "из этих вступительных взносов и спонсорских
вложений формируется призовой фонд". How tied players share prizes the book
leaves to the organiser; two rules are offered, as chess arbiters use them:

* :attr:`PrizeSplit.EQUAL` — players level on the table's main score pool the
  prizes of the places they occupy together and share them equally
  (tie-breaks order the list but do not decide money: the FIDE "Hort"-free,
  plain pooling most open events announce);
* :attr:`PrizeSplit.TIEBREAK` — the tie-breaks decide; only players still level
  after every criterion (a shared place such as "3–4") pool and share.

A cup has no score to be level on: its places come from the bracket
(:mod:`.cup`), so whichever rule is chosen, its prizes follow the places — a
shared place (semi-final losers without a third-place match, 3–4; the
quarter-final losers, 5–8) pools the prizes of the places it covers. The same
holds for any table that does not show the main score (it cannot tell who is
level on it). Side brackets' tables win nothing from the place prizes.

Amounts are whole minor units (kopecks, cents): a pool that does not divide
evenly gives the first players in table order one unit more, so the shares
always add up to the pool exactly and never exceed the fund.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from scoring.rules.errors import Problem, RuleViolation

from . import problems
from .ledger import main_score_key
from .ranking import StandingRow, Standings
from .types import System


@dataclass(frozen=True, slots=True)
class FundFormation:
    """How the prize fund is formed (Part 9, part9_competition_rules.ru.txt line 45): "из этих
    вступительных взносов и спонсорских вложений формируется призовой фонд и отчисления на
    накладные расходы" — the fees taken plus the sponsors' money, less the overheads.

    Whole minor units. ``paid`` entries paid ``fees`` in all (``fee`` each, when the
    tournament has one fee): the breakdown the organiser's page shows.
    """

    paid: int
    fees: int
    sponsors: int = 0
    overheads: int = 0
    fee: int | None = None

    @property
    def income(self) -> int:
        return self.fees + self.sponsors

    @property
    def fund(self) -> int:
        """What is left for prizes (never below zero: overheads beyond the income are a problem)."""
        return max(self.income - self.overheads, 0)

    @property
    def fees_are_fee_times_paid(self) -> bool:
        """Every paid entry paid the tournament's fee: the fees read "paid × fee"."""
        return self.fee is not None and self.fee * self.paid == self.fees


def fund_problems(
    formation: FundFormation, prizes_total: int, announced: int | None = None
) -> list[Problem]:
    """Warnings about the fund: overheads eating the income, a prize table or an announced
    fund beyond what the fees and the sponsors provide. Warnings, not refusals — fees come
    in at the desk after the prizes are announced, so the table may run ahead for a while."""
    found: list[Problem] = []
    if formation.overheads > formation.income:
        found.append(problems.overheads_over_income(formation.overheads, formation.income))
    if prizes_total > formation.fund:
        found.append(problems.prizes_over_formed_fund(prizes_total, formation.fund))
    if announced is not None and announced > formation.fund:
        found.append(problems.announced_over_formed_fund(announced, formation.fund))
    return found


def cap_problems(prizes: Mapping[int, int], announced: int | None, formation: FundFormation) -> list[Problem]:
    """Refusals for a prize table that would pay out more than the fund (the manual: "never above
    the fund"; issue 43: the formed fund only warned, and the payouts followed the table).

    The fund that caps the table: the one the organiser announced, when there is one (his
    commitment, which a sponsor may cover beyond the fees: going beyond what is formed is a
    warning, :func:`fund_problems`); else the fund formed from the fees and the sponsors'
    money less the overheads (Part 9, part9_competition_rules.ru.txt line 45) — with nothing
    announced there is no other money to pay prizes from."""
    if announced is not None:
        return prize_problems(prizes, announced)
    found = prize_problems(prizes)
    total = sum(prizes.values())
    if total > formation.fund:
        found.append(problems.prizes_over_formed_fund(total, formation.fund))
    return found


class PrizeSplit(StrEnum):
    EQUAL = "equal"
    TIEBREAK = "tiebreak"


def prize_problems(prizes: Mapping[int, int], fund: int | None = None) -> list[Problem]:
    """What is wrong with a prize table: places from 1, no negative amounts, within the fund."""
    found: list[Problem] = []
    for place, amount in sorted(prizes.items()):
        if place < 1:
            found.append(problems.prize_place(place))
        if amount < 0:
            found.append(problems.prize_negative(place))
    total = sum(prizes.values())
    if fund is not None and total > fund:
        found.append(problems.prize_over_fund(total, fund))
    return found


def split_prizes(
    order: Sequence[int],
    groups: Sequence[Hashable],
    prizes: Mapping[int, int],
    fund: int | None = None,
) -> dict[int, int]:
    """Each player's prize (minor units) from the table order and who is level with whom.

    ``order`` lists players best first; ``groups[i]`` says which tie ``order[i]``
    belongs to (consecutive equal keys are level and occupy consecutive places).
    ``prizes`` maps a place (from 1) to its amount. Players with no prize are
    left out. Raises :class:`RuleViolation` for a bad table or one over ``fund``.
    """
    found = prize_problems(prizes, fund)
    if found:
        raise RuleViolation(found)
    if len(order) != len(groups):
        raise ValueError("order and groups must have the same length")
    out: dict[int, int] = {}
    i = 0
    while i < len(order):
        j = i + 1
        while j < len(order) and groups[j] == groups[i]:
            j += 1
        tied = order[i:j]
        pool = sum(prizes.get(place, 0) for place in range(i + 1, j + 1))
        share, extra = divmod(pool, len(tied))
        for k, pid in enumerate(tied):
            amount = share + (1 if k < extra else 0)
            if amount:
                out[pid] = amount
        i = j
    return out


def eligible(row: StandingRow) -> bool:
    """May this row's player win a prize? Only a player still in the event at its end.

    The book says nothing of a prize for a player who left or was sanctioned (Part 9 only
    names the sanctions, part9_competition_rules.ru.txt line 39, and how the fund is formed,
    line 45); this is the common practice of open tournaments' prize regulations, stated as
    the product's convention in the manual ("Fees and prizes"): a disqualified or removed player
    (a sanction) and a player who withdrew before the end win no prize, and their share is
    not pooled for them — it goes to the next eligible players in the table.
    """
    return row.placed and not row.player.withdrawn and not row.player.excluded


def award_prizes(
    standings: Standings,
    prizes: Mapping[int, int],
    split: PrizeSplit | str = PrizeSplit.EQUAL,
    fund: int | None = None,
) -> dict[int, int]:
    """The prizes of one standings table (one section) by the organiser's split rule.

    Who may win a prize (:func:`eligible`): a player whose results are not counted (a round
    robin's withdrawal before half the games, FIDE C.06) or who was disqualified or removed
    has no place, so no prize; a player who withdrew keeps his place in the table but wins
    no prize either. The prizes go down the table to the eligible players, as if the others
    were not in it: each eligible player takes the prize of the place he holds among them,
    and eligible players level on the score pool the prizes of the places they hold together.
    Nothing is kept back, nothing is paid to a player who is no longer in the event."""
    split = PrizeSplit(split)
    rows = [r for r in standings.rows if eligible(r)]
    order = [r.player.id for r in rows]
    key = main_score_key(standings.options)
    by_score = (
        split == PrizeSplit.EQUAL
        and standings.options.system != System.KNOCKOUT
        and key in standings.options.tiebreaks
    )
    if by_score:
        groups: list[Hashable] = [r.values.get(key) for r in rows]
    else:
        groups = [(r.place, r.place_to) for r in rows]
    return split_prizes(order, groups, prizes, fund)
