"""``{{ user|person }}``: who did something, as people know them — the player's name, not a login.

Results history, disputes, sanctions and the audit log show the account behind
an action. A player's account is shown as the player's display name in the
reader's alphabet (:meth:`clubs.models.Player.display_name`); an official
without a player record by their full name, and only failing that by the login.
Views ``select_related("…__player")`` so this costs no query per row.
"""

from __future__ import annotations

from django import template
from django.core.exceptions import ObjectDoesNotExist

from zarik.i18n import current_language

register = template.Library()


def person_name(user) -> str:
    """The name to show for ``user`` (an empty string for nobody)."""
    if user is None:
        return ""
    try:
        player = user.player
    except (ObjectDoesNotExist, AttributeError):
        player = None
    if player is not None:
        name = player.display_name(current_language())
        if name:
            return name
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return full or user.get_username()


@register.filter
def person(user) -> str:
    return person_name(user) or "—"


def _side_player(result, side: str) -> str:
    match = result.match
    entry = match.entry_a if side == "a" else match.entry_b
    return entry.player.display_name(current_language()) if entry is not None else ""


@register.filter
def reporter(result) -> str:
    """Who reported a result: the account, or the player of the side (a private-link report)."""
    if result.reported_by_id:
        return person(result.reported_by)
    return (_side_player(result, result.reported_side) if result.reported_side else "") or "—"


@register.filter
def confirmer(result) -> str:
    """Who confirmed a result: the account, or the player of the side (through a private link)."""
    if result.confirmed_by_id:
        return person(result.confirmed_by)
    return (_side_player(result, result.confirmed_side) if result.confirmed_side else "") or "—"


@register.filter
def raiser(dispute) -> str:
    """Who raised a dispute: the account, or the player of the side (through a private link).

    Never the reporter of the disputed result: the dispute is the other player's word.
    """
    if dispute.raised_by_id:
        return person(dispute.raised_by)
    return (_side_player(dispute, dispute.raised_side) if dispute.raised_side else "") or "—"


@register.filter
def appellant(dispute) -> str:
    """Who appealed a ruling to the jury: the account, or the player of the side (through a private link)."""
    if dispute.appealed_by_id:
        return person(dispute.appealed_by)
    return (_side_player(dispute, dispute.appealed_side) if dispute.appealed_side else "") or "—"
