"""GNU Backgammon's match dump → per player, per game and per match statistics (pure).

**PR** (performance rating, as GNU Backgammon and eXtreme Gammon report it)::

    PR = 500 × (chequer error + cube error) / (unforced moves + close cube decisions)

errors in normalised equity (EMG, gnubg's ``error-skill``), summed over the player's
decisions. gnubg prints the same ratio ×1000 as the overall "Error rate mEMG", so
``PR = error rate (mEMG) / 2``; :func:`engine_error_rates` reads gnubg's own figure from its
``show statistics match`` text and the service stores both, so every stored PR can be checked
against the engine's report (tests do). Chequer PR and cube PR use their own errors over
their own decisions.

The engine calls the file's first player ``X`` and the second ``O``; here they are
``first``/``second`` (the viewer's white/black), so the shell maps them to the pairing
with the file's ``first_is``. Decisions are tied to the viewer's frames of the same text,
so a worst decision links to ``?ply=N`` and carries its Position ID, Match ID and dice.
No Django: data in, data out.
"""

from __future__ import annotations

import re
from typing import Any

from scoring.rules.board.posid import CUBE_CENTRED, MatchKey, encode_match_id
from scoring.rules.board.position import BLACK, WHITE
from scoring.viewer.frames import Frame, RecordView

SIDES = {"X": "first", "O": "second"}
#: Only so many worst decisions per player are kept and shown.
WORST = 5
#: A decision costing at least this much (EMG) is a blunder — gnubg's "very bad" mark.
BLUNDER = 0.08
#: Fewer decisions than this make a PR too noisy to compare: the tables mark it.
SMALL_SAMPLE = 100


def pr(error: float, decisions: int) -> float | None:
    """The PR of ``error`` (EMG) over ``decisions``; None when there was nothing to decide."""
    return round(500.0 * error / decisions, 2) if decisions else None


def player_stats(stats: dict[str, Any]) -> dict[str, Any]:
    """One player's figures from a gnubg statistics block (a game's or the match's)."""
    moves, cube, dice = stats.get("moves", {}), stats.get("cube", {}), stats.get("dice", {})
    unforced = int(moves.get("unforced-moves", 0))
    close = int(cube.get("close-cube", 0))
    move_error = float(moves.get("error-skill", 0.0))
    # gnubg's own "error-skill" of the cube block is already per close decision; the total is
    # the sum of its error buckets (missed doubles, wrong doubles, wrong takes and passes).
    cube_error = sum(float(v) for k, v in cube.items() if k.startswith("err-") and k.endswith("-skill"))
    # gnubg's "Luck rate (mEMG/move)" divides by the player's moves (its "total-moves"), not
    # by the marked rolls, which also count rolls no move followed (−3.806 / 88 = −43.2, not / 90).
    rolls = int(moves.get("total-moves", 0))
    luck = float(dice.get("luck", 0.0))
    marked = moves.get("marked") or {}
    cube_blunders = sum(
        int(cube.get(k, 0))
        for k in ("missed-double-above-cp", "wrong-double-above-tg", "wrong-take", "wrong-drop")
    )
    return {
        "moves": int(moves.get("total-moves", 0)),
        "unforced_moves": unforced,
        "cube_decisions": int(cube.get("total-cube", 0)),
        "close_cube_decisions": close,
        "decisions": unforced + close,
        "move_error": round(move_error, 6),
        "cube_error": round(cube_error, 6),
        "move_error_rate": round(1000 * move_error / unforced, 2) if unforced else None,
        "cube_error_rate": round(1000 * cube_error / close, 2) if close else None,
        "pr": pr(move_error + cube_error, unforced + close),
        "move_pr": pr(move_error, unforced),
        "cube_pr": pr(cube_error, close),
        "luck": round(luck, 4),
        "luck_rate": round(1000 * luck / rolls, 2) if rolls else None,
        "blunders": int(marked.get("very bad", 0)) + cube_blunders,
        "errors": int(marked.get("bad", 0)) + int(marked.get("very bad", 0)),
        "doubles": int(cube.get("n-doubles", 0)),
        "takes": int(cube.get("n-takes", 0)),
        "passes": int(cube.get("n-drops", 0)),
    }


def engine_error_rates(statistics_text: str) -> dict[str, float] | None:
    """gnubg's own overall "Error rate mEMG" per player, from ``show statistics match``."""
    part = statistics_text.split("Overall statistics", 1)
    if len(part) < 2:
        return None
    for line in part[1].splitlines():
        if line.strip().startswith("Error rate"):
            numbers = re.findall(r"([-+]?\d+\.\d+)\s*\(", line)
            if len(numbers) >= 2:
                return {"first": abs(float(numbers[0])), "second": abs(float(numbers[1]))}
    return None


def _cube_errors(action: dict[str, Any], offer: dict[str, Any] | None) -> float | None:
    """The equity (EMG) a double, take or pass gave away, for the one who acted.

    ``cube-eq`` holds gnubg's no-double and double/take equities for the doubler in EMG
    (converted by gnubg itself from match winning chances); a pass is worth +1 to the
    doubler. As in gnubg: the best cube action is max(no double, min(double/take, pass)).
    """
    kind = action.get("action")
    if kind == "double":
        eq = action.get("cube-eq")
        if not eq:
            return None
        double = min(float(eq["dt"]), 1.0)
        return max(0.0, float(eq["nd"]) - double)
    if kind in ("take", "drop") and offer:
        dt = float(offer["dt"])
        return max(0.0, dt - 1.0) if kind == "take" else max(0.0, 1.0 - dt)
    return None


def _move_error(an: dict[str, Any]) -> float | None:
    moves = an.get("moves") or []
    chosen = an.get("imove")
    if len(moves) < 2 or chosen is None or chosen >= len(moves):
        return None
    return max(0.0, float(moves[0]["score"]) - float(moves[chosen]["score"]))


def _missed_double(eq: dict[str, Any] | None) -> float | None:
    """A roll without doubling when doubling was right: min(double/take, pass) − no double."""
    if not eq:
        return None
    return max(0.0, min(float(eq["dt"]), 1.0) - float(eq["nd"]))


def _play_text(move: Any) -> str:
    if not move:
        return ""
    return " ".join(f"{a if a != 25 else 'bar'}/{b if b > 0 else 'off'}" for a, b in move)


def _ids(before: Frame, dice: tuple[int, int] | None) -> tuple[str | None, str | None]:
    """Position ID and Match ID of the position a decision was taken in (with its dice)."""
    if dice is None:
        return before.position_id, before.match_id
    turn = before.position.turn
    owner = CUBE_CENTRED if before.cube_owner is None else (WHITE if before.cube_owner == "white" else BLACK)
    try:
        mid = encode_match_id(MatchKey(
            cube=before.cube, cube_owner=owner, dice_owner=turn, crawford=before.crawford, turn=turn,
            dice=(max(dice), min(dice)), match_length=before.length, score=before.score,
        ))
    except (ValueError, OverflowError):
        mid = None
    return before.position_id, mid


def _game_frames(view: RecordView | None, number: int) -> list[Frame]:
    if view is None:
        return []
    return [f for f in view.frames if f.game == number and f.kind in ("play", "cube")]


def build(match: dict[str, Any], statistics_text: str = "", view: RecordView | None = None) -> dict[str, Any]:
    """The stored report of one analysed match (plain JSON data).

    ``view`` is the viewer's replay of the same text: with it each decision gets its frame
    (``ply`` link), Position ID and Match ID; without it the numbers are the same.
    """
    info = match.get("match-info") or {}
    totals = {SIDES[k]: player_stats(v) for k, v in (match.get("stats") or {}).items() if k in SIDES}
    games: list[dict[str, Any]] = []
    decisions: list[dict[str, Any]] = []
    for number, game in enumerate(match.get("games") or [], start=1):
        ginfo = game.get("info") or {}
        gstats = {SIDES[k]: player_stats(v) for k, v in (game.get("stats") or {}).items() if k in SIDES}
        games.append({
            "number": number,
            "score": [ginfo.get("score-X", 0), ginfo.get("score-O", 0)],
            "winner": SIDES.get(ginfo.get("winner") or "", None),
            "points": ginfo.get("points-won"),
            "players": gstats,
        })
        actions = _actions(game)
        frames = _game_frames(view, number)
        aligned = len(frames) == len(actions)
        offer: dict[str, Any] | None = None
        for k, action in enumerate(actions):
            side = SIDES.get(action.get("player") or "")
            an = action.get("analysis") or {}
            frame = frames[k] if aligned else None
            before = view.frames[frame.index - 1] if frame is not None and view is not None and frame.index else None
            kind = action["action"]
            dice = tuple(action["dice"]) if action.get("dice") else None
            found: list[tuple[str, float, str, str]] = []
            if kind == "move":
                missed = _missed_double(action.get("cube-eq"))
                if missed:
                    found.append(("cube", missed, _no_double_text(), _double_text()))
                err = _move_error(an)
                if err is not None:
                    best = (an.get("moves") or [{}])[0].get("move")
                    found.append(("move", err, _play_text(action.get("move")), _play_text(best)))
            else:
                err = _cube_errors(action, offer)
                if err is not None:
                    found.append(("cube", err, kind, ""))
            if kind == "double":  # the take or pass that follows is judged on this analysis
                offer = action.get("cube-eq")
            for what, error, played, best in found:
                pid, mid = _ids(before, dice if what == "move" else None) if before is not None else (action.get("board"), None)
                decisions.append({
                    "game": number, "move": frame.move if frame is not None else None, "side": side,
                    "kind": what, "action": kind, "error": round(error, 5), "played": played, "best": best,
                    "dice": list(dice) if dice and what == "move" else None,
                    "position_id": action.get("board") or pid, "match_id": mid,
                    "ply": frame.index if frame is not None else None,
                })
    worst = {
        side: sorted(
            (d for d in decisions if d["side"] == side and d["error"] > 0), key=lambda d: -d["error"]
        )[:WORST]
        for side in ("first", "second")
    }
    # Our per-decision errors add up to gnubg's totals (a check the tests make on real files).
    summed = {
        side: {
            kind: round(sum(d["error"] for d in decisions if d["side"] == side and d["kind"] == kind), 4)
            for kind in ("move", "cube")
        }
        for side in ("first", "second")
    }
    strip = [
        {"ply": d["ply"], "side": d["side"], "error": d["error"], "kind": d["kind"]}
        for d in decisions if d["ply"] is not None and d["error"] >= 0.02
    ]
    return {
        "partial": partial(match, view),
        "length": info.get("match-length"),
        "names": [((info.get("X") or {}).get("name") or ""), ((info.get("O") or {}).get("name") or "")],
        "players": totals,
        "games": games,
        "worst": worst,
        "strip": strip,
        "decision_errors": summed,
        "engine_error_rate": engine_error_rates(statistics_text),
    }


def partial(match: dict[str, Any], view: RecordView | None) -> dict[str, int] | None:
    """Where gnubg stopped reading the record, when it stopped before the end; else None.

    gnubg imports a record only as far as it can follow it (a file attached despite an
    illegal move: it may drop the rest of that game), so its figures cover that part only:
    the game it stopped in, the plays and cube actions it read there out of the record's,
    and the games it read whole. A PR shown without saying so would pass for the whole
    match's (issue 46).
    """
    if view is None:
        return None
    theirs = match.get("games") or []
    ours = [g for g in view.games if g.last > g.first]
    for k, game in enumerate(ours):
        frames = len(_game_frames(view, game.number))
        read = len(_actions(theirs[k])) if k < len(theirs) else 0
        if read < frames:
            return {"game": game.number, "read": read, "of": frames, "games_read": k, "games": len(ours)}
    return None


def _actions(game: dict[str, Any]) -> list[dict[str, Any]]:
    """A game's plays and cube actions in gnubg's dump, the decisions the viewer has frames for."""
    return [a for a in game.get("game") or [] if a.get("action") in ("move", "double", "take", "drop")]


def _double_text() -> str:
    return "double"


def _no_double_text() -> str:
    return "no double"
