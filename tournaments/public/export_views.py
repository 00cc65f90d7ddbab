"""The public Excel export: a form, a background job with a progress page, the download.

The job (:func:`tournaments.jobs.export_tasks.export_standings_task`) builds the
workbook from :func:`tournaments.standings_service.load_event`, which reads
published and finished rounds only: a draft round never reaches a workbook.
A job is reused while the tournament's cache version is unchanged.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from tournaments.access.permissions import tournament_view
from tournaments.jobs import exports as export_jobs
from tournaments.jobs import progress as jobs
from tournaments.models import Tournament
from zarik.i18n import current_language

from .frame import message


def _export_language(request) -> str | None:
    lang = request.POST.get("lang") or current_language()
    return lang if lang in ("ru", "en") else None


@require_http_methods(["GET", "POST"])
@tournament_view("tournament.view")
def export_start(request, tournament: Tournament) -> HttpResponse:
    """GET: the form. POST: start (or reuse, if nothing changed since) the export job."""
    if request.method == "GET":
        return render(
            request,
            "public/export.html",
            {
                "tournament": tournament,
                "page": "export",
                "page_title": _("Excel export"),
                "lang": current_language(),
            },
        )
    lang = _export_language(request)
    if lang is None:
        return message(
            request,
            tournament,
            _("Excel export"),
            _("Unknown language “%(value)s”: choose ru or en.")
            % {"value": request.POST.get("lang", "")[:10]},
            400,
        )
    try:
        job = export_jobs.start(tournament, lang)
    except jobs.NotQueued as exc:
        response = message(request, tournament, _("Excel export"), exc.problem.message(current_language()), 503)
        response["Retry-After"] = "60"
        return response
    return redirect("public-export-progress", slug=tournament.slug, job=job)


def _job_status(tournament: Tournament, job: str) -> dict[str, Any] | None:
    status = export_jobs.status(tournament, job)
    if status is not None and status["state"] == jobs.SUCCESS:
        status["download"] = reverse(
            "public-export-download", kwargs={"slug": tournament.slug, "job": job}
        )
    return status


@require_safe
@tournament_view("tournament.view")
def export_progress(request, tournament: Tournament, job: uuid.UUID) -> HttpResponse:
    status = _job_status(tournament, str(job))
    if status is None:
        return message(request, tournament, _("Excel export"), _("No such export job."), 404)
    return render(
        request,
        "public/export_progress.html",
        {
            "tournament": tournament,
            "page": "export",
            "page_title": _("Excel export"),
            "status": status,
            "status_url": reverse(
                "public-export-status", kwargs={"slug": tournament.slug, "job": job}
            ),
        },
    )


@require_safe
@tournament_view("tournament.view")
def export_status(request, tournament: Tournament, job: uuid.UUID) -> JsonResponse:
    status = _job_status(tournament, str(job))
    if status is None:
        return JsonResponse({"state": "UNKNOWN", "error": _("No such export job.")}, status=404)
    return JsonResponse(status)


@require_safe
@tournament_view("tournament.view")
def export_download(request, tournament: Tournament, job: uuid.UUID) -> FileResponse:
    path = export_jobs.workbook(tournament, str(job))
    if path is None:
        raise Http404(_("This export is not ready or no longer exists."))
    return FileResponse(
        path.open("rb"),
        as_attachment=True,
        filename=export_jobs.filename(tournament, str(job)),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
