"""Entry fees taken at the desk and the prize table (Part 9), audited.

The book (Part 9): players pay the entry fee the organisers set, and "из этих
вступительных взносов и спонсорских вложений формируется призовой фонд". The
desk records who paid how much; the organiser sets the fund, the rule for tied
places and the prize per place (overall or per section). Every change is
checked by the pure prize core (:mod:`tournaments.standings.prizes`: places
from 1, no negative amounts, never more than the fund) and written to the
audit log. The split itself is computed where the standings are shown
(:func:`tournaments.standings_service.prize_awards`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.db.models import Count, Q, Sum

from scoring.rules.errors import RuleViolation
from tournaments import audit
from tournaments.entries.problems import ENTRY
from tournaments.entries.status import EntryRefused
from tournaments.models import Entry, Prize, PrizeSplitRule, Section, Tournament
from tournaments.standings.prizes import prize_problems
from tournaments.standings_service import to_minor


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


def _check(tournament: Tournament, table: dict[tuple[int | None, int], Decimal], fund) -> None:
    """The whole table against the fund, through the prize core (raises RuleViolation)."""
    minor = {i: to_minor(a) or 0 for i, a in enumerate(table.values(), start=1)}
    found = prize_problems(minor, to_minor(fund))
    if found:
        raise RuleViolation(found)


def _table(tournament: Tournament) -> dict[tuple[int | None, int], Decimal]:
    return {
        (p.section_id, p.place): p.amount
        for p in Prize.objects.filter(tournament=tournament).order_by("section_id", "place")
    }


@transaction.atomic
def set_fund(tournament: Tournament, user, *, fund: Decimal | None, split: str) -> Tournament:
    """The prize fund and the rule for tied places; the existing prizes must still fit the fund."""
    if split not in PrizeSplitRule.values:
        split = PrizeSplitRule.EQUAL
    _check(tournament, _table(tournament), fund)
    before = {"prize_fund": tournament.prize_fund, "prize_split": tournament.prize_split}
    tournament.prize_fund, tournament.prize_split = fund, split
    tournament.save(update_fields=["prize_fund", "prize_split"])  # the signal refreshes the pages
    after = {"prize_fund": fund, "prize_split": split}
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
