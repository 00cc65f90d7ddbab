"""Printables for the hall, A4 (``static/css/sheets.css``): score sheets, cards, the knockout sheet.

- the book's score sheet («бланк», Part 9: players record the games and hand the
  sheet to the director after the match): tournament, round, table, names, the
  match's options from :func:`tournaments.validation.match_spec`, and a ledger
  grid for games, cube and running score — one per match, or a whole round with
  one sheet a page;
- table cards: a big table number, both names and one QR code of the round's
  public pairings (:mod:`tournaments.links.qr`). The card lies on the shared
  table, so it never carries a private link: either player could scan the
  other's code and report or confirm as them (issue 30);
- player cards: name, draw number, the private link as QR and as text — handed
  to the player alone;
- the knockout draw sheet: the bracket on A4 landscape.

A big event prints in parts (issue 32): a round's score sheets and table cards
:data:`PRINT_TABLES` tables at a time (``?tables=101-200``), player cards
:data:`PRINT_CARDS` draw numbers at a time (``?numbers=1-200``); the index links
every part. Pairings and standings wall sheets are the public ``…/print/`` pages
(``?page=``, as on the pages themselves). Score
sheets are for the tournament's officials (``tournament.officiate``, drafts
included: sheets are printed before a round is announced); player cards carry
private links, the player's key to report results, so only the desk prints
cards (``desk.run``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.rules.variants import SCORING_TABLES
from tournaments.access.permissions import tournament_view
from tournaments.access.private_links import url_for
from tournaments.links.qr import qr_svg
from tournaments.models import Entry, EntryStatus, Match, Round, Tournament
from tournaments.standings_service import is_knockout, load_event
from tournaments.validation import match_spec, time_control
from zarik import site
from zarik.i18n import current_language

from .bracket_layout import section_drawings
from .frame import player_url_prefix

OFFICIATE = "tournament.officiate"
DESK = "desk.run"
MAX_LEDGER_ROWS = 25  # what fits under the header of one A4 sheet
PRINT_TABLES = 100  # score sheets or table cards in one print job of a big round
PRINT_CARDS = 200  # player cards in one print job


def parts(numbers: list[int], size: int) -> list[tuple[int, int]]:
    """The ranges ``(first, last)`` the sorted ``numbers`` (tables, draw numbers) print in,
    ``size`` to a part; none when they fit in one."""
    if len(numbers) <= size:
        return []
    return [(numbers[i], numbers[min(i + size, len(numbers)) - 1]) for i in range(0, len(numbers), size)]


def _range(request, name: str, numbers: list[int], size: int) -> tuple[int, int] | None | HttpResponse:
    """``?<name>=first-last``; absent, the first part of a big numbering and None (everything)
    of one that prints at once; a 400 that says what was wrong."""
    raw = request.GET.get(name, "").strip()
    if not raw:
        first = parts(numbers, size)[:1]
        return first[0] if first else None
    lo, dash, hi = raw.partition("-")
    if not (dash and lo.isdigit() and hi.isdigit() and 0 < int(lo) <= int(hi) < 1_000_000):
        return HttpResponseBadRequest(
            _("“%(value)s” is not a range of numbers such as 1-100.") % {"value": raw[:20]}
        )
    return int(lo), int(hi)


def _tables(rnd: Round) -> list[int]:
    return list(rnd.matches.filter(table__isnull=False).order_by("table").values_list("table", flat=True))


def _numbers(tournament: Tournament) -> list[int]:
    return list(
        tournament.entries.exclude(status=EntryStatus.WITHDRAWN).filter(draw_number__isnull=False)
        .order_by("draw_number").values_list("draw_number", flat=True)
    )  # fmt: skip


def _view(action: str):
    def decorator(view):
        return require_safe(login_required(tournament_view(action)(view)))

    return decorator


def _name(entry: Entry | None, lang: str) -> str:
    return entry.player.display_name(lang) if entry is not None else ""


def _yes(flag: bool) -> str:
    return _("yes") if flag else _("no")


def match_options(match: Match, lang: str) -> list[tuple[str, str]]:
    """The agreed options a referee checks a match against, as (label, value) lines."""
    spec = match_spec(match)
    table = SCORING_TABLES.get(spec.scoring)
    lines: list[tuple[str, str]] = []
    if spec.length:
        lines.append((_("Match"), _("first to %(n)s points") % {"n": spec.length}))
    else:
        lines.append((_("Match"), _("%(n)s games, points added up") % {"n": spec.fixed_games}))
    if table is not None:
        lines.append((_("Scoring"), table.name_en if lang == "en" else table.name_ru))
    lines.append((_("Doubling cube"), _yes(spec.cube)))
    if spec.length:
        lines.append((_("Crawford rule"), _yes(spec.crawford is not False)))
    if spec.cube:
        lines.append((_("Maximum cube"), str(spec.max_cube or 64)))
        extras = [
            (spec.holland, _("Holland")),
            (spec.beaver, _("beaver")),
            (spec.raccoon, _("raccoon")),
            (spec.jacoby, _("Jacoby")),
        ]
        agreed = [name for on, name in extras if on]
        if agreed:
            lines.append((_("Agreed rules"), ", ".join(agreed)))
        if spec.autodoubles:
            lines.append((_("Automatic doubles"), str(spec.autodoubles)))
    if spec.draw is not None:
        lines.append((_("Drawn game"), str(float(spec.draw)).rstrip("0").rstrip(".")))
    tournament = match.round.tournament
    length = spec.length if spec.is_points else spec.fixed_games
    timing = time_control(tournament, match).describe(current_language(), length)
    if timing:
        lines.append((_("Time control"), timing))
    if tournament.time_control:
        lines.append((_("Time control"), tournament.time_control))
    if match.start_a or match.start_b:
        lines.append((_("Starts from (lateness penalty)"), f"{match.start_a}:{match.start_b}"))
    return lines


@dataclass
class ScoreSheet:
    """One «бланк»: who plays where under which options, and the empty ledger to fill in."""

    match: Match
    name_a: str
    name_b: str
    options: list[tuple[str, str]]
    kinds: str  # the values of a win to circle, e.g. "1 2 3"
    kinds_legend: str
    rows: range
    cube: bool
    crawford: bool  # a column to mark the Crawford game


def score_sheet(match: Match, lang: str) -> ScoreSheet:
    spec = match_spec(match)
    table = SCORING_TABLES.get(spec.scoring)
    count = (2 * spec.length - 1) if spec.length else (spec.fixed_games or 1)
    return ScoreSheet(
        match=match,
        name_a=_name(match.entry_a, lang),
        name_b=_name(match.entry_b, lang),
        options=match_options(match, lang),
        kinds=" ".join(str(v) for _k, v in table.kinds) if table else "",
        kinds_legend=(table.name_en if lang == "en" else table.name_ru) if table else "",
        rows=range(1, min(count, MAX_LEDGER_ROWS) + 1),
        cube=spec.cube,
        crawford=bool(spec.length and spec.cube and spec.crawford is not False),
    )


def _matches(rnd: Round, tables: tuple[int, int] | None):
    where = {} if tables is None else {"table__gte": tables[0], "table__lte": tables[1]}
    return rnd.matches.filter(**where).select_related(
        "entry_a__player", "entry_b__player", "round__tournament", "round__section",
        "entry_a__section",
    ).order_by("table", "pk")


def _round(tournament: Tournament, round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("section"), pk=round_id, tournament=tournament)


def _sheet_page(request, tournament: Tournament, template: str, title: str, **ctx: Any) -> HttpResponse:
    return render(request, template, {"tournament": tournament, "page_title": title, **ctx})


# --- the index -----------------------------------------------------------------------------


@_view(OFFICIATE)
def index(request, tournament: Tournament) -> HttpResponse:
    rounds = list(
        Round.objects.filter(tournament=tournament).select_related("section")
        .annotate(tables=Count("matches")).order_by("section__order", "number", "pk")
    )  # fmt: skip
    for r in rounds:
        r.parts = parts(_tables(r), PRINT_TABLES) if r.tables > PRINT_TABLES else []
    context = {
        "card_parts": parts(_numbers(tournament), PRINT_CARDS),
        "tournament": tournament,
        "rounds": rounds,
        "knockout": is_knockout(tournament),
    }
    return render(request, "public/print/index.html", context)


# --- score sheets --------------------------------------------------------------------------


@_view(OFFICIATE)
def match_sheet(request, tournament: Tournament, match_id: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "round__section", "entry_a__player", "entry_b__player"),
        pk=match_id, round__tournament=tournament, entry_b__isnull=False,
    )
    sheets = [score_sheet(match, current_language())]
    return _sheet_page(
        request, tournament, "public/print/score_sheets.html", _("Score sheet"), sheets=sheets, rnd=match.round
    )


@_view(OFFICIATE)
def round_sheets(request, tournament: Tournament, round_id: int) -> HttpResponse:
    rnd = _round(tournament, round_id)
    tables = _range(request, "tables", _tables(rnd), PRINT_TABLES)
    if isinstance(tables, HttpResponse):
        return tables
    lang = current_language()
    sheets = [score_sheet(m, lang) for m in _matches(rnd, tables) if m.entry_b_id is not None]
    return _sheet_page(
        request, tournament, "public/print/score_sheets.html", _("Score sheets"), sheets=sheets, rnd=rnd
    )


# --- table cards (public) and player cards (private) ---------------------------------------


def _card_player(request, entry: Entry | None, lang: str) -> dict[str, Any] | None:
    if entry is None:
        return None
    link = url_for(entry, request)
    return {"entry": entry, "name": _name(entry, lang), "url": link, "qr": qr_svg(link)}


def public_round_url(request, rnd: Round) -> str:
    """The round's public pairings page, full address: the only link a table card may carry."""
    path = reverse("public-pairings", kwargs={"slug": rnd.tournament.slug})
    return site.absolute(f"{path}?round={rnd.number}", request)


@_view(DESK)
def table_cards(request, tournament: Tournament, round_id: int) -> HttpResponse:
    rnd = _round(tournament, round_id)
    tables = _range(request, "tables", _tables(rnd), PRINT_TABLES)
    if isinstance(tables, HttpResponse):
        return tables
    lang = current_language()
    public_url = public_round_url(request, rnd)
    public_qr = qr_svg(public_url)
    cards = [
        {"match": m, "name_a": _name(m.entry_a, lang), "name_b": _name(m.entry_b, lang),
         "entry_a": m.entry_a, "entry_b": m.entry_b}
        for m in _matches(rnd, tables)
        if m.entry_b_id is not None
    ]
    return _sheet_page(
        request, tournament, "public/print/table_cards.html", _("Table cards"), cards=cards, rnd=rnd,
        public_url=public_url, public_qr=public_qr,
    )


@_view(DESK)
def player_cards(request, tournament: Tournament) -> HttpResponse:
    drawn = _numbers(tournament)
    numbers = _range(request, "numbers", drawn, PRINT_CARDS)
    if isinstance(numbers, HttpResponse):
        return numbers
    lang = current_language()
    where = Q()
    if numbers is not None:
        where = Q(draw_number__gte=numbers[0], draw_number__lte=numbers[1])
        if drawn and numbers[1] >= drawn[-1]:
            where |= Q(draw_number__isnull=True)  # players without a number yet: in the last part
    entries = (
        tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
        .filter(where)
        .select_related("player")
        .order_by("draw_number", "player__last_name", "pk")
    )
    cards = [_card_player(request, e, lang) for e in entries]
    return _sheet_page(request, tournament, "public/print/player_cards.html", _("Player cards"), cards=cards)


# --- the knockout draw sheet ---------------------------------------------------------------


@_view(OFFICIATE)
def bracket_sheet(request, tournament: Tournament) -> HttpResponse:
    lang = current_language()
    event = load_event(tournament)
    drawings = section_drawings(
        event, lang, bye_label=_("bye"), player_base=player_url_prefix(tournament.slug)
    )
    return _sheet_page(
        request, tournament, "public/print/bracket.html", _("Knockout draw sheet"), drawings=drawings,
        knockout=is_knockout(tournament),
    )
