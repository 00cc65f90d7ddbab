"""A withdrawn player's remaining matches: the one settle step, and the two places that call it.

Settling a match (a forfeit, a void) belongs to the result workflow (``scoring``), which sits
above this app: it registers its settle step here at start-up (:func:`register_settler`), and
this app calls it through :func:`settle_remaining` without importing ``scoring``.

The decision — where the settle step may be called from — is: from two places, both here
in the tournaments app, both through :func:`settle_remaining`.

1. The withdrawal (:func:`tournaments.entries.status.withdraw`; a disqualification calls the
   workflow itself): his unfinished matches in published rounds, and in a fixed schedule his
   draft ones too, the way the director chose (a forfeit to the opponent, or void).
2. The pairing path (:func:`.generate.generate_next`), when it writes rounds of a fixed
   schedule that seat a player who has already withdrawn (:func:`settle_seated`). A cup does
   when its bracket brings a player who left between stages to his next match (the bracket
   fixes his opponent, who goes through, as in a published stage; issue 43); and a
   Scheveningen event of four or more teams does: it is a knockout of team matches, each
   stage drawn when the last one is decided, from line-ups that are fixed once the first
   stage is drawn (the schedule is built from the boards, and a team a board short has no
   Scheveningen match) — so a member who left during stage 1 is on his board in stage 2.
   Before this, nothing settled those matches and the stage could not be published.

The registry lives in the round manager, not beside the withdrawal: the entries app already
imports the round manager (the tournament's status follows its rounds), so the round
manager cannot import the entries app, and the lower of the two is the one both can reach.

What a stage drawn after the withdrawal gets is what the director chose when he left (kept on
the entry, ``Entry.settle``): a forfeit to his opponent unless void was chosen. The book says
nothing of a team member who leaves (Part 9 only names the system: every member of one team
plays every member of the other; any even number of teams, halved every round), so this is
what a two-team event already does: his withdrawal settles every remaining match of the
schedule at once, the way the director chose — the stage simply did not exist yet. An entry
withdrawn before the choice was kept counts as a forfeit (the form's default: his board is
lost to the opponent, as a team that cannot field a player loses that board). Two withdrawn
players seated against each other are settled
in entry order (the first loses by forfeit to the second, whose turn then finds the match
settled) — in a two-team event the earlier leaver loses; the order of leaving is not stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import Q

from tournaments.models import Entry, EntryStatus, Match, ResultStatus, Round

#: What happens to a leaving player's unfinished match (the director's choice on the
#: withdraw form): the opponent wins by forfeit, or it is void.
SETTLE_FORFEIT, SETTLE_VOID = "forfeit", "void"
SETTLE_CHOICES = (SETTLE_FORFEIT, SETTLE_VOID)

#: (entry, user, how — one of :data:`SETTLE_CHOICES`, reason) -> the matches settled.
Settler = Callable[[Entry, Any, str, str], Any]
_settlers: list[Settler] = []


def register_settler(settle: Settler) -> None:
    """The result workflow (``scoring``) registers how a pending match is settled, at start-up:
    results belong to ``scoring``, which ``tournaments`` may not import (the arrows run one way)."""
    if settle not in _settlers:
        _settlers.append(settle)


def settle_remaining(entry: Entry, user, how: str, reason: str) -> None:
    """Settle every unfinished match of a withdrawn ``entry`` through the registered settle step
    (in a fixed schedule, draft rounds included), inside the caller's transaction."""
    for settler in _settlers:
        settler(entry, user, how, reason)


def settle_seated(rounds: Iterable[Round], user) -> list[Entry]:
    """Rounds of a fixed schedule just written: each withdrawn player they seat at an unsettled
    match has it settled as the director chose when he left (a forfeit to his opponent, or
    void; see the module's docstring), audited as the director who drew them. Returns those
    players, in entry order."""
    gone = EntryStatus.WITHDRAWN
    seated = (
        Match.objects.filter(round__in=list(rounds), entry_b__isnull=False)
        .filter(Q(entry_a__status=gone) | Q(entry_b__status=gone))
        .exclude(result_status=ResultStatus.CONFIRMED)
        .values_list("entry_a_id", "entry_b_id")
    )
    ids = {pk for pair in seated for pk in pair}
    players = list(Entry.objects.filter(pk__in=ids, status=gone).order_by("pk"))
    for entry in players:
        settle_remaining(entry, user, entry.settle if entry.settle in SETTLE_CHOICES else SETTLE_FORFEIT, "")
    return players
