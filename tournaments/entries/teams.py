"""Teams of a Scheveningen event: create, line up on boards, take off, delete — each audited.

The organiser's teams page and the API's ``/api/tournaments/<slug>/teams/`` call these
functions, so both refuse the same things and leave the same audit trail. Validation of
what is typed (a name already taken, a board already taken) stays in the page's forms,
which the API reuses.
"""

from __future__ import annotations

from django.db import transaction

from tournaments import audit
from tournaments.models import Entry, Team, TeamMember, Tournament

from .problems import ENTRY
from .status import EntryRefused


@transaction.atomic
def create_team(user, tournament: Tournament, team: Team) -> Team:
    """Save a validated, unsaved ``team`` in ``tournament``."""
    team.tournament = tournament
    team.save()
    audit.record(user, tournament, "team.add", team, None, team)
    return team


@transaction.atomic
def put_on_board(user, tournament: Tournament, team: Team, entry: Entry, board: int) -> TeamMember:
    """Put ``entry`` on ``board`` of ``team``, moving it from any other team or board."""
    member = TeamMember.objects.filter(entry=entry).first()
    before = audit.snapshot(member)
    if member is None:
        member = TeamMember(entry=entry)
    member.team, member.board = team, board
    member.save()
    audit.record(user, tournament, "team.change", entry, before, member)
    return member


@transaction.atomic
def take_off(user, member: TeamMember) -> None:
    """Take a player off their team (the entry stays in the tournament)."""
    tournament = member.team.tournament
    audit.record(user, tournament, "team.change", member.entry, audit.snapshot(member), None)
    member.delete()


def team_in_play(team: Team) -> bool:
    """A team whose tournament has been paired is part of the draw: deleting it would orphan it."""
    return team.tournament.rounds.exists()


@transaction.atomic
def delete_team(user, team: Team) -> None:
    """Delete a team (its players stay entered) while the tournament has no rounds."""
    if team_in_play(team):
        raise EntryRefused(ENTRY.problem("team_in_play", team=team.name))
    audit.record(user, team.tournament, "team.delete", team, audit.snapshot(team), None)
    team.delete()
