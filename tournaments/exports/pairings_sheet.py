"""Pairings: every round on one sheet, or one sheet per round ("Pairings 1", …)."""

from __future__ import annotations

from collections import defaultdict

from openpyxl import Workbook

from tournaments.standings import Match, Player, format_score

from .context import ExportData, start_number
from .labels import label, sheet_name
from .progress import Progress
from .sheet_setup import name_width, setup_sheet, write_title
from .styles import RowWriter

Row = list[tuple[object, str | None]]


def count(data: ExportData) -> int:
    return len(data.matches)


def _ordered(data: ExportData) -> dict[int, list[Match]]:
    section_of = {p.id: p.section for p in data.players}
    rank = {s: i for i, s in enumerate(data.sections)}
    by_round: dict[int, list[Match]] = defaultdict(list)
    for m in data.matches:
        by_round[m.round].append(m)
    for matches in by_round.values():
        matches.sort(
            key=lambda m: (
                rank.get(section_of.get(m.player_a, ""), 0),
                m.player_b is None,
                m.table is None,
                m.table or 0,
            )
        )
    return dict(sorted(by_round.items()))


def write(wb: Workbook, data: ExportData, progress: Progress) -> None:
    by_round = _ordered(data)
    name = sheet_name("pairings", data.language)
    if data.options.pairings_per_round:
        for rnd, matches in by_round.items():
            _write_sheet(wb, data, f"{name} {rnd}", {rnd: matches}, False, progress)
        if not by_round:
            _write_sheet(wb, data, name, {}, False, progress)
    else:
        _write_sheet(wb, data, name, by_round, True, progress)


def _write_sheet(
    wb: Workbook,
    data: ExportData,
    title: str,
    by_round: dict[int, list[Match]],
    round_column: bool,
    progress: Progress,
) -> None:
    lang = data.language
    players = {p.id: p for p in data.players}
    ws = wb.create_sheet(title)
    out = RowWriter(ws)
    names = [p.name(lang) for p in data.players]
    headers: list[str] = []
    widths: list[float] = []
    if round_column:
        headers.append(label("round", lang))
        widths.append(6)
    if data.multi_section:
        headers.append(label("section", lang))
        widths.append(name_width([data.info.section_name(s) for s in data.sections], 12, 30))
    fixed = len(headers)
    headers += [
        label("table", lang),
        label("number", lang),
        label("player_a", lang),
        label("score", lang),
        label("player_b", lang),
        label("number", lang),
        label("status", lang),
    ]
    widths += [6, 6, name_width(names), 9, name_width(names), 6, 14]
    setup_sheet(ws, widths, freeze_cols=fixed, date_columns=len(data.info.days))
    heading = label("pairings", lang)
    if not round_column and len(by_round) == 1:
        heading = f"{heading}, {label('round', lang).lower()} {next(iter(by_round))}"
    write_title(out, data, heading)
    out.append([(h, "header") for h in headers])
    for rnd, matches in by_round.items():
        for m in matches:
            a = players.get(m.player_a)
            b = players.get(m.player_b) if m.player_b is not None else None
            cells: Row = []
            if round_column:
                cells.append((rnd, None))
            if data.multi_section:
                cells.append((data.info.section_name(a.section if a else ""), None))
            cells.append((m.table if m.table is not None else "", None))
            cells += _match_cells(m, a, b, lang)
            out.append(cells)
            progress.advance()


def _match_cells(m: Match, a: Player | None, b: Player | None, lang: str) -> Row:
    """Number, name, score, name, number, status — winner and loser coloured."""
    number_a = start_number(a) if a else ""
    name_a = a.name(lang) if a else f"#{m.player_a}"
    if m.player_b is None:
        score = f"{format_score(m.score_a)}:{format_score(m.score_b)}" if m.finished else ""
        return [
            (number_a, None),
            (name_a, "winner_name" if m.finished else None),
            (score, "bye"),
            (label("bye", lang), "bye"),
            ("", None),
            (label("bye", lang), "bye"),
        ]
    number_b = start_number(b) if b else ""
    name_b = b.name(lang) if b else f"#{m.player_b}"
    if m.kind == "void":
        return [(number_a, None), (name_a, None), ("", None), (name_b, None), (number_b, None),
                (label("void", lang), "pending")]  # fmt: skip
    if not m.finished:
        pending = label("pending", lang)
        return [
            (number_a, None),
            (name_a, None),
            ("", None),
            (name_b, None),
            (number_b, None),
            (pending, "pending"),
        ]
    style_a: str | None
    style_b: str | None
    if m.winner is None:
        style_a = style_b = "draw"
        status = label("draw", lang)
    else:
        a_won = m.winner == m.player_a
        style_a, style_b = ("winner_name", "loser_name") if a_won else ("loser_name", "winner_name")
        status = ""  # the score and the colours already say it; keeps big sheets lean
    if m.kind == "double_forfeit":
        style_a = style_b = "loser_name"
    if m.kind != "played":
        status = label(m.kind, lang)
    score = f"{format_score(m.score_a)}:{format_score(m.score_b)}"
    return [
        (number_a, None),
        (name_a, style_a),
        (score, "number"),
        (name_b, style_b),
        (number_b, None),
        (status, None),
    ]
