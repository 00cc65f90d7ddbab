"""After a ruling: which later Swiss pairings were made from the old standings.

A director's or jury's ruling (or a correction) can change a confirmed result
of a round that is already over. The standings are recomputed at once (they
are always computed from the results), but rounds paired after it were paired
from the old scores. For each later round of the section this pairs the round
again — the same Swiss generator, the same options, the same absent players
and half-point byes, from the history as it stands now — and lists the
differences, so the director decides: keep the round as it is, or, for a draft
nobody has played, pair it again (:func:`repair_draft`). Never a silent change.

Only the Swiss depends on the standings; round robin and Scheveningen follow
fixed tables, and a knockout's next pairings follow the winners (the bracket
page shows them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from tournaments import audit
from tournaments import pairing as core
from tournaments.models import CompetitionSystem, Match, Round, RoundStatus
from tournaments.pairing.types import BYE_PAIRING, BYE_REQUESTED

from . import reading
from .generate import generate_next
from .lifecycle import delete_draft
from .refusals import PairingRefused
from .systems import options_of

Pair = frozenset[int]


@dataclass
class RoundCheck:
    """One later round: its pairs as played or drafted, and as the new standings would pair it."""

    round: Round
    actual: set[Pair] = field(default_factory=set)
    recomputed: set[Pair] = field(default_factory=set)
    refused: list = field(default_factory=list)

    @property
    def only_actual(self) -> list[Pair]:
        return sorted(self.actual - self.recomputed, key=sorted)

    @property
    def only_recomputed(self) -> list[Pair]:
        return sorted(self.recomputed - self.actual, key=sorted)

    @property
    def changed(self) -> bool:
        return bool(self.refused) or self.actual != self.recomputed

    @property
    def repairable(self) -> bool:
        """A draft with no result on it can be paired again; anything else is kept or handled by hand."""
        return self.round.status == RoundStatus.DRAFT and not self.round.matches.filter(
            score_a__isnull=False
        ).exists()


def _round_inputs(rnd: Round) -> tuple[set[Pair], list[int], list[int]]:
    """The round's pairs (entry ids; a bye is a one-player pair), and who was absent or had a ½ bye."""
    pairs: set[Pair] = set()
    for a, b in rnd.matches.values_list("entry_a_id", "entry_b_id"):
        pairs.add(frozenset((a,)) if b is None else frozenset((a, b)))
    seated = {pid for pair in pairs for pid in pair}
    by_number = {
        e.draw_number: e.pk for e in reading.entries_of(rnd.tournament, rnd.section) if e.draw_number
    }
    half = [
        by_number[b["player"]]
        for b in rnd.explanation.get("byes", [])
        if b.get("kind") == BYE_REQUESTED and b.get("player") in by_number
    ]
    absent = [pk for pk in by_number.values() if pk not in seated and pk not in half]
    return pairs, absent, half


def recheck_round(rnd: Round) -> RoundCheck:
    """Pair ``rnd`` again from the history before it, as it stands now (nothing is written)."""
    check = RoundCheck(rnd)
    check.actual, absent, half = _round_inputs(rnd)
    tournament = rnd.tournament
    with transaction.atomic():  # reading may number late entries: never keep that here
        try:
            options = options_of(tournament)
            inp, by_id, _late, _forbidden = reading.swiss_input(
                tournament, rnd.section, rnd.number, options, absent=absent, half_bye=half
            )
        except PairingRefused as exc:
            check.refused = list(exc.problems)
            inp = None
        transaction.set_rollback(True)
    if inp is None:
        return check
    result = core.pair_swiss(inp)
    if result.status == "invalid":
        check.refused = list(result.problems)
        return check
    for p in result.pairings:
        check.recomputed.add(frozenset((by_id[p.a].pk, by_id[p.b].pk)))
    for bye in result.byes:
        if bye.kind == BYE_PAIRING:
            check.recomputed.add(frozenset((by_id[bye.player].pk,)))
    return check


def later_rounds(match: Match) -> list[RoundCheck]:
    """Every round of the match's section after the match's round, re-paired from the new standings."""
    rnd = match.round
    tournament = rnd.tournament
    if tournament.system != CompetitionSystem.SWISS:
        return []
    later = (
        reading.rounds_of(tournament, rnd.section)
        .filter(number__gt=rnd.number)
        .select_related("tournament", "section")
        .order_by("number")
    )
    return [recheck_round(r) for r in later]


def keep(rnd: Round, user, reason: str) -> None:
    """The director keeps a round paired from the old standings: said and audited."""
    audit.record(user, rnd.tournament, "ruling.keep_pairings", rnd, None, None, reason.strip())


def repair_draft(rnd: Round, user, reason: str) -> list[Round]:
    """Throw an unplayed draft away and pair it again from the new standings (one transaction).

    Through the existing pairing manager (:func:`delete_draft`, :func:`generate_next`),
    with the same absent players and half-point byes as the draft had.
    """
    _pairs, absent, half = _round_inputs(rnd)
    tournament, section = rnd.tournament, rnd.section
    with transaction.atomic():
        delete_draft(rnd, user=user, reason=reason)
        rounds = generate_next(
            tournament, section, user=user, reason=reason, absent=absent, half_bye=half
        )
        audit.record(
            user, tournament, "ruling.repair", rounds[0], None, rounds[0], reason.strip()
        )
    return rounds
