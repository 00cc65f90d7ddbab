"""The public rating list per pool (``/ratings/``) and its Excel export with the same filters.

Bad filter values are shown as field errors and ignored (the list still
shows); never a 500. A constant number of queries per page (see
:mod:`clubs.rating_lists`).
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.rating_lists import Filters, list_ranks, rating_list
from clubs.ratings.lists import PROVISIONAL_MATCHES, is_provisional, rank_label
from clubs.ratings.pools import POOLS
from tournaments.exports.table_sheet import Column, table_workbook
from tournaments.player_history import last_public_played
from zarik.i18n import current_language

from .forms import RatingFilterForm

PER_PAGE = 50


def day_style(language: str) -> str:
    """The Excel style of a date column in the reader's language (Russian: 05.12.2026)."""
    return "day_en" if language.startswith("en") else "day_ru"


def _filters(form: RatingFilterForm) -> Filters:
    """The valid filters of ``form``; a field with an error is left out."""
    form.is_valid()
    data = {k: v for k, v in form.cleaned_data.items() if k not in form.errors}
    return Filters(
        pool=data.get("pool") or next(iter(POOLS)), club=data.get("club"), city=data.get("city") or "",
        category=data.get("category"), months=data.get("months"), order=data.get("order") or "-rating",
    )  # fmt: skip


def _clubs(rating) -> str:
    return ", ".join(m.club.name for m in rating.player.current_memberships)


def _place(label: str) -> int | str:
    return int(label) if label.isdigit() else label


def rating_list_page(request):
    form = RatingFilterForm(request.GET or None)
    filters = _filters(form) if request.GET else Filters(pool=next(iter(POOLS)))
    ranks = list_ranks(filters, last_public_played())
    paginator = Paginator(rating_list(filters, last_public_played()), PER_PAGE)
    paginator.count = max((last for _first, last in ranks.values()), default=0)  # the ranks read every row
    page = paginator.get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "filters": filters,
        "pool_name": POOLS[filters.pool].name(current_language()),
        "page": page,
        "rows": [
            {"place": rank_label(ranks, r.rating), "rating": r, "clubs": _clubs(r),
             "provisional": is_provisional(r.matches)}
            for r in page
        ],  # fmt: skip
        "provisional_matches": PROVISIONAL_MATCHES,
        "query": query.urlencode(),
    }
    return render(request, "clubs/rating_lists/list.html", context, status=400 if form.errors else 200)


def rating_list_export(request):
    form = RatingFilterForm(request.GET or None)
    filters = _filters(form) if request.GET else Filters(pool=next(iter(POOLS)))
    lang = current_language()
    columns = [
        Column(_("No."), 6), Column(_("Player"), None, "name"), Column(_("Club"), None, "text"),
        Column(_("City"), 16, "text"), Column(_("Category"), 10), Column(_("Rating"), 10, "rating"),
        Column(_("Provisional"), 12), Column(_("Experience"), 12), Column(_("Rated matches"), 12),
        Column(_("Last rated match"), 14, day_style(lang)), Column(_("Start"), 10, "rating"),
        Column(_("Start from"), 28, "text"),
    ]  # fmt: skip
    ranks = list_ranks(filters, last_public_played())
    # A place is a number unless shared ("4–6"); the last match is a date cell, not text. The
    # rating keeps full precision (clubs.ratings.fibs: exports do), shown with two decimals.
    rows = [
        [_place(rank_label(ranks, r.rating)), r.player.display_name(lang), _clubs(r), r.player.city,
         r.player.category, r.rating, _("provisional") if is_provisional(r.matches) else "",
         r.experience, r.matches, r.shown_last_played or "", r.start_rating, r.get_start_source_display()]
        for r in rating_list(filters, last_public_played())
    ]  # fmt: skip
    bits = [POOLS[filters.pool].name(lang)]
    if filters.club:
        bits.append(filters.club.name)
    if filters.city:
        bits.append(filters.city)
    if filters.category:
        bits.append(_("category %(n)s") % {"n": filters.category})
    if filters.months:
        bits.append(
            ngettext("active in the last %(n)s month", "active in the last %(n)s months", filters.months)
            % {"n": filters.months}
        )
    subtitle = " · ".join(bits) + " · " + date_format(timezone.localdate(), "SHORT_DATE_FORMAT")
    data = table_workbook(_("Ratings"), _("Rating list"), subtitle, columns, rows)
    response = HttpResponse(
        data, content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    response["Content-Disposition"] = f'attachment; filename="ratings-{filters.pool}.xlsx"'
    return response
