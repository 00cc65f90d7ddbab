"""The organiser's archive buttons: download a whole tournament, restore one into a club.

Both call :mod:`scoring.archive.backup`, the same code as ``export_tournament`` and
``import_tournament``. Download needs ``tournament.edit`` (the archive holds the
audit log and players' emails); import needs ``tournament.create`` on the club
it goes into. A refused archive is shown in the reader's language with the
address typed kept; nothing is written.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from tournaments.access.permissions import require, tournament_view
from tournaments.models import Tournament
from zarik.i18n import current_language

from . import backup as archive

#: An archive larger than this is refused before reading (a big event's archive is a few MB).
MAX_ARCHIVE_BYTES = 50 * 1024 * 1024


@login_required
@tournament_view("tournament.edit")
def download(request, tournament: Tournament) -> HttpResponse:
    name = f"{tournament.slug}-{timezone.localdate():%Y%m%d}.json"
    # Streamed as it is read: a 100,000-player event's archive is never held whole (issue 50).
    pieces = (piece.encode() for piece in archive.chunks(tournament))
    response = StreamingHttpResponse(pieces, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def restore(request, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    require(request.user, "tournament.create", club)
    error, slug = "", request.POST.get("slug", "").strip()
    if request.method == "POST":
        upload = request.FILES.get("archive")
        try:
            if upload is None:
                raise archive.ArchiveError(archive.ARCHIVE.problem("json", error=_("no file chosen")))
            if upload.size > MAX_ARCHIVE_BYTES:
                raise archive.ArchiveError(
                    archive.ARCHIVE.problem("json", error=_("the file is larger than 50 MB"))
                )
            done = archive.import_file(upload, request.user, slug=slug or None, club=club)
        except archive.ArchiveError as exc:
            error = exc.message(current_language())
        else:
            messages.success(
                request,
                _("Tournament “%(name)s” restored: %(rows)d rows, %(players)d new players.")
                % {"name": done.tournament.name, "rows": done.rows, "players": done.players_created},
            )
            for warning in done.warnings:
                messages.warning(request, warning.message(current_language()))
            return redirect("manage-settings", slug=done.tournament.slug)
    return render(
        request, "scoring/archive/restore.html", {"club": club, "error": error, "slug": slug},
        status=400 if error else 200,
    )
