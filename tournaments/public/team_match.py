"""The Scheveningen team match as the pages show it, above the individual tables.

The book: «наряду с основным командным матчем удаётся провести и личное первенство»
(Part 9) — so the overview, the standings and the crosstable open with the team match:
the score by match points and by points, per round and in total, then the board-by-board
grid (team A's players down, team B's across). Scored by
:mod:`tournaments.standings.team_match` through :mod:`tournaments.team_match`.
"""

from __future__ import annotations

from typing import Any

from tournaments.standings import System
from tournaments.standings import team_match as core
from tournaments.standings.crosstable import marked
from tournaments.standings_service import Event
from tournaments.team_match import lineup_problems, lineups, team_matches, text

_RESULT = {core.WIN: 1.0, core.DRAW: 0.5, core.LOSS: 0.0, core.DOUBLE_FORFEIT: 0.0}


def _cell(cell: core.BoardCell | None) -> dict[str, Any]:
    if cell is None:
        return {"text": "", "outcome": "", "round": None}
    if cell.outcome == core.PENDING:
        return {"text": "–", "outcome": "", "round": cell.round}
    if cell.outcome == core.VOID:
        return {"text": "×", "outcome": "", "round": cell.round}
    score = f"{text(cell.score_a)}:{text(cell.score_b)}"
    outcome = "loss" if cell.outcome == core.DOUBLE_FORFEIT else cell.outcome
    return {"text": marked(cell.kind, _RESULT[cell.outcome], score), "outcome": outcome, "round": cell.round}


def _player(event: Event, entry_id: int, lang: str, board: int) -> dict[str, Any]:
    e = event.entries.get(entry_id)
    return {"board": board, "id": entry_id, "name": e.name(lang) if e else "", "player_id": e.player_id if e else None}


def blocks(event: Event, lang: str) -> dict[str, Any]:
    """``{"matches": [...], "problems": [...]}`` for ``public/_team_match.html`` (empty
    for an event that is not a team event)."""
    if event.system != System.SCHEVENINGEN:
        return {}
    teams = lineups(event.tournament)
    out = []
    for tm in team_matches(event, teams):
        points_a, points_b = tm.board_points()
        names = (tm.team_a.name, tm.team_b.name)
        total = tm.total
        rows = [
            {
                **_player(event, pid, lang, i + 1),
                "cells": [_cell(c) for c in tm.grid[i]],
                "match_points": text(points_a[i]),
            }
            for i, pid in enumerate(tm.team_a.players)
        ]
        columns = [
            {
                **_player(event, pid, lang, j + 1),
                "match_points": text(points_b[j]),
            }
            for j, pid in enumerate(tm.team_b.players)
        ]
        out.append(
            {
                "team_a": names[0],
                "team_b": names[1],
                "total": _tally(total),
                "rounds": [{"round": n, **_tally(t)} for n, t in tm.rounds],
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
            {"name": t.name, "players": [_player(event, pid, lang, i + 1) for i, pid in enumerate(t.players)]}
            for t in teams
        ],
        "problems": [p.message(lang) for p in lineup_problems(event.tournament, teams)],
    }


def _tally(t: core.Tally) -> dict[str, Any]:
    return {
        "mp_a": text(t.match_points_a),
        "mp_b": text(t.match_points_b),
        "pts_a": text(t.points_a),
        "pts_b": text(t.points_b),
        "played": t.played,
        "pending": t.pending,
        "forfeits": t.forfeits,
    }

