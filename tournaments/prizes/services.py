"""Entry fees taken at the desk and the prize table (Part 9), audited.

The book (Part 9, line 45): players pay the entry fee the organisers set, and "из
этих вступительных взносов и спонсорских вложений формируется призовой фонд и
отчисления на накладные расходы". The desk records who paid how much; the
organiser records the sponsors' money and the overheads, and :func:`fund_check`
forms the fund from them (fees + sponsors − overheads) and warns when the prize
table, or the fund the organiser announced, goes beyond it. The organiser also
sets the announced fund (a cap the table may not exceed), the rule for tied
places and the prize per place (overall or per section). Every change is
checked by the pure prize core (:mod:`tournaments.standings.prizes`: places
from 1, no negative amounts, never more than the fund — the announced one, else
the formed one) and written to the audit log. The split itself is computed where the standings are shown
(:func:`tournaments.standings_service.prize_awards`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.db.models import Count, Q, Sum

from scoring.rules.errors import Problem, RuleViolation
from tournaments import audit
from tournaments.entries.problems import ENTRY
from tournaments.entries.status import EntryRefused
from tournaments.models import Entry, Prize, PrizeSplitRule, Section, Tournament
from tournaments.standings.prizes import FundFormation, cap_problems, fund_problems, prize_problems
from tournaments.standings_service import from_minor, to_minor


@dataclass(frozen=True)
class Fees:
    """The desk's totals: how many entries, how many paid, and how much was taken."""

    entries: int
    paid: int
    collected: Decimal


def fees(tournament: Tournament) -> Fees:
    row = Entry.objects.filter(tournament=tournament).aggregate(
        entries=Count("id"),
        paid=Count("id", filter=Q(fee_paid=True)),
        collected=Sum("fee_amount", filter=Q(fee_paid=True)),
    )
    collected = Decimal(row["collected"] or 0).quantize(Decimal("0.01"))  # SQLite drops the scale
    return Fees(row["entries"], row["paid"], collected)


@dataclass(frozen=True)
class FundCheck:
    """The prize fund as the book forms it (fees + sponsors − overheads = fund), the prize
    table's total, and the warnings (``standings.*`` problems, RU/EN) when it does not fit."""

    fees: Fees
    entry_fee: Decimal | None
    fee_times_paid: bool
    sponsors: Decimal
    overheads: Decimal
    fund: Decimal
    announced: Decimal | None
    prizes: Decimal
    problems: list[Problem]


def fund_check(tournament: Tournament) -> FundCheck:
    """The one check of the fund (2 queries): the organiser's page shows it; anything else
    that shows prizes calls it too."""
    taken = fees(tournament)
    table = _table(tournament)
    formation = FundFormation(
        paid=taken.paid,
        fees=to_minor(taken.collected) or 0,
        sponsors=to_minor(tournament.sponsor_money) or 0,
        overheads=to_minor(tournament.overheads) or 0,
        fee=to_minor(tournament.entry_fee),
    )
    total = sum((to_minor(a) or 0 for a in table.values()), 0)
    announced = to_minor(tournament.prize_fund)
    return FundCheck(
        fees=taken,
        entry_fee=tournament.entry_fee,
        fee_times_paid=formation.fees_are_fee_times_paid,
        sponsors=from_minor(formation.sponsors),
        overheads=from_minor(formation.overheads),
        fund=from_minor(formation.fund),
        announced=tournament.prize_fund,
        prizes=from_minor(total),
        problems=fund_problems(formation, total, announced),
    )


def money(raw: object) -> Decimal | None:
    """A sum typed at the desk ("1500", "1 500,50"), or None when empty; ValueError if not money."""
    text = str(raw if raw is not None else "").strip().replace("\u00a0", "").replace(" ", "")
    if not text:
        return None
    try:
        value = Decimal(text.replace(",", "."))
    except InvalidOperation:
        raise ValueError(text) from None
    if not value.is_finite() or value < 0 or value != value.quantize(Decimal("0.01")):
        raise ValueError(text)
    return value


@transaction.atomic
def record_fee(entry: Entry, user, *, amount: object, paid: bool) -> Entry:
    """The fee this player paid (or that they have not paid yet), audited as ``entry.fee``."""
    try:
        value = money(amount)
    except ValueError:
        raise EntryRefused(ENTRY.problem("fee_amount", value=str(amount)[:40])) from None
    if paid and value is None:
        value = entry.tournament.entry_fee
        if value is None:
            raise EntryRefused(ENTRY.problem("fee_without_amount"))
    before = audit.snapshot(entry)
    entry.fee_amount, entry.fee_paid = value, paid
    entry.save(update_fields=["fee_amount", "fee_paid"])
    audit.record(user, entry.tournament, "entry.fee", entry, before, entry)
    return entry


def _check(
    tournament: Tournament, table: dict[tuple[int | None, int], Decimal], fund, *,
    sponsors: Decimal | None = None, overheads: Decimal | None = None,
) -> None:
    """The whole table against the fund that caps it (the announced ``fund``, else the fund
    formed from the fees, ``sponsors`` and ``overheads`` — the tournament's unless given),
    through the prize core (:func:`~tournaments.standings.prizes.cap_problems`; raises
    RuleViolation): a prize setting never makes the payouts exceed the fund."""
    minor = {i: to_minor(a) or 0 for i, a in enumerate(table.values(), start=1)}
    taken = fees(tournament)
    formation = FundFormation(
        paid=taken.paid,
        fees=to_minor(taken.collected) or 0,
        sponsors=to_minor(tournament.sponsor_money if sponsors is None else sponsors) or 0,
        overheads=to_minor(tournament.overheads if overheads is None else overheads) or 0,
    )
    found = cap_problems(minor, to_minor(fund), formation)
    if found:
        raise RuleViolation(found)


def _table(tournament: Tournament) -> dict[tuple[int | None, int], Decimal]:
    return {
        (p.section_id, p.place): p.amount
        for p in Prize.objects.filter(tournament=tournament).order_by("section_id", "place")
    }


FUND_FIELDS = ("prize_fund", "prize_split", "sponsor_money", "overheads")


@transaction.atomic
def set_fund(
    tournament: Tournament,
    user,
    *,
    fund: Decimal | None,
    split: str,
    sponsors: Decimal | None = None,
    overheads: Decimal | None = None,
) -> Tournament:
    """The announced fund, the sponsors' money, the overheads and the rule for tied places; the
    existing prizes must still fit the fund that caps them (:func:`_check`: the announced fund,
    else the formed one; an announced fund beyond the formed one only warns, see
    :func:`fund_check`)."""
    if split not in PrizeSplitRule.values:
        split = PrizeSplitRule.EQUAL
    _check(tournament, _table(tournament), fund, sponsors=sponsors or Decimal(0), overheads=overheads or Decimal(0))
    before = {name: getattr(tournament, name) for name in FUND_FIELDS}
    tournament.prize_fund, tournament.prize_split = fund, split
    tournament.sponsor_money, tournament.overheads = sponsors, overheads
    tournament.save(update_fields=list(FUND_FIELDS))  # the signal refreshes the pages
    after = {name: getattr(tournament, name) for name in FUND_FIELDS}
    audit.record(user, tournament, "prize.fund", tournament, before, after)
    return tournament


@transaction.atomic
def set_prize(
    tournament: Tournament, user, *, section: Section | None, place: int, amount: Decimal
) -> Prize:
    """Set (or change) the prize for one place; the table must stay within the fund."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()  # one editor at a time
    table = _table(tournament)
    key = (section.pk if section else None, place)
    table[key] = amount
    found = prize_problems({place: to_minor(amount) or 0})
    if found:
        raise RuleViolation(found)
    _check(tournament, table, tournament.prize_fund)
    prize = Prize.objects.filter(tournament=tournament, section=section, place=place).first()
    before = audit.snapshot(prize)
    if prize is None:
        prize = Prize.objects.create(tournament=tournament, section=section, place=place, amount=amount)
    else:
        prize.amount = amount
        prize.save(update_fields=["amount"])
    audit.record(user, tournament, "prize.set", prize, before, prize)
    return prize


@transaction.atomic
def remove_prize(prize: Prize, user) -> None:
    before = audit.snapshot(prize)
    tournament = prize.tournament
    key = ("prize", prize.pk)
    prize.delete()
    audit.record(user, tournament, "prize.remove", key, before, None)
