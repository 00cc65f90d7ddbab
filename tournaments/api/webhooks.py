"""Webhook subscriptions over the API: ``/api/tournaments/<slug>/webhooks/`` and ``/api/clubs/<slug>/webhooks/``.

The same form (URL, events), services (:mod:`tournaments.notifications.webhooks`) and rights
(``tournament.edit``, ``club.manage``) as the webhooks pages. The signing secret is
in the answer to the POST that creates a subscription, and never again. Each
subscription's delivery log is ``…/webhooks/<id>/deliveries/``; ``…/test/`` sends a
``ping``, ``…/deliveries/<id>/redeliver/`` sends a logged delivery again.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from clubs.models import Club
from tournaments.access.permissions import require, visible_tournaments
from tournaments.notifications import webhooks
from tournaments.notifications.forms import WebhookForm
from tournaments.notifications.tasks import queue_delivery

from ..models import WebhookDelivery, WebhookSubscription
from .errors import object_body, raise_form_errors


class WebhookSerializer(serializers.ModelSerializer):
    class Meta:
        model = WebhookSubscription
        fields = ["id", "url", "events", "active", "created_at"]
        read_only_fields = ["id", "created_at"]


class NewWebhookSerializer(WebhookSerializer):
    """The answer to a creation: the only time the signing secret is shown."""

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]


class WebhookInSerializer(serializers.Serializer):
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.CharField(), required=False, help_text="empty: every event")


@extend_schema_serializer(examples=[
    OpenApiExample("Pause", value={"active": False}, request_only=True),
    OpenApiExample("Move and rotate the secret", request_only=True,
                   value={"url": "https://example.org/zarik-v2", "events": ["round.published"], "rotate_secret": True}),
])  # fmt: skip
class WebhookChangeSerializer(serializers.Serializer):
    active = serializers.BooleanField(required=False)
    url = serializers.URLField(required=False)
    events = serializers.ListField(child=serializers.CharField(), required=False, help_text="empty: every event")
    rotate_secret = serializers.BooleanField(
        required=False, default=False, help_text="a new signing secret, shown once in this answer"
    )


class DeliverySerializer(serializers.ModelSerializer):
    class Meta:
        model = WebhookDelivery
        fields = [
            "id", "event", "event_id", "status", "attempts", "response_status", "error",
            "created_at", "last_attempt_at", "delivered_at",
        ]  # fmt: skip


class WebhookViewSet(mixins.DestroyModelMixin, viewsets.ReadOnlyModelViewSet):
    """Webhook subscriptions of a tournament or of a club (the address says whose): list, create, change, delete.

    Deliveries are signed, sent in the background and retried with backoff; see ``/api/webhook-events/``.
    """

    serializer_class = WebhookSerializer
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def owner(self) -> dict:
        if not hasattr(self, "_owner"):
            if "club_slug" in self.kwargs:
                club = get_object_or_404(Club, slug=self.kwargs["club_slug"])
                require(self.request.user, "club.manage", club)
                self._owner = {"club": club}
            else:
                slug = self.kwargs.get("tournament_slug")
                tournament = visible_tournaments(self.request.user).filter(slug=slug).first()
                if tournament is None:
                    raise NotFound
                require(self.request.user, "tournament.edit", tournament)
                self._owner = {"tournament": tournament}
        return self._owner

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no owner
            return WebhookSubscription.objects.none()
        return WebhookSubscription.objects.filter(**self.owner()).order_by("-created_at", "-pk")

    @extend_schema(
        request=WebhookInSerializer, responses={201: NewWebhookSerializer},
        examples=[OpenApiExample(
            "Pairings and confirmed results",
            value={"url": "https://example.org/zarik", "events": ["round.published", "result.confirmed"]},
            request_only=True,
        )],
    )  # fmt: skip
    def create(self, request, *args, **kwargs):
        owner = self.owner()
        body = object_body(request.data)
        data = {"url": body.get("url", ""), "events": body.get("events") or []}
        form = WebhookForm(data)
        if not form.is_valid():
            raise_form_errors(form)
        sub = webhooks.subscribe(owner, form.cleaned_data["url"], form.cleaned_data["events"], request.user)
        return Response(NewWebhookSerializer(sub).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=WebhookChangeSerializer, responses={200: NewWebhookSerializer})
    def partial_update(self, request, *args, **kwargs):
        """Pause or resume (``active``), move (``url``), choose ``events``, or ``rotate_secret``
        (the answer then shows the new secret, once). URL and events are checked by the
        subscription form, as on creation and on the page."""
        sub = self.get_object()
        change = WebhookChangeSerializer(data=request.data)
        change.is_valid(raise_exception=True)
        v = change.validated_data
        url, events = v.get("url"), v.get("events")
        if url is not None or events is not None:
            form = WebhookForm({"url": url if url is not None else sub.url,
                                "events": events if events is not None else sub.events})  # fmt: skip
            if not form.is_valid():
                raise_form_errors(form)
            url = form.cleaned_data["url"] if url is not None else None
            events = form.cleaned_data["events"] if events is not None else None
        webhooks.change(sub, url=url, events=events, active=v.get("active"), rotate_secret=v["rotate_secret"])
        out = NewWebhookSerializer if v["rotate_secret"] else WebhookSerializer
        return Response(out(sub).data)

    @extend_schema(request=None, responses={202: DeliverySerializer})
    @action(detail=True, methods=["post"])
    def test(self, request, pk=None, **kwargs):
        """Send a ``ping`` event to the subscription's URL; its outcome appears in the delivery log."""
        delivery = webhooks.test_delivery(self.get_object())
        queue_delivery(delivery)
        delivery.refresh_from_db()
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={200: DeliverySerializer(many=True)})  # a page, as every collection (?page_size=)
    @action(detail=True, methods=["get"])
    def deliveries(self, request, pk=None, **kwargs):
        """The deliveries, newest first, a page at a time: status, attempts, the receiver's last answer."""
        log = self.get_object().deliveries.order_by("-created_at", "-pk")
        page = self.paginate_queryset(log)
        return self.get_paginated_response(DeliverySerializer(page, many=True).data)

    @extend_schema(request=None, responses={202: DeliverySerializer})
    @action(detail=True, methods=["post"], url_path=r"deliveries/(?P<delivery_id>[0-9]{1,12})/redeliver")
    def redeliver(self, request, pk=None, delivery_id=None, **kwargs):
        """Send a logged delivery again from the start, with the same event id."""
        delivery = get_object_or_404(self.get_object().deliveries, pk=delivery_id)
        delivery = webhooks.redelivery(delivery)
        queue_delivery(delivery)
        delivery.refresh_from_db()
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
