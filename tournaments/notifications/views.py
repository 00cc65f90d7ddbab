"""The opt-out page of notification emails: ``/notifications/<token>/`` (URL name ``email-opt-out``).

Every notification email carries this signed link (and the ``List-Unsubscribe``
header). Opening it shows the player's setting with one button; a POST turns the
emails off — also the one-click POST mail clients send (RFC 8058), which has no
CSRF token, hence the exemption: the signed token itself is the secret. The
same page turns them back on. A forged token is a 404.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from . import event_emails as notifications


@csrf_exempt
def opt_out(request, token: str) -> HttpResponse:
    player = notifications.player_for(token)
    if player is None:
        raise Http404
    changed = False
    if request.method == "POST":
        player.email_notifications = request.POST.get("on") == "1"
        player.save(update_fields=["email_notifications"])
        changed = True
    return render(
        request, "notifications/opt_out.html", {"player": player, "token": token, "changed": changed}
    )
