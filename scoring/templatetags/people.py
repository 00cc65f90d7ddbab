"""``{{ user|person }}``, ``{{ user|person_in:tournament }}``: who did something, as people know them.

The names and roles come from ONE helper, :mod:`tournaments.account.people` (the player's
name in the reader's alphabet, else the account's own name, never a login while
there is a name; the role in the event after it). Views ``select_related("…__player")``
so a name costs no query per row; the event's roles are read once per page.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from tournaments.account.people import person_label, person_name
from zarik.i18n import current_language

register = template.Library()

__all__ = ["person_name"]


@register.filter
def person(user) -> str:
    return person_name(user) or "—"


@register.filter
def bdi(name) -> str:
    """A name isolated from the text around it: ``<bdi>name</bdi>``, the one place pages do it.

    A name's direction is its own (an Arabic or Hebrew name in a Russian table, a Latin one
    in a right-to-left page): ``<bdi>`` keeps it from reordering the place, the score or the
    link beside it. Names are stored without bidi controls (:func:`clubs.names.clean_name`);
    this guards what they cannot: the strong direction of the letters themselves (issue 45).
    """
    return format_html("<bdi>{}</bdi>", name) if name not in (None, "") else ""


@register.filter
def player_name(player) -> str:
    """A player's name in the reader's alphabet (Latin on English pages when there is one)."""
    return player.display_name(current_language()) if player is not None else ""


@register.filter
def person_in(user, tournament=None) -> str:
    """The person and their role in ``tournament`` ("Орлова Ольга (судья)")."""
    return person_label(user, tournament or None) or "—"


def _side_player(result, side: str) -> str:
    match = result.match
    entry = match.entry_a if side == "a" else match.entry_b
    return entry.player.display_name(current_language()) if entry is not None else ""


@register.filter
def reporter(result, tournament=None) -> str:
    """Who reported a result: the account (with its role in ``tournament``), or the player of the side."""
    if result.reported_by_id:
        return person_in(result.reported_by, tournament)
    return (_side_player(result, result.reported_side) if result.reported_side else "") or "—"


@register.filter
def confirmer(result, tournament=None) -> str:
    """Who confirmed a result: the account (with its role in ``tournament``), or the player of the side."""
    if result.confirmed_by_id:
        return person_in(result.confirmed_by, tournament)
    return (_side_player(result, result.confirmed_side) if result.confirmed_side else "") or "—"


@register.filter
def raiser(dispute, tournament=None) -> str:
    """Who raised a dispute: the account, or the player of the side (through a private link).

    Never the reporter of the disputed result: the dispute is the other player's word.
    """
    if dispute.raised_by_id:
        return person_in(dispute.raised_by, tournament)
    return (_side_player(dispute, dispute.raised_side) if dispute.raised_side else "") or "—"


@register.filter
def appellant(dispute, tournament=None) -> str:
    """Who appealed a ruling to the jury: the account, or the player of the side (through a private link)."""
    if dispute.appealed_by_id:
        return person_in(dispute.appealed_by, tournament)
    return (_side_player(dispute, dispute.appealed_side) if dispute.appealed_side else "") or "—"


#: A report replaced by a later one, or rejected: history, not something to act on.
PAST_STATES = frozenset({"superseded", "rejected"})


@register.filter
def current_results(results) -> list:
    """The results that still stand (reported, confirmed, disputed): the match page lists these
    (issue 44: every superseded report stayed listed on the player's match page)."""
    return [r for r in results if r.state not in PAST_STATES]


@register.filter
def earlier_results(results) -> list:
    """The superseded and rejected reports, shown folded away under the current ones."""
    return [r for r in results if r.state in PAST_STATES]
