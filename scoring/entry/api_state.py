"""A match's result state over the API, as the match page shows it, and a player's own matches.

Issue 28: the opponent could not confirm over the API because nothing a player
could read named the pending report. The match resource now carries, for those
the permission table lets see the match (``match.see``: its players and the
tournament's officials), the pending report (id, score, games, who reported and
when), the confirmed result, an open dispute, and the actions the caller may
take now — each with the method, the address and the body to send, built from
the same permission rows (``result.report``, ``result.confirm``,
``result.dispute``) the services check again when the action arrives. So a
player confirms, disputes or counter-reports with what they read, and nothing
else. ``GET /api/me/matches/`` lists the caller's matches in rounds being played.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, prefetch_related_objects
from django.urls import reverse
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, viewsets
from rest_framework.renderers import JSONRenderer

from scoring.models import DisputeState, Result, ResultState
from scoring.templatetags.people import confirmer, reporter
from tournaments.access.permissions import allowed, visible_tournaments
from tournaments.access.private_links import LinkHolder
from tournaments.api.http.etags import etag_of
from tournaments.api.serializers import MatchSerializer, ScoreOut
from tournaments.models import Match, ResultStatus, RoundStatus

#: Result states a reader is shown: the one being decided and the one that stands.
SHOWN_STATES = (ResultState.REPORTED, ResultState.CONFIRMED, ResultState.DISPUTED)


class ResultViewSerializer(serializers.Serializer):
    """One result of the match as its players and officials see it on the match page."""

    id = serializers.IntegerField(help_text="send it as `result` to confirm/ or dispute/")
    state = serializers.CharField(help_text="reported, confirmed or disputed (a confirmed result under dispute)")
    score_a = ScoreOut()
    score_b = ScoreOut()
    kind = serializers.CharField()
    winner = serializers.CharField(allow_blank=True)
    games = serializers.ListField(child=serializers.DictField(), help_text="the game ledger as entered")
    reported_by = serializers.SerializerMethodField(help_text="who reported it (a name)")
    reported_side = serializers.CharField(allow_blank=True, help_text="'a' or 'b' when a player reported it")
    reported_at = serializers.DateTimeField()
    confirmed_by = serializers.SerializerMethodField(allow_null=True)
    confirmed_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField(allow_blank=True)

    def get_reported_by(self, result) -> str:
        return reporter(result)

    def get_confirmed_by(self, result) -> str | None:
        return confirmer(result) if result.state != ResultState.REPORTED else None


class ActionSerializer(serializers.Serializer):
    """What the caller may do now: send ``body`` (filled in where it says so) to ``href``."""

    action = serializers.ChoiceField(choices=["report", "confirm", "dispute"])
    method = serializers.CharField()
    href = serializers.CharField()
    body = serializers.DictField(help_text="the body to send; `final`/`reason` are yours to fill in")


class DisputeLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    state = serializers.CharField()
    href = serializers.CharField()


class ResultStateSerializer(serializers.Serializer):
    pending_report = ResultViewSerializer(allow_null=True, help_text="the report waiting for confirmation")
    confirmed_result = ResultViewSerializer(allow_null=True, help_text="the result that stands")
    dispute = DisputeLinkSerializer(allow_null=True, help_text="an open or appealed dispute of this match")
    actions = ActionSerializer(many=True)


def result_state(match: Match, user) -> dict[str, Any]:
    """The match's result state for ``user``: everything for its players and officials, only the
    confirmed result (public anyway: the score is on the pairings) for everyone else.

    ``match`` has its round, tournament and entries with their players loaded
    (:func:`tournaments.cache.complete_at_version`); this reads its shown results with
    their accounts (one query), the players of accounts that are not the match's own
    (:func:`_accounts_players`, rarely), and, when the match is disputed, its open
    dispute (one more).
    """
    insider = allowed(user, "match.see", match)
    results = list(
        Result.objects.filter(match=match, state__in=SHOWN_STATES)
        .select_related("reported_by", "confirmed_by")
        .order_by("-pk")
    )
    for result in results:
        result.match = match  # the permission rows and the names read the loaded match
    _accounts_players(match, results)
    pending = next((r for r in results if r.state == ResultState.REPORTED), None)
    standing = next((r for r in results if r.state != ResultState.REPORTED), None)
    dispute = None
    if insider and match.result_status == ResultStatus.DISPUTED:
        dispute = match.disputes.filter(state__in=[DisputeState.OPEN, DisputeState.APPEALED]).order_by("-pk").first()
        if dispute is not None:
            dispute.match = match
            if not allowed(user, "dispute.see", dispute):
                dispute = None  # a referee sees the match, not the dispute: no link that answers him 403
    return {
        "pending_report": ResultViewSerializer(pending).data if insider and pending else None,
        "confirmed_result": ResultViewSerializer(standing).data if standing else None,
        "dispute": {
            "id": dispute.pk, "state": dispute.state,
            "href": reverse("api-dispute-detail", args=[dispute.pk]),
        } if dispute else None,
        "actions": _actions(match, user, pending, standing, under_dispute=dispute is not None) if insider else [],
    }  # fmt: skip


def _accounts_players(match: Match, results: list[Result]) -> None:
    """Give each account that reported or confirmed one of ``results`` its player (the name
    :func:`scoring.templatetags.people.reporter` shows): the match's own players come with
    the match, so only another account's (a referee's) is read, all in one query.

    Issue 50: joining both accounts' players into the results query cost 0.7 ms of SQL
    building on every match read and on the ETag of every report and confirmation."""
    players = {
        entry.player.user_id: entry.player
        for entry in (match.entry_a, match.entry_b)
        if entry is not None and entry.player.user_id is not None
    }
    others = []
    for result in results:
        for account in (result.reported_by, result.confirmed_by):
            if account is None:
                continue
            if account.pk in players:
                account.player = players[account.pk]  # the one player of this account (one-to-one)
            else:
                others.append(account)
    if others:
        prefetch_related_objects(others, "player")


def _actions(match: Match, user, pending, standing, *, under_dispute: bool) -> list[dict[str, Any]]:
    """The actions the permission table grants ``user`` now, with their bodies."""
    href = lambda name: reverse(f"api-match-{name}", args=[match.pk])  # noqa: E731
    out: list[dict[str, Any]] = []
    settled = match.result_status in (ResultStatus.CONFIRMED, ResultStatus.DISPUTED)
    if not settled and allowed(user, "result.report", match):
        # With a pending report by the opponent, the same score confirms it (book Part 9:
        # both players report the result) and another score is refused with the pending one.
        out.append({"action": "report", "method": "POST", "href": href("report"),
                    "body": {"final": None, "version": match.version}})  # fmt: skip
    if pending is not None and allowed(user, "result.confirm", pending):
        out.append({"action": "confirm", "method": "POST", "href": href("confirm"),
                    "body": {"result": pending.pk, "version": match.version}})  # fmt: skip
    if not under_dispute:
        for result in (pending, standing):
            if result is not None and allowed(user, "result.dispute", result):
                out.append({"action": "dispute", "method": "POST", "href": href("dispute"),
                            "body": {"result": result.pk, "version": match.version, "reason": ""}})  # fmt: skip
                break
    return out


class MatchStateSerializer(MatchSerializer):
    """A match with its result state (``result_state``) as the caller may see it."""

    result_state = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "result_state"]

    @extend_schema_field(ResultStateSerializer)
    def get_result_state(self, match) -> dict[str, Any]:
        return result_state(match, self.context["request"].user)


def match_etag(match: Match, request) -> str:
    """The ``ETag`` a GET of the match answers ``request``'s caller, made from ``match`` as a
    result action just saved it (locked, its version moved on, its round, tournament and
    players loaded): the same bytes the GET's JSON renderer writes, so the same tag
    (:func:`tournaments.api.http.etags.etag_of`), without the GET's second request through
    authentication, the match's read and the view (issue 50: a third of a report's CPU).
    ``tests/api/test_api_written_walk.py`` checks every result action's tag against a GET.
    """
    data = MatchStateSerializer(match, context={"request": request}).data
    return etag_of(JSONRenderer().render(data))


class MyMatchSerializer(MatchStateSerializer):
    """One of the caller's matches, with the address of its match resource."""

    href = serializers.SerializerMethodField()

    class Meta(MatchStateSerializer.Meta):
        fields = [*MatchStateSerializer.Meta.fields, "href"]

    def get_href(self, match) -> str:
        return reverse("api-match-detail", args=[match.pk])


class MyMatchesViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """``GET /api/me/matches/``: the caller's matches in rounds being played (published, not
    finished), oldest round first — the current match with its result state and what to do.

    Only tournaments the caller may read are listed (an unreleased event is read by its
    officials only: release it with ``"public": true``).
    """

    serializer_class = MyMatchSerializer
    permission_classes = [permissions.IsAuthenticated]

    def get_queryset(self):
        user = self.request.user
        if getattr(self, "swagger_fake_view", False):
            return Match.objects.none()
        if isinstance(user, LinkHolder):  # an entry key: that entry's matches
            mine = Q(entry_a=user.entry) | Q(entry_b=user.entry)
        elif user.pk is not None:
            mine = Q(entry_a__player__user=user) | Q(entry_b__player__user=user)
        else:
            return Match.objects.none()
        return (
            Match.objects.filter(mine)
            .filter(round__status=RoundStatus.PUBLISHED, round__tournament__in=visible_tournaments(user))
            .select_related("round__tournament", "entry_a__player", "entry_b__player")
            .order_by("round__tournament__starts_on", "round__number", "id")
        )

    @extend_schema(summary="The caller's current matches")
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)
