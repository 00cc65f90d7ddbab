"""``GET /api/webhook-events/``: the event types a webhook may subscribe to, with their payloads' ``data``.

Made from the one table (:mod:`tournaments.notifications.event_docs`); each row also
names its payload's component in the OpenAPI document (``WebhookRoundPublished``, …).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, viewsets
from rest_framework.response import Response

from tournaments.notifications.event_docs import event_types


class WebhookEventTypeSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="the name to put in a subscription's `events`")
    description = serializers.CharField()
    description_ru = serializers.CharField()
    data = serializers.DictField(help_text="JSON schema of the payload's `data`")
    schema = serializers.CharField(help_text="the whole payload's component in this OpenAPI document")


class WebhookEventTypeViewSet(viewsets.ViewSet):
    """The event types (a fixed list: no pages)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=WebhookEventTypeSerializer(many=True))
    def list(self, request):
        """Every webhook event type: when it is sent and what its ``data`` carries
        (``round.published`` carries the round's pairings)."""
        return Response(WebhookEventTypeSerializer(event_types(), many=True).data)
