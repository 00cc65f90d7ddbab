"""The knockout bracket's geometry: where each match's box goes and how the lines join them.

Plain layout arithmetic on an :class:`~tournaments.standings_service.Event`
snapshot (published and finished rounds only); the page view in
:mod:`tournaments.public_views` renders the result as SVG.
"""

from __future__ import annotations

from typing import Any

from .standings import format_score
from .standings_service import Event, Pairing

BOX_W, BOX_H, COL_GAP, ROW_GAP, TOP = 210, 44, 46, 14, 28


def bracket_columns(event: Event, section: str) -> list[tuple[int, list[tuple[Pairing, float]]]]:
    """Rounds left to right; each match placed level with the matches its players came from.

    The first round is listed by table; a later match sits midway between the
    earlier matches of its two players, which draws the usual tree. Matches
    nobody feeds (a play-off for third place) go below, never on top of another.
    """
    by_round: dict[int, list[Pairing]] = {}
    for p in event.pairings:
        if p.section == section:
            by_round.setdefault(p.round, []).append(p)
    columns: list[tuple[int, list[tuple[Pairing, float]]]] = []
    position: dict[int, float] = {}
    previous: list[Pairing] = []
    for number in sorted(by_round):
        matches = sorted(by_round[number], key=lambda p: (p.table is None, p.table or 0, p.id))
        fed_from = {pid: m for m in previous for pid in (m.a, m.b) if pid is not None}
        wanted: list[tuple[float, Pairing]] = []
        for i, m in enumerate(matches):
            feeders = [fed_from[pid] for pid in (m.a, m.b) if pid in fed_from]
            if feeders:
                wanted.append((sum(position[f.id] for f in feeders) / len(feeders), m))
            else:
                wanted.append((float(i) if not previous else float("inf"), m))
        placed: list[tuple[Pairing, float]] = []
        last = -1.0
        for want, m in sorted(wanted, key=lambda item: (item[0], item[1].table or 0)):
            y = want if want != float("inf") else last + 1
            y = max(y, last + 1) if placed else y
            position[m.id] = y
            placed.append((m, y))
            last = y
        columns.append((number, placed))
        previous = matches
    return columns


def bracket_svg(
    event: Event, section: str, lang: str, *, bye_label: str, player_base: str
) -> dict[str, Any] | None:
    """Boxes, connector paths and round titles of one section's bracket, in SVG units."""
    columns = bracket_columns(event, section)
    if not columns:
        return None
    boxes, lines = [], []
    where: dict[int, tuple[float, float]] = {}
    max_y = 0.0
    for col, (_number, placed) in enumerate(columns):
        x = col * (BOX_W + COL_GAP)
        for m, slot in placed:
            y = TOP + slot * (BOX_H + ROW_GAP)
            max_y = max(max_y, y)
            a = event.entries[m.a]
            b = event.entries.get(m.b) if m.b is not None else None
            done = m.confirmed and m.score_a is not None and m.score_b is not None
            boxes.append(
                {
                    "x": x,
                    "y": y,
                    "a": a.name(lang),
                    "b": b.name(lang) if b else bye_label,
                    "score_a": format_score(float(m.score_a)) if done else "",
                    "score_b": format_score(float(m.score_b)) if done else "",
                    "win_a": done and m.winner == "a" or m.is_bye,
                    "win_b": done and m.winner == "b",
                    "bye": m.is_bye,
                    "href": f"{player_base}{m.a}/",
                }
            )
            where[m.id] = (x, y)
        if col:
            prev_matches = [m for m, _slot in columns[col - 1][1]]
            fed_from = {pid: m for m in prev_matches for pid in (m.a, m.b) if pid is not None}
            for m, _slot in placed:
                x2, y2 = where[m.id]
                for pid in (m.a, m.b):
                    feeder = fed_from.get(pid)
                    if feeder is None:
                        continue
                    x1, y1 = where[feeder.id]
                    mid = x1 + BOX_W + COL_GAP / 2
                    lines.append(f"M{x1 + BOX_W},{y1 + BOX_H / 2} H{mid} V{y2 + BOX_H / 2} H{x2}")
    titles = [
        {"x": col * (BOX_W + COL_GAP) + BOX_W / 2, "number": number}
        for col, (number, _placed) in enumerate(columns)
    ]
    return {
        "width": len(columns) * (BOX_W + COL_GAP) - COL_GAP + 2,
        "height": max_y + BOX_H + 2,
        "boxes": boxes,
        "lines": lines,
        "titles": titles,
        "box_w": BOX_W,
        "box_h": BOX_H,
        "half": BOX_H / 2,
    }
