"""A match recorded live, step by step: the state machine a recorder's phone drives.

A live recording is a list of small **steps** — a roll, a play, a cube action
(double, take, pass, beaver, raccoon), a resignation — in the order they happen at
the table. :func:`replay` folds them from the start of the match into a
:class:`LiveState`; :func:`apply` adds one step or raises
:class:`~scoring.rules.errors.RuleViolation` with a ``live.*`` (or ``match.*`` for the
cube) problem that says why the step cannot be taken now. Every play goes through
:func:`~scoring.rules.records.play_notation.parse_play`, so a live play is legal by the same
rule as a printed one; the end of a game is not a step of its own: it follows from the
position (the last checker borne off), a passed double or a resignation.

Why a replayable list rather than a stored position: the list *is* the record (it is
written out as a ``.mat`` file for backgammon by :func:`to_mat` or in the book's
notation for the nardy family by :func:`to_book_text`), and a second device or a
resent step can be compared with it step by step.

White is the match's first player (side ``a``) in every game, as the left column of a
``.mat`` file.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from scoring.rules.board.legal import legal_plays
from scoring.rules.board.posid import GAME_PLAYING, encode_match_id, match_key, position_id
from scoring.rules.board.position import WHITE, Position, game_result, opposite_table
from scoring.rules.board.steps import Play
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match.cube import CubeState
from scoring.rules.match.spec import MatchSpec, format_score
from scoring.rules.problems.live import LIVE
from scoring.rules.records.format import result_line
from scoring.rules.records.matfile import MatAction, MatGame, MatMatch, export_mat
from scoring.rules.records.notation import BAR, OFF, Chain
from scoring.rules.records.play_notation import format_play, parse_play
from scoring.rules.variants import get_variant

SIDES = ("white", "black")
#: The kinds of step a recorder can send.
STEP_KINDS = ("roll", "play", "double", "take", "pass", "beaver", "raccoon", "resign")
#: Phases: what the recording waits for next.
OPENING, ROLL, PLAY, ANSWER, OVER = "opening", "roll", "play", "answer", "over"


@dataclass(frozen=True, slots=True)
class Action:
    """One thing that happened in a game, kept for the record (``.mat`` or the book's text)."""

    side: str
    kind: str  # play | double | take | drop | beaver | raccoon | resign
    dice: tuple[int, int] | None = None
    play: Play | None = None
    before: Position | None = None
    value: int | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as recorded: who started, the actions, and how it ended."""

    number: int
    score: tuple[int, int]
    first: str
    actions: tuple[Action, ...] = ()
    winner: str | None = None
    kind: str | None = None
    points: int | None = None


@dataclass(frozen=True, slots=True)
class LiveState:
    """Where a live match stands after the steps so far (immutable; :func:`apply` makes the next)."""

    spec: MatchSpec
    variant: str
    score: tuple[int, int] = (0, 0)
    games: tuple[GameRecord, ...] = ()
    game: GameRecord | None = None
    position: Position | None = None
    phase: str = OPENING
    dice: tuple[int, int] | None = None
    cube: CubeState = field(default_factory=CubeState)
    crawford: bool = False
    crawford_done: bool = False
    last: str = ""
    steps: int = 0

    @property
    def side_on_roll(self) -> str | None:
        return None if self.position is None else SIDES[self.position.turn]

    @property
    def game_number(self) -> int:
        return len(self.games) + (1 if self.phase != OVER else 0)


def start(spec: MatchSpec, variant: str) -> LiveState:
    """A match about to begin: waiting for game 1's opening roll."""
    state = LiveState(spec=spec, variant=get_variant(variant).key, score=(int(spec.start[0]), int(spec.start[1])))
    return _new_game(state)


def _new_game(state: LiveState) -> LiveState:
    spec = state.spec
    crawford = False
    if spec.crawford_on and spec.length and not state.crawford_done:
        crawford = max(state.score) == spec.length - 1
    cube = CubeState.start(spec.cube_rules(crawford_game=crawford))
    number = len(state.games) + 1
    game = GameRecord(number, state.score, "white")
    return replace(
        state, game=game, position=None, phase=OPENING, dice=None, cube=cube,
        crawford=crawford, crawford_done=state.crawford_done or crawford,
    )


def expected_what(state: LiveState, language: str = "en") -> str:
    """What the recording waits for, in words (used in the out-of-order message)."""
    en = language.startswith("en")
    side = state.side_on_roll
    side_word = {"white": "White" if en else "белых", "black": "Black" if en else "чёрных"}.get(side or "", "")
    if state.phase == OVER:
        return "nothing (the match is over)" if en else "ничего (матч окончен)"
    if state.phase == OPENING:
        return f"the opening roll of game {state.game_number}" if en else f"первый бросок партии {state.game_number}"
    if state.phase == ROLL:
        return f"{side_word}'s roll or double" if en else f"бросок или удвоение {side_word}"
    if state.phase == PLAY:
        return f"{side_word}'s play for {_dice(state.dice)}" if en else f"ход {side_word} при зарах {_dice(state.dice)}"
    pending = state.cube.pending
    answer = SIDES[1 - SIDES.index(pending.by)] if pending else ""
    answer_word = {"white": "White" if en else "белых", "black": "Black" if en else "чёрных"}.get(answer, "")
    return f"{answer_word}'s answer to the cube" if en else f"ответ {answer_word} на удвоение"


def _dice(dice: tuple[int, int] | None) -> str:
    return f"{dice[0]}–{dice[1]}" if dice else "—"


def _fail(problem: Problem) -> RuleViolation:
    return RuleViolation(problem)


def _wrong(state: LiveState, kind: str) -> RuleViolation:
    return _fail(LIVE.problem("wrong_step", kind=kind, expected_what=expected_what(state)))


def apply(state: LiveState, step: dict[str, Any]) -> LiveState:
    """``state`` after ``step`` (a dict with ``kind`` and its fields), or :class:`RuleViolation`.

    Steps: ``{"kind": "roll", "dice": [6, 5], "side": "white"}`` (``side`` only on a
    game's opening roll), ``{"kind": "play", "text": "13/7*, 13/11"}`` (the book's
    notation, traditional numbering unless ``numbering`` says ``"through"``; ``"Ø"`` or
    ``""`` for a dance), ``{"kind": "double"|"take"|"pass"|"beaver"|"raccoon"}`` (the
    side is known from the position), ``{"kind": "resign", "side": …, "result": "single"|…}``.
    """
    kind = step.get("kind")
    if kind not in STEP_KINDS:
        raise _fail(LIVE.problem("unknown_step", kind=str(kind)))
    if state.phase == OVER:
        raise _fail(LIVE.problem("match_over", score=format_score(state.score)))
    handler = _HANDLERS[kind]
    return replace(handler(state, step), steps=state.steps + 1)


def _read_dice(step: dict[str, Any]) -> tuple[int, int]:
    raw = step.get("dice")
    try:
        d1, d2 = (int(x) for x in raw)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise _fail(LIVE.problem("bad_dice", dice=repr(raw))) from None
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise _fail(LIVE.problem("bad_dice", dice=f"{d1}–{d2}"))
    return d1, d2


def _roll(state: LiveState, step: dict[str, Any]) -> LiveState:
    dice = _read_dice(step)
    if state.phase == OPENING:
        side = step.get("side")
        if side not in SIDES:
            raise _fail(LIVE.problem("opening_side", game=state.game_number))
        turn = SIDES.index(side)
        position = Position.start(state.variant, turn)
        game = replace(state.game, first=side) if state.game else None
        return _after_roll(replace(state, position=position, game=game), dice)
    if state.phase != ROLL:
        raise _wrong(state, "roll")
    side = step.get("side")
    if side not in (None, "", state.side_on_roll):
        raise _fail(LIVE.problem("wrong_side", expected=state.side_on_roll, got=side))
    return _after_roll(state, dice)


def _after_roll(state: LiveState, dice: tuple[int, int]) -> LiveState:
    side = state.side_on_roll
    return replace(state, phase=PLAY, dice=dice, last=f"{side} {_dice(dice)}")


def _play(state: LiveState, step: dict[str, Any]) -> LiveState:
    if state.phase != PLAY or state.position is None or state.dice is None:
        raise _wrong(state, "play")
    text = str(step.get("text") or "").strip() or "Ø"
    numbering = "through" if step.get("numbering") == "through" else "traditional"
    before = state.position
    try:
        play = parse_play(before, text, dice=state.dice, numbering=numbering)
    except RuleViolation as exc:
        why = "; ".join(p.message("en") for p in exc.problems)
        raise RuleViolation([LIVE.problem("illegal_play", play=text, dice=_dice(state.dice), why=why), *exc.problems]) from None
    if all(play.position != legal.position for legal in legal_plays(before, state.dice)):
        # The text named its own roll (``"6–5 13/7"``) and it is not the roll on the table.
        why = f"the text's roll is not {_dice(state.dice)}"
        raise _fail(LIVE.problem("illegal_play", play=text, dice=_dice(state.dice), why=why))
    side = SIDES[before.turn]
    printed = format_play(before, play)
    action = Action(side, "play", state.dice, play, before, text=printed)
    game = _add(state.game, action)
    after = play.position
    state = replace(state, position=after, game=game, dice=None, phase=ROLL, last=f"{side} {_dice(action.dice)} {printed}")
    result = game_result(after, state.spec.table)
    if result is not None:
        return _end_game(state, SIDES[result.winner], result.kind, state.cube.points(result.value))
    return state


def _add(game: GameRecord | None, action: Action) -> GameRecord:
    assert game is not None
    return replace(game, actions=(*game.actions, action))


def _cube_side(state: LiveState, kind: str) -> str:
    if kind == "double":
        if state.phase != ROLL:
            raise _wrong(state, kind)
        return state.side_on_roll or "white"
    if state.phase != ANSWER or state.cube.pending is None:
        raise _wrong(state, kind)
    return SIDES[1 - SIDES.index(state.cube.pending.by)]


def _cube(state: LiveState, step: dict[str, Any]) -> LiveState:
    kind = step["kind"]
    side = _cube_side(state, kind)
    cube = state.cube
    if kind == "double":
        cube = cube.offer(side)
    elif kind == "take":
        cube = cube.take(side)
    elif kind == "pass":
        cube = cube.drop(side)
    elif kind == "beaver":
        cube = cube.beaver(side)
    else:
        cube = cube.raccoon(side)
    value = cube.pending.value if cube.pending is not None else cube.value
    record_kind = "drop" if kind == "pass" else kind
    action = Action(side, record_kind, value=value if kind in ("double", "beaver", "raccoon") else None)
    state = replace(state, cube=cube, game=_add(state.game, action), last=f"{side} {kind} {value}")
    if cube.is_over:
        winner = cube.winner_by_pass or SIDES[1 - SIDES.index(side)]
        return _end_game(state, winner, "pass", cube.value)
    phase = ANSWER if cube.pending is not None else ROLL
    return replace(state, phase=phase)


def _resign(state: LiveState, step: dict[str, Any]) -> LiveState:
    if state.phase not in (ROLL, PLAY, ANSWER) or state.position is None:
        raise _wrong(state, "resign")
    side = step.get("side")
    if side not in SIDES:
        raise _fail(LIVE.problem("wrong_side", expected="white/black", got=str(side)))
    table = state.spec.table
    kind = step.get("result") or table.kinds[0][0]
    kinds = [k for k, _ in table.kinds]
    if kind not in kinds:
        raise _fail(LIVE.problem("bad_resignation", kinds=", ".join(kinds), kind=str(kind)))
    points = state.cube.value * table.value(kind)
    winner = SIDES[1 - SIDES.index(side)]
    state = replace(state, game=_add(state.game, Action(side, "resign", value=points, text=kind)))
    return _end_game(state, winner, kind, points)


def _end_game(state: LiveState, winner: str, kind: str, points: int) -> LiveState:
    game = replace(state.game, winner=winner, kind=kind, points=points) if state.game else None
    score = list(state.score)
    score[SIDES.index(winner)] += points
    games = (*state.games, game) if game else state.games
    state = replace(
        state, score=(score[0], score[1]), games=games, game=None, dice=None,
        last=f"{state.last}; {winner} +{points}",
    )
    spec = state.spec
    if spec.length and max(score) >= spec.length or spec.fixed_games and len(games) >= spec.fixed_games:
        return replace(state, phase=OVER)
    keep = state.position
    return replace(_new_game(state), position=keep)


_HANDLERS = {
    "roll": _roll,
    "play": _play,
    "double": _cube,
    "take": _cube,
    "pass": _cube,
    "beaver": _cube,
    "raccoon": _cube,
    "resign": _resign,
}


def replay(spec: MatchSpec, variant: str, steps: list[dict[str, Any]]) -> LiveState:
    """The state after ``steps`` from the start (each checked again; raises on the first bad one)."""
    state = start(spec, variant)
    for step in steps:
        state = apply(state, step)
    return state


# --------------------------------------------------------------------------- what a page shows


def allowed_steps(state: LiveState) -> list[str]:
    """The step kinds the rules allow now (the buttons a recorder is offered)."""
    if state.phase == OVER:
        return []
    if state.phase == OPENING:
        return ["roll"]
    out: list[str] = []
    if state.phase == ROLL:
        out.append("roll")
        side = state.side_on_roll or "white"
        if state.cube.offer_problem(side) is None:
            out.append("double")
    elif state.phase == PLAY:
        out.append("play")
    elif state.phase == ANSWER and state.cube.pending is not None:
        out += ["take", "pass"]
        kind = state.cube.pending.kind
        if kind == "double" and state.cube.rules.beaver:
            out.append("beaver")
        if kind == "beaver" and state.cube.rules.raccoon:
            out.append("raccoon")
    out.append("resign")
    return out


def point_id(index: int, side: int, geometry: str) -> str:
    """The physical point a mover's index names, as White's index ("bar"/"off" as such)."""
    if index == 25:
        return "bar"
    if index == 0:
        return "off"
    return str(index if side == WHITE else opposite_table(geometry)[index])


def play_options(state: LiveState) -> list[dict[str, Any]]:
    """The legal plays for the dice on the table, for a tapping recorder.

    Each play is ``{"text": …, "steps": [[from, to, hit], …]}`` with points named by
    White's index (``"1"``…``"24"``, ``"bar"``, ``"off"``), the board's physical points,
    so the page need not know either side's numbering. One entry per resulting position.
    """
    if state.phase != PLAY or state.position is None or state.dice is None:
        return []
    position = state.position
    geometry = get_variant(position.variant).geometry
    out = []
    for play in legal_plays(position, state.dice):
        out.append({
            "text": format_play(position, play),
            "steps": [
                [point_id(s.src, position.turn, geometry), point_id(s.dst, position.turn, geometry), bool(s.hit)]
                for s in play.steps
            ],
        })
    return out


def board_counts(position: Position | None, variant: str) -> dict[str, list[int]]:
    """Checkers per physical point (White's index 1…24) for each colour, plus bar and off."""
    pos = position or Position.start(variant)
    geometry = get_variant(pos.variant).geometry
    omap = opposite_table(geometry)
    white = [pos.white[i] for i in range(25)] + [pos.white[25]]
    black = [0] * 26
    for i in range(1, 25):
        black[omap[i]] = pos.black[i]
    black[0], black[25] = pos.black[0], pos.black[25]
    return {"white": white, "black": black}


def ids(state: LiveState) -> dict[str, str]:
    """GNU Backgammon's Position ID and Match ID of the current moment (backgammon only)."""
    if state.variant != "backgammon" or state.position is None:
        return {}
    pos = state.position
    on_roll = pos.turn
    owner = state.cube.owner
    pending = state.cube.pending
    try:
        key = match_key(
            cube=state.cube.value,
            cube_owner=None if owner is None else SIDES.index(owner),
            on_roll=on_roll,
            length=int(state.spec.length or 0),
            score=(int(state.score[0]), int(state.score[1])),
            crawford=state.crawford,
            dice=state.dice,
            offered_by=SIDES.index(pending.by) if pending is not None else None,
            game_state=GAME_PLAYING,
        )
        return {"position_id": position_id(pos), "match_id": encode_match_id(key)}
    except ValueError:
        return {"position_id": position_id(pos)}


def summary(state: LiveState) -> dict[str, Any]:
    """Plain data for the live board, the API and the recorder's page."""
    position = state.position
    geometry = get_variant(state.variant).geometry
    return {
        "variant": state.variant,
        "geometry": geometry,
        "phase": state.phase,
        "game": state.game_number,
        "score": list(state.score),
        "length": state.spec.length,
        "crawford": state.crawford,
        "cube": {"value": state.cube.value, "owner": state.cube.owner,
                 "offered": state.cube.pending.value if state.cube.pending else None},
        "on_roll": state.side_on_roll,
        "dice": list(state.dice) if state.dice else None,
        "board": board_counts(position, state.variant),
        "last": state.last,
        "steps": state.steps,
        "allowed": allowed_steps(state),
        "plays": play_options(state),
        "ids": ids(state),
        "resign_kinds": [k for k, _ in state.spec.table.kinds],
    }


# --------------------------------------------------------------------------- the record


def _mat_label(index: int) -> str:
    return BAR if index == 25 else OFF if index == 0 else str(index)


def to_mat(state: LiveState, players: tuple[str, str]) -> str:
    """The games recorded so far as a GNU Backgammon ``.mat`` file (backgammon)."""
    match = MatMatch(length=int(state.spec.length or 0), players=players,
                     headers=['; [Source "Zarik live recording"]'])
    for game in state.games:
        mat = MatGame(game.number, (int(game.score[0]), int(game.score[1])))
        actions: list[MatAction] = []
        for action in game.actions:
            if action.kind == "play":
                assert action.play is not None
                chains = tuple(
                    Chain((_mat_label(s.src), _mat_label(s.dst)), (False, bool(s.hit)), 1) for s in action.play.steps
                )
                actions.append(MatAction(0, action.side, "play", action.text, action.dice, chains))
            elif action.kind in ("double", "beaver", "raccoon", "take", "drop"):
                actions.append(MatAction(0, action.side, action.kind, action.kind, value=action.value))
        mat.actions = _rows(actions)
        mat.winner, mat.points = game.winner, game.points
        match.games.append(mat)
    return export_mat(match)


def _rows(actions: list[MatAction]) -> list[MatAction]:
    """Number the rows as GNU Backgammon does: a row holds White's entry left, Black's right."""
    row, taken, out = 0, {"white", "black"}, []
    for action in actions:
        if action.side in taken or (action.side == "white" and "black" in taken):
            row += 1
            taken = set()
        taken.add(action.side)
        out.append(replace(action, move=row))
    return out


def to_book_text(state: LiveState, players: tuple[str, str], *, english: bool = False) -> str:
    """The games recorded so far in the book's two-column notation (the nardy family).

    The layout :func:`scoring.viewer.frames.view_text` reads a match in: a match line,
    then each game's heading, its move rows (the first mover in the left column) and
    its result line.
    """
    out = [f"{players[0]} — {players[1]}" + (f", {state.spec.length}" if state.spec.length else ""), ""]
    words = {"white": "White:" if english else "Белые:", "black": "Black:" if english else "Чёрные:"}
    for game in state.games:
        heading = f"Game {game.number}" if english else f"Партия №{game.number}"
        if game.winner is not None:
            heading += f" ({players[SIDES.index(game.winner)]} +{game.points})"
        first = game.first
        second = "black" if first == "white" else "white"
        out += [heading, "", f"{'Move' if english else '№ хода'}\t{words[first]}\t{words[second]}"]
        number, row = 0, None
        rows: list[tuple[int, dict[str, str]]] = []
        for action in game.actions:
            if action.kind != "play":
                continue
            if action.side == first or row is None:
                number += 1
                row = {}
                rows.append((number, row))
            row[action.side] = f"{_dice(action.dice)} {action.text}"
        for n, cells in rows:
            out.append(f"{n}.\t{cells.get(first, '...')}\t{cells.get(second, '')}".rstrip("\t"))
        if game.winner is not None and game.points is not None:
            out.append(result_line(game.winner, game.points, english))
        out.append("")
    return "\n".join(out) + "\n"


def record_text(state: LiveState, players: tuple[str, str]) -> tuple[str, str]:
    """The record and its kind: ``("mat", text)`` for backgammon, ``("book", text)`` otherwise."""
    if state.variant == "backgammon":
        return "mat", to_mat(state, players)
    return "book", to_book_text(state, players)


__all__ = [
    "ANSWER", "OPENING", "OVER", "PLAY", "ROLL", "STEP_KINDS",
    "Action", "GameRecord", "LiveState", "allowed_steps", "apply", "board_counts", "expected_what",
    "ids", "play_options", "point_id", "record_text", "replay", "start", "summary", "to_book_text", "to_mat",
]
