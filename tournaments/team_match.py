"""The Scheveningen team match from the database: line-ups, the team result, its JSON.

The standings core scores the team match (:mod:`tournaments.standings.team_match`, the one
place); this module reads the teams (one query), hands the core the event's published
results (:func:`tournaments.standings_service.load_event`) and shapes the answer for the
pages, the workbook and the API, which all call it. It also says why the line-ups cannot
be paired (:func:`lineup_problems`): the teams page and the API show it while the teams
are made, and the open draw and the pairing refuse with it before any number is drawn.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from scoring.rules.errors import Problem
from tournaments.pairing.problems import SCHEVENINGEN
from tournaments.pairing.scheveningen import lineup_problems as core_lineup_problems
from tournaments.standings import team_match as core
from tournaments.standings.crosstable import format_value, marked

from .models import CompetitionSystem, EntryStatus, Team, TeamMember, Tournament
from .standings_service import Event


def is_team_event(tournament: Tournament) -> bool:
    return tournament.system == CompetitionSystem.SCHEVENINGEN


def lineups(tournament: Tournament) -> list[core.TeamLineup]:
    """Every team with its entries by board, teams in the order the pairing takes them
    (creation order: the first team is team A). Two queries whatever the size."""
    members: dict[int, list[int]] = {}
    rows = TeamMember.objects.filter(team__tournament=tournament).order_by("team_id", "board")
    for team_id, entry_id in rows.values_list("team_id", "entry_id"):
        members.setdefault(team_id, []).append(entry_id)
    return [
        core.TeamLineup(pk, name, tuple(members.get(pk, ())))
        for pk, name in Team.objects.filter(tournament=tournament).order_by("pk").values_list("pk", "name")
    ]


def team_names(tournament: Tournament) -> dict[int, str]:
    """Each team member's entry id → the team's name (empty for an event that is not a team
    event): the pairings page and the hall display say whose team each player plays for."""
    if not is_team_event(tournament):
        return {}
    rows = TeamMember.objects.filter(team__tournament=tournament).values_list("entry_id", "team__name")
    return dict(rows)


def crosstable_lineup(tournament: Tournament) -> list[int]:
    """The individual crosstable's order for a team event: team A's entries by board, then
    team B's (and so on); empty for other events, which keep the draw-number order."""
    if not is_team_event(tournament):
        return []
    return [pid for team in lineups(tournament) for pid in team.players]


def lineup_problems(tournament: Tournament, teams: list[core.TeamLineup] | None = None) -> list[Problem]:
    """Why the teams of a Scheveningen event cannot be paired yet (empty: they can, or the
    event is not a team event): an odd number of teams, a team with nobody, uneven teams,
    and — while the line-ups can still change — a member who has withdrawn."""
    if not is_team_event(tournament):
        return []
    teams = lineups(tournament) if teams is None else teams
    out = []
    if len(teams) < 2 or len(teams) % 2:
        out.append(SCHEVENINGEN.problem("team_count", count=len(teams)))
    gone = [] if tournament.rounds.exists() else withdrawn_members(tournament)
    return out + core_lineup_problems([(t.name, len(t.players)) for t in teams], gone)


def withdrawn_members(tournament: Tournament) -> list[tuple[str, int, str]]:
    """(team, board, player) of each team member who has withdrawn, by team and board."""
    rows = (
        TeamMember.objects.filter(team__tournament=tournament, entry__status=EntryStatus.WITHDRAWN)
        .select_related("team", "entry__player")
        .order_by("team_id", "board")
    )
    return [(m.team.name, m.board, str(m.entry.player)) for m in rows]


def team_matches(event: Event, teams: list[core.TeamLineup] | None = None) -> list[core.TeamMatch]:
    """Every team match of the event from its published results (none for other systems)."""
    if not is_team_event(event.tournament):
        return []
    teams = lineups(event.tournament) if teams is None else teams
    return core.team_matches(teams, event.matches)


# --------------------------------------------------------------------------- shaped for readers


def number(value: Fraction) -> int | float:
    """A match-point or point total as JSON: whole numbers as integers, halves exactly."""
    return int(value) if value.denominator == 1 else float(value)


def text(value: Fraction) -> str:
    """As scores are written: 2½."""
    return format_value(float(value))


def _tally(t: core.Tally) -> dict[str, Any]:
    return {
        "match_points": [number(t.match_points_a), number(t.match_points_b)],
        "points": [number(t.points_a), number(t.points_b)],
        "played": t.played,
        "pending": t.pending,
        "forfeits": t.forfeits,
        "leader": t.leader,
    }


def _team(event: Event, team: core.TeamLineup) -> dict[str, Any]:
    players = []
    for board, entry_id in enumerate(team.players, start=1):
        e = event.entries.get(entry_id)
        players.append(
            {
                "board": board,
                "entry": entry_id,
                "player": e.player_id if e else None,
                "name": e.name_ru if e else "",
                "name_latin": e.name_latin if e else "",
                "draw_number": e.draw_number if e else None,
            }
        )
    return {"id": team.id, "name": team.name, "players": players}


def team_match_data(event: Event, language: str = "ru") -> dict[str, Any]:
    """The API's ``team-match`` resource: each team match's total and rounds (match points,
    then points; team A first), its board-by-board results, and the line-ups' problems."""
    teams = lineups(event.tournament) if is_team_event(event.tournament) else []
    matches = []
    for tm in team_matches(event, teams):
        boards = [
            {
                "board_a": i + 1,
                "board_b": j + 1,
                "entry_a": cell.a,
                "entry_b": cell.b,
                "round": cell.round,
                "score": [number(cell.score_a), number(cell.score_b)],
                "outcome": cell.outcome,
                "kind": str(cell.kind),
            }
            for i, row in enumerate(tm.grid)
            for j, cell in enumerate(row)
            if cell is not None
        ]
        matches.append(
            {
                "team_a": _team(event, tm.team_a),
                "team_b": _team(event, tm.team_b),
                "total": _tally(tm.total),
                "final": tm.final,
                "winner": tm.winner,
                "rounds": [{"round": n, **_tally(t)} for n, t in tm.rounds],
                "boards": boards,
            }
        )
    return {
        "tournament": event.tournament.slug,
        "matches": matches,
        "problems": [
            {"code": p.code, "message": p.message(language)}
            for p in lineup_problems(event.tournament, teams)
        ],
    }


# --------------------------------------------------------------------------- shaped for the pages
# The overview, standings and crosstable open with the team match (the book's «основной командный
# матч»), then the individual championship; the organiser's rounds page shows its score.

_RESULT = {core.WIN: 1.0, core.DRAW: 0.5, core.LOSS: 0.0, core.DOUBLE_FORFEIT: 0.0}


def _page_cell(cell: core.BoardCell | None) -> dict[str, Any]:
    if cell is None:
        return {"text": "", "outcome": "", "round": None}
    if cell.outcome == core.PENDING:
        return {"text": "–", "outcome": "", "round": cell.round}
    if cell.outcome == core.VOID:
        return {"text": "×", "outcome": "", "round": cell.round}
    score = f"{text(cell.score_a)}:{text(cell.score_b)}"
    outcome = "loss" if cell.outcome == core.DOUBLE_FORFEIT else cell.outcome
    return {"text": marked(cell.kind, _RESULT[cell.outcome], score), "outcome": outcome, "round": cell.round}


def _page_player(event: Event, entry_id: int, lang: str, board: int) -> dict[str, Any]:
    e = event.entries.get(entry_id)
    return {"board": board, "id": entry_id, "name": e.name(lang) if e else "", "player_id": e.player_id if e else None}


def page_blocks(event: Event, lang: str) -> dict[str, Any]:
    """``{"matches", "teams", "problems"}`` for ``public/_team_match.html`` and the rounds page
    (empty for an event that is not a team event or has no teams yet). The public block leaves
    the line-ups' problems to the organiser's pages (teams, rounds) and the API."""
    if not is_team_event(event.tournament):
        return {}
    teams = lineups(event.tournament)
    if not teams:
        return {}
    out = []
    for tm in team_matches(event, teams):
        points_a, points_b = tm.board_points()
        names = (tm.team_a.name, tm.team_b.name)
        total = tm.total
        rows = [
            {
                **_page_player(event, pid, lang, i + 1),
                "cells": [_page_cell(c) for c in tm.grid[i]],
                "match_points": text(points_a[i]),
            }
            for i, pid in enumerate(tm.team_a.players)
        ]
        columns = [
            {
                **_page_player(event, pid, lang, j + 1),
                "match_points": text(points_b[j]),
            }
            for j, pid in enumerate(tm.team_b.players)
        ]
        out.append(
            {
                "team_a": names[0],
                "team_b": names[1],
                "total": _page_tally(total),
                "rounds": [{"round": n, **_page_tally(t)} for n, t in tm.rounds],
                "final": tm.final,
                "winner": {"a": names[0], "b": names[1]}.get(tm.winner or ""),
                "leader": {"a": names[0], "b": names[1]}.get(total.leader or ""),
                "rows": rows,
                "columns": columns,
            }
        )
    return {
        "matches": out,
        "teams": [
            {"name": t.name, "players": [_page_player(event, pid, lang, i + 1) for i, pid in enumerate(t.players)]}
            for t in teams
        ],
        "problems": [p.message(lang) for p in lineup_problems(event.tournament, teams)],
    }


def _page_tally(t: core.Tally) -> dict[str, Any]:
    return {
        "mp_a": text(t.match_points_a),
        "mp_b": text(t.match_points_b),
        "pts_a": text(t.points_a),
        "pts_b": text(t.points_b),
        "played": t.played,
        "pending": t.pending,
        "forfeits": t.forfeits,
    }

