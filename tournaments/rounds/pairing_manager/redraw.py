"""A draft that seats a player who has just withdrawn is paired again without him (issue 43).

What an organiser expects when a player leaves between "pair" and "publish": the draft he
has not published yet no longer seats that player. The withdrawal
(:func:`tournaments.entries.status.withdraw`) calls :func:`pair_again_without`: each draft of
a system that pairs a draft from the standings (Swiss: the row's ``fixed_schedule`` is
false) that seats him at an unsettled match is deleted and paired again through the one
pairing path (:func:`.generate.generate_next`) with the choices it was made with — its
absent players, its half-point byes and its override reason, all kept in its explanation —
audited as the director who withdrew him. His opponent is paired with somebody else, as the
pairing rules say, rather than left with a bye nobody chose.

A draft is kept as it is, and its publication refused with the steps to take
(``pairing.publish_withdrawn``), when re-pairing it would throw away what the organiser did
or cannot be done without him deciding:

* a result was entered on it, or it was changed by hand (a swap, a pairing set);
* the pairing path refuses now (e.g. only rematches are left and they need a reason).

In a fixed schedule (round robin, Scheveningen, a cup's bracket: who meets whom is decided
in advance) a draft is never paired again: the withdrawal settles his match there instead
(:mod:`.withdrawn`).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from tournaments.models import Entry, Match, ResultStatus, Round, RoundStatus

from .checks import matches_with_results
from .generate import generate_next
from .lifecycle import delete_draft
from .refusals import PairingRefused
from .systems import fixed_schedule


class _StillSeated(Exception):
    """The draft paired again still seats him: keep the one the organiser had."""


def pair_again_without(entry: Entry, user, reason: str = "") -> list[Round]:
    """Pair again every draft that seats the withdrawn ``entry`` (see the module's docstring),
    inside the caller's transaction; returns the new drafts (empty when none was re-paired)."""
    tournament = entry.tournament
    if fixed_schedule(tournament):
        return []
    mine = Match.objects.filter(Q(entry_a=entry) | Q(entry_b=entry)).exclude(
        result_status=ResultStatus.CONFIRMED, entry_b__isnull=False
    )
    drafts = Round.objects.filter(
        tournament=tournament, status=RoundStatus.DRAFT, matches__in=mine
    ).distinct().order_by("number")
    made: list[Round] = []
    for rnd in drafts:
        expl = rnd.explanation or {}
        if expl.get("manual") or matches_with_results(rnd).exists():
            continue  # what the organiser did on it stays; the publication says what to do
        try:
            with transaction.atomic():  # a savepoint: a refusal leaves the draft as it was
                made.extend(_pair_again(rnd, expl, entry, user, reason))
        except (PairingRefused, _StillSeated):
            continue
    return made


def _pair_again(rnd: Round, expl: dict, entry: Entry, user, reason: str) -> list[Round]:
    tournament, section = rnd.tournament, rnd.section
    by_number = dict(
        tournament.entries.exclude(draw_number=None).values_list("draw_number", "pk")
    )
    chosen = {"absent": [], "requested": []}
    for bye in expl.get("byes", []):
        if bye.get("kind") in chosen and bye.get("player") in by_number:
            chosen[bye["kind"]].append(by_number[bye["player"]])
    why = reason.strip() or gettext("withdrawn")
    delete_draft(rnd, user=user, reason=why)
    rounds = generate_next(
        tournament, section, user=user, reason=expl.get("override_reason", ""),
        absent=chosen["absent"], half_bye=chosen["requested"],
    )  # fmt: skip
    if Match.objects.filter(round__in=rounds).filter(Q(entry_a=entry) | Q(entry_b=entry)).exists():
        raise _StillSeated
    return rounds
