"""Crosstables: the book's N×N "Результаты матчей", and the Swiss table by rounds.

The book's layout (Part 9) reads down the columns: the cell in row *r*, column
*c* is "X:Y" where X is the **column** player's points against the row player,
and the "Итого" row sums each column's left numbers. Most software reads along
rows instead (X = the row player's points), so that is offered as
``CrosstableLayout.ROW`` with the totals in a column at the right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .ranking import Standings, compute_standings
from .types import Adjustment, Match, Player, Score, StandingsOptions


class CrosstableLayout(StrEnum):
    BOOK = "book"
    ROW = "row"


def format_score(value: Score) -> str:
    """5 → "5", 4.5 → "4½": halves appear where a drawn game scores ½."""
    whole = int(value)
    if value == whole:
        return str(whole)
    if abs(value - whole) == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{value:g}"


_FRACTIONS = {0: "", 1: "¼", 2: "½", 3: "¾"}


def format_value(value: float) -> str:
    """A standings number written as the scores are: 3, 3½, and the quarters a tie-break
    reaches when scores are halves (Sonneborn-Berger adds half of a drawn opponent's 2½:
    1¼); anything finer (a virtual opponent's average pace) to two decimals."""
    sign = "-" if value < 0 else ""
    quarters = abs(value) * 4
    if abs(quarters - round(quarters)) > 1e-9:
        return f"{value:.2f}".rstrip("0").rstrip(".")
    whole, rest = divmod(round(quarters), 4)
    if not rest:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}{_FRACTIONS[rest]}"


#: Marks of results not played out, as chess crosstables write them (a legend on every
#: crosstable page and export says so): "+" won by forfeit, "−" lost by forfeit (also
#: each side of a double forfeit), "⏱" after the score of a time forfeit.
FORFEIT_WIN, FORFEIT_LOSS, TIME_MARK = "+", "−", "⏱"


def marked(kind: str, result: float, text: str) -> str:
    """``text`` (a score) with the mark of its result kind, from the reader's side."""
    if kind in ("forfeit", "double_forfeit"):
        return (FORFEIT_WIN if result == 1.0 else FORFEIT_LOSS) + text
    if kind == "time_forfeit":
        return text + TIME_MARK
    return text


@dataclass(frozen=True, slots=True)
class CrossCell:
    """All matches of one pair (several in a double round robin), from the *reading* player's side."""

    scores: tuple[tuple[Score, Score], ...]
    results: tuple[float, ...]
    kinds: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        kinds = self.kinds or ("played",) * len(self.scores)
        return ", ".join(
            marked(k, r, f"{format_score(x)}:{format_score(y)}")
            for (x, y), r, k in zip(self.scores, self.results, kinds, strict=True)
        )

    @property
    def outcome(self) -> str:
        """ "win", "loss" or "draw" for the reading player overall, or "mixed" (1 win, 1 loss)."""
        total = sum(self.results)
        half = len(self.results) / 2
        if all(r == 1.0 for r in self.results):
            return "win"
        if all(r == 0.0 for r in self.results):
            return "loss"
        if total == half:
            return "draw" if all(r == 0.5 for r in self.results) else "mixed"
        return "win" if total > half else "loss"


@dataclass(frozen=True, slots=True)
class Crosstable:
    """``cells[r][c]`` for row player ``players[r]`` and column player ``players[c]``.

    ``totals[i]`` and ``places[i]`` belong to ``players[i]`` — shown under the
    columns in the book's layout, at the end of the rows in the row layout.
    """

    section: str
    layout: CrosstableLayout
    players: tuple[Player, ...]
    cells: tuple[tuple[CrossCell | None, ...], ...]
    totals: tuple[Score, ...]
    places: tuple[str, ...]
    adjustments: tuple[tuple[Adjustment, ...], ...] = ()
    """Per player, the rulings that changed their values; a penalty on game points is
    already in ``totals`` (so "Итого" agrees with the standings), and is marked."""
    not_counted: tuple[Player, ...] = ()
    """Players whose results the standings do not count (a round robin's withdrawal before
    half of the games, FIDE C.06 5.4.1, :func:`~.ranking.not_counted`): their games stay in
    the grid for the record, the others' totals leave them out (so "Итого" agrees with the
    standings), their own total is not shown (:meth:`total_text`), and the pages print a note."""

    def counted(self, i: int) -> bool:
        return self.players[i] not in self.not_counted

    def total_text(self, i: int) -> str:
        """ "27", "4½", or "—" for a player whose results are not counted."""
        return format_score(self.totals[i]) if self.counted(i) else "—"

    def text(self, r: int, c: int) -> str:
        cell = self.cells[r][c]
        return cell.text if cell is not None else ""


def build_crosstable(
    players: Sequence[Player],
    matches: Sequence[Match],
    options: StandingsOptions | None = None,
    *,
    section: str | None = None,
    layout: CrosstableLayout | str = CrosstableLayout.BOOK,
    order: str = "draw",
    standings: Standings | None = None,
    lineup: Sequence[int] = (),
) -> Crosstable:
    """The N×N table of one section's finished matches (byes are not cells).

    ``order="draw"`` lists players by draw number as in the book; ``"place"``
    by final place. Pass ``standings`` if already computed, to avoid ranking twice.

    ``lineup`` (player ids) comes first in the draw order: a Scheveningen event lists team
    A's players by board, then team B's, so each team's block of the grid is its
    line-up and the cross-team results sit in two rectangles — not teams mixed by the
    draw numbers the open draw gave out. Players not in it follow by draw number.
    """
    layout = CrosstableLayout(layout)
    standings = standings or compute_standings(players, matches, options, section=section)
    if order == "place":
        listed = [r.player for r in standings.rows]
    else:
        seat = {pid: i for i, pid in enumerate(lineup)}
        listed = sorted(
            (r.player for r in standings.rows),
            key=lambda p: (
                p.id not in seat, seat.get(p.id, 0),
                p.draw_number is None, p.draw_number or 0, p.name_ru, p.id,
            ),
        )  # fmt: skip
    index = {p.id: i for i, p in enumerate(listed)}
    n = len(listed)
    pair_scores: dict[tuple[int, int], list[tuple[Score, Score]]] = {}
    pair_results: dict[tuple[int, int], list[float]] = {}
    pair_kinds: dict[tuple[int, int], list[str]] = {}
    for m in matches:
        b = m.player_b
        if not m.finished or b is None or m.player_a not in index or b not in index:
            continue
        if m.kind == "void":
            continue
        a = m.player_a
        res_a = 0.5 if m.winner is None else (1.0 if m.winner == a else 0.0)
        res_b = 1.0 - res_a
        if m.kind == "double_forfeit":
            res_a = res_b = 0.0
        # Key (reader, other): the reader's points come first.
        pair_scores.setdefault((a, b), []).append((m.score_a, m.score_b))
        pair_results.setdefault((a, b), []).append(res_a)
        pair_kinds.setdefault((a, b), []).append(m.kind)
        pair_scores.setdefault((b, a), []).append((m.score_b, m.score_a))
        pair_results.setdefault((b, a), []).append(res_b)
        pair_kinds.setdefault((b, a), []).append(m.kind)
    gone = {r.player.id for r in standings.rows if not r.counted}
    cells: list[tuple[CrossCell | None, ...]] = []
    totals = [0.0] * n
    for r, row_player in enumerate(listed):
        row: list[CrossCell | None] = []
        for c, col_player in enumerate(listed):
            reader, other = (
                (col_player.id, row_player.id)
                if layout == CrosstableLayout.BOOK
                else (row_player.id, col_player.id)
            )
            scores = pair_scores.get((reader, other))
            if r == c or not scores:
                row.append(None)
                continue
            row.append(
                CrossCell(
                    tuple(scores),
                    tuple(pair_results[(reader, other)]),
                    tuple(pair_kinds[(reader, other)]),
                )
            )
            if other not in gone or reader in gone:
                totals[index[reader]] += sum(x for x, _ in scores)
        cells.append(tuple(row))
    places = standings.places()
    adjusted = tuple(standings.row(p.id).adjustments for p in listed)
    for i, adjustments in enumerate(adjusted):
        totals[i] += sum(a.amount for a in adjustments if a.metric == "points")
    return Crosstable(
        section=standings.section,
        layout=layout,
        players=tuple(listed),
        cells=tuple(cells),
        totals=tuple(int(t) if t == int(t) else t for t in totals),
        places=tuple(places[p.id] for p in listed),
        adjustments=adjusted,
        not_counted=tuple(p for p in listed if p.id in gone),
    )


OUTCOME_LETTERS = {
    "ru": {"win": "В", "loss": "П", "draw": "Н", "bye": "своб.", "pending": "…", "none": "",
           "forfeit_win": FORFEIT_WIN, "forfeit_loss": FORFEIT_LOSS, "void": "×"},
    "en": {"win": "W", "loss": "L", "draw": "D", "bye": "bye", "pending": "…", "none": "",
           "forfeit_win": FORFEIT_WIN, "forfeit_loss": FORFEIT_LOSS, "void": "×"},
}


@dataclass(frozen=True, slots=True)
class RoundCell:
    """One round of one player in a Swiss: whom they met, how it went, where they stood after."""

    round: int
    opponent: int | None
    opponent_row: int | None
    outcome: str
    score_for: Score
    score_against: Score
    running: float
    kind: str = "played"
    requested: float | None = None
    """A bye not given by the pairing (asked for in advance, a late entry's missed round): the
    result it scores (0, ½, 1); ``None`` for a pairing bye and every other cell."""

    def text(self, language: str = "ru", *, opponent_number: int | str | None = None) -> str:
        """ "12 W 5:3": the opponent's row number, the outcome letter, the match score.

        ``opponent_number`` names the opponent by another number instead of the row (the
        Excel export uses the draw number, the "No." of every one of its sheets)."""
        letters = OUTCOME_LETTERS["en" if language.startswith("en") else "ru"]
        if self.outcome == "bye" and self.requested is not None:
            # A bye the player asked for scores what the organiser's rule gives (½ as a rule,
            # FIDE C.04 "half-point bye"): "bye ½", never a bare "bye" that reads as a full point.
            return f"{letters['bye']} {format_score(self.requested)}"
        if self.outcome in ("bye", "none"):
            return letters[self.outcome]
        ref = self.opponent_row if opponent_number is None else opponent_number
        parts = [str(ref), letters[self.outcome]]
        if self.outcome not in ("pending", "void"):
            score = f"{format_score(self.score_for)}:{format_score(self.score_against)}"
            parts.append(score + (TIME_MARK if self.kind == "time_forfeit" else ""))
        return " ".join(p for p in parts if p)


@dataclass(frozen=True, slots=True)
class RoundRow:
    row: int
    player: Player
    place: str
    cells: tuple[RoundCell, ...]
    total: float
    """The running total after the last round plus the rulings' adjustments to the score basis
    (a penalty): the figure the standings show, on the page and in the workbook alike."""
    adjustments: tuple[Adjustment, ...] = ()
    """The rulings counted in ``total`` (the pages mark it with their marks)."""

    @property
    def mark(self) -> str:
        return "".join(dict.fromkeys(a.mark for a in self.adjustments))


@dataclass(frozen=True, slots=True)
class RoundCrosstable:
    """Rows in standings order; opponents are referred to by their row number."""

    section: str
    rounds: int
    basis: str
    rows: tuple[RoundRow, ...]


def build_round_crosstable(
    players: Sequence[Player],
    matches: Sequence[Match],
    options: StandingsOptions | None = None,
    *,
    section: str | None = None,
    standings: Standings | None = None,
) -> RoundCrosstable:
    """The Swiss crosstable by rounds: per player, round → opponent, result, running score."""
    standings = standings or compute_standings(players, matches, options, section=section)
    opts = standings.options
    by_points = opts.score_basis == "points"
    row_of = {r.player.id: i + 1 for i, r in enumerate(standings.rows)}
    per_player: dict[int, dict[int, Match]] = {pid: {} for pid in row_of}
    rounds = opts.total_rounds or 0
    for m in matches:
        if m.player_a not in row_of:
            continue
        rounds = max(rounds, m.round)
        per_player[m.player_a].setdefault(m.round, m)
        if m.player_b is not None and m.player_b in row_of:
            per_player[m.player_b].setdefault(m.round, m)
    out: list[RoundRow] = []
    for standing_row in standings.rows:
        pid = standing_row.player.id
        running = 0.0
        cells: list[RoundCell] = []
        for rnd in range(1, rounds + 1):
            m = per_player[pid].get(rnd)
            cell, gained = _round_cell(pid, rnd, m, row_of, opts.bye_is_win, by_points, running)
            running += gained
            cells.append(cell)
        basis = opts.score_basis or "wins"
        mine = tuple(a for a in standing_row.adjustments if a.metric == basis)
        total = running + sum(a.amount for a in mine)
        out.append(
            RoundRow(row_of[pid], standing_row.player, standing_row.place_label, tuple(cells), total, mine)
        )
    return RoundCrosstable(standings.section, rounds, opts.score_basis or "wins", tuple(out))


def _round_cell(
    pid: int,
    rnd: int,
    m: Match | None,
    row_of: dict[int, int],
    bye_is_win: bool,
    by_points: bool,
    running: float,
) -> tuple[RoundCell, float]:
    if m is None:
        return RoundCell(rnd, None, None, "none", 0, 0, running), 0.0
    mine = m.player_a == pid
    opponent = m.player_b if mine else m.player_a
    opponent_row = row_of.get(opponent) if opponent is not None else None
    if not m.finished:
        return RoundCell(rnd, opponent, opponent_row, "pending", 0, 0, running), 0.0
    score_for, score_against = (m.score_a, m.score_b) if mine else (m.score_b, m.score_a)
    if m.kind == "void":
        return RoundCell(rnd, opponent, opponent_row, "void", 0, 0, running, m.kind), 0.0
    requested = None
    if opponent is None:
        result, outcome = (1.0 if bye_is_win else 0.0), "bye"
        if m.bye_result is not None:
            result = requested = m.bye_result
    elif m.kind == "double_forfeit":
        result, outcome = 0.0, "forfeit_loss"
    elif m.kind == "forfeit":
        result = 1.0 if m.winner == pid else 0.0
        outcome = "forfeit_win" if result else "forfeit_loss"
    elif m.winner is None:
        result, outcome = 0.5, "draw"
    elif m.winner == pid:
        result, outcome = 1.0, "win"
    else:
        result, outcome = 0.0, "loss"
    gained = float(score_for) if by_points else result
    cell = RoundCell(
        rnd, opponent, opponent_row, outcome, score_for, score_against, running + gained, m.kind, requested
    )
    return cell, gained
