"""The knockout bracket's geometry: where each match's box goes and how the lines join them.

Plain layout arithmetic on an :class:`~tournaments.standings_service.Event`
snapshot (published and finished rounds only); the page view in
:mod:`tournaments.public.views` renders the result as SVG. :func:`draw_diagrams`
draws each bracket of a drawn knockout (main, losers', grand final, consolations)
from the bracket's structure, with empty slots for the rounds not played yet (a slot
nobody can ever reach, such as the loser of a bye, says "bye", and a match of two
such slots is not drawn: :func:`tournaments.pairing.knockout.unreachable`);
:func:`bracket_svg` draws the played rounds of a cup entered without a drawn
bracket.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.access.visibility import public_rounds
from tournaments.pairing import knockout as ko
from tournaments.rounds.pairing_manager.reading import knockout_state, rounds_of
from tournaments.standings import format_score
from tournaments.standings_service import Event, Pairing

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


# ---------------------------------------------------------------------------------------------
# the whole draw from the bracket's structure: every bracket on its own, empty slots included
# ---------------------------------------------------------------------------------------------

#: Each bracket's heading, in the order they are drawn.
BRACKET_TITLES = {
    ko.MAIN: gettext_lazy("Main draw"),
    ko.THIRD_PLACE: gettext_lazy("Match for third place"),
    ko.LOSERS: gettext_lazy("Losers' bracket"),
    ko.GRAND_FINAL: gettext_lazy("Grand final"),
    ko.PROGRESSIVE: gettext_lazy("Progressive consolation"),
    ko.CONSOLATION: gettext_lazy("Consolation"),
    ko.LAST_CHANCE: gettext_lazy("Last chance"),
}


def _slot_label(src: ko.Source) -> str:
    """What an empty slot says until its player is known."""
    if src.kind == ko.WINNER:
        return _("winner of %(match)s") % {"match": src.match}
    if src.kind in (ko.LOSER, ko.FIRST_LOSS):
        return _("loser of %(match)s") % {"match": src.match}
    if src.kind in (ko.RESET_A, ko.RESET_B):
        return _("if needed")
    return ""


def draw_diagrams(
    tournament, section, event: Event, lang: str, *, bye_label: str, player_base: str
) -> list[dict[str, Any]] | None:
    """One SVG drawing per bracket of a knockout section, rounds not played yet as empty slots.

    Read from the bracket's structure (stored with round 1) and the confirmed
    results, so the draw sheet can be printed on day one and fills in as the
    event goes. ``None`` when the section has no published bracket (then the
    caller draws the played rounds only, :func:`bracket_svg`).
    """
    rounds = list(public_rounds(rounds_of(tournament, section)))
    if not rounds or "bracket" not in rounds[0].explanation:
        return None
    bracket, results, _scheduled = knockout_state(tournament, section)
    states = ko.resolve(bracket, results)
    by_number = {e.draw_number: e for e in event.entries.values() if e.draw_number is not None}
    played: dict[str, Pairing] = {}
    by_table = {(p.round_id, p.table): p for p in event.pairings}
    for rnd in rounds:
        for row in rnd.explanation.get("pairings", []):
            p = by_table.get((rnd.pk, row.get("table")))
            if row.get("match_id") and p is not None:
                played[row["match_id"]] = p
    dead = ko.unreachable(bracket)
    out = []
    for name, title in BRACKET_TITLES.items():
        # A match neither of whose slots anyone can reach is not drawn at all.
        own = [m for m in bracket.matches if m.bracket == name and not {(m.id, "a"), (m.id, "b")} <= dead]
        if own:
            svg = _one_bracket(own, states, played, by_number, lang, bye_label, player_base, dead)
            out.append({"title": title, "svg": svg})
    return out


def _one_bracket(matches, states, played, by_number, lang, bye_label, player_base, dead) -> dict[str, Any]:
    ids = {m.id for m in matches}
    columns = sorted({m.round for m in matches})
    col_of = {r: i for i, r in enumerate(columns)}
    y_of: dict[str, float] = {}
    last: dict[int, float] = {}
    boxes, lines = [], []
    for m in sorted(matches, key=lambda m: (m.round, m.position)):
        feeders = [s.match for s in (m.a, m.b) if s.match in ids and s.match in y_of]
        col = col_of[m.round]
        want = sum(y_of[f] for f in feeders) / len(feeders) if feeders else float(m.position - 1)
        y = max(want, last[col] + 1) if col in last else want
        y_of[m.id] = last[col] = y
        st = states[m.id]
        p = played.get(m.id)
        done = st.status == ko.DONE and p is not None and p.confirmed
        x, top = col * (BOX_W + COL_GAP), TOP + y * (BOX_H + ROW_GAP)
        sides = []
        for side, who, src in (("a", st.a, m.a), ("b", st.b, m.b)):
            if who is not None:
                info = by_number.get(who)
                sides.append((info.name(lang) if info else str(who), info))
            elif (m.id, side) in dead or st.status in (ko.WALKOVER, ko.VOID):
                sides.append((bye_label, None))
            else:
                sides.append((_slot_label(src), None))
        score_a = score_b = ""
        if done:
            flip = by_number.get(st.a) is not None and by_number[st.a].id != p.a
            score_a, score_b = (p.score_b, p.score_a) if flip else (p.score_a, p.score_b)
            score_a, score_b = (format_score(float(v)) if v is not None else "" for v in (score_a, score_b))
        if (st.status == ko.WALKOVER and st.a is None) or (m.id, "a") in dead:
            sides.reverse()  # the player who goes through on top, "bye" below, as in round 1
        first = sides[0][1]
        boxes.append(
            {
                "x": x, "y": top, "id": m.id,
                "a": sides[0][0], "b": sides[1][0],
                "score_a": score_a, "score_b": score_b,
                "win_a": st.winner is not None and (st.winner == st.a or st.status == ko.WALKOVER),
                "win_b": st.winner is not None and st.winner == st.b and st.status != ko.WALKOVER,
                "bye": st.status == ko.WALKOVER,
                "empty": st.status in (ko.WAITING, ko.VOID),
                "href": f"{player_base}{first.id}/" if first is not None else "",
            }
        )
        for f in feeders:
            fx = col_of[next(n.round for n in matches if n.id == f)] * (BOX_W + COL_GAP)
            fy = TOP + y_of[f] * (BOX_H + ROW_GAP)
            mid = fx + BOX_W + COL_GAP / 2
            lines.append(f"M{fx + BOX_W},{fy + BOX_H / 2} H{mid} V{top + BOX_H / 2} H{x}")
    height = max(last.values()) if last else 0
    return {
        "width": len(columns) * (BOX_W + COL_GAP) - COL_GAP + 2,
        "height": TOP + height * (BOX_H + ROW_GAP) + BOX_H + 2,
        "boxes": boxes,
        "lines": lines,
        "titles": [
            {"x": i * (BOX_W + COL_GAP) + BOX_W / 2, "number": r} for i, r in enumerate(columns)
        ],
        "box_w": BOX_W,
        "box_h": BOX_H,
        "half": BOX_H / 2,
    }


def section_drawings(event: Event, lang: str, *, bye_label: str, player_base: str) -> list[dict[str, Any]]:
    """Every section's drawings for the bracket page and the printed draw sheet (one place).

    A drawn bracket gives one drawing per bracket (empty slots included); a cup
    entered round by round without one gives the tree of its played rounds.
    """
    tournament = event.tournament
    sections = {str(s.pk): s for s in tournament.sections.all()}
    drawings: list[dict[str, Any]] = []
    for key, name in event.sections.items():
        diagrams = draw_diagrams(
            tournament, sections.get(key), event, lang, bye_label=bye_label, player_base=player_base
        )
        if diagrams is not None:
            for d in diagrams:
                title = f"{name} · {d['title']}" if name else str(d["title"])
                drawings.append({"title": title, "svg": d["svg"]})
            continue
        svg = bracket_svg(event, key, lang, bye_label=bye_label, player_base=player_base)
        if svg is not None:
            drawings.append({"title": name, "svg": svg})
    return drawings
