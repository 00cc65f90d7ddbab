"""The chouette ledger from the database: stored games → the core's ledger, and adding a game.

Pages, the export and the back office all go through :func:`ledger` and :func:`add_game`,
so the rotation and the settlement are the core's (:mod:`scoring.rules.chouette`) and
nothing derived is stored: a stored game is what the table saw, the rest is recomputed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from clubs.models import ChouetteGame, ChouetteSession
from scoring.rules import chouette as core
from tournaments import audit


def core_game(row: ChouetteGame) -> core.Game:
    """A stored game as the core reads it."""
    members = tuple(
        core.Member(m["player"], int(m.get("cube", 1)), bool(m.get("passed", False)))
        for m in row.members
    )
    return core.Game(row.box, row.captain, members, row.winner, row.kind)  # type: ignore[arg-type]


def ledger(session: ChouetteSession, games: list[ChouetteGame] | None = None) -> core.Ledger:
    """The session's ledger: every stored game settled in order (one query unless given)."""
    rows = games if games is not None else list(session.games.order_by("number"))
    result = core.start(session.players)
    for row in rows:
        result.add(core_game(row), session.cube_mode)  # type: ignore[arg-type]
    return result


def add_game(session: ChouetteSession, user, game: core.Game) -> ChouetteGame:
    """Settle ``game`` after the stored ones and store it; the core's refusal is raised as is.

    The session row is locked so two officials entering at once cannot both be game N.
    """
    with transaction.atomic():
        locked = ChouetteSession.objects.select_for_update().get(pk=session.pk)
        current = ledger(locked)
        outcome = current.add(game, locked.cube_mode)  # type: ignore[arg-type]
        row = ChouetteGame.objects.create(
            session=locked,
            number=outcome.number,
            box=game.box,
            captain=game.captain,
            winner=game.winner,
            kind=game.kind,
            members=[{"player": m.player, "cube": m.cube, "passed": m.passed} for m in game.members],
        )
        audit.record(user, None, "chouette.game", row, None, row)
    return row


def undo_last(session: ChouetteSession, user) -> ChouetteGame | None:
    """Remove the last game (a slip at the table); the ledger is recomputed without it."""
    with transaction.atomic():
        ChouetteSession.objects.select_for_update().get(pk=session.pk)
        last = session.games.order_by("-number").first()
        if last is not None:
            audit.record(user, None, "chouette.undo", last, last, None)
            last.delete()
    return last


@dataclass(frozen=True)
class SessionTotals:
    """A session and each player's total, for the club's list of sessions."""

    session: ChouetteSession
    games: int
    totals: list[tuple[str, int]]


def club_sessions(club) -> list[SessionTotals]:
    """The club's sessions with totals (two queries whatever the number of sessions)."""
    sessions = list(club.chouette_sessions.all())
    by_session: dict[int, list[ChouetteGame]] = {s.pk: [] for s in sessions}
    for row in ChouetteGame.objects.filter(session__in=sessions).order_by("session", "number"):
        by_session[row.session_id].append(row)
    out = []
    for session in sessions:
        result = ledger(session, by_session[session.pk])
        out.append(SessionTotals(session, len(result.outcomes), [(p, result.totals[p]) for p in session.players]))
    return out
