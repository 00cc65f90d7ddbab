"""The hall display: a projector or TV showing the current round by table, then the standings.

``/t/<slug>/hall/`` is a full-screen page whose one fragment replaces itself
every few seconds (htmx: ``hx-get`` of ``/t/<slug>/hall/frame/?page=N`` with
``hx-trigger="every Ns"`` and ``hx-swap="outerHTML"``; no full reload, nothing
pushed to the history). Each frame names the next page, so big rounds are
paged (:data:`TABLES_PER_SCREEN` tables a screen) and the standings follow the
pairings, then it starts again. A frame is built from the published-rounds
snapshot and cached until the tournament changes (:mod:`tournaments.public.frame`),
so a projector polling every 10 s costs one cache read. Between screens the page
polls the live stamp (``live.json``, :func:`tournaments.rounds.flow.cached_live_state`)
every 2 s and swaps in the screen being shown when it changes (``static/js/hall.js``): a
confirmed result reaches the hall within seconds, not a rotation later (issue 36). What
the hall shows, a screen's seconds and the round clock are the organiser's settings on the
tournament (:mod:`tournaments.public.hall_settings_views`). Drafts are never shown
(:mod:`tournaments.access.visibility`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments import standings as core
from tournaments.access.permissions import tournament_view
from tournaments.cache import read_once
from tournaments.models import (
    HALL_EVERY_MAX,
    HALL_EVERY_MIN,
    HallShows,
    ResultStatus,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.standings.crosstable import format_value
from tournaments.standings_service import Event
from tournaments.team_match import team_names
from zarik import htmx
from zarik.i18n import current_language

from . import frame
from .views import stage_words

TABLES_PER_SCREEN = 16
ROWS_PER_SCREEN = 16  # standings rows a screen
SHOWN_METRICS = 3  # the main score and the first tie-breaks: what a room can read
EVERY_MIN, EVERY_MAX = HALL_EVERY_MIN, HALL_EVERY_MAX  # seconds between screens


@dataclass(frozen=True)
class Screen:
    """One screen of the rotation: a slice of a round's tables or of a standings table."""

    kind: str  # "pairings" | "standings"
    title: str
    rows: Sequence[dict[str, Any]]
    part: int
    parts: int
    heads: list[str] = field(default_factory=list)  # standings: the metrics' abbreviations


def _number(value: float | None) -> str:
    """As on the standings page: 3½, not 3.5 (the hall shows the same table)."""
    return "" if value is None else format_value(value)


def _chunks(rows: list, size: int) -> list[list]:
    return [rows[i : i + size] for i in range(0, len(rows), size)] or [[]]


def _section(event: Event, key: str) -> str:
    return event.sections.get(key, "") if event.multi_section else ""


def screens(event: Event, lang: str, shows: str = HallShows.BOTH) -> list[Screen]:
    """Every screen of the rotation: current rounds' pairings by table, then standings
    (or only one of them, as the organiser chose: ``Tournament.hall_shows``)."""
    out: list[Screen] = []
    if shows != HallShows.STANDINGS:
        out += _pairing_screens(event, lang)
    if shows != HallShows.PAIRINGS:
        out += _standings_screens(event, lang)
    return out


def _pairing_screens(event: Event, lang: str) -> list[Screen]:
    out: list[Screen] = []
    teams = team_names(event.tournament)  # Scheveningen: each player's team
    for rnd in event.current_rounds():
        rows = []
        for p in sorted(event.pairings_of_round([rnd.id]), key=lambda p: (p.table is None, p.table or 0)):
            a = event.entries[p.a]
            b = event.entries.get(p.b) if p.b is not None else None
            done = p.confirmed and p.score_a is not None and p.score_b is not None
            reported = p.result_status == ResultStatus.REPORTED
            rows.append(
                {
                    "table": p.table,
                    "a": a.name(lang),
                    "num_a": a.draw_number,
                    "team_a": teams.get(a.id, ""),
                    "team_b": teams.get(b.id, "") if b else "",
                    "b": b.name(lang) if b else "",
                    "num_b": b.draw_number if b else None,
                    "bye": b is None,
                    "score": p.score_text.replace(":", " : ") if done else "",
                    "reported": reported and b is not None,
                    "winner": p.winner if done else "",
                }
            )
        title = _("Round %(n)s") % {"n": rnd.number}
        section = _section(event, rnd.section)
        if section:
            title = f"{title} · {section}"
        chunks = _chunks(rows, TABLES_PER_SCREEN)
        out += [Screen("pairings", title, c, i + 1, len(chunks)) for i, c in enumerate(chunks)]
    return out


def _standings_screens(event: Event, lang: str) -> list[Screen]:
    out: list[Screen] = []
    # each section's table, then a cup's side brackets (consolation …), each its own table
    tables = [(key, t) for key, main in event.standings.items() for t in (main, *main.side_tables)]
    for key, table in tables:
        metrics = table.metrics[:SHOWN_METRICS]
        rows = ShownRows(table.rows, partial(_standings_row, event, metrics, lang, stage_words(event, table, lang)))
        title = _("Standings")
        section = _section(event, key)
        if section:
            title = f"{title} · {section}"
        if table.bracket:
            title = f"{title} · {core.bracket_name(table.bracket, lang)}"
        heads = [m.abbr(lang) for m in metrics]
        chunks = _chunks(rows, ROWS_PER_SCREEN)
        out += [
            Screen("standings", title, c, i + 1, len(chunks), heads) for i, c in enumerate(chunks)
        ]
    return out


def _standings_row(
    event: Event, metrics: list, lang: str, stages: dict[int, str], row: core.StandingRow
) -> dict[str, Any]:
    entry = event.entries[row.player.id]
    pid = row.player.id
    return {
        "place": row.place_label,
        "name": entry.name(lang),
        "num": entry.draw_number,
        "values": [stages[pid] if m.key == "stage" and pid in stages else _number(row.values.get(m.key))
                   for m in metrics],  # fmt: skip
        # as the public standings mark them (templates/public/_standings_row.html)
        "mark": entry.removal or ("withdrawn" if row.player.withdrawn else ""),
    }


class ShownRows(Sequence[dict[str, Any]]):
    """A table's rows as a screen shows them, each made when a screen is shown: the
    rotation has a screen per 20 rows of 10,000, and only one is rendered (issue 32)."""

    def __init__(self, rows: Sequence[core.StandingRow], show: Callable[[core.StandingRow], dict[str, Any]]):
        self._rows, self._show = rows, show

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):
        if isinstance(index, slice):  # a screen's part: still made when shown
            return ShownRows(self._rows[index], self._show)
        return self._show(self._rows[index])


def _rows_shown(screen: Screen | None) -> int:
    """How many rows the screen shows (1 at least): the stylesheet sizes the text to fit
    that many rows in the screen's height (static/css/hall.css, ``data-rows``)."""
    if screen is None:
        return 1
    return max(1, min(len(screen.rows), max(TABLES_PER_SCREEN, ROWS_PER_SCREEN)))


def _int(raw: str | None, default: int, low: int, high: int) -> int:
    try:
        value = int(raw or default)
    except ValueError:
        return default
    return min(max(value, low), high)


def round_ends_at(event: Event, minutes: int | None) -> dt.datetime | None:
    """When the round clock runs out: the latest current round's publication plus the
    organiser's minutes (``Tournament.hall_round_minutes``); None without a clock, or while
    no round is published or the round is finished."""
    current = [r for r in event.current_rounds() if r.status == RoundStatus.PUBLISHED]
    if not minutes or not current:
        return None
    published = (
        Round.objects.filter(pk__in=[r.id for r in current], published_at__isnull=False)
        .order_by("-published_at")
        .values_list("published_at", flat=True)
        .first()
    )
    return published + dt.timedelta(minutes=minutes) if published else None


def _frame_html(tournament: Tournament, page: int, every: int) -> frame.Cached:
    shows, minutes = tournament.hall_shows, tournament.hall_round_minutes

    def build(event: Event) -> frame.Fragment:
        lang = current_language()
        all_screens = screens(event, lang, shows)
        if not all_screens:
            screen, count, index = None, 1, 1
        else:
            count = len(all_screens)
            index = (page - 1) % count + 1
            screen = all_screens[index - 1]
        base = reverse("hall-frame", kwargs={"slug": tournament.slug})
        return frame.render_fragment(
            "public/hall/_frame.html",
            event,
            screen=screen,
            page=index,
            pages=count,
            every=every,
            rows=_rows_shown(screen),
            ends_at=round_ends_at(event, minutes),
            next_url=f"{base}?page={index % count + 1}&every={every}",
            # the same screen again, with fresh data: what static/js/hall.js swaps in
            # when the live stamp changes, without waiting for the rotation
            self_url=f"{base}?page={index}&every={every}",
        )

    params = {"page": page, "every": every, "shows": shows, "minutes": minutes}
    return frame.cached(tournament, "hall", build, params)


def _params(request, tournament: Tournament) -> tuple[int, int]:
    """The page asked for, and the seconds a screen stays: the organiser's setting unless the
    address says otherwise (a second screen in the hall may rotate faster)."""
    page = _int(request.GET.get("page"), 1, 1, 10_000)
    every = _int(request.GET.get("every"), tournament.hall_every, EVERY_MIN, EVERY_MAX)
    return page, every


@require_safe
@read_once  # a watcher's poll reads each version once (issue 50)
@tournament_view("tournament.view")
def hall(request, tournament: Tournament) -> HttpResponse:
    return _hall_page(request, tournament)


def _hall_page(request, tournament: Tournament) -> HttpResponse:
    page, every = _params(request, tournament)
    fragment = _frame_html(tournament, page, every)
    return htmx.vary(render(request, "public/hall/page.html", {"tournament": tournament, "frame": fragment.html}))


@require_safe
@read_once  # a watcher's poll reads each version once (issue 50)
@tournament_view("tournament.view")
def hall_frame(request, tournament: Tournament) -> HttpResponse:
    """The next screen, for the hall page's htmx; its address opened is the hall page at that
    screen (a bare fragment had no language, no title, no Pause)."""
    if not htmx.is_htmx(request):
        return _hall_page(request, tournament)
    page, every = _params(request, tournament)
    fragment = _frame_html(tournament, page, every)
    # The same screen asked again after a live stamp moved on elsewhere: a 304 made from the
    # screen's cache key, without reading the screen (issue 50).
    return htmx.vary(frame.tagged(request, ("hall",), fragment, lambda: HttpResponse(fragment.html)))
