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


def lineups_fixed(tournament: Tournament) -> bool:
    """The schedule is drawn (round 1 is paired, a draft or published): it was built from the
    boards — who meets whom in which round — so the line-ups can no longer change. The book
    (Part 9) describes no substitute in a Scheveningen match; a player who cannot go on is
    withdrawn and his remaining matches settled like any fixed schedule's."""
    return tournament.rounds.exists()


def _refuse_if_fixed(tournament: Tournament, team: Team) -> None:
    if lineups_fixed(tournament):
        raise EntryRefused(ENTRY.problem("lineup_fixed", team=team.name))


@transaction.atomic
def put_on_board(user, tournament: Tournament, team: Team, entry: Entry, board: int) -> TeamMember:
    """Put ``entry`` on ``board`` of ``team``, moving it from any other team or board
    (refused once the schedule is drawn: :func:`lineups_fixed`)."""
    member = TeamMember.objects.filter(entry=entry).select_related("team").first()
    _refuse_if_fixed(tournament, member.team if member is not None else team)
    before = audit.snapshot(member)
    if member is None:
        member = TeamMember(entry=entry)
    member.team, member.board = team, board
    member.save()
    audit.record(user, tournament, "team.change", entry, before, member)
    return member


@transaction.atomic
def take_off(user, member: TeamMember) -> None:
    """Take a player off their team (the entry stays in the tournament; refused once the
    schedule is drawn: :func:`lineups_fixed`)."""
    tournament = member.team.tournament
    _refuse_if_fixed(tournament, member.team)
    audit.record(user, tournament, "team.change", member.entry, audit.snapshot(member), None)
    member.delete()


def team_in_play(team: Team) -> bool:
    """A team whose tournament has been paired is part of the draw: deleting it would orphan it."""
    return lineups_fixed(team.tournament)


@transaction.atomic
def delete_team(user, team: Team) -> None:
    """Delete a team (its players stay entered) while the tournament has no rounds."""
    if team_in_play(team):
        raise EntryRefused(ENTRY.problem("team_in_play", team=team.name))
    audit.record(user, team.tournament, "team.delete", team, audit.snapshot(team), None)
    team.delete()
