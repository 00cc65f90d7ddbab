"""``POST /api/entry-tokens/``: a private link exchanged for an entry key (issue 47).

A player app scans the QR code on the player's card (or the link in their email)
and sends it here; the answer's key acts for that entry only — read, report,
confirm, dispute, appeal, check in, ask for a bye (the private page's actions,
:data:`tournaments.api.http.entry_tokens.ENTRY_KEY_WRITES`) — and stops working
when the organiser reissues the link. No account, no password. Unknown links count
towards the address's private-link guess limit, as opening them on the site does.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.exceptions import Throttled
from rest_framework.response import Response

from tournaments.access import private_links
from zarik.i18n import current_language
from zarik.limits import guesses

from .http.errors import ApiProblem
from .http.problems import api_problem

#: The token inside a pasted link: ``https://host/p/<token>/…``, or the bare token.
LINK_TOKEN = re.compile(r"(?:^|/p/)(?P<token>[0-9]+\.[0-9]+:[A-Za-z0-9_-]+)(?:/|$)")


@extend_schema_serializer(examples=[OpenApiExample(
    "The link from the player's card", value={"link": "https://zarik.example/p/17.0:Xk3…/"}, request_only=True,
)])  # fmt: skip
class LinkInSerializer(serializers.Serializer):
    link = serializers.CharField(max_length=500, help_text="the private link (the whole address, or its token)")


class EntryKeySerializer(serializers.Serializer):
    key = serializers.CharField(help_text="send as `Authorization: Bearer <key>`; revoked when the link is reissued")
    entry = serializers.IntegerField(help_text="the entry the key acts for")
    tournament = serializers.CharField(help_text="the tournament's slug")
    player = serializers.CharField(help_text="the player's name")
    matches = serializers.CharField(help_text="where the player's current matches are: GET it with the key")
    check_in = serializers.CharField(help_text="POST to check in, DELETE to undo it (until the round is paired)")
    bye_requests = serializers.CharField(help_text='POST {"entry": <this entry>, "round": <number>} to sit a round out')


def _token_in(link: str) -> str | None:
    found = LINK_TOKEN.search(link.strip())
    return found.group("token") if found else None


class EntryKeyViewSet(viewsets.ViewSet):
    """Exchange a player's private link for an API key that acts for that entry only."""

    authentication_classes: list = []  # the link is the credential
    permission_classes: list = []

    @extend_schema(request=LinkInSerializer, responses={201: EntryKeySerializer}, auth=[])
    def create(self, request):
        data = LinkInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = _token_in(data.validated_data["link"])
        usage = guesses(request, "private-link-miss", settings.PRIVATE_LINK_MISS_RATE, increment=False)
        if token is None or not private_links.signed(token):
            if usage and usage["count"] >= usage["limit"]:
                raise Throttled(wait=usage["time_left"])
            guesses(request, "private-link-miss", settings.PRIVATE_LINK_MISS_RATE, increment=True)
            unknown = api_problem("link_unknown")
            raise ApiProblem(400, unknown, errors={"link": [unknown.message(current_language())]})
        entry = private_links.entry_for(token)
        if entry is None:
            raise ApiProblem(409, api_problem("link_reissued"))
        slug = entry.tournament.slug
        out = {
            "key": private_links.api_key_for(entry), "entry": entry.pk, "tournament": slug,
            "player": entry.player.full_name, "matches": reverse("api-me-match-list"),
            "check_in": reverse("api-tournament-entry-check-in", kwargs={"tournament_slug": slug, "pk": entry.pk}),
            "bye_requests": reverse("api-tournament-bye-request-list", kwargs={"tournament_slug": slug}),
        }  # fmt: skip
        # The key's resource is the entry it acts for.
        where = {"Location": reverse("api-entry-detail", args=[entry.pk])}
        return Response(EntryKeySerializer(out).data, status=status.HTTP_201_CREATED, headers=where)
