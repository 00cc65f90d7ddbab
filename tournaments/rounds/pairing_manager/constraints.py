"""The director's Swiss options that restrict who may meet: forbidden pairs, clubs kept apart.

ONE function, :func:`forbidden_pairs_for`, turns the stored rows and options into
pairs of draw numbers; :func:`.reading.swiss_input` is its only caller and hands
them to the pairing core as if those players had already met (the core avoids
rematches, so it avoids these too, with the same fallback when nothing else fits).
Each pair keeps *why* it is forbidden, so the explanation can say when an option
changed a pairing (``pairing.why.forbidden_pair`` / ``pairing.why.club_apart``).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from clubs.models import Membership
from tournaments.models import ForbiddenPair, Section, Tournament

DIRECTOR = "director"
CLUB = "club"


def forbidden_pairs_for(
    tournament: Tournament, section: Section | None, number: int, club_apart_rounds: int
) -> dict[frozenset[int], dict[str, Any]]:
    """Pairs of draw numbers that must not meet in round ``number`` → why (rule, comment).

    The director's pairs hold in every round; with ``club_apart_rounds`` = K, players
    sharing a current club are kept apart in rounds 1..K as well. Only entries of
    ``section`` (or of the whole tournament without sections) count.
    """
    entries = tournament.entries.filter(draw_number__isnull=False)
    if section is not None:
        entries = entries.filter(section=section)
    numbers = dict(entries.values_list("pk", "draw_number"))
    out: dict[frozenset[int], dict[str, Any]] = {}
    if number <= club_apart_rounds:
        players = dict(entries.values_list("player_id", "draw_number"))
        by_club: dict[int, list[int]] = {}
        rows = Membership.objects.filter(Membership.current_q(), player_id__in=players)
        for player_id, club_id in rows.values_list("player_id", "club_id"):
            by_club.setdefault(club_id, []).append(players[player_id])
        for members in by_club.values():
            for a, b in combinations(sorted(set(members)), 2):
                out[frozenset((a, b))] = {"rule": CLUB, "until": club_apart_rounds}
    rows = ForbiddenPair.objects.filter(tournament=tournament).values_list(
        "entry_a_id", "entry_b_id", "reason"
    )
    for a, b, reason in rows:
        if a in numbers and b in numbers:
            out[frozenset((numbers[a], numbers[b]))] = {"rule": DIRECTOR, "comment": reason}
    return out
