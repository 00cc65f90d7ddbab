"""Club pages: the list of clubs, a club's page, and its organisers' members page with the import.

Public: ``/clubs/`` and ``/clubs/<slug>/`` (members with their dates, the club's
events the reader may see, its seasons, its rating list per pool). Managing the
members needs ``club.manage`` on the club (the permissions table): add a
player found by name, a new player, end a membership on a date, import a
member list (the importer of the entries desk, in its member-list mode) with a
preview before anything is written. Every change is audited.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Membership
from clubs.rating_lists import Filters, list_ranks, rating_list
from clubs.ratings.lists import rank_label
from clubs.ratings.pools import POOLS
from clubs.search import search_players
from tournaments import audit
from tournaments.access.permissions import allowed, require, visible_tournaments
from tournaments.entries import importer as entry_import
from tournaments.player_history import last_public_played
from zarik import htmx
from zarik.i18n import current_language

from .forms import AddMemberForm, EndMembershipForm, MemberImportForm, NewMemberForm

SEARCH_LIMIT = 20
#: Rows of each pool's rating list on the club page (the full list is /ratings/?club=…).
CLUB_RATING_ROWS = 20
SESSION_KEY = "member-import:{pk}"


def club_list(request):
    clubs = Club.objects.annotate(
        members=Count("memberships", filter=Membership.current_q("memberships__"), distinct=True),
    ).order_by("name")
    return render(request, "clubs/club/list.html", {"clubs": clubs})


def _pool_lists(club: Club) -> list[dict]:
    """The club's current members' ratings, per pool that has any (two queries per pool).

    Places are the rating list's (:func:`clubs.ratings.lists.shared_ranks`): equal ratings
    share one, written "3–4" as on ``/ratings/`` (issue 49: the club page numbered them 3 and 4).
    """
    lang = current_language()
    out = []
    for pool in POOLS.values():
        filters = Filters(pool=pool.key, club=club)
        rows = list(rating_list(filters, last_public_played())[:CLUB_RATING_ROWS])
        if rows:
            ranks = list_ranks(filters, last_public_played())
            lines = [{"place": rank_label(ranks, r.rating), "rating": r} for r in rows]
            out.append({"pool": pool, "name": pool.name(lang), "rows": lines})
    return out


def club_detail(request, slug: str):
    club = get_object_or_404(Club, slug=slug)
    manages = allowed(request.user, "club.manage", club)
    memberships = list(club.memberships.select_related("player").order_by("player__last_name", "player__first_name"))
    seasons = club.seasons.all() if manages else club.seasons.filter(public=True)
    context = {
        "club": club,
        "manages": manages,
        "current": [m for m in memberships if m.is_current()],
        "past": sorted((m for m in memberships if not m.is_current()), key=lambda m: m.ended_on, reverse=True),
        "tournaments": visible_tournaments(request.user).filter(club=club).order_by("-starts_on", "name"),
        "seasons": seasons,
        "pools": _pool_lists(club),
    }
    return render(request, "clubs/club/detail.html", context)


# ---------------------------------------------------------------------------------------------
# managing members (club organisers)
# ---------------------------------------------------------------------------------------------


def _managed_club(request, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    require(request.user, "club.manage", club)
    return club


def _members_page(request, club: Club, *, add_form=None, new_form=None, end_forms=None, status=200):
    query = request.GET.get("q", "")
    memberships = club.memberships.select_related("player").order_by("player__last_name", "player__first_name")
    current_ids = {m.player_id for m in memberships if m.is_current()}
    found = [{"player": p, "member": p.pk in current_ids} for p in search_players(query, SEARCH_LIMIT)]
    end_forms = end_forms or {}
    current = [
        {"membership": m, "form": end_forms.get(m.pk) or EndMembershipForm(m, prefix=f"end{m.pk}")}
        for m in memberships if m.is_current()
    ]  # fmt: skip
    context = {
        "club": club,
        "query": query,
        "found": found,
        "current": current,
        "past": [m for m in memberships if not m.is_current()],
        "add_form": add_form or AddMemberForm(club),
        "new_form": new_form or NewMemberForm(),
    }
    return render(request, "clubs/club/members.html", context, status=status)


@login_required
def members(request, slug: str):
    club = _managed_club(request, slug)
    if request.method != "POST":
        return _members_page(request, club)
    action = request.POST.get("action", "")
    if action == "add":
        form = AddMemberForm(club, request.POST)
        if not form.is_valid():
            return _members_page(request, club, add_form=form, status=400)
        _join(request, club, form.cleaned_data["player"], form.cleaned_data["started_on"])
    elif action == "new":
        form = NewMemberForm(request.POST)
        if not form.is_valid():
            return _members_page(request, club, new_form=form, status=400)
        with transaction.atomic():
            player = form.save()
            _join(request, club, player, form.cleaned_data["started_on"])
    elif action == "end":
        membership = get_object_or_404(
            Membership.objects.select_related("player").filter(Membership.current_q()),
            pk=request.POST.get("membership") or 0, club=club,
        )  # fmt: skip
        form = EndMembershipForm(membership, request.POST, prefix=f"end{membership.pk}")
        if not form.is_valid():
            return _members_page(request, club, end_forms={membership.pk: form}, status=400)
        with transaction.atomic():
            before = audit.snapshot(membership)
            membership.ended_on = form.cleaned_data["ended_on"]
            membership.save(update_fields=["ended_on"])
            audit.record(request.user, None, "membership.end", membership, before, membership)
        if membership.is_current():
            messages.success(request, _("%(name)s is a member until %(date)s.") % {
                "name": membership.player.full_name,
                "date": date_format(membership.ended_on, "SHORT_DATE_FORMAT")})  # fmt: skip
        else:
            messages.success(request, _("%(name)s is no longer a member.") % {"name": membership.player.full_name})
    return redirect("club-members", slug=club.slug)


def _join(request, club: Club, player, started_on) -> None:
    with transaction.atomic():
        membership = Membership.objects.create(player=player, club=club, started_on=started_on)
        audit.record(request.user, None, "membership.add", membership, None, membership)
    messages.success(request, _("%(name)s is now a member of the club.") % {"name": player.full_name})


@login_required
def members_search(request, slug: str):
    """The live results under the search box (htmx), or the members page without JS."""
    club = _managed_club(request, slug)
    if not htmx.is_htmx(request):
        return htmx.vary(_members_page(request, club))
    query = request.GET.get("q", "")
    current_ids = set(club.memberships.filter(Membership.current_q()).values_list("player_id", flat=True))
    found = [{"player": p, "member": p.pk in current_ids} for p in search_players(query, SEARCH_LIMIT)]
    return htmx.vary(render(request, "clubs/club/_member_search.html",
                            {"club": club, "query": query, "found": found, "add_form": AddMemberForm(club)}))


@login_required
def members_import(request, slug: str):
    """Upload a member list and see the plan row by row; nothing is written before "Import"."""
    club = _managed_club(request, slug)
    key = SESSION_KEY.format(pk=club.pk)
    lang = current_language()
    form = MemberImportForm()
    plan = None
    if request.method == "POST" and request.POST.get("confirm"):
        stashed = entry_import.stashed_rows(request.session, key)
        if stashed is None:
            return redirect("club-members-import", slug=club.slug)
        rows, name = stashed
        with transaction.atomic():
            result = entry_import.apply_members(club, rows, choices=entry_import.choices_from(request.POST))
            joined = [i.player.pk for i in result.rows if i.action in (entry_import.CREATE, entry_import.MATCH)]
            audit.record(request.user, None, "membership.import", club, None, {"file": name, "players": joined})
        messages.success(
            request,
            _("%(n)s new members, %(m)s already members, %(r)s rows refused.") % {
                "n": result.count(entry_import.CREATE, entry_import.MATCH),
                "m": result.count(entry_import.MEMBER), "r": result.count(entry_import.REFUSED)},
        )  # fmt: skip
        waiting = [i.row for i in result.rows if i.action == entry_import.DECIDE]
        if waiting:
            # The rows nobody identified stay in the preview: nothing typed is lost.
            messages.warning(
                request,
                ngettext("%(n)s row waits until you say who it is.", "%(n)s rows wait until you say who they are.",
                         len(waiting)) % {"n": len(waiting)},
            )  # fmt: skip
            entry_import.keep_rows(request.session, key, waiting)
            return redirect(reverse("club-members-import", kwargs={"slug": club.slug}) + "?kept=1")
        del request.session[key]
        return redirect("club-members", slug=club.slug)
    if request.method == "POST":
        form = MemberImportForm(request.POST, request.FILES)
        if form.is_valid():
            rows = entry_import.stash_upload(request.session, key, form)
            if rows is not None:
                plan = entry_import.plan_members(club, rows)
    else:
        kept = entry_import.stashed_rows(request.session, key) if request.GET.get("kept") else None
        if kept is not None:
            plan = entry_import.plan_members(club, kept[0])
        else:
            request.session.pop(key, None)
    context = {"club": club, "form": form, "plan": plan}
    if plan is not None:
        context["lines"] = [
            {"item": i, "messages": i.messages(lang), "radio": f"person-{i.row.number}"} for i in plan.rows
        ]
        context["counts"] = {
            "new": plan.count(entry_import.CREATE, entry_import.MATCH),
            "members": plan.count(entry_import.MEMBER),
            "refused": plan.count(entry_import.REFUSED),
            "decide": plan.count(entry_import.DECIDE),
        }
    return render(request, "clubs/club/members_import.html", context, status=400 if form.errors else 200)
