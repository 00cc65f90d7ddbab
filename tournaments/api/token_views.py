"""The user's own API tokens page: create (the key is shown once), list, revoke.

Only the owner sees and revokes their tokens; a token acts with its owner's
rights (``tournaments.api.http.auth``), so there is nothing else to grant here.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from tournaments.models import ApiToken, TokenScope

from .http import tokens


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_lazy("Token name"), max_length=100,
        help_text=_lazy("what uses it, e.g. “club scoreboard” — to tell your tokens apart"),
    )
    scope = forms.ChoiceField(
        label=_lazy("Access"), choices=TokenScope.choices, initial=TokenScope.READ, widget=forms.RadioSelect
    )


@login_required
def token_list(request):
    form = TokenForm(request.POST or None)
    new_key = None
    if request.method == "POST" and form.is_valid():
        _token, new_key = tokens.issue(request.user, form.cleaned_data["name"], form.cleaned_data["scope"])
        form = TokenForm()
    mine = ApiToken.objects.filter(user=request.user).order_by("revoked_at", "-created_at")
    return render(request, "api/tokens.html", {"form": form, "tokens": mine, "new_key": new_key})


@login_required
@require_POST
def token_revoke(request, token_id: int):
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)  # someone else's: 404, not a hint
    tokens.revoke(token)
    messages.success(request, _("The token “%(name)s” is revoked; requests with it are refused.") % {"name": token.name})
    return redirect("account-tokens")
