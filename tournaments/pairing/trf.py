"""FIDE Tournament Report File (TRF-16) import and export.

Why TRF: it is what arbiters' tools (JaVaFo, bbpPairings, Swiss-Manager) read
and write, so a Zarik pairing can be cross-checked by software people already
trust. The reader is strict about columns and names the offending line; the
writer emits fixed columns, and ``parse_trf(dump_trf(t)) == t`` for every
tournament this module can represent.

Layout of a player line (1-based columns, TRF-16)::

    1-3 "001"   5-8 start number   10 sex   11-13 title   15-47 name
    49-52 rating   54-56 federation   58-68 FIDE id   70-79 birth date
    81-84 points   86-89 rank
    then per round r (r = 1, 2, …) at column 92 + 10·(r-1):
    4 chars opponent start number ("0000" = none), blank, colour (w/b/-),
    blank, result character.

Result characters: ``1 0 =`` played, ``W L D`` unrated played, ``+ -`` forfeit
win/loss, ``H`` half-point bye, ``F`` full-point bye, ``U`` pairing-allocated
bye, ``Z`` zero-point bye (absent). Forfeits count as games for the no-rematch
rule (the simplest reading for a club; FIDE lets forfeited pairs meet again).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.rules.errors import RuleViolation
from tournaments.pairing.history import Entrant, TableResult, build_players
from tournaments.pairing.problems import TRF
from tournaments.pairing.swiss_input import (
    ABSENT,
    HALF_BYE,
    PairingInput,
    SwissOptions,
)
from tournaments.pairing.types import BYE_ABSENT, BYE_PAIRING, BYE_REQUESTED

WIN = frozenset("1W+")
LOSS = frozenset("0L-")
DRAW = frozenset("=D")
BYE_CODES = frozenset("HFUZ")
RESULTS = WIN | LOSS | DRAW | BYE_CODES | {" "}
COLOURS = frozenset("wb- ")

_HEADER_FIELDS = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "042": "start_date",
    "052": "end_date",
    "092": "kind",
    "102": "chief_arbiter",
    "122": "time_control",
}


@dataclass(frozen=True, slots=True)
class TrfGame:
    """One round of one player line. ``opponent`` is ``None`` for "0000"."""

    round: int
    opponent: int | None
    colour: str
    result: str


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    start_number: int
    name: str
    rating: int = 0
    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    points: float = 0.0
    rank: int = 0
    games: tuple[TrfGame, ...] = ()


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """A tournament as TRF-16 carries it; unknown lines are kept verbatim, in order."""

    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: str = ""
    end_date: str = ""
    kind: str = ""
    chief_arbiter: str = ""
    time_control: str = ""
    rounds: int | None = None  # XXR
    bye_points: float | None = None  # BBU: points for a pairing-allocated bye
    players: tuple[TrfPlayer, ...] = ()
    other_lines: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------------


def _bad(lineno: int, line: str, name: str, **details: object) -> RuleViolation:
    """The first bad line of a file, coded in the ``pairing.trf`` catalogue."""
    return RuleViolation(TRF.problem(name, text=line, line=lineno, **details))


def _int(text: str, lineno: int, line: str, field: str) -> int:
    t = text.strip()
    if not t:
        return 0
    if not t.isdigit():
        raise _bad(lineno, line, "not_whole_number", field=field, found=t)
    return int(t)


def _float(text: str, lineno: int, line: str, field: str) -> float:
    t = text.strip()
    if not t:
        return 0.0
    try:
        return float(t)
    except ValueError:
        raise _bad(lineno, line, "not_number", field=field, found=t) from None


def _parse_player(line: str, lineno: int) -> TrfPlayer:
    if len(line) < 84:
        raise _bad(lineno, line, "short_line", length=len(line))
    padded = line.ljust(91)
    start = _int(padded[4:8], lineno, line, "start")
    if start < 1:
        raise _bad(lineno, line, "no_start_number")
    games: list[TrfGame] = []
    rest = padded[91:]
    rnd = 0
    while rest.strip():
        rnd += 1
        block = rest[:10].ljust(10)
        rest = rest[10:]
        if not block.strip():
            continue
        col = 92 + 10 * (rnd - 1)
        opp_text, colour, result = block[0:4], block[5], block[7]
        if not opp_text.strip().isdigit():
            raise _bad(
                lineno, line, "bad_opponent", round=rnd, column=col, found=opp_text.strip()
            )
        if colour not in COLOURS or result not in RESULTS:
            raise _bad(
                lineno, line, "bad_code", round=rnd, column=col, colour=colour, result=result
            )
        opponent = int(opp_text) or None
        if opponent is None and result not in BYE_CODES | {"-", " "}:
            raise _bad(lineno, line, "bye_result", round=rnd, result=result)
        games.append(TrfGame(rnd, opponent, colour, result))
    return TrfPlayer(
        start_number=start,
        sex=padded[9].strip(),
        title=padded[10:13].strip(),
        name=padded[14:47].strip(),
        rating=_int(padded[48:52], lineno, line, "rating"),
        federation=padded[53:56].strip(),
        fide_id=padded[57:68].strip(),
        birth_date=padded[69:79].strip(),
        points=_float(padded[80:84], lineno, line, "points"),
        rank=_int(padded[85:89], lineno, line, "rank"),
        games=tuple(games),
    )


def parse_trf(text: str) -> TrfTournament:
    """Read a TRF-16 file; raise ``RuleViolation`` naming the first bad line."""
    fields: dict[str, object] = {}
    players: list[TrfPlayer] = []
    lines_of: dict[int, int] = {}
    texts: dict[int, str] = {}
    other: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        code = line[:3]
        value = line[4:].rstrip()
        if code == "001":
            p = _parse_player(line.rstrip(), lineno)
            if p.start_number in lines_of:
                raise _bad(
                    lineno,
                    line,
                    "start_reused",
                    start=p.start_number,
                    first_line=lines_of[p.start_number],
                )
            lines_of[p.start_number] = lineno
            texts[p.start_number] = line
            players.append(p)
        elif code in _HEADER_FIELDS:
            fields[_HEADER_FIELDS[code]] = value
        elif code == "XXR":
            fields["rounds"] = _int(value, lineno, line, "rounds")
        elif code == "BBU":
            fields["bye_points"] = _float(value, lineno, line, "bye_points")
        elif code == "062":
            continue  # number of players: derived, rewritten on export
        elif len(code) == 3 and (code.isdigit() or code.isalpha()):
            other.append(line.rstrip())
        else:
            raise _bad(lineno, line, "unknown_code", code=code)
    if not players:
        # An empty file, blank lines or a header alone would otherwise "pair" nobody and
        # look like success; the arbiter most likely exported the wrong file.
        lines = sum(1 for raw in text.splitlines() if raw.strip())
        raise RuleViolation(TRF.problem("no_players", lines=lines))
    _check_symmetry(players, lines_of, texts)
    return TrfTournament(players=tuple(players), other_lines=tuple(other), **fields)  # type: ignore[arg-type]


def _check_symmetry(
    players: list[TrfPlayer], lines_of: dict[int, int], texts: dict[int, str]
) -> None:
    games = {(p.start_number, g.round): g for p in players for g in p.games}
    for p in players:
        for g in p.games:
            if g.opponent is None:
                continue
            lineno = lines_of[p.start_number]
            if g.opponent not in lines_of:
                raise _bad(
                    lineno, texts[p.start_number], "no_player_line", round=g.round,
                    opponent=g.opponent,
                )
            back = games.get((g.opponent, g.round))
            if back is None or back.opponent != p.start_number:
                raise _bad(
                    lineno,
                    texts[p.start_number],
                    "asymmetric",
                    round=g.round,
                    start=p.start_number,
                    opponent=g.opponent,
                    other_line=lines_of[g.opponent],
                )


# ---------------------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------------------


def _points(x: float) -> str:
    return f"{x:4.1f}"


def dump_trf(t: TrfTournament) -> str:
    """Write fixed-column TRF-16 text (names longer than 33 characters are cut)."""
    out: list[str] = []
    for code, attr in _HEADER_FIELDS.items():
        value = getattr(t, attr)
        if value:
            out.append(f"{code} {value}")
    out.append(f"062 {len(t.players)}")
    if t.rounds is not None:
        out.append(f"XXR {t.rounds}")
    if t.bye_points is not None:
        out.append(f"BBU {_points(t.bye_points).strip()}")
    out.extend(t.other_lines)
    for p in t.players:
        head = (
            f"001 {p.start_number:>4} {p.sex:1}{p.title:>3} {p.name[:33]:<33} "
            f"{(p.rating or ''):>4} {p.federation:>3} {p.fide_id:>11} {p.birth_date:>10} "
            f"{_points(p.points)} {(p.rank or ''):>4}"
        )
        head = head.ljust(89) + "  "
        blocks = []
        by_round = {g.round: g for g in p.games}
        last = max(by_round, default=0)
        for r in range(1, last + 1):
            g = by_round.get(r)
            if g is None:
                blocks.append(" " * 8)
            else:
                blocks.append(f"{(g.opponent or 0):04d} {g.colour} {g.result}")
        out.append((head + "  ".join(blocks)).rstrip())
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# conversion to and from the pairing model
# ---------------------------------------------------------------------------------------------


def _game_points(result: str, bye_points: float) -> float:
    if result in WIN or result == "F":
        return 1.0
    if result in DRAW or result == "H":
        return 0.5
    if result == "U":
        return bye_points
    return 0.0


def played_rounds(t: TrfTournament) -> int:
    """Rounds that have been paired: any game or pairing bye recorded in them."""
    rounds = [g.round for p in t.players for g in p.games if g.opponent or g.result == "U"]
    return max(rounds, default=0)


def to_results(t: TrfTournament) -> tuple[list[Entrant], list[TableResult]]:
    """The tournament as entrants and table results (rounds already paired only)."""
    bye_value = 1.0 if t.bye_points is None else t.bye_points
    done = played_rounds(t)
    entrants = [Entrant(p.start_number, p.start_number, p.rating) for p in t.players]
    games = {(p.start_number, g.round): g for p in t.players for g in p.games}
    results: list[TableResult] = []
    for p in t.players:
        for g in p.games:
            if g.round > done:
                continue
            if g.opponent is None:
                kind = {"U": BYE_PAIRING, "H": BYE_REQUESTED, "F": BYE_REQUESTED}.get(
                    g.result, BYE_ABSENT
                )
                pts = _game_points(g.result, bye_value)
                results.append(TableResult(g.round, p.start_number, None, pts, kind=kind))
            elif p.start_number < g.opponent:
                back = games[(g.opponent, g.round)]
                white = None
                if g.colour == "w":
                    white = p.start_number
                elif g.colour == "b":
                    white = g.opponent
                results.append(
                    TableResult(
                        g.round,
                        p.start_number,
                        g.opponent,
                        _game_points(g.result, bye_value),
                        _game_points(back.result, bye_value),
                        white=white,
                    )
                )
    return entrants, results


def to_pairing_input(t: TrfTournament, options: SwissOptions | None = None) -> PairingInput:
    """The next round to pair, with requested byes/absences pre-entered for that round."""
    if options is None:
        bye = 1.0 if t.bye_points is None else t.bye_points
        options = SwissOptions(bye_points=bye)
    entrants, results = to_results(t)
    nxt = played_rounds(t) + 1
    statuses = {}
    for p in t.players:
        for g in p.games:
            if g.round == nxt and g.opponent is None:
                statuses[p.start_number] = HALF_BYE if g.result in "HF" else ABSENT
    players = build_players(entrants, results, statuses, score=options.score)
    return PairingInput(nxt, players, options)


def from_results(
    entrants: list[Entrant],
    results: list[TableResult],
    names: dict[int, str] | None = None,
    name: str = "",
    rounds: int | None = None,
    bye_points: float | None = None,
) -> TrfTournament:
    """Build a TRF tournament from table results; start numbers are the draw numbers."""
    names = names or {}
    number = {e.id: e.draw_number for e in entrants}
    games: dict[int, list[TrfGame]] = {e.id: [] for e in entrants}
    points = {e.id: 0.0 for e in entrants}
    for r in results:
        if r.b is None:
            code = {BYE_PAIRING: "U", BYE_REQUESTED: "H" if r.a_points < 1 else "F"}.get(
                r.kind, "Z"
            )
            games[r.a].append(TrfGame(r.round, None, "-", code))
            points[r.a] += r.a_points
            continue
        for me, other, mine, theirs in ((r.a, r.b, r.a_points, r.b_points),
                                        (r.b, r.a, r.b_points, r.a_points)):  # fmt: skip
            colour = "-" if r.white is None else ("w" if r.white == me else "b")
            code = "1" if mine > theirs else "0" if mine < theirs else "="
            games[me].append(TrfGame(r.round, number[other], colour, code))
            points[me] += mine
    order = sorted(entrants, key=lambda e: (-points[e.id], e.draw_number))
    rank = {e.id: i for i, e in enumerate(order, start=1)}
    players = tuple(
        TrfPlayer(
            start_number=e.draw_number,
            name=names.get(e.id, f"Player {e.draw_number}"),
            rating=e.rating,
            points=points[e.id],
            rank=rank[e.id],
            games=tuple(sorted(games[e.id], key=lambda g: g.round)),
        )
        for e in sorted(entrants, key=lambda e: e.draw_number)
    )
    return TrfTournament(name=name, rounds=rounds, bye_points=bye_points, players=players)
