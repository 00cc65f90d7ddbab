"""A record as a list of frames: every position of every game, with what led to it.

Why a separate layer: the validator answers "is this record right?" and keeps only the
problems; the viewer needs every intermediate position, the cube after each action and
the match score, and it must place each problem on the frame where it happened. It drives
the one :class:`~scoring.rules.records.replay.Replayer` event by event (never a second
replayer), so a position shown is exactly the position the validator judged.

Frame ``0`` of each game is its starting position; then one frame per play or cube
action, in playing order. Frames are numbered through the whole match, so ``?ply=N``
names one position of a match file.

Bad input never raises: a text that cannot be read at all still gives a view with the
start position and the located problems of the reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.rules.board.posid import (
    GAME_DROP,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchKey,
    encode_match_id,
    match_key,
    position_id,
    xgid,
)
from scoring.rules.board.position import (
    BLACK,
    WHITE,
    Position,
    index_to_label,
    is_game_over,
    label_to_index,
)
from scoring.rules.errors import Problem
from scoring.rules.records.events import (
    CheckpointEvent,
    ClaimEvent,
    CubeEvent,
    PlayEvent,
    Record,
    side_index,
)
from scoring.rules.records.matfile import looks_like_mat, parse_mat, validate_match
from scoring.rules.records.notation import BAR, OFF, Chain, CubeAction, Ply, format_cube, format_ply
from scoring.rules.records.reader import parse_record
from scoring.rules.records.replay import Replayer
from scoring.rules.records.report import CheckpointReport, ReplayReport
from scoring.rules.variants import get_variant
from scoring.viewer.problems import MATCHFILE

NUMBERINGS = ("traditional", "through")
#: What the viewer can write moves in: the book's two numberings and GNU Backgammon's
#: (each side from its own home, as in a .mat).
SHOWN_NUMBERINGS = (*NUMBERINGS, "own")


@dataclass(frozen=True, slots=True)
class Frame:
    """One position of the match and what produced it.

    ``side`` is who acted (None for a game's start); ``moves`` (computed when asked) maps each numbering to the
    play written in it (``{}`` when the printed labels could not be read); ``score`` is the
    match score (white, black) before this game; ``problems`` are indices into
    :attr:`RecordView.problems`.
    """

    index: int
    game: int
    kind: str  # "start" | "play" | "cube"
    move: int | None
    side: str | None
    printed: str
    dice: tuple[int, int] | None
    position: Position
    cube: int
    cube_owner: str | None
    offered: bool
    score: tuple[int, int]
    crawford: bool
    length: int = 0
    ply: Ply | None = None
    numbering: str = "traditional"
    cube_text: str = ""
    problems: tuple[int, ...] = ()
    #: The position the play was made from (side to play on roll): what gnubg analyses.
    before: Position | None = None
    offered_by: str | None = None
    offer_kind: str = "double"
    #: How the game stands after this frame (GNU's game states; set on a game's last frame).
    game_state: int = GAME_PLAYING
    #: The match score after the game (white, black) once ``game_state`` says it ended.
    end_score: tuple[int, int] | None = None
    answered_by: str | None = None
    resignation: int = 0

    @property
    def moves(self) -> dict[str, str]:
        """The play in each numbering (computed when shown: a page shows one game's moves)."""
        if self.kind == "cube":
            return {n: self.cube_text for n in SHOWN_NUMBERINGS}
        if self.ply is None or self.side is None:
            return {}
        return moves_in_numberings(self.ply, self.side, self.numbering, get_variant(self.position.variant).geometry)

    @property
    def position_id(self) -> str | None:
        """GNU Backgammon's Position ID, from the dice owner's side (short games only)."""
        return self._ids()[0]

    @property
    def match_id(self) -> str | None:
        """GNU Backgammon's Match ID of this moment (white = gnubg's player 0)."""
        return self._ids()[1]

    @property
    def xgid(self) -> str | None:
        """The same moment as an XGID (white on top, as GNU Backgammon reads it)."""
        key = self._key()
        if key is None:
            return None
        try:
            return xgid(self.position.board(WHITE), self.position.board(BLACK), key, offer_kind=self.offer_kind)
        except ValueError:
            return None

    @property
    def analysis_ids(self) -> tuple[str, str, str] | None:
        """Position ID, Match ID and XGID of the position *before* this play with its dice set.

        That is what a user pastes into GNU Backgammon to have the play analysed (the
        IDs of the frame itself show the position after it, the opponent to roll).
        """
        if self.kind != "play" or self.before is None or not self.dice or self.side is None:
            return None
        if get_variant(self.before.variant).geometry != "short":
            return None
        mover = WHITE if self.side == "white" else BLACK
        try:
            key = match_key(
                cube=self.cube, cube_owner=_owner(self.cube_owner), on_roll=mover,
                length=self.length, score=self.score, crawford=self.crawford, dice=self.dice,
            )
            return (
                position_id(self.before, mover),
                encode_match_id(key),
                xgid(self.before.board(WHITE), self.before.board(BLACK), key),
            )
        except (ValueError, OverflowError):
            return None

    def _key(self) -> MatchKey | None:
        if get_variant(self.position.variant).geometry != "short":
            return None
        ended = self.game_state != GAME_PLAYING and self.end_score is not None
        return match_key(
            cube=self.cube,
            cube_owner=_owner(self.cube_owner),
            on_roll=self.position.turn,
            length=self.length,
            score=self.end_score if ended and self.end_score is not None else self.score,
            crawford=self.crawford,
            offered_by=_owner(self.offered_by) if self.offered else None,
            game_state=self.game_state,
            answered_by=_owner(self.answered_by),
            resignation=self.resignation,
        )

    def _ids(self) -> tuple[str | None, str | None]:
        try:
            key = self._key()
            if key is None:
                return None, None
            return position_id(self.position), encode_match_id(key)
        except (ValueError, OverflowError):
            return None, None


def _owner(side: str | None) -> int | None:
    return None if side is None else (WHITE if side == "white" else BLACK)


@dataclass(slots=True)
class GameView:
    """Where a game's frames start and end in :attr:`RecordView.frames`, and its result."""

    number: int
    first: int
    last: int
    score: tuple[int, int]
    winner: str | None = None
    points: int | None = None
    kind: str | None = None
    cube: int = 1
    dropped: bool = False
    autodoubles: int = 0


@dataclass(slots=True)
class RecordView:
    """Everything the viewer page shows; ``problem_frames[i]`` is the frame of problem ``i``."""

    variant: str
    kind: str  # "mat" | "text"
    length: int
    players: tuple[str, str]
    numbering: str
    frames: list[Frame] = field(default_factory=list)
    games: list[GameView] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    problem_frames: list[int | None] = field(default_factory=list)
    #: The book's printed positions checked on the way (a record in the book's notation).
    checkpoints: list[CheckpointReport] = field(default_factory=list)
    #: Findings that leave the record correct (an illegal printed alternative).
    notes: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and all(c.ok for c in self.checkpoints)

    @property
    def is_match(self) -> bool:
        """A .mat or a match in the book's notation: scored by the match, not one game."""
        return self.kind == "mat" or len(self.games) > 1 or self.length > 0

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        """The ``validate_record --json`` shape, read as the web reads the same text.

        One game gives its result; a match (a .mat, or our multi-game ``.txt``) its
        players, length, final score and the match winner once someone reached the length.
        """
        data: dict[str, Any] = {
            "ok": self.ok,
            "variant": self.variant,
            "errors": [
                {"game": p.game, "move": p.move, "side": p.side, "code": p.code, "message": p.message(language)}
                for p in self.problems
            ],
            "notes": [
                {"move": p.move, "side": p.side, "code": p.code, "message": p.message(language)}
                for p in self.notes
            ],
            "checkpoints": [c.as_dict() for c in self.checkpoints],
            "result": None,
        }
        if not self.is_match:
            game = self.games[0] if self.games else None
            if game is not None and game.winner is not None:
                data["result"] = {"winner": game.winner, "kind": game.kind, "cube": game.cube, "points": game.points}
            return data
        final = self.final_score
        if self.length and max(final) >= self.length:
            winner = "white" if final[0] > final[1] else "black"
            data["result"] = {"winner": winner, "kind": "match", "cube": 1, "points": max(final)}
        data.update(players=list(self.players), length=self.length, final=list(final))
        return data

    @property
    def final_score(self) -> tuple[int, int]:
        """The score after the last game (white, black), from the replayed results."""
        score = [0, 0] if not self.games else list(self.games[-1].score)
        if self.games and self.games[-1].winner is not None:
            score[0 if self.games[-1].winner == "white" else 1] += self.games[-1].points or 0
        return score[0], score[1]

    def frame(self, index: int | None) -> Frame:
        """The frame ``index``, clamped to the view (a bad ``?ply=`` shows the nearest)."""
        if index is None:
            return self.frames[0]
        return self.frames[max(0, min(index, len(self.frames) - 1))]

    def loadable(self, frame: Frame) -> Frame | None:
        """For a pending double or beaver, the last moment of its game GNU Backgammon can load.

        gnubg 1.07 refuses a Match ID with a double on the table ("SetMatchID cannot handle
        positions where a double has been offered"), and a beaver waiting for the doubler's
        answer has no gnubg state at all; so the viewer also gives the IDs of the latest
        earlier frame with no offer pending: the doubler to roll, the cube as it was. ``None``
        when ``frame`` has no offer pending (its own IDs load) or no such frame exists.
        """
        if not frame.offered:
            return None
        for earlier in reversed(self.frames[: frame.index]):
            if earlier.game != frame.game:
                return None
            if not earlier.offered and earlier.position_id is not None:
                return earlier
        return None


# --------------------------------------------------------------------------- moves


def _convert(label: str, side: str, source: str, target: str, geometry: str) -> str:
    if label in (BAR, OFF):
        return label
    s = side_index(side)
    index = int(label) if source == "own" else label_to_index(label, s, source, geometry)
    if index == 25:
        return BAR
    if index == 0:
        return OFF
    return index_to_label(index, s, target, geometry)


def moves_in_numberings(ply: Ply, side: str, numbering: str, geometry: str) -> dict[str, str]:
    """The play written in each numbering (traditional, through and gnubg's own); ``{}`` if unreadable.

    Cube marks and remarks stay as printed; only the point labels change.
    """
    out: dict[str, str] = {}
    try:
        for target in SHOWN_NUMBERINGS:
            chains = tuple(
                Chain(
                    tuple(_convert(lb, side, numbering, target, geometry) for lb in c.path),
                    c.hits,
                    c.repeat,
                    c.mark,
                )
                for c in ply.chains
            )
            out[target] = format_ply(ply._replace(chains=chains, cube=(), comment=None))
    except (ValueError, IndexError):
        return {}
    return out


# --------------------------------------------------------------------------- building


class _Builder:
    def __init__(self, variant: str, kind: str, length: int, players: tuple[str, str], numbering: str):
        self.view = RecordView(variant, kind, length, players, numbering)

    def _frame(
        self, replayer: Replayer, game: int, kind: str, score: tuple[int, int], crawford: bool, **what
    ) -> None:
        cube = replayer.cube
        self.view.frames.append(
            Frame(
                index=len(self.view.frames),
                game=game,
                kind=kind,
                move=what.get("move"),
                side=what.get("side"),
                printed=what.get("printed", ""),
                dice=what.get("dice"),
                position=replayer.position,
                cube=cube.value,
                cube_owner=cube.owner,
                offered=cube.pending is not None,
                offered_by=cube.pending.by if cube.pending is not None else None,
                offer_kind=cube.pending.kind if cube.pending is not None else "double",
                before=what.get("before"),
                score=score,
                crawford=crawford,
                length=self.view.length,
                ply=what.get("ply"),
                numbering=what.get("numbering", "traditional"),
                cube_text=what.get("cube_text", ""),
            )
        )

    def drive(self, replayer: Replayer, number: int, score: tuple[int, int], crawford: bool) -> GameView:
        """Step one game's replayer event by event, a frame per play or cube action.

        Checkpoints only correct the board; the caller asks the replayer for its report.
        """
        replayer.opening()
        autodoubles = replayer.cube.autodoubles
        first = len(self.view.frames)
        self._frame(replayer, number, "start", score, crawford, printed=replayer.record.title or "")
        numbering = replayer.record.numbering
        for event in replayer.record.events:
            if isinstance(event, PlayEvent):
                before = replayer.position
                replayer.play(event)
                if before.turn != (mover := side_index(event.side)):
                    before = before.with_turn(mover)
                self._frame(
                    replayer, number, "play", score, crawford,
                    move=event.move, side=event.side, printed=event.text,
                    dice=event.ply.dice if event.ply else None, ply=event.ply,
                    numbering=event.numbering or numbering, before=before,
                )
            elif isinstance(event, CubeEvent):
                replayer.cube_event(event)
                side = replayer.trace[-1][0] if replayer.trace else event.side
                value = replayer.cube.value
                text = " ".join(
                    format_cube(a if a.value is not None or a.kind == "drop" else CubeAction(a.kind, value))
                    for a in event.actions
                )
                self._frame(
                    replayer, number, "cube", score, crawford,
                    move=replayer.expected_move, side=side, printed=event.text, cube_text=text,
                )
            elif isinstance(event, CheckpointEvent):
                replayer.checkpoint(event)
            elif isinstance(event, ClaimEvent):
                replayer.claim = event
        view = GameView(number, first, len(self.view.frames) - 1, score, autodoubles=autodoubles)
        self.view.games.append(view)
        return view

    def settle(self, view: GameView, result) -> None:
        """Record how the game ended (from the replay's report) on the game and its last frame.

        The last frame then carries GNU's end state — over, ended by a pass, or resigned —
        and the score with the game's points, so its Match ID is the one gnubg shows there.
        """
        if result is None:
            return
        view.winner, view.points, view.kind = result.winner, result.points, result.kind
        view.cube, view.dropped = result.cube, result.by_drop
        last = self.view.frames[view.last]
        end = list(view.score)
        end[0 if result.winner == "white" else 1] += result.points or 0
        loser = "black" if result.winner == "white" else "white"
        if result.by_drop:
            state, answered, resignation = GAME_DROP, loser, 0
        elif is_game_over(last.position):
            state, answered, resignation = GAME_OVER, None, 0
        else:
            per_cube = (result.points or 0) // max(result.cube, 1)
            state, answered, resignation = GAME_RESIGNED, None, per_cube if 1 <= per_cube <= 3 else 0
        self.view.frames[view.last] = replace(
            last, game_state=state, end_score=(end[0], end[1]), answered_by=answered, resignation=resignation,
        )

    def place(self, problems: list[Problem], game: GameView | None) -> None:
        """Attach each problem to the frame of its move and side (else the game's start)."""
        frames = self.view.frames
        for problem in problems:
            target: int | None = None
            if game is not None:
                target = game.first
                for frame in frames[game.first : game.last + 1]:
                    if frame.kind != "start" and frame.move == problem.move and (
                        problem.side is None or frame.side == problem.side
                    ):
                        target = frame.index
                        break
            self.add(problem, target)

    def keep(self, report: ReplayReport, game: int | None = None) -> None:
        """The game's checkpoints and notes, for the validator's answer (``as_dict``)."""
        self.view.checkpoints.extend(report.checkpoints)
        self.view.notes.extend(replace(n, game=game) if game is not None else n for n in report.notes)

    def add(self, problem: Problem, frame: int | None) -> None:
        self.view.problems.append(problem)
        self.view.problem_frames.append(frame)
        if frame is not None:
            old = self.view.frames[frame]
            self.view.frames[frame] = _with_problem(old, len(self.view.problems) - 1)


def _with_problem(frame: Frame, index: int) -> Frame:
    return replace(frame, problems=(*frame.problems, index))


#: A game's heading in a match written in the book's notation (our ``.txt`` download).
_BOOK_GAME = re.compile(r"^[ \t]*(?:Game|Партия\s*№)\s*(\d+)\b", re.IGNORECASE | re.MULTILINE)
#: The match line above the first game: ``Petrov — Orlov, 7`` (length absent for money play).
_BOOK_MATCH = re.compile(r"^\s*(?P<a>\S.*?)\s+—\s+(?P<b>\S.*?)(?:,\s*(?P<n>\d+))?\s*$")


def book_games(text: str) -> tuple[str, list[tuple[int, str]]] | None:
    """Split a match in the book's notation into ``(preamble, [(number, game text)])``.

    None for a single game (one heading or none, no match line above it): that is read
    as one record, as the book prints it.
    """
    starts = list(_BOOK_GAME.finditer(text))
    if not starts:
        return None
    if len(starts) == 1:
        # One game is a match only under our match line (``Petrov — Orlov, 7``) on top.
        lines = [line for line in text[: starts[0].start()].splitlines() if line.strip()]
        if not lines or not _BOOK_MATCH.match(lines[0]):
            return None
    blocks = [
        (int(m.group(1)), text[m.start() : starts[i + 1].start() if i + 1 < len(starts) else len(text)])
        for i, m in enumerate(starts)
    ]
    return text[: starts[0].start()], blocks


def view_text(text: str, *, variant: str | None = None, numbering: str | None = None) -> RecordView:
    """The frames of ``text``: a ``.mat`` match file, one game or a match in the book's notation."""
    if looks_like_mat(text):
        return view_mat(text, variant=variant or "backgammon")
    if (games := book_games(text)) is not None:
        return view_book_match(*games, variant=variant, numbering=numbering)
    record = parse_record(text, variant=variant, numbering=numbering)
    builder = _Builder(record.variant, "text", 0, ("White", "Black"), record.numbering)
    replayer = Replayer(record)
    game = builder.drive(replayer, 1, (0, 0), False)
    report = replayer.report()
    builder.settle(game, report.result)
    builder.place(report.errors, game)
    builder.keep(report)
    return _nothing_read(builder)


def view_book_match(
    preamble: str, blocks: list[tuple[int, str]], *, variant: str | None = None, numbering: str | None = None
) -> RecordView:
    """A match in the book's notation, game by game, the score carried from game to game.

    The Crawford game follows from the running score the way :func:`validate_match`
    decides it for a ``.mat``, so the two formats of one match read the same.
    """
    players, length = ("White", "Black"), 0
    for line in preamble.splitlines():
        if found := _BOOK_MATCH.match(line):
            players, length = (found.group("a"), found.group("b")), int(found.group("n") or 0)
            break
    builder: _Builder | None = None
    score = [0, 0]
    crawford_played = False
    for number, block in blocks:
        record = parse_record(block, variant=variant, numbering=numbering)
        in_crawford = length > 1 and not crawford_played and length - 1 in score
        crawford_played = crawford_played or in_crawford
        rules = replace(record.cube_rules, crawford_game=in_crawford, enabled=length != 1)
        record = replace(record, game=number, cube_rules=rules)
        if builder is None:
            builder = _Builder(record.variant, "text", length, players, record.numbering)
        replayer = Replayer(record)
        game = builder.drive(replayer, number, (score[0], score[1]), in_crawford)
        report = replayer.report()
        builder.settle(game, report.result)
        builder.place([replace(p, game=number) for p in report.errors], game)
        builder.keep(report, number)
        if report.result is not None:
            score[0 if report.result.winner == "white" else 1] += report.result.points
    assert builder is not None  # book_games gives one block at least
    return _nothing_read(builder)


def _nothing_read(builder: _Builder) -> RecordView:
    """A text with no move in it gets a problem that says so (never a silent empty board)."""
    if not any(f.kind != "start" for f in builder.view.frames):
        builder.add(MATCHFILE.problem("no_moves", file=""), 0)
    return builder.view


def view_mat(text: str, *, variant: str = "backgammon") -> RecordView:
    """The frames of a ``.mat`` file, from the validator's own replay (one replay, not two).

    The problems are the validator's (unreadable lines and score lines included), so the
    viewer and the result check never disagree; each is placed on its game's frames.
    """
    match = parse_mat(text)
    builder = _Builder(variant, "mat", match.length, match.players, "own")
    printed = {g.number: g.score for g in match.games}

    def run(replayer: Replayer) -> None:
        number = replayer.record.game or 0
        builder.drive(replayer, number, printed.get(number, (0, 0)), replayer.record.cube_rules.crawford_game)

    report = validate_match(match, variant=variant, run=run)
    for game, game_report in zip(builder.view.games, report.games, strict=True):
        builder.settle(game, game_report.result)
        builder.keep(game_report)
    games = {g.number: g for g in builder.view.games}
    for problem in report.errors:
        builder.place([problem], games.get(problem.game) if problem.game is not None else None)
    if not builder.view.frames:
        empty = Replayer(Record(variant=variant, numbering="own"))
        builder._frame(empty, 1, "start", (0, 0), False)
        builder.view.games.append(GameView(1, 0, 0, (0, 0)))
    return _nothing_read(builder)


__all__ = [
    "Frame", "GameView", "RecordView", "book_games", "moves_in_numberings", "view_book_match", "view_mat", "view_text",
]
