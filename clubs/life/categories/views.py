"""A member's record for club organisers: the category page (moved with a date and a reason) and
the details page (names in both alphabets, city, country, year of birth, email) — no admin needed.

Who may: the organisers of a club where the player is a current member (the
permissions table's ``club.manage``, checked on each such club). The change
itself is :func:`clubs.categories.change_category`, the one place for it.
"""

from __future__ import annotations

import datetime as dt

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from clubs.categories import change_category
from clubs.models import Category, Club, Membership, Player
from scoring.rules.errors import RuleViolation
from tournaments import audit
from tournaments.access.permissions import allowed
from tournaments.models import Tournament
from zarik.i18n import current_language


class CategoryChangeForm(forms.Form):
    category = forms.TypedChoiceField(label=_lazy("New category"), choices=Category.choices, coerce=int)
    on = forms.DateField(
        label=_lazy("Date"), initial=dt.date.today, widget=forms.DateInput(attrs={"type": "date"})
    )
    reason = forms.CharField(
        label=_lazy("Reason"), max_length=300, required=False,  # the core says why it is needed
        help_text=_lazy("what earned it, e.g. the tournament and the place (book Part 9)"),
    )  # fmt: skip


def managing_clubs(user, player: Player) -> list[Club]:
    """The player's current clubs whose organiser ``user`` is."""
    clubs = Club.objects.filter(Membership.current_q("memberships__"), memberships__player=player).distinct()
    return [club for club in clubs if allowed(user, "club.manage", club)]


def may_manage_player(user, player: Player) -> bool:
    """Who keeps a player's record (category, details): the organisers of the player's current
    clubs; for a player of no club, who has no such organiser, the organisers of the events the
    player entered (``tournament.edit``) — and a superuser, who organises everywhere (issue 49:
    a club-less player's page was refused to everyone)."""
    if not user.is_authenticated:
        return False
    if managing_clubs(user, player):
        return True
    if Membership.objects.filter(Membership.current_q(), player=player).exists():
        return False  # the player's clubs keep their record
    if user.is_superuser:
        return True
    events = Tournament.objects.filter(entries__player=player).select_related("club").distinct()
    return any(allowed(user, "tournament.edit", event) for event in events)


@login_required
def change(request, player_id: int):
    player = get_object_or_404(Player, pk=player_id)
    if not may_manage_player(request.user, player):
        raise PermissionDenied
    form = CategoryChangeForm(request.POST or None, initial={"category": player.category})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            change_category(player, data["category"], reason=data["reason"], on=data["on"], user=request.user)
        except RuleViolation as exc:
            for problem in exc.problems:
                field = {"club.category_reason": "reason", "club.category_future": "on"}.get(problem.code, "category")
                form.add_error(field, problem.message(current_language()))
        else:
            messages.success(request, _("The category is changed and recorded with its reason."))
            return redirect("player-category", player_id=player.pk)
    history = player.category_changes.select_related("decided_by")  # newest date first
    return render(request, "clubs/categories/change.html", {"player": player, "form": form, "history": history})


class PlayerDetailsForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = [
            "last_name", "first_name", "last_name_latin", "first_name_latin", "city", "country", "birth_year",
            "email",
        ]  # fmt: skip


@login_required
def details(request, player_id: int):
    """Edit a member's details (audited ``player.edit``); the category has its own page."""
    player = get_object_or_404(Player, pk=player_id)
    if not may_manage_player(request.user, player):
        raise PermissionDenied
    before = audit.snapshot(player)
    form = PlayerDetailsForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        saved = form.save()
        audit.record(request.user, None, "player.edit", saved, before, saved)
        messages.success(request, _("The player's details are saved."))
        return redirect("player-details", player_id=player.pk)
    status = 400 if form.errors else 200
    return render(request, "clubs/categories/details.html", {"player": player, "form": form}, status=status)
