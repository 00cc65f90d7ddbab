"""The organiser's hall display settings: what the hall shows, how long a screen stays, the
round clock (``/t/<slug>/manage/hall/``). Stored on the tournament, read by
:mod:`tournaments.public.hall_views`; saving the tournament bumps its page cache, so the hall
follows on its next frame (issue 36).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import audit
from tournaments.access.permissions import tournament_view
from tournaments.models import Tournament
from tournaments.setup.services import save_settings


class HallSettingsForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ("hall_shows", "hall_every", "hall_round_minutes")
        widgets = {"hall_shows": forms.RadioSelect}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@tournament_view("tournament.edit")
def hall_settings(request, tournament: Tournament) -> HttpResponse:
    before, was_rated = audit.snapshot(tournament), tournament.rated  # validation writes into it
    form = HallSettingsForm(request.POST or None, instance=tournament)
    if request.method == "POST":
        if form.is_valid():
            # the settings pages' one save: audited as "tournament.settings"
            save_settings(form, request.user, before, was_rated)
            messages.success(request, _("The hall display settings are saved."))
            return redirect("manage-hall", slug=tournament.slug)
        status = 400
    else:
        status = 200
    return render(
        request, "public/hall/settings.html", {"tournament": tournament, "form": form}, status=status
    )
