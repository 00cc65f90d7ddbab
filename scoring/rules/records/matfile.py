"""Jellyfish ``.mat`` match files (written by GNU Backgammon, eXtreme Gammon, play sites).

The format, as GNU Backgammon exports it::

    ; [Site "…"]                      header comments
     7 point match
     Game 1
     gnubg : 0                      root : 0        score before the game
      1) 21: 13/11 24/23             65: 24/18 18/13
      5) 62: 25/23 13/7*              Doubles => 2
      6)  Takes                      52: 25/23 23/18*
     12) 66:                         22: 15/13 …    a dance prints the roll only
          Wins 2 points                             indented under the winner's column

Each side's moves are in its own numbering (24 → 1), 25 is the bar and 0 is off. The
left column is the first player of the score line; here it is called White.

The GNU importer trusts the file: it accepts impossible dice, a double in the Crawford
game and score lines that do not add up. :func:`validate_match` does not — every game is
replayed on :class:`scoring.rules.records.replay.Replayer` (the same machinery as the book's
records), the Crawford game is worked out from the scores, each score line is checked
against the points won so far, and each ``Wins`` line against the replayed result.

:func:`export_mat` writes our games back in the same format so players can load them
into GNU Backgammon or XG for analysis; ``parse_mat(export_mat(m)) == m`` for what the
format can express.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.rules.board.position import game_result
from scoring.rules.errors import Problem
from scoring.rules.match.cube import CubeRules
from scoring.rules.records.events import ClaimEvent, CubeEvent, Event, PlayEvent, Record
from scoring.rules.records.notation import BAR, OFF, Chain, CubeAction, Ply
from scoring.rules.records.replay import Replayer
from scoring.rules.records.report import RecordResult, ReplayReport, record_problem

SIDES = ("white", "black")
#: GNU Backgammon's highest cube (``MAX_CUBE``, 2^12).
GNUBG_MAX_CUBE = 4096


@dataclass(frozen=True, slots=True)
class MatAction:
    """One column entry: a roll and play, or a cube action (``double``/``take``/``drop``/
    ``beaver``/``raccoon`` — gnubg writes a raccoon as a second "Beavers")."""

    move: int
    side: str
    kind: str
    text: str
    dice: tuple[int, int] | None = None
    chains: tuple[Chain, ...] = ()
    value: int | None = None
    line: int = 0

    def key(self) -> tuple[Any, ...]:
        """What survives an export/import round trip (not the line number or spacing)."""
        return (self.move, self.side, self.kind, self.dice, self.chains, self.value)


@dataclass(slots=True)
class MatGame:
    number: int
    score: tuple[int, int]
    actions: list[MatAction] = field(default_factory=list)
    winner: str | None = None
    points: int | None = None
    line: int = 0
    #: Automatic doubles before the first roll. The .mat format has no way to say them;
    #: our export writes them in a comment line (:data:`_AUTODOUBLES`) and reads it back.
    autodoubles: int = 0

    def key(self) -> tuple[Any, ...]:
        return (
            self.number,
            self.score,
            tuple(a.key() for a in self.actions),
            self.winner,
            self.points,
            self.autodoubles,
        )


@dataclass(slots=True)
class MatMatch:
    length: int
    players: tuple[str, str] = ("White", "Black")
    headers: list[str] = field(default_factory=list)
    games: list[MatGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def key(self) -> tuple[Any, ...]:
        return (self.length, self.players, tuple(self.headers), tuple(g.key() for g in self.games))


_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_ROW = re.compile(r"^\s*(\d+)\)(.*)$")
_ENTRY = re.compile(
    r"(?P<roll>\d\d):(?P<moves>(?:\s+(?:\d{1,2}/\d{1,2}\*?(?:\(\d\))?|/\d{1,2}\*?))*)"
    r"|Doubles\s*=>\s*(?P<double>\d+)"
    r"|Beavers\s*=>\s*(?P<beaver>\d+)"
    r"|(?P<take>Takes|Accepts)"
    r"|(?P<drop>Drops|Passes|Rejects)"
    # gnubg ends a game on the row of the pass: " 14)  Drops      Wins 1 point".
    r"|(?P<wins>Wins\s+(?P<points>\d+)\s+points?)",
    re.IGNORECASE,
)
#: Our comment for what a .mat cannot carry: "; [Automatic doubles "Game 1: 2 (cube 4 …)"]".
_AUTODOUBLES = re.compile(r'^;\s*\[Automatic doubles "Game (\d+): (\d+)\b', re.IGNORECASE)
_WINS = re.compile(r"^(\s*)Wins\s+(\d+)\s+points?", re.IGNORECASE)
#: eXtreme Gammon's header for the Jacoby rule, ``; [Jacoby "On"]`` (gnubg reads and discards it).
_JACOBY = re.compile(r'^;\s*\[Jacoby\s+"(On|Off)"\]', re.IGNORECASE)
_STEP = re.compile(r"(\d{1,2})/(\d{1,2})(\*?)(?:\((\d)\))?")

#: Column where the right-hand player's entries start in GNU Backgammon's export.
RIGHT_COLUMN = 33


def _label(number: int) -> str:
    return BAR if number == 25 else OFF if number == 0 else str(number)


def _chains(moves: str) -> tuple[Chain, ...]:
    out = []
    for src, dst, hit, repeat in _STEP.findall(moves):
        out.append(
            Chain((_label(int(src)), _label(int(dst))), (False, bool(hit)), int(repeat or 1))
        )
    return tuple(out)


def parse_mat(text: str) -> MatMatch:
    """Read a .mat file; unreadable lines become ``unparsable`` problems with their line."""
    match = MatMatch(length=0)
    game: MatGame | None = None
    autodoubles: dict[int, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if found := _AUTODOUBLES.match(line.strip()):
            autodoubles[int(found.group(1))] = int(found.group(2))
            continue
        if line.lstrip().startswith(";"):
            match.headers.append(line.strip())
            continue
        if game is None and (found := _LENGTH.match(line)):
            match.length = int(found.group(1))
            continue
        if found := _GAME.match(line):
            game = MatGame(int(found.group(1)), (0, 0), line=number)
            match.games.append(game)
            continue
        if game is not None and not game.actions and (found := _SCORE.match(line)):
            match.players = (found.group(1), found.group(3))
            game.score = (int(found.group(2)), int(found.group(4)))
            continue
        if game is not None and (found := _WINS.match(line)):
            game.winner = "white" if len(found.group(1)) < RIGHT_COLUMN - 10 else "black"
            game.points = int(found.group(2))
            continue
        row = _ROW.match(line)
        if game is None or row is None:
            match.problems.append(
                record_problem(
                    "unparsable",
                    reason="mat_line",
                    line=number,
                    snippet=line.strip(),
                    game=game.number if game else None,
                    text=line.strip(),
                )
            )
            continue
        move = int(row.group(1))
        body_start = row.start(2)
        entries = list(_ENTRY.finditer(row.group(2)))
        leftover = _ENTRY.sub("", row.group(2)).strip()
        if leftover:
            game_no = game.number
            match.problems.append(
                record_problem(
                    "unparsable",
                    reason="mat_entry",
                    line=number,
                    snippet=leftover,
                    move=move,
                    game=game_no,
                    text=line.strip(),
                )
            )
        for i, entry in enumerate(entries):
            column = body_start + entry.start()
            side = "white" if i == 0 and column < RIGHT_COLUMN - 8 else "black"
            if entry.group("wins"):
                # The game's end in the winner's column, after the pass on the same row.
                game.winner, game.points = side, int(entry.group("points"))
                continue
            action = _action(entry, move, side, number)
            if action.kind == "beaver" and game.actions and game.actions[-1].kind in ("beaver", "raccoon"):
                # gnubg writes a raccoon (the doubler's redouble of a beaver) as one more
                # "Beavers => N"; the book calls it a raccoon (ch10).
                action = replace(action, kind="raccoon")
            game.actions.append(action)
    for g in match.games:
        g.autodoubles = autodoubles.get(g.number, 0)
    return match


def _action(entry: re.Match[str], move: int, side: str, line: int) -> MatAction:
    text = entry.group(0).strip()
    if entry.group("roll"):
        roll = entry.group("roll")
        return MatAction(
            move,
            side,
            "play",
            text,
            dice=(int(roll[0]), int(roll[1])),
            chains=_chains(entry.group("moves") or ""),
            line=line,
        )
    if entry.group("double"):
        return MatAction(move, side, "double", text, value=int(entry.group("double")), line=line)
    if entry.group("beaver"):
        return MatAction(move, side, "beaver", text, value=int(entry.group("beaver")), line=line)
    if entry.group("take"):
        return MatAction(move, side, "take", text, line=line)
    return MatAction(move, side, "drop", text, line=line)


def crawford_game(match: MatMatch) -> int | None:
    """Number of the Crawford game: the first game played with a player one point short."""
    if match.length <= 1:
        return None
    for game in match.games:
        if match.length - 1 in game.score:
            return game.number
    return None


def jacoby_header(match: MatMatch) -> bool | None:
    """What the file's header says of the Jacoby rule: on, off, or nothing (``None``).

    eXtreme Gammon writes ``; [Jacoby "On"]``; GNU Backgammon 1.07 writes nothing, even
    for a session it played under the rule. The rule belongs to money play only, so a
    match (a length above 0) is never played under it, whatever its header says.
    """
    if match.length:
        return False
    for header in match.headers:
        if found := _JACOBY.match(header):
            return found.group(1).lower() == "on"
    return None


def game_record(
    match: MatMatch,
    game: MatGame,
    *,
    variant: str = "backgammon",
    crawford: bool | None = None,
    jacoby: bool = False,
) -> Record:
    """One game as a :class:`Record` for the shared replayer (own numbering, cube rules).

    ``crawford`` says whether this is the Crawford game; by default it is worked out
    from the printed score lines. ``jacoby``: the money session's Jacoby rule.
    """
    events: list[Event] = []
    for action in game.actions:
        if action.kind == "play":
            ply = Ply(dice=action.dice, chains=action.chains, passed=not action.chains)
            events.append(
                PlayEvent(action.move, action.side, action.text, ply, action.line, numbering="own")
            )
        else:
            kind = {"double": "offer"}.get(action.kind, action.kind)
            events.append(
                CubeEvent(
                    (CubeAction(kind, action.value),),  # type: ignore[arg-type]
                    action.side,
                    action.move,
                    action.text,
                    action.line,
                )
            )
    if game.winner is not None and game.points is not None:
        events.append(ClaimEvent(game.winner, game.points, f"Wins {game.points}", game.line))
    first = next((a.side for a in game.actions if a.kind == "play"), "white")
    in_crawford = crawford_game(match) == game.number if crawford is None else crawford
    rules = CubeRules(
        # The file is read as gnubg played it: its cube goes to 4096 (a money session's
        # beavers pass 64 quickly); the match's own limit is checked with its result.
        max_value=GNUBG_MAX_CUBE,
        enabled=match.length != 1,
        beaver=True,
        raccoon=True,
        gnubg_beavers=True,  # gnubg's own convention (CubeRules)
        autodoubles=game.autodoubles,
        crawford_game=in_crawford,
        jacoby=jacoby,
    )
    return Record(
        variant=variant,
        numbering="own",
        first=first,
        autodoubles=game.autodoubles,
        title=f"Game {game.number}",
        events=events,
        cube_rules=rules,
        game=game.number,
    )


@dataclass(slots=True)
class MatchReport:
    """Per-game replay reports plus the match-level problems (score lines)."""

    match: MatMatch
    games: list[ReplayReport]
    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        out = list(self.problems)
        for report in self.games:
            out.extend(report.errors)
        return sorted(out, key=lambda p: (p.game or 0, p.move or 0))

    @property
    def ok(self) -> bool:
        return not self.errors

    def winner(self) -> tuple[str, int] | None:
        """The match winner and final score, once someone has reached the match length."""
        if not self.match.games or not self.games:
            return None
        final = list(self.match.games[-1].score)
        result = self.games[-1].result
        if result is not None:
            final[SIDES.index(result.winner)] += result.points
        if self.match.length and max(final) >= self.match.length:
            return ("white" if final[0] > final[1] else "black"), max(final)
        return None

    def as_dict(self, language: str = "en") -> dict[str, Any]:
        """The ``validate_record --json`` shape; ``result`` is the match winner, if any."""
        errors = []
        for p in self.errors:
            # ``message`` says the place (game, move, side) once; no prefix of our own here.
            errors.append(
                {"game": p.game, "move": p.move, "side": p.side, "code": p.code, "message": p.message(language)}
            )
        won = self.winner()
        return {
            "ok": self.ok,
            "variant": "backgammon",
            "errors": errors,
            "checkpoints": [],
            "result": (
                {"winner": won[0], "kind": "match", "cube": 1, "points": won[1]} if won else None
            ),
            "players": list(self.match.players),
            "length": self.match.length,
            "final": list(self.final_score()),
        }

    def final_score(self) -> tuple[int, int]:
        """The score after the last game (the file's first player, second), as replayed."""
        if not self.match.games:
            return (0, 0)
        final = list(self.match.games[0].score)
        for report in self.games:
            if report.result is not None:
                final[SIDES.index(report.result.winner)] += report.result.points
        return final[0], final[1]


def validate_match(
    match: MatMatch,
    *,
    variant: str = "backgammon",
    run: Callable[[Replayer], None] | None = None,
) -> MatchReport:
    """Replay every game and check the score lines (see the module docstring).

    ``run`` drives each game's replayer instead of :meth:`Replayer.run` (the record viewer
    steps it event by event to keep every position), so a viewer never replays twice.
    """
    problems = list(match.problems)
    reports: list[ReplayReport] = []
    running: list[int] | None = None
    crawford_played = False
    jacoby = jacoby_header(match)
    for index, game in enumerate(match.games):
        if running is not None and tuple(running) != game.score:
            problems.append(
                record_problem(
                    "score_mismatch",
                    printed=f"{game.score[0]}:{game.score[1]}",
                    running=f"{running[0]}:{running[1]}",
                    game=game.number,
                    text=f"{match.players[0]} : {game.score[0]}   "
                    f"{match.players[1]} : {game.score[1]}",
                )
            )
        running = running or list(game.score)
        # The Crawford game follows from the true score, not from a misprinted line.
        in_crawford = match.length > 1 and not crawford_played and match.length - 1 in running
        crawford_played = crawford_played or in_crawford
        inferred = False
        if jacoby is None:
            jacoby = _jacoby_by_scores(match, index, variant)
            inferred = bool(jacoby)
        replayer = Replayer(game_record(match, game, variant=variant, crawford=in_crawford, jacoby=bool(jacoby)))
        if run is None:
            replayer.run(replayer.record.events)
        else:
            run(replayer)
        report = replayer.report()
        if inferred and report.result is not None:
            kind = next((n.details.get("result") for n in report.notes if n.code == "record.jacoby_single"), None)
            report.notes.append(record_problem("jacoby_from_scores", result=kind, game=game.number))
        reports.append(report)
        if report.result is not None:
            running[SIDES.index(report.result.winner)] += report.result.points
    return MatchReport(match, reports, problems)


def _jacoby_by_scores(match: MatMatch, index: int, variant: str) -> bool | None:
    """The Jacoby rule as a gnubg file shows it without naming it, from game ``index`` on.

    GNU Backgammon prints a gammon's ``Wins 2 points`` under the Jacoby rule too, but its
    next score line adds what it counted: one point times the cube. So a money-session game
    won by a gammon with the cube in the middle tells: the next line adding the single game
    means the rule was on (``True``), adding the gammon means off (``False``). Any other game
    tells nothing (``None``, ask the next one); the last game has no next line to ask.
    """
    if match.length or index + 1 >= len(match.games):
        return None
    game, after = match.games[index], match.games[index + 1]
    plain = Replayer(game_record(match, game, variant=variant, crawford=False))
    plain.run(plain.record.events)
    result = plain.result()
    finished = game_result(plain.position)
    if result is None or finished is None or finished.value < 2 or plain.cube.owner is not None:
        return None
    won = SIDES.index(result.winner)
    added = after.score[won] - game.score[won]
    if after.score[1 - won] != game.score[1 - won] or added not in (result.cube, result.points):
        return None
    return added == result.cube


def looks_like_mat(text: str) -> bool:
    """Detect the format by content (the command accepts both without a flag)."""
    return bool(
        re.search(r"^\s*\d+\s+point\s+match", text, re.IGNORECASE | re.MULTILINE)
        and re.search(r"^\s*Game\s+\d+", text, re.IGNORECASE | re.MULTILINE)
    )


# --------------------------------------------------------------------------- export


def _mat_step(chain: Chain) -> list[str]:
    out = []
    for n in range(1, len(chain.path)):
        src, dst = chain.path[n - 1], chain.path[n]
        a = "25" if src == BAR else "0" if src == OFF else src
        b = "25" if dst == BAR else "0" if dst == OFF else dst
        out.append(f"{a}/{b}{'*' if chain.hits[n] else ''}")
    return out * chain.repeat


def _entry_text(action: MatAction) -> str:
    if action.kind == "play":
        assert action.dice is not None
        moves = [s for c in action.chains for s in _mat_step(c)]
        return f"{action.dice[0]}{action.dice[1]}: " + " ".join(moves)
    if action.kind == "double":
        return f" Doubles => {action.value}"
    if action.kind in ("beaver", "raccoon"):  # gnubg has one word for both
        return f" Beavers => {action.value}"
    return " Takes" if action.kind == "take" else " Drops"


def export_mat(match: MatMatch) -> str:
    """Write ``match`` in GNU Backgammon's .mat layout (fixed columns, own numbering).

    What the format cannot carry is said in a comment line, never written as something
    false: automatic doubles (no .mat entry turns the cube before the first roll) go into
    a header line that GNU Backgammon skips and :func:`parse_mat` reads back, and the
    doubles that follow them keep their true values.
    """
    notes = [
        f'; [Automatic doubles "Game {g.number}: {g.autodoubles} (cube {2 ** g.autodoubles} before the '
        f'first roll; the .mat format cannot say so, GNU Backgammon starts the cube at 1)"]'
        for g in match.games
        if g.autodoubles
    ]
    lines = [*match.headers, *notes, "", f" {match.length} point match", ""]
    for game in match.games:
        lines.append(f" Game {game.number}")
        left = f" {match.players[0]} : {game.score[0]}"
        lines.append(f"{left:<31} {match.players[1]} : {game.score[1]}")
        rows: dict[int, dict[str, str]] = {}
        for action in game.actions:
            rows.setdefault(action.move, {})[action.side] = _entry_text(action)
        for move in sorted(rows):
            row = rows[move]
            left_text = row.get("white", "")
            prefix = f"{move:>3}) "
            right_text = row.get("black", "")
            lines.append(f"{prefix}{left_text:<28} {right_text}".rstrip())
        if game.winner is not None and game.points is not None:
            pad = 6 if game.winner == "white" else 34
            unit = "point" if game.points == 1 else "points"
            lines.append(" " * pad + f"Wins {game.points} {unit}")
        lines.append("")
    return "\n".join(lines) + "\n"


def match_from_reports(
    records: list[tuple[Record, ReplayReport]],
    *,
    length: int = 0,
    players: tuple[str, str] = ("White", "Black"),
) -> MatMatch:
    """Build a .mat match from replayed records (ours, in any numbering) for export.

    The records are replayed once more to resolve who made each cube action (the book
    often prints them in commentary) and the takes it leaves implicit; plays are
    converted to each side's own numbering, the numbers GNU Backgammon expects.
    """
    match = MatMatch(length=length, players=players)
    score = [0, 0]
    for number, (record, report) in enumerate(records, start=1):
        game = MatGame(number, (score[0], score[1]), autodoubles=record.autodoubles)
        replayer = Replayer(record)
        replayer.run(record.events)
        for side, kind, payload in replayer.trace:
            if kind == "play":
                event: PlayEvent = payload
                if event.ply is None or event.ply.dice is None:
                    continue
                numbering = event.numbering or record.numbering
                chains = []
                for chain in event.ply.chains:
                    try:
                        indices = [replayer._index(lb, side, numbering) for lb in chain.path]
                    except ValueError:
                        continue
                    chains.append(
                        Chain(tuple(_label(i) for i in indices), chain.hits, chain.repeat)
                    )
                game.actions.append(
                    MatAction(0, side, "play", event.text, event.ply.dice, tuple(chains))
                )
            elif kind in ("offer", "take", "drop", "beaver", "raccoon"):
                mat_kind = "double" if kind == "offer" else kind
                value = payload if mat_kind in ("double", "beaver", "raccoon") else None
                game.actions.append(MatAction(0, side, mat_kind, kind, value=value))
        _number_rows(game)
        result: RecordResult | None = report.result
        if result is not None:
            game.winner, game.points = result.winner, result.points
            score[SIDES.index(result.winner)] += result.points
        match.games.append(game)
    return match


def _number_rows(game: MatGame) -> None:
    """Lay the actions out in rows the way GNU Backgammon does (White left, Black right)."""
    row = 0
    taken: set[str] = {"white", "black"}
    numbered = []
    for action in game.actions:
        if action.side in taken or (action.side == "white" and "black" in taken):
            row += 1
            taken = set()
        taken.add(action.side)
        numbered.append(replace(action, move=row))
    game.actions = numbered


def validate_mat_text(text: str, *, variant: str = "backgammon") -> MatchReport:
    return validate_match(parse_mat(text), variant=variant)


__all__ = [
    "MatAction",
    "MatGame",
    "MatMatch",
    "MatchReport",
    "crawford_game",
    "export_mat",
    "game_record",
    "looks_like_mat",
    "match_from_reports",
    "parse_mat",
    "validate_mat_text",
    "validate_match",
]
