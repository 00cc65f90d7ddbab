"""The Excel export over the API: start a job, poll its progress, download the workbook.

``POST /api/tournaments/<slug>/exports/`` ``{"lang": "ru"|"en"}`` → 202 with the job;
``GET …/exports/<job>/`` → its progress; ``GET …/exports/<job>/download/`` → the file.
The same job service as the public export pages (:mod:`tournaments.jobs.exports`).
"""

from __future__ import annotations

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_serializer,
    extend_schema_view,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments.access.permissions import visible_tournaments
from tournaments.jobs import exports as export_jobs
from tournaments.jobs import progress as jobs
from zarik.i18n import current_language

from .http.errors import ApiProblem


@extend_schema_serializer(examples=[OpenApiExample("Standings and crosstable", value={}, request_only=True)])
class ExportStartSerializer(serializers.Serializer):
    lang = serializers.ChoiceField(choices=["ru", "en"], required=False)


class ExportStatusSerializer(serializers.Serializer):
    job = serializers.CharField()
    state = serializers.CharField()
    done = serializers.IntegerField()
    total = serializers.IntegerField()
    percent = serializers.IntegerField()
    download = serializers.CharField(allow_null=True)
    error = serializers.CharField(allow_null=True)


@extend_schema_view(
    create=extend_schema(parameters=[OpenApiParameter("slug", str, OpenApiParameter.PATH)]),
    retrieve=extend_schema(parameters=[OpenApiParameter("slug", str, OpenApiParameter.PATH)]),
    download=extend_schema(parameters=[OpenApiParameter("slug", str, OpenApiParameter.PATH)]),
)
class ExportViewSet(viewsets.GenericViewSet):
    serializer_class = ExportStatusSerializer
    lookup_field = "job"
    lookup_value_regex = "[0-9a-f-]{36}"

    def _tournament(self):
        return get_object_or_404(visible_tournaments(self.request.user), slug=self.kwargs["slug"])

    def _answer(self, request, tournament, job: str, code: int = 200) -> Response:
        status = export_jobs.status(tournament, job)
        if status is None:
            raise Http404
        if status["state"] == jobs.SUCCESS:
            status["download"] = request.build_absolute_uri(
                reverse("api-export-download", kwargs={"slug": tournament.slug, "job": job})
            )
        return Response({"job": job, **status}, status=code)

    @extend_schema(request=ExportStartSerializer, responses={202: ExportStatusSerializer})
    def create(self, request, slug=None):
        """Start (or reuse, if nothing changed since) the workbook's job; poll the answer's job."""
        tournament = self._tournament()
        data = ExportStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        lang = data.validated_data.get("lang") or ("en" if current_language().startswith("en") else "ru")
        try:
            job = export_jobs.start(tournament, lang)
        except jobs.NotQueued as exc:
            raise ApiProblem(503, exc.problem, headers={"Retry-After": "60"}, job=exc.job) from None
        return self._answer(request, tournament, job, 202)

    def retrieve(self, request, slug=None, job=None):
        """The job's progress; ``download`` is set once the workbook is ready."""
        return self._answer(request, self._tournament(), job)

    @extend_schema(responses={(200, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"): OpenApiTypes.BINARY})
    @action(detail=True)
    def download(self, request, slug=None, job=None):
        tournament = self._tournament()
        path = export_jobs.workbook(tournament, job)
        if path is None:
            raise Http404
        return FileResponse(
            path.open("rb"),
            as_attachment=True,
            filename=export_jobs.filename(tournament, job),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
