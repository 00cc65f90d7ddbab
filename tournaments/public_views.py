"""Public pages of a released tournament: overview, pairings, standings, crosstables,
players, the knockout bracket, printable sheets and the Excel export.

Every page body is a *fragment* rendered from one :func:`load_event` snapshot
(a fixed handful of queries whatever the size of the event) and cached under
the tournament's cache version (:mod:`tournaments.cache`), so a repeat visit
costs one query (the tournament itself) until a result or pairing changes.
Only the frame around the fragment (menu, language switch, search box) is
rendered per request. Bad parameters give a clear message with a 400/404
status, never a 500.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from tournaments import standings as core
from tournaments.exports.labels import label as book_label

from . import cache as page_cache
from . import export_tasks
from .models import CompetitionSystem, Tournament
from .permissions import tournament_view
from .standings_service import Event, Pairing, find_entries, is_knockout, load_event

LIVE_REFRESH_TEMPLATE = "scoring/_live_refresh.html"
GRID_LIMIT = 60
"""Sections larger than this get the table by rounds instead of an N×N grid."""
SEARCH_MAX = 80
LAYOUTS = {"book": core.CrosstableLayout.BOOK, "rows": core.CrosstableLayout.ROW}
LAYOUTS["row"] = core.CrosstableLayout.ROW


def _lang() -> str:
    return "en" if (get_language() or "ru").startswith("en") else "ru"


@dataclass(frozen=True, slots=True)
class Fragment:
    """A cached page body and the status it is served with."""

    html: str
    status: int = 200
    title: str = ""


def _fragment(
    tournament: Tournament,
    name: str,
    build: Callable[[Event], Fragment],
    params: dict[str, object] | None = None,
) -> Fragment:
    return page_cache.cached_fragment(
        tournament.pk, name, lambda: build(load_event(tournament)), params
    )


def player_url_prefix(slug: str) -> str:
    """ "/t/<slug>/player/": templates append "<id>/" (a {% url %} per row of a
    1,000-player table costs more than the rest of the page)."""
    sample = reverse("public-player", kwargs={"slug": slug, "entry_id": 0})
    assert sample.endswith("/0/"), sample
    return sample[: -len("0/")]


def _render_fragment(
    template: str, event: Event, status: int = 200, title: str = "", **ctx
) -> Fragment:
    base = {
        "tournament": event.tournament,
        "event": event,
        "lang": _lang(),
        "player_base": player_url_prefix(event.tournament.slug),
    }
    return Fragment(render_to_string(template, {**base, **ctx}), status, title)


def _page(
    request,
    tournament: Tournament,
    fragment: Fragment,
    *,
    page: str,
    template: str = "public/page.html",
    **ctx: Any,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "page": page,
        "body": mark_safe(fragment.html),  # rendered by our own autoescaping templates
        "page_title": fragment.title,
        **ctx,
    }
    return render(request, template, context, status=fragment.status)


def _message(request, tournament: Tournament, title: str, text: str, status: int) -> HttpResponse:
    return render(
        request,
        "public/message.html",
        {"tournament": tournament, "page_title": title, "message": text, "page": ""},
        status=status,
    )


def _live_refresh_template() -> str | None:
    """helper-6's auto-refresh snippet, if the scoring app provides it."""
    try:
        get_template(LIVE_REFRESH_TEMPLATE)
    except TemplateDoesNotExist:
        return None
    return LIVE_REFRESH_TEMPLATE


# --- shared row building -------------------------------------------------------------


def _number(value: float | None) -> str:
    if value is None:
        return ""
    if value == int(value):
        return str(int(value))
    return core.format_score(value) if abs(value * 2 - round(value * 2)) < 1e-9 else f"{value:.2f}"


def _section_title(event: Event, key: str) -> str:
    return event.sections.get(key) or ""


def _standings_blocks(event: Event, lang: str) -> list[dict[str, Any]]:
    blocks = []
    for key, table in event.standings.items():
        metrics = table.metrics
        rows = []
        for r in table.rows:
            entry = event.entries[r.player.id]
            rows.append(
                {
                    "place": r.place_label,
                    "shared": r.shared,
                    "entry": entry,
                    "name": entry.name(lang),
                    "withdrawn": r.player.withdrawn,
                    "values": [_number(r.values.get(m.key)) for m in metrics],
                }
            )
        blocks.append(
            {
                "key": key,
                "title": _section_title(event, key),
                "metrics": [{"abbr": m.abbr(lang), "name": m.name(lang)} for m in metrics],
                "rows": rows,
            }
        )
    return blocks


def _champion(event: Event, lang: str) -> dict[str, Any] | None:
    decision = event.champion
    if decision is None:
        return None
    return {
        "champion": event.entries[decision.champion.id].name(lang) if decision.champion else "",
        "playoff": decision.playoff_required,
        "candidates": [event.entries[p.id].name(lang) for p in decision.candidates],
    }


def _problems(event: Event, lang: str) -> list[str]:
    return [p.message(lang) for p in event.option_problems]


# --- overview --------------------------------------------------------------------------


@require_safe
@tournament_view("tournament.view")
def overview(request, tournament: Tournament) -> HttpResponse:
    def build(event: Event) -> Fragment:
        lang = _lang()
        current = event.current_rounds()
        progress = []
        for rnd in current:
            pairings = event.pairings_of_round([rnd.id])
            games = [p for p in pairings if not p.is_bye]
            progress.append(
                {
                    "round": rnd,
                    "section": _section_title(event, rnd.section),
                    "done": sum(1 for p in games if p.confirmed),
                    "total": len(games),
                }
            )
        leaders = [{**block, "rows": block["rows"][:3]} for block in _standings_blocks(event, lang)]
        return _render_fragment(
            "public/_overview.html",
            event,
            title=_("Overview"),
            players=len(event.entries),
            rounds_played=len(event.round_numbers()),
            progress=progress,
            leaders=leaders,
            champion=_champion(event, lang),
        )

    return _page(request, tournament, _fragment(tournament, "overview", build), page="overview")


# --- pairings --------------------------------------------------------------------------


def _round_param(request) -> int | None | str:
    raw = request.GET.get("round", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 1000:
        return raw
    return int(raw)


def _pairing_rows(event: Event, pairings: Sequence[Pairing], lang: str, found: set[int]):
    rows = []
    for p in pairings:
        a = event.entries[p.a]
        b = event.entries[p.b] if p.b is not None else None
        rows.append(
            {
                "p": p,
                "a": a,
                "b": b,
                "name_a": a.name(lang),
                "name_b": b.name(lang) if b else "",
                "found": p.a in found or (p.b is not None and p.b in found),
                "score": f"{p.score_a}:{p.score_b}"
                if p.confirmed and p.score_a is not None and p.score_b is not None
                else "",
            }
        )
    return rows


def _pairings_fragment(event: Event, round_number: int | None, query: str) -> Fragment:
    lang = _lang()
    if round_number is None:
        rounds = event.current_rounds()
    else:
        rounds = [r for r in event.rounds if r.number == round_number]
        if not rounds:
            published = ", ".join(str(n) for n in event.round_numbers()) or "—"
            return _render_fragment(
                "public/_notice.html",
                event,
                status=404,
                title=_("Pairings"),
                notice=_("Round %(n)s has not been published. Published rounds: %(list)s.")
                % {"n": round_number, "list": published},
            )
    found = set(find_entries(event, query)) if query else set()
    blocks = []
    hits = []
    for rnd in rounds:
        pairings = event.pairings_of_round([rnd.id])
        rows = _pairing_rows(event, pairings, lang, found)
        blocks.append({"round": rnd, "section": _section_title(event, rnd.section), "rows": rows})
        for row in rows:
            p = row["p"]
            for side, entry in (("a", row["a"]), ("b", row["b"])):
                if entry is None or entry.id not in found:
                    continue
                other = row["b"] if side == "a" else row["a"]
                hits.append(
                    {
                        "name": entry.name(lang),
                        "round": rnd.number,
                        "section": _section_title(event, rnd.section),
                        "table": p.table,
                        "opponent": other.name(lang) if other else "",
                        "bye": other is None,
                    }
                )
    return _render_fragment(
        "public/_pairings.html",
        event,
        title=_("Pairings"),
        blocks=blocks,
        query=query,
        hits=hits,
        rounds=event.round_numbers(),
        selected=round_number,
    )


def _pairings_args(request, tournament: Tournament):
    round_number = _round_param(request)
    if isinstance(round_number, str):
        return (
            None,
            None,
            _message(
                request,
                tournament,
                _("Pairings"),
                _("“%(value)s” is not a round number.") % {"value": round_number[:20]},
                400,
            ),
        )
    query = " ".join(request.GET.get("q", "").split())[:SEARCH_MAX]
    return round_number, query, None


@require_safe
@tournament_view("tournament.view")
def pairings(request, tournament: Tournament) -> HttpResponse:
    round_number, query, error = _pairings_args(request, tournament)
    if error:
        return error
    fragment = _fragment(
        tournament,
        "pairings",
        lambda event: _pairings_fragment(event, round_number, query),
        {"round": round_number, "q": query.casefold()},
    )
    return _page(
        request,
        tournament,
        fragment,
        page="pairings",
        template="public/pairings.html",
        query=query,
        round_number=round_number,
        live_refresh=_live_refresh_template(),
    )


@require_safe
@tournament_view("tournament.view")
def pairings_print(request, tournament: Tournament) -> HttpResponse:
    round_number, _query, error = _pairings_args(request, tournament)
    if error:
        return error
    fragment = _fragment(
        tournament,
        "pairings",
        lambda event: _pairings_fragment(event, round_number, ""),
        {"round": round_number, "q": ""},
    )
    return _page(request, tournament, fragment, page="pairings", template="public/print.html")


# --- standings ---------------------------------------------------------------------------


def _standings_fragment(event: Event) -> Fragment:
    lang = _lang()
    return _render_fragment(
        "public/_standings.html",
        event,
        title=_("Standings"),
        blocks=_standings_blocks(event, lang),
        champion=_champion(event, lang),
        problems=_problems(event, lang),
    )


@require_safe
@tournament_view("tournament.view")
def standings(request, tournament: Tournament) -> HttpResponse:
    fragment = _fragment(tournament, "standings", _standings_fragment)
    print_url = reverse("public-standings-print", kwargs={"slug": tournament.slug})
    return _page(request, tournament, fragment, page="standings", print_url=print_url)


@require_safe
@tournament_view("tournament.view")
def standings_print(request, tournament: Tournament) -> HttpResponse:
    fragment = _fragment(tournament, "standings", _standings_fragment)
    return _page(request, tournament, fragment, page="standings", template="public/print.html")


# --- crosstables -------------------------------------------------------------------------


def _section_param(request) -> str | None:
    raw = request.GET.get("section", "").strip()
    return raw or None


def _pick_sections(event: Event, section: str | None) -> list[str] | None:
    if section is None:
        return list(event.standings)
    return [section] if section in event.standings else None


def _unknown_section(event: Event, section: str, title: str) -> Fragment:
    return _render_fragment(
        "public/_notice.html",
        event,
        status=404,
        title=title,
        notice=_("This tournament has no section “%(value)s”.") % {"value": section[:40]},
    )


def _grid_fragment(event: Event, layout: core.CrosstableLayout, section: str | None) -> Fragment:
    lang = _lang()
    title = _("Crosstable")
    keys = _pick_sections(event, section)
    if keys is None:
        return _unknown_section(event, section or "", title)
    blocks = []
    for key in keys:
        table = event.standings[key]
        block: dict[str, Any] = {"key": key, "title": _section_title(event, key)}
        if len(table.rows) > GRID_LIMIT:
            block["too_big"] = len(table.rows)
            blocks.append(block)
            continue
        grid = core.build_crosstable(
            event.players, event.matches, event.options, section=key, layout=layout, standings=table
        )
        numbers = [
            p.draw_number if p.draw_number is not None else i + 1
            for i, p in enumerate(grid.players)
        ]
        rows = []
        for r, player in enumerate(grid.players):
            cells = []
            for c in range(len(grid.players)):
                cell = grid.cells[r][c]
                cells.append(
                    {
                        "text": cell.text if cell else "",
                        "outcome": cell.outcome if cell else "",
                        "diagonal": r == c,
                    }
                )
            rows.append(
                {
                    "number": numbers[r],
                    "entry": event.entries[player.id],
                    "name": event.entries[player.id].name(lang),
                    "cells": cells,
                    "total": _number(grid.totals[r]),
                    "place": grid.places[r],
                }
            )
        block.update(
            numbers=numbers,
            rows=rows,
            totals=[_number(t) for t in grid.totals],
            places=list(grid.places),
        )
        blocks.append(block)
    return _render_fragment(
        "public/_crosstable.html",
        event,
        title=title,
        blocks=blocks,
        book=layout == core.CrosstableLayout.BOOK,
        problems=_problems(event, lang),
        # The book's own words ("Итого:", "Место"), shared with the Excel sheet.
        total_label=book_label("total", lang),
        place_label=book_label("place", lang),
    )


@require_safe
@tournament_view("tournament.view")
def crosstable(request, tournament: Tournament) -> HttpResponse:
    raw_layout = request.GET.get("layout", "book").strip() or "book"
    layout = LAYOUTS.get(raw_layout)
    if layout is None:
        return _message(
            request,
            tournament,
            _("Crosstable"),
            _("Unknown layout “%(value)s”: use “book” (the book's, by columns) or “rows”.")
            % {"value": raw_layout[:20]},
            400,
        )
    section = _section_param(request)
    fragment = _fragment(
        tournament,
        "crosstable",
        lambda event: _grid_fragment(event, layout, section),
        {"layout": layout.value, "section": section},
    )
    return _page(
        request,
        tournament,
        fragment,
        page="crosstable",
        template="public/crosstable.html",
        layout=layout.value,
        section=section or "",
    )


def _rounds_fragment(event: Event, section: str | None) -> Fragment:
    lang = _lang()
    title = _("Crosstable by rounds")
    keys = _pick_sections(event, section)
    if keys is None:
        return _unknown_section(event, section or "", title)
    blocks = []
    for key in keys:
        table = core.build_round_crosstable(
            event.players, event.matches, event.options, section=key, standings=event.standings[key]
        )
        rows = []
        for row in table.rows:
            entry = event.entries[row.player.id]
            rows.append(
                {
                    "row": row.row,
                    "place": row.place,
                    "entry": entry,
                    "name": entry.name(lang),
                    "cells": [
                        {
                            "text": cell.text(lang),
                            "outcome": cell.outcome,
                            "running": _number(cell.running),
                        }
                        for cell in row.cells
                    ],
                    "total": _number(row.total),
                }
            )
        blocks.append(
            {
                "key": key,
                "title": _section_title(event, key),
                "rounds": list(range(1, table.rounds + 1)),
                "rows": rows,
                "basis": table.basis,
            }
        )
    return _render_fragment("public/_crosstable_rounds.html", event, title=title, blocks=blocks)


@require_safe
@tournament_view("tournament.view")
def crosstable_rounds(request, tournament: Tournament) -> HttpResponse:
    section = _section_param(request)
    fragment = _fragment(
        tournament,
        "crosstable-rounds",
        lambda event: _rounds_fragment(event, section),
        {"section": section},
    )
    return _page(request, tournament, fragment, page="crosstable")


# --- a player's page ---------------------------------------------------------------------


def _player_fragment(event: Event, entry_id: int) -> Fragment:
    lang = _lang()
    entry = event.entries.get(entry_id)
    if entry is None:
        return _render_fragment(
            "public/_notice.html",
            event,
            status=404,
            title=_("Player"),
            notice=_("No player #%(id)s in this tournament.") % {"id": entry_id},
        )
    table = event.standings.get(entry.section)
    standing = None
    if table is not None:
        try:
            standing = table.row(entry_id)
        except KeyError:
            standing = None
    metrics = []
    if standing is not None:
        metrics = [
            {"name": m.name(lang), "value": _number(standing.values.get(m.key))}
            for m in table.metrics
        ]
    matches = []
    for p in event.pairings_of_entry(entry_id):
        mine = p.side_of(entry_id)
        other_id = p.b if mine == "a" else p.a
        other = event.entries.get(other_id) if other_id is not None else None
        if p.is_bye:
            outcome = "bye"
        elif not p.confirmed or p.score_a is None or p.score_b is None:
            outcome = "pending"
        elif not p.winner:
            outcome = "draw"
        else:
            outcome = "win" if p.winner == mine else "loss"
        score = ""
        if outcome in ("win", "loss", "draw"):
            mine_score, their = (p.score_a, p.score_b) if mine == "a" else (p.score_b, p.score_a)
            score = f"{mine_score}:{their}"
        matches.append(
            {
                "p": p,
                "opponent": other,
                "opponent_name": other.name(lang) if other else "",
                "outcome": outcome,
                "score": score,
            }
        )
    return _render_fragment(
        "public/_player.html",
        event,
        title=entry.name(lang),
        entry=entry,
        name=entry.name(lang),
        other_name=entry.name_latin if lang == "ru" else entry.name_ru,
        section=_section_title(event, entry.section),
        standing=standing,
        metrics=metrics,
        matches=matches,
    )


@require_safe
@tournament_view("tournament.view")
def player(request, tournament: Tournament, entry_id: int) -> HttpResponse:
    fragment = _fragment(
        tournament, "player", lambda event: _player_fragment(event, entry_id), {"entry": entry_id}
    )
    return _page(request, tournament, fragment, page="player")


# --- the knockout bracket ----------------------------------------------------------------

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


def _bracket_svg(event: Event, section: str, lang: str) -> dict[str, Any] | None:
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
                    "b": b.name(lang) if b else _("bye"),
                    "score_a": m.score_a if done else "",
                    "score_b": m.score_b if done else "",
                    "win_a": done and m.winner == "a" or m.is_bye,
                    "win_b": done and m.winner == "b",
                    "bye": m.is_bye,
                    "href": f"{player_url_prefix(event.tournament.slug)}{m.a}/",
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


def _bracket_fragment(event: Event) -> Fragment:
    lang = _lang()
    title = _("Bracket")
    if not is_knockout(event.tournament):
        return _render_fragment(
            "public/_notice.html",
            event,
            title=title,
            notice=_(
                "This tournament is played as %(system)s, not as a knockout: there is no bracket."
            )
            % {"system": CompetitionSystem(event.tournament.system).label},
        )
    drawings = []
    for key in event.sections:
        svg = _bracket_svg(event, key, lang)
        if svg is not None:
            drawings.append({"title": _section_title(event, key), "svg": svg})
    return _render_fragment("public/_bracket.html", event, title=title, drawings=drawings)


@require_safe
@tournament_view("tournament.view")
def bracket(request, tournament: Tournament) -> HttpResponse:
    fragment = _fragment(tournament, "bracket", _bracket_fragment)
    return _page(request, tournament, fragment, page="bracket")


# --- Excel export ------------------------------------------------------------------------


def _export_language(request) -> str | None:
    lang = request.POST.get("lang") or _lang()
    return lang if lang in ("ru", "en") else None


def _reuse_key(tournament: Tournament, lang: str) -> str:
    return page_cache.fragment_key(tournament.pk, "export-job", {"lang": lang})


@require_http_methods(["GET", "POST"])
@tournament_view("tournament.view")
def export_start(request, tournament: Tournament) -> HttpResponse:
    """GET: the form. POST: start (or reuse, if nothing changed since) the export job."""
    if request.method == "GET":
        return render(
            request,
            "public/export.html",
            {
                "tournament": tournament,
                "page": "export",
                "page_title": _("Excel export"),
                "lang": _lang(),
            },
        )
    lang = _export_language(request)
    if lang is None:
        return _message(
            request,
            tournament,
            _("Excel export"),
            _("Unknown language “%(value)s”: choose ru or en.")
            % {"value": request.POST.get("lang", "")[:10]},
            400,
        )
    reuse_key = _reuse_key(tournament, lang)
    job = cache.get(reuse_key)
    status = export_tasks.read_status(tournament.slug, job) if job else None
    if status is None or status.get("state") == export_tasks.FAILURE:
        export_tasks.prune(tournament.slug)
        job = str(uuid.uuid4())
        export_tasks.write_status(tournament.slug, job, export_tasks.QUEUED, done=0, total=0)
        cache.set(reuse_key, job, page_cache.FRAGMENT_TIMEOUT)
        _enqueue_export(tournament, lang, job)
    return redirect("public-export-progress", slug=tournament.slug, job=job)


def _enqueue_export(tournament: Tournament, lang: str, job: str) -> None:
    task = export_tasks.export_standings_task
    if task.app.conf.task_always_eager:
        # In-process, without touching the broker: apply_async would still open a
        # producer pool on the placeholder broker even though it never sends anything.
        task.apply((tournament.pk, lang, job), task_id=job)
    else:
        task.apply_async((tournament.pk, lang, job), task_id=job)


def _job_status(tournament: Tournament, job: str) -> dict[str, Any] | None:
    status = export_tasks.read_status(tournament.slug, job)
    if status is None:
        return None
    state = status.get("state")
    if state == export_tasks.QUEUED:
        # The worker may have died before writing anything: ask Celery, if it can tell.
        celery_state = None
        if not export_tasks.export_standings_task.app.conf.task_always_eager:
            try:
                celery_state = export_tasks.export_standings_task.AsyncResult(job).state
            except Exception:  # no result backend, or the broker is unreachable
                celery_state = None
        if celery_state == "FAILURE":
            status = {
                "state": export_tasks.FAILURE,
                "error_en": "The export worker failed.",
                "error_ru": "Процесс выгрузки завершился с ошибкой.",
            }
    done, total = int(status.get("done") or 0), int(status.get("total") or 0)
    lang = _lang()
    out: dict[str, Any] = {
        "state": status["state"],
        "done": done,
        "total": total,
        "percent": 100
        if status["state"] == export_tasks.SUCCESS
        else (int(100 * done / total) if total else 0),
        "download": None,
        "error": status.get(f"error_{lang}"),
    }
    if status["state"] == export_tasks.SUCCESS:
        out["download"] = reverse(
            "public-export-download", kwargs={"slug": tournament.slug, "job": job}
        )
    return out


@require_safe
@tournament_view("tournament.view")
def export_progress(request, tournament: Tournament, job: uuid.UUID) -> HttpResponse:
    status = _job_status(tournament, str(job))
    if status is None:
        return _message(request, tournament, _("Excel export"), _("No such export job."), 404)
    return render(
        request,
        "public/export_progress.html",
        {
            "tournament": tournament,
            "page": "export",
            "page_title": _("Excel export"),
            "status": status,
            "status_url": reverse(
                "public-export-status", kwargs={"slug": tournament.slug, "job": job}
            ),
        },
    )


@require_safe
@tournament_view("tournament.view")
def export_status(request, tournament: Tournament, job: uuid.UUID) -> JsonResponse:
    status = _job_status(tournament, str(job))
    if status is None:
        return JsonResponse({"state": "UNKNOWN", "error": _("No such export job.")}, status=404)
    return JsonResponse(status)


@require_safe
@tournament_view("tournament.view")
def export_download(request, tournament: Tournament, job: uuid.UUID) -> FileResponse:
    status = export_tasks.read_status(tournament.slug, str(job))
    path = export_tasks.workbook_path(tournament.slug, str(job))
    if not status or status.get("state") != export_tasks.SUCCESS or not path.is_file():
        raise Http404(_("This export is not ready or no longer exists."))
    lang = status.get("language") or "ru"
    return FileResponse(
        path.open("rb"),
        as_attachment=True,
        filename=f"{tournament.slug}-{lang}.xlsx",
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
