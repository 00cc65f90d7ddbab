"""The entries desk: who plays, add players found by name or new ones, withdraw, import, teams.

Every page needs ``tournament.edit`` (the organiser, a club organiser of the
tournament's club, or a superuser); the moves themselves go through
:mod:`.entry_roster` (add, remove) and :mod:`.entry_status` (withdraw, reinstate),
so the same checks and audit entries apply wherever an entry changes. Bad input
is shown on the page in the reader's language with everything typed kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.models import Category
from clubs.search import search_players
from tournaments.access.permissions import tournament_view
from tournaments.models import Entry, Team, TeamMember, Tournament
from tournaments.team_match import lineup_problems
from zarik import htmx
from zarik.i18n import current_language

from . import importer as entry_import
from . import roster as entry_roster
from . import status as entry_status
from . import teams as team_service
from .forms import AddPlayerForm, ImportForm, NewPlayerForm, TeamForm, TeamMemberForm
from .status import EntryRefused

EDIT = "tournament.edit"
SEARCH_LIMIT = 20
ORDERS = {
    "number": ("draw_number", "registered_at", "id"),
    "rating": ("-seed_rating", "-player__rating", "player__last_name", "id"),
    "category": ("-player__category", "-seed_rating", "player__last_name", "id"),
}
SESSION_KEY = "entry-import:{pk}"


def _view(view):
    return login_required(tournament_view(EDIT)(view))


def _back(tournament: Tournament, order: str = ""):
    url = reverse("manage-entries", kwargs={"slug": tournament.slug})
    return redirect(f"{url}?order={order}" if order in ORDERS else url)


def _found(tournament: Tournament, query: str) -> list[dict]:
    if not query.strip():
        return []
    entered = set(tournament.entries.values_list("player_id", flat=True))
    return [{"player": p, "entered": p.pk in entered} for p in search_players(query, SEARCH_LIMIT)]


def _page(request, tournament: Tournament, *, new_form=None, add_form=None, status=200):
    order = request.GET.get("order", "number")
    if order not in ORDERS:
        order = "number"
    entries = (
        tournament.entries.select_related("player", "section")
        .prefetch_related("player__memberships__club")
        .order_by(*ORDERS[order])
    )
    query = request.GET.get("q", "")
    context = {
        "tournament": tournament,
        "entries": entries,
        "order": order,
        "orders": [("number", _("draw number")), ("rating", _("rating")), ("category", _("category"))],
        "query": query,
        "found": _found(tournament, query),
        "add_form": add_form or AddPlayerForm(tournament),
        "new_form": new_form or NewPlayerForm(tournament),
        "late_from": entry_roster.late_round(tournament, None),
        "has_sections": tournament.sections.exists(),
        "categories": Category.choices,
    }
    return render(request, "entries/list.html", context, status=status)


@_view
def entries(request, tournament: Tournament):
    return _page(request, tournament)


@_view
def search(request, tournament: Tournament):
    """The live results under the search box (htmx), or the entries page with them otherwise."""
    if not htmx.is_htmx(request):
        return htmx.vary(_page(request, tournament))
    query = request.GET.get("q", "")
    context = {
        "tournament": tournament,
        "query": query,
        "found": _found(tournament, query),
        "add_form": AddPlayerForm(tournament),
    }
    return htmx.vary(render(request, "entries/_search_results.html", context))


@_view
@require_POST
def add(request, tournament: Tournament):
    form = AddPlayerForm(tournament, request.POST)
    if not form.is_valid():
        return _page(request, tournament, add_form=form, status=400)
    player = form.cleaned_data["player"]
    try:
        entry = entry_roster.add_entry(tournament, player, request.user, form.cleaned_data["section"])
    except EntryRefused as exc:
        messages.error(request, exc.message)
    else:
        _said_added(request, entry)
    return _back(tournament)


def _said_added(request, entry: Entry) -> None:
    name = entry.player.full_name
    if entry.joined_round:
        messages.success(
            request,
            _("%(name)s entered late: plays from round %(round)s.") % {"name": name, "round": entry.joined_round},
        )
    else:
        messages.success(request, _("%(name)s entered.") % {"name": name})


@_view
@require_POST
def new_player(request, tournament: Tournament):
    form = NewPlayerForm(tournament, request.POST)
    if not form.is_valid():
        return _page(request, tournament, new_form=form, status=400)
    entry = entry_roster.add_new_player(
        tournament, form.save(commit=False), request.user,
        form.cleaned_data.get("club"), form.cleaned_data["section"],
    )  # fmt: skip
    _said_added(request, entry)
    return _back(tournament)


@_view
@require_POST
def entry_action(request, tournament: Tournament, entry_id: int):
    """Withdraw, reinstate, remove (never paired), move to a section (never once paired) or set
    the category the entry plays in: one button each."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=tournament)
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "")[:300]
    try:
        if action == "withdraw":
            settle = request.POST.get("settle", entry_status.SETTLE_FORFEIT)
            entry_status.withdraw(entry, request.user, reason, settle=settle)
            if note := entry_status.redrawn_note(entry):
                messages.info(request, note)
        elif action == "reinstate":
            entry_status.reinstate(entry, request.user, reason)
        elif action == "remove":
            entry_roster.remove_entry(entry, request.user, reason)
            messages.success(request, _("%(name)s removed from the entries.") % {"name": entry.player.full_name})
        elif action == "section":
            section = tournament.sections.filter(pk=request.POST.get("section") or None).first()
            entry_roster.change_entry(entry, request.user, section=section, reason=reason)
        elif action == "category":  # the category this entry plays in, within this event only
            raw = request.POST.get("category", "")
            category = int(raw) if raw.isdigit() else -1
            entry_roster.change_entry(entry, request.user, category=category, reason=reason)
    except EntryRefused as exc:
        messages.error(request, exc.message)
    return _back(tournament, request.POST.get("order", ""))


# ---------------------------------------------------------------------------------------------
# import: upload → preview → confirm
# ---------------------------------------------------------------------------------------------


@_view
def import_entries(request, tournament: Tournament):
    """Upload a file and see the plan row by row; nothing is written before "Import"."""
    key = SESSION_KEY.format(pk=tournament.pk)
    lang = current_language()
    if request.method == "POST" and request.POST.get("confirm"):
        stashed = entry_import.stashed_rows(request.session, key)
        if stashed is None:
            messages.error(request, _("The preview has expired: upload the file again."))
            return redirect("manage-entries-import", slug=tournament.slug)
        rows, _name = stashed
        result = entry_import.apply(
            tournament, rows, request.user, choices=entry_import.choices_from(request.POST),
            new_clubs=request.POST.getlist("new-club"),
        )  # fmt: skip
        summary = result.summary(lang)
        messages.success(
            request,
            _("Imported: %(created)s entered, %(existing)s already entered, %(refused)s refused.")
            % {"created": summary["created"], "existing": summary["existing"], "refused": len(summary["errors"])},
        )
        if summary["undecided"]:
            # The rows nobody identified stay in the preview: nothing typed is lost.
            n = len(summary["undecided"])
            messages.warning(
                request,
                ngettext("%(n)s row waits until you say who it is.", "%(n)s rows wait until you say who they are.", n)
                % {"n": n},
            )
            waiting = {u["row"] for u in summary["undecided"]}
            entry_import.keep_rows(request.session, key, [r for r in rows if r.number in waiting])
            return redirect(reverse("manage-entries-import", kwargs={"slug": tournament.slug}) + "?kept=1")
        del request.session[key]
        return _back(tournament)
    form = ImportForm(request.POST or None, request.FILES or None)
    plan = None
    is_kept = False  # the rows left waiting after an import: the rest is already entered
    if request.method == "POST" and form.is_valid():
        rows = entry_import.stash_upload(request.session, key, form)
        if rows is not None:
            plan = entry_import.plan(tournament, rows)
    elif request.method == "GET":
        kept = entry_import.stashed_rows(request.session, key) if request.GET.get("kept") else None
        if kept is not None:
            plan = entry_import.plan(tournament, kept[0])
            is_kept = True
        else:
            request.session.pop(key, None)
    context = {
        "tournament": tournament,
        "form": form,
        "plan": plan,
        "lines": [
            {"item": item, "messages": item.messages(lang), "radio": f"person-{item.row.number}"}
            for item in (plan.rows if plan else [])
        ],
        "summary": plan.summary(lang) if plan else None,
        "kept": is_kept,
    }
    return render(request, "entries/import.html", context, status=400 if form.errors else 200)


# ---------------------------------------------------------------------------------------------
# teams (Scheveningen): create teams, put entries on boards
# ---------------------------------------------------------------------------------------------


@_view
def teams(request, tournament: Tournament):
    team_form = TeamForm(tournament)
    member_form = TeamMemberForm(tournament)
    status = 200
    if request.method == "POST":
        what = request.POST.get("what")
        if what == "team":
            team_form = TeamForm(tournament, request.POST)
            if team_form.is_valid():
                team_service.create_team(request.user, tournament, team_form.save(commit=False))
                return redirect("manage-teams", slug=tournament.slug)
        elif what == "member":
            member_form = TeamMemberForm(tournament, request.POST)
            if member_form.is_valid():
                try:
                    team_service.put_on_board(request.user, tournament, **member_form.cleaned_data)
                except EntryRefused as exc:
                    messages.error(request, exc.message)  # the line-ups are fixed: no form to keep
                return redirect("manage-teams", slug=tournament.slug)
        elif what == "unassign":
            member = get_object_or_404(TeamMember, pk=request.POST.get("member"), team__tournament=tournament)
            try:
                team_service.take_off(request.user, member)
            except EntryRefused as exc:
                messages.error(request, exc.message)
            return redirect("manage-teams", slug=tournament.slug)
        elif what == "delete":
            team = get_object_or_404(Team, pk=request.POST.get("team"), tournament=tournament)
            try:
                team_service.delete_team(request.user, team)
            except EntryRefused as exc:
                messages.error(request, exc.message)
            return redirect("manage-teams", slug=tournament.slug)
        status = 400
    teams = Team.objects.filter(tournament=tournament).prefetch_related("members__entry__player")
    placed = TeamMember.objects.filter(team__tournament=tournament).values_list("entry_id", flat=True)
    context = {
        "tournament": tournament,
        "teams": teams,
        "in_play": tournament.rounds.exists(),
        "team_form": team_form,
        "member_form": member_form,
        "unplaced": tournament.entries.exclude(pk__in=placed).select_related("player"),
        # Uneven teams (4 against 3) cannot be paired: said here while the teams are made, and
        # the open draw and the pairing refuse with the same problem before any number is drawn.
        "lineup_problems": [p.message(current_language()) for p in lineup_problems(tournament)],
    }
    return render(request, "entries/teams.html", context, status=status)


