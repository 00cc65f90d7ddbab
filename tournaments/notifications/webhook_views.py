"""The webhooks pages: ``/t/<slug>/manage/webhooks/`` (``manage-webhooks``, ``tournament.edit``)
and ``/clubs/<slug>/webhooks/`` (``club-webhooks``, ``club.manage``).

Add a URL with the events it hears (none ticked: all), see its signing secret
once, pause, resume or remove it, send a test event, and read the delivery log
(event, status, attempts, the last answer, error, times) with "redeliver".
Both pages are one view body over a different owner (a tournament or a club).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.models import Club
from tournaments.access.permissions import require, tournament_view
from tournaments.models import WebhookDelivery, WebhookSubscription
from tournaments.notifications.tasks import queue_delivery

from . import webhook_circuit as circuit
from . import webhooks
from .forms import LOG_ROWS, WebhookForm


def _handle(request, owner: dict, here: str) -> HttpResponse | WebhookForm:
    """Carry out one POSTed action on the owner's webhooks; a bad form comes back to be shown."""
    subs = WebhookSubscription.objects.filter(**owner)
    action = request.POST.get("action")
    if action == "add":
        form = WebhookForm(request.POST)
        if not form.is_valid():
            return form
        sub = webhooks.subscribe(owner, form.cleaned_data["url"], form.cleaned_data["events"], request.user)
        request.session["webhook_secret"] = [sub.pk, sub.secret]
        messages.success(request, _("Webhook added. Copy its signing secret now: it is shown only once."))
    elif action == "redeliver":
        delivery = get_object_or_404(
            WebhookDelivery, pk=request.POST.get("delivery"), subscription__in=subs
        )
        queue_delivery(webhooks.redelivery(delivery))
        messages.success(request, _("Sent again: see the log."))
    else:
        sub = get_object_or_404(subs, pk=request.POST.get("subscription"))
        if action in ("pause", "resume"):
            webhooks.set_active(sub, action == "resume")
        elif action == "delete":
            sub.delete()
            messages.success(request, _("Webhook removed."))
        elif action == "test":
            queue_delivery(webhooks.test_delivery(sub))
            messages.success(request, _("Test event sent: see the log."))
    return redirect(here)


def _page(request, owner: dict, here: str, context: dict) -> HttpResponse:
    form = WebhookForm()
    if request.method == "POST":
        outcome = _handle(request, owner, here)
        if isinstance(outcome, HttpResponse):
            return outcome
        form = outcome
    subs = list(WebhookSubscription.objects.filter(**owner).order_by("-created_at"))
    for sub in subs:
        sub.circuit_open = circuit.wait_for(sub) is not None
    log = (
        WebhookDelivery.objects.filter(subscription__in=subs)
        .select_related("subscription")
        .order_by("-created_at", "-pk")[:LOG_ROWS]
    )
    secret = request.session.pop("webhook_secret", None)
    return render(
        request,
        "notifications/webhooks.html",
        {**context, "form": form, "subscriptions": subs, "log": log, "secret": secret},
        status=400 if form.errors else 200,
    )


@login_required
@tournament_view("tournament.edit")
def tournament_webhooks(request, tournament) -> HttpResponse:
    here = reverse("manage-webhooks", kwargs={"slug": tournament.slug})
    return _page(request, {"tournament": tournament}, here, {"tournament": tournament, "owner_name": tournament.name})


@login_required
def club_webhooks(request, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    require(request.user, "club.manage", club)
    here = reverse("club-webhooks", kwargs={"slug": club.slug})
    return _page(request, {"club": club}, here, {"club": club, "owner_name": club.name})
