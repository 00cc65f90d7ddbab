"""Seasons: a club organiser creates and edits them; anyone reads a public season and its Excel file.

``/clubs/<club>/seasons/new/`` and ``…/seasons/<season>/edit/`` need ``club.manage``
on the club; ``/seasons/<slug>/`` and ``/seasons/<slug>/export.xlsx`` are public
for a public season (a private one is a 404 to everyone but the club's
organisers). The standings come from :func:`clubs.life.seasons.standings.compute`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Season
from tournaments import audit
from tournaments.access.permissions import allowed, require
from tournaments.exports.table_sheet import Column, table_workbook
from zarik.i18n import current_language

from .forms import SeasonForm
from .standings import SeasonTable, compute, format_points


def _season_form_page(request, club: Club, season: Season | None):
    form = SeasonForm(club, request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        before = audit.snapshot(season) if season else None
        with transaction.atomic():
            saved = form.save()
            audit.record(request.user, None, "season.change" if season else "season.create", saved, before, saved)
        messages.success(request, _("Season “%(name)s” saved.") % {"name": saved.name})
        return redirect("season-detail", slug=saved.slug)
    status = 400 if form.errors else 200
    return render(request, "clubs/seasons/form.html", {"club": club, "season": season, "form": form}, status=status)


@login_required
def season_new(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    require(request.user, "club.manage", club)
    return _season_form_page(request, club, None)


@login_required
def season_edit(request, club_slug: str, season_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    require(request.user, "club.manage", club)
    season = get_object_or_404(Season, slug=season_slug, club=club)
    return _season_form_page(request, club, season)


def _readable_season(request, slug: str) -> Season:
    season = get_object_or_404(Season.objects.select_related("club"), slug=slug)
    if not season.public and not allowed(request.user, "club.manage", season.club):
        raise Http404
    return season


def _cells(table: SeasonTable, row, lang: str) -> list:
    """One standings line: place, name, each event's points (blank if not played), total, tie-breaks."""
    cells = [row.place_label, row.player.name(lang)]
    cells += [row.points.get(t.pk, "") for t in table.events]
    cells.append(row.total)
    cells += [row.values.get(m.key) for m in table.metrics]
    return cells


def _hidden_note(count: int) -> str:
    return ngettext(
        "%(n)s event is not public: its points count, its name is not shown",
        "%(n)s events are not public: their points count, their names are not shown",
        count,
    ) % {"n": count}


def season_detail(request, slug: str):
    season = _readable_season(request, slug)
    table = compute(season, request.user)
    lang = current_language()
    lines = [
        {"row": row, "events": [(t, row.points.get(t.pk), t.pk in row.counted, table.place_label(t.pk, row.player.id))
                                for t in table.events],
         "values": [row.values.get(m.key) for m in table.metrics]}
        for row in table.rows
    ]  # fmt: skip
    context = {
        "season": season,
        "table": table,
        "lines": lines,
        "metrics": [m.name(lang) for m in table.metrics],
        "problems": [p.message(lang) for p in table.problems],
        "points": format_points(season.points_by_place),
        "manages": allowed(request.user, "club.manage", season.club),
        "hidden_note": _hidden_note(table.hidden_count) if table.hidden_count else "",
    }
    return render(request, "clubs/seasons/detail.html", context)


def season_export(request, slug: str):
    season = _readable_season(request, slug)
    table = compute(season, request.user)
    lang = current_language()
    columns = [Column(_("Place"), 8), Column(_("Player"), None, "name")]
    columns += [Column(_("An event not shown") if t.pk in table.hidden else t.name, 14) for t in table.events]
    columns.append(Column(_("Total"), 10, "total"))
    columns += [Column(m.abbr(lang), 10) for m in table.metrics]
    rows, marks = [], []
    for row in table.rows:
        rows.append(_cells(table, row, lang))
        counted = ["win" if table.best_of_applies and t.pk in row.counted else None for t in table.events]
        marks.append([None, None, *counted, None, *([None] * len(table.metrics))])
    subtitle = _("Points by place: %(points)s") % {"points": format_points(season.points_by_place)}
    if season.best_of:
        subtitle += " · " + ngettext(
            "best %(n)s event counts (shaded)", "best %(n)s events count (shaded)", season.best_of
        ) % {"n": season.best_of}
    if table.hidden_count:
        subtitle += " · " + _hidden_note(table.hidden_count)
    data = table_workbook(_("Season"), f"{season.club.name} · {season.name}", subtitle, columns, rows, marks=marks)
    response = HttpResponse(
        data, content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    response["Content-Disposition"] = f'attachment; filename="season-{season.slug}.xlsx"'
    return response
