"""``/account/``: every account sets the name it is shown by on results, rulings, the audit log and emails."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.account.people import person_name

from .forms import AccountNameForm


@login_required
def account(request):
    """The account's name; a player's account also sees the player record's name, which pages show."""
    user = request.user
    form = AccountNameForm(request.POST or None, instance=user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saved. Pages now show you as %(name)s.") % {"name": person_name(user)})
        return redirect("account")
    try:
        player = user.player
    except (ObjectDoesNotExist, AttributeError):
        player = None
    context = {"form": form, "player": player, "shown_as": person_name(user), "shown_as_en": person_name(user, "en"),
               "shown_as_ru": person_name(user, "ru")}  # fmt: skip
    return render(request, "account/account.html", context, status=400 if form.errors else 200)
