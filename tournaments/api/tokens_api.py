"""``/api/tokens/``: a user's own API tokens over the API — create, list, revoke (issue 28).

The account page's services (:mod:`tournaments.api.http.tokens`: ``issue``,
``revoke``); the key is in the creation's answer only. A token is created with
the account's password (``username`` + ``password`` in the body: an integrator's
first token, no web pages needed; failed attempts count towards the login
lockout like the login form's, django-axes) or by an existing read-and-write
token or session of the account. A token never creates one of wider access than
itself: a read token is refused every write (``api.token_read_only``).
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.response import Response

from tournaments.models import ApiToken, TokenScope

from .http import tokens
from .http.errors import ApiProblem
from .http.problems import api_problem


class TokenSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "scope", "created_at", "last_used_at", "revoked_at"]


class NewTokenSerializer(TokenSerializer):
    key = serializers.CharField(help_text="the key: shown in this answer only, store it now")

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "key"]


@extend_schema_serializer(examples=[
    OpenApiExample("With the account's password", request_only=True, value={
        "name": "club scoreboard", "scope": "write", "username": "organiser", "password": "zarik-organiser",
    }),
    OpenApiExample("With a token (Authorization header)", request_only=True, value={"name": "phone", "scope": "read"}),
])  # fmt: skip
class TokenInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="what uses it, to tell your tokens apart")
    scope = serializers.ChoiceField(choices=TokenScope.choices, default=TokenScope.READ)
    username = serializers.CharField(required=False, help_text="with password: when not signed in by a token")
    password = serializers.CharField(required=False, style={"input_type": "password"}, write_only=True)


class TokenViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """Your own API tokens: ``POST`` creates one (the key is in the answer only), ``GET`` lists
    them or reads one (never the keys), ``DELETE /api/tokens/<id>/`` revokes one at once."""

    serializer_class = TokenSerializer

    def get_permissions(self):
        if self.action == "create":
            return [permissions.AllowAny()]  # the password in the body is the credential
        return [permissions.IsAuthenticated()]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ApiToken.objects.none()
        return ApiToken.objects.filter(user=self.request.user).order_by("revoked_at", "-created_at")

    @extend_schema(request=TokenInSerializer, responses={201: NewTokenSerializer})
    def create(self, request, *args, **kwargs):
        data = TokenInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        user = request.user if request.user.is_authenticated else None
        if user is None:
            user = authenticate(request._request, username=v.get("username", ""), password=v.get("password", ""))
        if user is None or not user.is_active:
            raise ApiProblem(401, api_problem("authentication_failed"), headers={"WWW-Authenticate": "Token"})
        token, key = tokens.issue(user, v["name"], v["scope"])
        token.key = key  # on this answer's copy only: the database keeps its hash
        return Response(NewTokenSerializer(token).data, status=status.HTTP_201_CREATED)  # Location: the written module

    def retrieve(self, request, *args, **kwargs):
        """One of your tokens: its name, scope, prefix and when it was made, last used and revoked (never its key)."""
        return super().retrieve(request, *args, **kwargs)

    def destroy(self, request, *args, **kwargs):
        """Revoke the token: requests with it are refused from now on (someone else's: 404)."""
        token = get_object_or_404(self.get_queryset(), pk=kwargs["pk"])
        tokens.revoke(token)
        return Response(status=status.HTTP_204_NO_CONTENT)
