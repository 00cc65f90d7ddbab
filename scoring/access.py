"""Who may do what with a match's result. Views AND services check here, on the server.

Built on :mod:`tournaments.permissions` (roles are per tournament). Part 9: the
administration (jury, director, assistants) may not play in the event it runs,
so an official who is also a player of a match acts on it only as a player —
nobody confirms, rules on or corrects their own match.
"""

from __future__ import annotations

from tournaments.models import Match, Tournament
from tournaments.permissions import (
    can_view,
    is_jury,
    is_organiser,
    is_referee,
    official_roles,
    side_of,
)

from .models import Dispute, Result, ResultState


def tournament_of(match: Match) -> Tournament:
    return match.round.tournament


def acts_as_official(user, match: Match) -> bool:
    """A referee or organiser of the match's tournament who does not play in it."""
    return is_referee(user, tournament_of(match)) and side_of(user, match) is None


def can_see_match(user, match: Match) -> bool:
    """The result page of a match: its players and the tournament's officials."""
    tournament = tournament_of(match)
    if not can_view(user, tournament):
        return False
    return side_of(user, match) is not None or bool(official_roles(user, tournament))


def can_enter(user, match: Match) -> bool:
    """Referee entry: officials of this tournament, never on their own match."""
    return acts_as_official(user, match)


def can_report(user, match: Match) -> bool:
    """A player reports their own match (a bye has nothing to report)."""
    return not match.is_bye and side_of(user, match) is not None


def can_confirm(user, result: Result) -> bool:
    """The opponent of whoever reported, or any official; never the reporter themself."""
    if result.state != ResultState.REPORTED:
        return False
    match = result.match
    if acts_as_official(user, match):
        return True
    side = side_of(user, match)
    if side is None or result.reported_by_id == user.pk:
        return False
    reporter_side = side_of(result.reported_by, match) if result.reported_by_id else None
    return reporter_side != side


def can_dispute(user, result: Result) -> bool:
    """A player of the match who did not make this report may contest it (to the director)."""
    if result.state not in (ResultState.REPORTED, ResultState.CONFIRMED):
        return False
    return side_of(user, result.match) is not None and user.pk not in (
        result.reported_by_id,
        result.confirmed_by_id,
    )


def can_rule(user, dispute: Dispute) -> bool:
    """The director (organiser) rules on a dispute, unless it is their own match."""
    match = dispute.match
    return is_organiser(user, tournament_of(match)) and side_of(user, match) is None


def can_appeal(user, dispute: Dispute) -> bool:
    """A player of the match who disagrees with the director's ruling."""
    return side_of(user, dispute.match) is not None


def can_decide_appeal(user, dispute: Dispute) -> bool:
    """The jury, the highest body of the event; its decision is final."""
    match = dispute.match
    return is_jury(user, tournament_of(match)) and side_of(user, match) is None


def can_see_disputes(user, tournament: Tournament) -> bool:
    return is_organiser(user, tournament) or is_jury(user, tournament)


def can_see_dispute(user, dispute: Dispute) -> bool:
    return can_see_disputes(user, tournament_of(dispute.match)) or (
        side_of(user, dispute.match) is not None
    )


def can_sanction(user, tournament: Tournament) -> bool:
    """Part 9: discipline is decided by the director or the jury."""
    return is_organiser(user, tournament) or is_jury(user, tournament)


def can_see_audit(user, tournament: Tournament) -> bool:
    return is_organiser(user, tournament) or is_jury(user, tournament)


def can_run_desk(user, tournament: Tournament) -> bool:
    """Check-in, withdrawals and closing rounds: the organiser's desk."""
    return is_organiser(user, tournament)
