"""Public pages of a released tournament: overview, pairings, standings, crosstables,
players and the knockout bracket (the Excel export is :mod:`tournaments.public.export_views`).

Every page body is a fragment rendered from one :func:`load_event` snapshot (a
fixed handful of queries whatever the size of the event) and cached until the
tournament changes (:mod:`tournaments.public.frame`, :mod:`tournaments.cache`),
so a repeat visit costs one query. The snapshot holds published and finished
rounds only: a draft round is on no public page, for anyone
(:mod:`tournaments.access.visibility`). Bad parameters give a clear message with a
400/404 status, never a 500.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments import standings as core
from tournaments import team_match as team_blocks
from tournaments.access.permissions import tournament_view
from tournaments.exports.labels import label as book_label
from tournaments.models import CompetitionSystem, ResultKind, Tournament, TournamentStatus
from tournaments.standings.crosstable import format_value
from tournaments.standings_service import (
    Event,
    Pairing,
    find_entries,
    is_knockout,
    is_number_search,
    prize_awards,
    requested_byes,
)
from tournaments.validation import time_control
from zarik.i18n import current_language

from . import frame, marks, paging
from .bracket_layout import section_drawings
from .win_chances import chances

GRID_LIMIT = 60
"""Sections larger than this get the table by rounds instead of an N×N grid."""
SEARCH_MAX = 80
LAYOUTS = {
    "book": core.CrosstableLayout.BOOK,
    "rows": core.CrosstableLayout.ROW,
    "row": core.CrosstableLayout.ROW,
}


# --- shared row building -------------------------------------------------------------


def _number(value: float | None) -> str:
    """A score or tie-break as the scores are written (3½; Sonneborn-Berger's quarters 1¼)."""
    return "" if value is None else format_value(value)


def _section_title(event: Event, key: str) -> str:
    return event.sections.get(key) or ""


def _player(event: Event, player_id: int, lang: str) -> dict[str, Any]:
    """A table row's player: the entry (for its link) and its name in the reader's language."""
    entry = event.entries[player_id]
    return {"entry": entry, "name": entry.name(lang)}


def _marked(row: core.StandingRow, key: str) -> str:
    """The adjustment marks of ``row``'s metric ``key`` (the legend under the table explains them)."""
    return "".join(dict.fromkeys(a.mark for a in row.adjustments if a.metric == key))


def _legend(event: Event, lang: str) -> list[dict[str, str]]:
    """Every ruling that changed the table: mark, player, points, reason."""
    return [
        {
            "mark": a.mark,
            "name": event.entries[a.player].name(lang),
            "amount": _number(a.amount),
            "reason": a.reason,
        }
        for a in event.adjustments
        if a.player in event.entries
    ]


#: Which rows of a table a block keeps: all (None), a slice, or a function of the rows giving one.
RowPick = slice | Callable[[Sequence[Any]], slice] | None
#: The overview's leaders: the first three places, and everyone sharing the third one.
LEADERS = 3
#: …but never a list longer than this: beyond it the overview says how many more share the place.
LEADERS_MAX = 8


def leader_rows(rows: Sequence[Any]) -> slice:
    """The leaders: the top :data:`LEADERS` rows and every row tied with the last of them, up to
    :data:`LEADERS_MAX` (issue 44: "Leaders 1–8." showed 3 of 8 tied players as if they led alone)."""
    end = min(LEADERS, len(rows))
    while end < min(len(rows), LEADERS_MAX) and rows[end].place_label == rows[end - 1].place_label:
        end += 1
    return slice(0, end)


def _more_tied(rows: Sequence[Any], pick: Callable[[Sequence[Any]], slice]) -> dict[str, Any] | None:
    """How many players the leaders leave out who share the last place shown (None: nobody)."""
    end = pick(rows).stop
    if not end or end >= len(rows):
        return None
    place = rows[end - 1].place_label
    more = sum(1 for r in rows[end:] if r.place_label == place)
    return {"count": more, "place": place} if more else None


def _standings_blocks(
    event: Event, lang: str, prizes: dict[int, Any] | None = None, rows: RowPick = None
) -> list[dict[str, Any]]:
    """One block per table: each section's, and after a cup's main table one per side bracket
    (consolation …, ranked among its own players; the place prizes are the main table's).

    ``rows`` keeps only those rows of each table (the overview's leaders): a big event's
    rows are formatted only where they are shown (:func:`_table_block`)."""
    blocks = []
    prizes = prizes or {}
    for key, table in event.standings.items():
        blocks.append(_table_block(event, key, table, lang, prizes, _section_title(event, key), rows=rows))
        for side in table.side_tables:
            title = " — ".join(t for t in (_section_title(event, key), core.bracket_name(side.bracket, lang)) if t)
            blocks.append(_table_block(event, key, side, lang, {}, title, bracket=side.bracket, rows=rows))
    return blocks


def _table_block(
    event: Event, key: str, table: core.Standings, lang: str, prizes: dict[int, Any], title: str,
    bracket: str = "", rows: RowPick = None,
) -> dict[str, Any]:
    """A table's heading and its rows, still as the core's rows: :func:`_row` formats one."""
    metrics = table.metrics
    return {
        "key": key,
        "bracket": bracket,
        "title": title,
        "metrics": [{"abbr": m.abbr(lang), "name": m.name(lang)} for m in metrics],
        "core_metrics": metrics,
        "prizes": prizes,
        "rows": list(table.rows if rows is None else table.rows[rows if isinstance(rows, slice) else rows(table.rows)]),
        "more_tied": _more_tied(table.rows, rows) if callable(rows) else None,
        "stages": stage_words(event, table, lang),
    }


def stage_words(event: Event, table: core.Standings, lang: str) -> dict[int, str]:
    """A cup's "stage reached" in words for each player of ``table`` (the final, a
    semi-final, …), never its internal number; empty for the other systems."""
    return core.table_stages(table, event.matches, lang)


def _row(event: Event, block: dict[str, Any], r: core.StandingRow, lang: str) -> dict[str, Any]:
    """One standings row as the templates show it."""
    return {
        "place": r.place_label,
        "shared": r.shared,
        **_player(event, r.player.id, lang),
        "withdrawn": r.player.withdrawn,
        "counted": r.counted,
        "removal": event.entries[r.player.id].removal,
        "values": [
            {"value": _shown(block, r, m.key), "mark": _marked(r, m.key)}
            for m in block["core_metrics"]
        ],
        "prize": block["prizes"].get(r.player.id),
    }


def _shown(block: dict[str, Any], r: core.StandingRow, key: str) -> str:
    """A row's value as the tables show it: a cup's stage in words, any other metric's number."""
    if key == "stage" and r.player.id in block["stages"]:
        return block["stages"][r.player.id]
    return _number(r.values.get(key))


def _formatted(event: Event, blocks: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    return [{**b, "rows": [_row(event, b, r, lang) for r in b["rows"]]} for b in blocks]


def _champion(event: Event, lang: str) -> dict[str, Any] | None:
    decision = event.champion
    if decision is None:
        return None
    return {
        "finished": decision.finished,
        "several": len(decision.winners) > 1,  # one section: "Champion", not "absolute"
        "champion": event.entries[decision.champion.id].name(lang) if decision.champion else "",
        "playoff": decision.playoff_required,
        "candidates": [event.entries[p.id].name(lang) for p in decision.candidates],
        "winners": [
            (event.sections.get(key) or "", ", ".join(event.entries[p.id].name(lang) for p in players))
            for key, players in decision.winners
            if players
        ],
    }


def _problems(event: Event, lang: str) -> list[str]:
    return [p.message(lang) for p in event.option_problems]


# --- overview --------------------------------------------------------------------------


def _overview_fragment(event: Event) -> frame.Fragment:
    """The overview: each current round's progress and first page, the leaders, the roster."""
    lang = current_language()
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
                # A big round shows its first page here; the pairings page has the rest.
                "rows": _pairing_rows(event, pairings[: paging.PAGE_ROWS], lang, set()),
                "more": max(len(pairings) - paging.PAGE_ROWS, 0),
            }
        )
    entries = sorted(event.entries.values(), key=lambda e: (e.draw_number is None, e.draw_number or 0, e.id))
    roster = [
        {"entry": e, "name": e.name(lang), "section": _section_title(event, e.section)}
        for e in entries[: paging.PAGE_ROWS]
    ]
    leaders = _formatted(event, _standings_blocks(event, lang, rows=leader_rows), lang)
    return frame.render_fragment(
        "public/_overview.html",
        event,
        title=_("Overview"),
        players=len(event.entries),
        rounds_played=len(event.round_numbers()),
        **_rounds_fact(event.tournament),
        progress=progress,
        leaders=leaders,
        roster_more=max(len(entries) - paging.PAGE_ROWS, 0),
        champion=_champion(event, lang),
        roster=roster,
        # The Section column only when someone has one (issue 44: an always-empty column).
        roster_sections=any(r["section"] for r in roster),
        team=team_blocks.page_blocks(event, lang),
    )


def _rounds_fact(tournament: Tournament) -> dict[str, Any]:
    """What the overview says of the rounds: a finished event says so (the rounds it played,
    all of them); otherwise the planned number, which a cup has none of — its bracket and
    options decide how many stages it takes (issue 43: a finished cup said "3 / 5")."""
    planned = tournament.rounds_planned if tournament.system != CompetitionSystem.KNOCKOUT else None
    return {"rounds_planned": planned, "finished": tournament.status == TournamentStatus.FINISHED}


def cached_overview(tournament: Tournament) -> frame.Fragment:
    """The overview fragment in the current language, from the cache or built (also by a
    worker after a change: :mod:`.refresh`)."""
    return frame.cached(tournament, "overview", _overview_fragment)


@require_safe
@tournament_view("tournament.view")
def overview(request, tournament: Tournament) -> HttpResponse:
    return frame.page(request, tournament, cached_overview(tournament), page="overview")


# --- pairings --------------------------------------------------------------------------


def _round_param(request) -> int | None | str:
    raw = request.GET.get("round", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 1000:
        return raw
    return int(raw)


def _pairing_rows(
    event: Event, pairings: Sequence[Pairing], lang: str, found: set[int], with_chances: bool = False
):
    odds = chances(event, pairings) if with_chances else {}
    teams = team_blocks.team_names(event.tournament)  # Scheveningen: each player's team
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
                "team_a": teams.get(a.id, ""),
                "team_b": teams.get(b.id, "") if b else "",
                "found": p.a in found or (p.b is not None and p.b in found),
                "chance": odds.get(p.id),
                "score": p.score_text,
                "kind": p.kind,
                "kind_label": ResultKind(p.kind).label if p.kind != ResultKind.PLAYED else "",
            }
        )
    return rows


def _pairings_fragment(
    event: Event, round_number: int | None, query: str, page_number: int | None = None
) -> frame.Fragment:
    """The shown rounds' pairings, one page of :data:`paging.PAGE_ROWS` tables at a time.

    A search (a name, or a draw number) lists every table it finds with the page it is
    on, and without a page asked for opens the page of the first one found.
    """
    lang = current_language()
    if round_number is None:
        rounds = event.current_rounds()
    else:
        rounds = [r for r in event.rounds if r.number == round_number]
        if not rounds:
            published = ", ".join(str(n) for n in event.round_numbers()) or "—"
            return frame.render_fragment(
                "public/_notice.html",
                event,
                status=404,
                title=_("Pairings"),
                notice=_("Round %(n)s has not been published. Published rounds: %(list)s.")
                % {"n": round_number, "list": published},
            )
    found = set(find_entries(event, query)) if query else set()
    bases = {"player_base": frame.player_url_prefix(event.tournament.slug),
             "profile_base": frame.profile_url_prefix()}  # fmt: skip
    every = [(rnd, event.pairings_of_round([rnd.id])) for rnd in rounds]
    hits, at = [], 0
    for rnd, pairings in every:
        for i, p in enumerate(pairings):
            for mine, other in ((p.a, p.b), (p.b, p.a)):
                if mine is None or mine not in found:
                    continue
                entry, opponent = event.entries[mine], event.entries[other] if other is not None else None
                hits.append({
                    "name": entry.name(lang), "number": entry.draw_number, "round": rnd.number,
                    "section": _section_title(event, rnd.section), "table": p.table,
                    "opponent": opponent.name(lang) if opponent else "", "bye": opponent is None,
                    "page": (at + i) // paging.PAGE_ROWS + 1,
                })  # fmt: skip
        at += len(pairings)
    if page_number is None and hits:
        page_number = hits[0]["page"]
    page = paging.page_of(at, page_number)
    blocks = []
    cut = paging.slice_blocks([{"round": rnd, "rows": pairings} for rnd, pairings in every], page)
    live = marks.live_matches([block["round"].id for block in cut])  # matches recorded move by move now
    for block in cut:
        rnd = block["round"]
        rows = _pairing_rows(event, block["rows"], lang, found, with_chances=True)
        for row in rows:
            p, a, b, chance = row["p"], row["a"], row["b"], row["chance"]
            # Only what the row shows, so that its remembered HTML outlives changes it does not
            # show: a rating moving the chance by less than a percent. The table's state (not
            # played, reported, confirmed, disputed) is shown as a badge with words (issue 44).
            row["html"] = frame.render_row(
                "public/_pairings_row.html",
                language=lang,
                **bases,
                table=p.table, winner=p.winner if row["score"] else "",
                a_id=a.id, a_draw=a.draw_number, a_player=a.player_id,
                b_id=b.id if b else None, b_draw=b.draw_number if b else None, b_player=b.player_id if b else None,
                chance_side=chance.side if chance else "", chance_percent=chance.percent if chance else None,
                chance_source=chance.source if chance else "",
                kind_label=str(row["kind_label"]), state=p.result_status if b else "",
                live_url=reverse("live-match", kwargs={"slug": event.tournament.slug, "match_id": p.id})
                if p.id in live else "",
                **{k: row[k] for k in ("name_a", "name_b", "team_a", "team_b", "found", "score")},
            )  # fmt: skip
        blocks.append({"round": rnd, "section": _section_title(event, rnd.section), "rows": rows,
                       "requested_byes": requested_byes(event, rnd.number, rnd.section, lang)})  # fmt: skip
    tables = [p.table for _rnd, pairings in every for p in pairings]
    labels = [
        _("tables %(first)s–%(last)s") % {"first": tables[lo] or "—", "last": tables[min(lo + paging.PAGE_ROWS, len(tables)) - 1] or "—"}
        for lo in range(0, len(tables), paging.PAGE_ROWS)
    ]  # fmt: skip
    params = {"round": round_number, "q": query}
    return frame.render_fragment(
        "public/_pairings.html",
        event,
        title=_("Pairings"),
        blocks=blocks,
        query=query,
        by_number=is_number_search(query),
        hits=hits,
        hit_params=params,
        rounds=event.round_numbers(),
        selected=round_number,
        pages=paging.pager_links(page, params, labels),
        timing=time_control(event.tournament).describe(lang, event.tournament.match_length),
    )


def _pairings_args(request, tournament: Tournament):
    round_number = _round_param(request)
    if isinstance(round_number, str):
        return (
            None,
            None,
            frame.message(
                request,
                tournament,
                _("Pairings"),
                _("“%(value)s” is not a round number.") % {"value": round_number[:20]},
                400,
            ),
        )
    query = " ".join(request.GET.get("q", "").split())[:SEARCH_MAX]
    return round_number, query, None


def _page_error(request, tournament: Tournament, title: str, page) -> HttpResponse | None:
    if not isinstance(page, str):
        return None
    return frame.message(
        request, tournament, title, _("“%(value)s” is not a page number.") % {"value": page[:20]}, 400
    )


def _cached_pairings(
    tournament: Tournament, round_number: int | None, query: str, page: int | None = None
) -> frame.Fragment:
    """Keyed by the shown rounds' versions: a result elsewhere leaves it cached, one of its
    own rounds rebuilds it at once (never stale)."""
    return frame.cached(
        tournament,
        "pairings",
        lambda event: _pairings_fragment(event, round_number, query, page),
        {"round": round_number, "q": query.casefold(), "page": page},
        rounds=frame.public_round_ids(tournament).get(round_number, ()),
    )


@require_safe
@tournament_view("tournament.view")
def pairings(request, tournament: Tournament) -> HttpResponse:
    round_number, query, error = _pairings_args(request, tournament)
    page = paging.page_param(request)
    error = error or _page_error(request, tournament, _("Pairings"), page)
    if error:
        return error
    fragment = _cached_pairings(tournament, round_number, query, page)
    return frame.page(
        request,
        tournament,
        fragment,
        page="pairings",
        template="public/pairings.html",
        query=query,
        round_number=round_number,
        live_refresh=frame.live_refresh_template(),
    )


@require_safe
@tournament_view("tournament.view")
def pairings_print(request, tournament: Tournament) -> HttpResponse:
    round_number, _query, error = _pairings_args(request, tournament)
    page = paging.page_param(request)
    error = error or _page_error(request, tournament, _("Pairings"), page)
    if error:
        return error
    fragment = _cached_pairings(tournament, round_number, "", page)
    return frame.page(request, tournament, fragment, page="pairings", template="public/print.html")


# --- standings ---------------------------------------------------------------------------


def _standings_fragment(event: Event, query: str = "", page_number: int | None = None) -> frame.Fragment:
    """The standings, one page of :data:`paging.PAGE_ROWS` rows at a time; a search (name or
    draw number) lists each player found with their place and page, and opens that page."""
    lang = current_language()
    awards = prize_awards(event)
    every = _standings_blocks(event, lang, awards.amounts)
    found = set(find_entries(event, query)) if query else set()
    hits, at = [], 0
    for block in every:
        for i, r in enumerate(block["rows"]):
            if r.player.id in found:
                hits.append({"name": event.entries[r.player.id].name(lang), "place": r.place_label,
                             "title": block["title"], "page": (at + i) // paging.PAGE_ROWS + 1})  # fmt: skip
        at += len(block["rows"])
    if page_number is None and hits:
        page_number = hits[0]["page"]
    page = paging.page_of(at, page_number)
    blocks = _formatted(event, paging.slice_blocks(every, page), lang)
    bases = {"player_base": frame.player_url_prefix(event.tournament.slug),
             "profile_base": frame.profile_url_prefix()}  # fmt: skip
    for block in blocks:
        for r in block["rows"]:
            cells = frame.render_row(
                "public/_standings_row.html",
                language=lang,
                **bases,
                has_prizes=bool(awards.amounts),
                values=tuple((v["value"], v["mark"]) for v in r["values"]),
                **{k: r[k] for k in ("entry", "name", "withdrawn", "counted", "removal", "prize")},
            )
            # The place is outside the remembered part: one result reorders many rows.
            r["html"] = format_html(
                '<tr{}>\n      <td class="num">{}</td>\n      {}    </tr>',
                mark_safe(' class="shared found"' if r["shared"] and r["entry"].id in found else
                          ' class="shared"' if r["shared"] else ' class="found"' if r["entry"].id in found else ""),
                r["place"], cells,
            )  # fmt: skip
    labels = [
        _("places %(first)s–%(last)s") % {"first": lo + 1, "last": min(lo + paging.PAGE_ROWS, at)}
        for lo in range(0, at, paging.PAGE_ROWS)
    ]
    return frame.render_fragment(
        "public/_standings.html",
        event,
        title=_("Standings"),
        blocks=blocks,
        query=query,
        by_number=is_number_search(query),
        hits=hits,
        pages=paging.pager_links(page, {"q": query}, labels),
        champion=_champion(event, lang),
        problems=_problems(event, lang) + [p.message(lang) for p in awards.problems],
        legend=_legend(event, lang),
        has_prizes=bool(awards.amounts),
        prize_split=event.tournament.get_prize_split_display() if awards.amounts else "",
        knockout=is_knockout(event.tournament),
        team=team_blocks.page_blocks(event, lang),
    )


def cached_standings(
    tournament: Tournament, query: str = "", page: int | None = None, *, stale_ok: bool = False
) -> frame.Fragment:
    """The standings fragment (a page, a search) in the current language, from the cache or built;
    what the page shows and what a worker builds ahead of it (:mod:`.refresh`)."""
    return frame.cached(
        tournament, "standings", lambda event: _standings_fragment(event, query, page),
        {"q": query.casefold(), "page": page}, stale_ok=stale_ok,
    )  # fmt: skip


def _standings_page(request, tournament: Tournament, template: str | None) -> HttpResponse:
    page = paging.page_param(request)
    error = _page_error(request, tournament, _("Standings"), page)
    if error:
        return error
    query = " ".join(request.GET.get("q", "").split())[:SEARCH_MAX]
    fragment = cached_standings(tournament, query, page, stale_ok=template is None)
    if template is not None:
        return frame.page(request, tournament, fragment, page="standings", template=template)
    print_url = reverse("public-standings-print", kwargs={"slug": tournament.slug})
    return frame.page(
        request, tournament, fragment, page="standings", template="public/standings.html",
        print_url=print_url, query=query,
    )


@require_safe
@tournament_view("tournament.view")
def standings(request, tournament: Tournament) -> HttpResponse:
    return _standings_page(request, tournament, None)


@require_safe
@tournament_view("tournament.view")
def standings_print(request, tournament: Tournament) -> HttpResponse:
    return _standings_page(request, tournament, "public/print.html")


# --- crosstables -------------------------------------------------------------------------


def _section_param(request) -> str | None:
    raw = request.GET.get("section", "").strip()
    return raw or None


def _pick_sections(event: Event, section: str | None) -> list[str] | None:
    if section is None:
        return list(event.standings)
    return [section] if section in event.standings else None


def _unknown_section(event: Event, section: str, title: str) -> frame.Fragment:
    return frame.render_fragment(
        "public/_notice.html",
        event,
        status=404,
        title=title,
        notice=_("This tournament has no section “%(value)s”.") % {"value": section[:40]},
    )


def _grid_fragment(event: Event, layout: core.CrosstableLayout, section: str | None) -> frame.Fragment:
    lang = current_language()
    title = _("Crosstable")
    keys = _pick_sections(event, section)
    if keys is None:
        return _unknown_section(event, section or "", title)
    blocks = []
    lineup = team_blocks.crosstable_lineup(event.tournament)  # Scheveningen: by team, then board
    for key in keys:
        table = event.standings[key]
        block: dict[str, Any] = {"key": key, "title": _section_title(event, key)}
        if len(table.rows) > GRID_LIMIT:
            block["too_big"] = len(table.rows)
            blocks.append(block)
            continue
        grid = core.build_crosstable(
            event.players, event.matches, event.options, section=key, layout=layout, standings=table,
            lineup=lineup,
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
                    **_player(event, player.id, lang),
                    "cells": cells,
                    "total": _number(grid.totals[r]) if grid.counted(r) else "—",
                    "mark": "".join(dict.fromkeys(a.mark for a in grid.adjustments[r])),
                    "place": grid.places[r],
                }
            )
        block.update(
            numbers=numbers,
            rows=rows,
            totals=[
                {"value": _number(t) if grid.counted(i) else "—", "mark": "".join(dict.fromkeys(a.mark for a in adj))}
                for i, (t, adj) in enumerate(zip(grid.totals, grid.adjustments, strict=True))
            ],
            places=list(grid.places),
            not_counted=[p.name(lang) for p in grid.not_counted],
        )
        blocks.append(block)
    return frame.render_fragment(
        "public/_crosstable.html",
        event,
        title=title,
        blocks=blocks,
        book=layout == core.CrosstableLayout.BOOK,
        problems=_problems(event, lang),
        legend=_legend(event, lang),
        # The book's own words ("Итого:", "Место"), shared with the Excel sheet.
        total_label=book_label("total", lang),
        place_label=book_label("place", lang),
        team=team_blocks.page_blocks(event, lang) if section is None else {},
    )


@require_safe
@tournament_view("tournament.view")
def crosstable(request, tournament: Tournament) -> HttpResponse:
    raw_layout = request.GET.get("layout", "book").strip() or "book"
    layout = LAYOUTS.get(raw_layout)
    if layout is None:
        return frame.message(
            request,
            tournament,
            _("Crosstable"),
            _("Unknown layout “%(value)s”: use “book” (the book's, by columns) or “rows”.")
            % {"value": raw_layout[:20]},
            400,
        )
    section = _section_param(request)
    fragment = frame.cached(
        tournament,
        "crosstable",
        lambda event: _grid_fragment(event, layout, section),
        {"layout": layout.value, "section": section},
    )
    return frame.page(
        request,
        tournament,
        fragment,
        page="crosstable",
        template="public/crosstable.html",
        layout=layout.value,
        section=section or "",
    )


def _rounds_fragment(event: Event, section: str | None) -> frame.Fragment:
    lang = current_language()
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
            rows.append(
                {
                    "row": row.row,
                    "place": row.place,
                    **_player(event, row.player.id, lang),
                    "cells": [
                        {
                            "text": cell.text(lang),
                            "outcome": cell.outcome,
                            "running": _number(cell.running),
                        }
                        for cell in row.cells
                    ],
                    "total": _number(row.total),  # with the rulings' adjustments, as in the standings
                    "mark": row.mark,
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
    return frame.render_fragment(
        "public/_crosstable_rounds.html", event, title=title, blocks=blocks, legend=_legend(event, lang)
    )


@require_safe
@tournament_view("tournament.view")
def crosstable_rounds(request, tournament: Tournament) -> HttpResponse:
    section = _section_param(request)
    fragment = frame.cached(
        tournament,
        "crosstable-rounds",
        lambda event: _rounds_fragment(event, section),
        {"section": section},
    )
    return frame.page(request, tournament, fragment, page="crosstable")


# --- a player's page ---------------------------------------------------------------------


def _player_fragment(event: Event, entry_id: int) -> frame.Fragment:
    lang = current_language()
    entry = event.entries.get(entry_id)
    if entry is None:
        return frame.render_fragment(
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
    return frame.render_fragment(
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
    fragment = frame.cached(
        tournament, "player", lambda event: _player_fragment(event, entry_id), {"entry": entry_id}
    )
    # A player's page follows their results as the pairings do (the live stamp, issue 50).
    return frame.page(request, tournament, fragment, page="player", live_refresh=frame.live_refresh_template())



# --- the knockout bracket ----------------------------------------------------------------


def _bracket_fragment(event: Event) -> frame.Fragment:
    lang = current_language()
    title = _("Bracket")
    if not is_knockout(event.tournament):
        return frame.render_fragment(
            "public/_notice.html",
            event,
            title=title,
            notice=_(
                "This tournament is played as %(system)s, not as a knockout: there is no bracket."
            )
            % {"system": CompetitionSystem(event.tournament.system).label},
        )
    drawings = section_drawings(
        event, lang, bye_label=_("bye"), player_base=frame.player_url_prefix(event.tournament.slug)
    )
    return frame.render_fragment("public/_bracket.html", event, title=title, drawings=drawings)


@require_safe
@tournament_view("tournament.view")
def bracket(request, tournament: Tournament) -> HttpResponse:
    fragment = frame.cached(tournament, "bracket", _bracket_fragment)
    return frame.page(request, tournament, fragment, page="bracket")
