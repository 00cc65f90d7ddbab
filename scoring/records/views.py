"""Record pages: the viewer, match files up and down, a file's decision page, bulk upload.

Thin shells over :mod:`scoring.viewer` (frames and SVG) and :mod:`scoring.records.match_files`
(reading, mapping, comparing, attaching). The same decision page serves a referee, a
signed-in player and a player through a private link (``actor`` and ``urls`` differ).
Broken input never raises: it is shown as located problems with the input kept.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import workflow
from scoring.models import MatchFile, MatchFileState
from scoring.records import replays
from scoring.rules.errors import Problem
from scoring.viewer.frames import RecordView, view_text
from scoring.viewer.svg import board_svg, describe, pip_counts
from tournaments.access.permissions import (
    acts_as_official,
    allowed,
    login_first,
    side_of,
    tournament_view,
)
from tournaments.access.visibility import can_see_round
from tournaments.jobs import progress as jobs
from tournaments.links.private_views import holder_and_match, holder_or_404
from tournaments.models import Match, Round
from tournaments.validation import match_spec
from zarik import htmx
from zarik.i18n import current_language

from . import match_files
from .tasks import bulk_upload_task

MAX_UPLOADS = 400


def cached_view(text: str, variant: str, mf: MatchFile | None = None) -> RecordView:
    """The replayed record: kept in this process and with its match file (never replayed
    per view; see :mod:`scoring.records.replays`)."""
    return replays.view_for(text, variant, mf)


# --------------------------------------------------------------------------- viewer


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


NOTATIONS = ("traditional", "through", "own")


def viewer_options(params) -> dict[str, Any]:
    """The viewer's display choices from the address: notation and a board turned round."""
    notation = params.get("notation") or "traditional"
    return {"notation": notation if notation in NOTATIONS else "traditional", "flip": params.get("flip") == "1"}


def position_words(
    view: RecordView, frame, side_names: dict[str, str], pips: tuple[int, int], move: str | None
) -> str:
    """The position in one sentence for a screen reader (issue 44): what happened, whose turn it
    is now, the pip counts, the cube and the score. The board is a picture (its ``<desc>`` lists
    the checkers); this is what a sighted reader takes in at a glance, and what the viewer's live
    region announces at each step."""
    white, black = side_names["white"], side_names["black"]
    name = side_names.get(frame.side or "", "")
    if frame.kind == "start":
        said = _("Game %(game)s, start.") % {"game": frame.game}
    elif frame.kind == "cube":
        said = _("Game %(game)s: %(side)s, %(action)s.") % {"game": frame.game, "side": name, "action": move or frame.printed}
    elif frame.dice:
        said = _("Game %(game)s, move %(move)s: %(side)s rolled %(d1)s–%(d2)s and played %(play)s.") % {
            "game": frame.game, "move": frame.move, "side": name, "d1": frame.dice[0], "d2": frame.dice[1],
            "play": move or frame.printed,
        }
    else:
        said = _("Game %(game)s, move %(move)s: %(side)s, %(play)s.") % {
            "game": frame.game, "move": frame.move, "side": name, "play": move or frame.printed,
        }
    parts = [said]
    following = view.frame(frame.index + 1) if frame.index < view.frames[-1].index else None
    if following is not None and following.game == frame.game and following.side:
        parts.append(_("%(side)s to play.") % {"side": side_names.get(following.side, "")})
    parts.append(_("Pip count: %(white)s %(wp)s, %(black)s %(bp)s.") % {
        "white": white, "wp": pips[0], "black": black, "bp": pips[1]})
    owner = side_names.get(frame.cube_owner or "", "")
    parts.append(
        _("Cube %(value)s, owned by %(who)s.") % {"value": frame.cube, "who": owner}
        if owner else _("Cube %(value)s, in the middle.") % {"value": frame.cube}
    )
    score = _("Score: %(white)s %(ws)s, %(black)s %(bs)s") % {
        "white": white, "ws": frame.score[0], "black": black, "bs": frame.score[1]}
    if view.length:
        score += ", " + _("match to %(n)s") % {"n": view.length}
    parts.append(score + ".")
    return " ".join(parts)


def viewer_context(
    view: RecordView, ply: int | None, names: dict[str, str], language: str,
    notation: str = "traditional", flip: bool = False,
) -> dict:
    """What the viewer template shows for frame ``ply`` (one SVG: the page stays small)."""
    frame = view.frame(ply)
    english = language.startswith("en")
    side_names = {
        "white": names.get("white") or (_("White")),
        "black": names.get("black") or (_("Black")),
    }
    title = (
        _("Game %(game)s, start") % {"game": frame.game}
        if frame.kind == "start"
        else _("Game %(game)s, move %(move)s, %(side)s") % {
            "game": frame.game, "move": frame.move, "side": side_names.get(frame.side or "white"),
        }
    )
    svg = board_svg(
        frame.position, dice=frame.dice, dice_side=frame.side, cube=frame.cube,
        cube_owner=frame.cube_owner, title=title, description=describe(frame.position, language), flip=flip,
    )
    pips = pip_counts(frame.position)
    problems = [
        {"message": p.message(language, side_names), "frame": view.problem_frames[i]}
        for i, p in enumerate(view.problems)
    ]
    games = []
    for game in view.games:
        rows: list[dict[str, Any]] = []
        # Only the shown game's moves are listed (the others are one link each): a long
        # match stays a small page, and the moves are written out only for what is shown.
        shown = view.frames[game.first + 1 : game.last + 1] if game.number == frame.game else []
        for f in shown:
            if not rows or rows[-1]["move"] != f.move or f.side in rows[-1]:
                rows.append({"move": f.move})
            rows[-1][f.side or "white"] = f
        for row in rows:
            row["cells"] = [
                {"f": f, "text": f.moves.get(notation) or f.printed} if f is not None else None
                for f in (row.get("white"), row.get("black"))
            ]
        games.append({"game": game, "rows": rows, "start": game.first})
    first = view.frames[0].index
    last = view.frames[-1].index
    score = frame.score
    return {
        "view": view,
        "frame": frame,
        "svg": svg,
        "title": title,
        "problems": problems,
        "frame_problems": [problems[i]["message"] for i in frame.problems],
        "loadable": view.loadable(frame),
        "games": games,
        "prev": frame.index - 1 if frame.index > first else None,
        "next": frame.index + 1 if frame.index < last else None,
        "last": last,
        "side_names": side_names,
        "cube_owner_name": side_names.get(frame.cube_owner or "", ""),
        "score_text": f"{score[0]}:{score[1]}",
        "other_numbering": "through" if view.numbering != "through" else "traditional",
        "english": english,
        "pips": {"white": pips[0], "black": pips[1]},
        "words": position_words(view, frame, side_names, pips, frame.moves.get(notation)),
        "notation": notation,
        "flip": flip,
        # Kept on every link of the viewer, so stepping keeps the reader's choices.
        "keep": ("&notation=" + notation if notation != "traditional" else "") + ("&flip=1" if flip else ""),
    }


def _names_for(view: RecordView, match: Match | None, mf: MatchFile | None, language: str) -> dict[str, str]:
    if match is not None and mf is not None and mf.first_is:
        first, second = match_files.player_names(match, mf.first_is, language)
        return {"white": first, "black": second}
    if view.kind == "mat":
        return {"white": view.players[0], "black": view.players[1]}
    return {}


def _viewable_match(request, tournament, match_id: int) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "entry_a__player", "entry_b__player"),
        pk=match_id, round__tournament=tournament,
    )
    if not can_see_round(request.user, match.round) or not allowed(request.user, "match.see", match):
        raise Http404
    return match


@login_first
@tournament_view("tournament.view")
def record_viewer(request, tournament, match_id: int) -> HttpResponse:
    """The match's record, one position at a time (``?ply=N``); ←/→ and swipe move."""
    match = _viewable_match(request, tournament, match_id)
    return _match_viewer(request, tournament, match, urls=_match_urls(tournament, match))


def _match_viewer(request, tournament, match: Match, *, urls: dict[str, str]) -> HttpResponse:
    found = match_files.match_record(match)
    language = current_language()
    ctx: dict[str, Any] = {"tournament": tournament, "match": match, "urls": urls}
    if found is None:
        return render(request, "scoring/records/record_viewer.html", {**ctx, "no_record": True})
    text, mf = found
    view = cached_view(text, tournament.variant, mf)
    ctx.update(viewer_context(
        view, _int(request.GET.get("ply")), _names_for(view, match, mf, language), language,
        **viewer_options(request.GET),
    ))
    # A step swaps the board and, out of band, the move list: both show the same position.
    template = "scoring/records/_record_step.html" if htmx.is_htmx(request) else "scoring/records/record_viewer.html"
    return htmx.vary(render(request, template, ctx))


def record_paste(request) -> HttpResponse:
    """Any record pasted or uploaded, shown in the viewer and never saved."""
    text = request.POST.get("text") or ""
    ctx: dict[str, Any] = {"text": text, "paste": True, "errors": []}
    upload = request.FILES.get("file")
    if request.method == "POST" and upload is not None:
        decoded, problem = match_files.decode(upload.read(match_files.MAX_BYTES + 1), upload.name)
        if problem is not None:
            ctx["errors"].append(problem.message(current_language()))
        else:
            text = ctx["text"] = decoded or ""
    if match_files.over_cap(text):
        too_large = match_files.MATCHFILE.problem("too_large", file="", limit=match_files.MAX_BYTES // 1024)
        ctx["errors"].append(too_large.message(current_language()))
        text = ""
    if request.method == "POST" and text.strip():
        # A gnubg .sgf (and the other formats only gnubg reads) is shown through its .mat;
        # the text box keeps what was pasted.
        text, problem = match_files.converted(text, upload.name if upload is not None else "")
        if problem is not None:
            ctx["errors"].append(problem.message(current_language()))
    if request.method == "POST" and text.strip():
        language = current_language()
        view = view_text(text, variant=request.POST.get("variant") or None)
        ctx.update(viewer_context(
            view, _int(request.POST.get("ply")), _names_for(view, None, None, language), language,
            **viewer_options(request.POST),
        ))
    elif request.method == "POST" and not ctx["errors"]:
        ctx["errors"].append(_("Paste a record or choose a file."))
    return render(request, "scoring/records/record_paste.html", ctx)


# --------------------------------------------------------------------------- downloads


def _download(match: Match, fmt: str) -> HttpResponse:
    found = match_files.match_record(match) if fmt in ("mat", "txt") else None
    if found is None:
        raise Http404
    text, mf = found
    tournament = match.round.tournament
    language = current_language()
    first_is = mf.first_is if mf is not None else "a"
    players = match_files.player_names(match, first_is or "a", "en")
    stem = f"{tournament.slug}-r{match.round.number}-t{match.table or match.pk}"
    if fmt == "mat":
        from_length = match_spec(match).length or 0
        body = match_files.as_mat(text, variant=tournament.variant, length=from_length, players=players)
        name, content_type = f"{stem}.mat", "text/plain; charset=utf-8"
    else:
        view = cached_view(text, tournament.variant, mf)
        names = match_files.player_names(match, first_is or "a", language)
        body = match_files.as_book_text(view, players=names, english=language.startswith("en"))
        name, content_type = f"{stem}.txt", "text/plain; charset=utf-8"
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_first
@tournament_view("tournament.view")
def record_download(request, tournament, match_id: int, fmt: str) -> HttpResponse:
    return _download(_viewable_match(request, tournament, match_id), fmt)


# --------------------------------------------------------------------------- upload and decide


def _match_urls(tournament, match: Match) -> dict[str, str]:
    kw = {"slug": tournament.slug, "match_id": match.pk}
    return {
        "viewer": reverse("record-viewer", kwargs=kw),
        "upload": reverse("record-upload", kwargs=kw),
        "mat": reverse("record-download", kwargs={**kw, "fmt": "mat"}),
        "txt": reverse("record-download", kwargs={**kw, "fmt": "txt"}),
        "match": reverse("result-match", kwargs=kw),
    }


def _private_urls(token: str, match: Match) -> dict[str, str]:
    kw = {"token": token, "match_id": match.pk}
    return {
        "viewer": reverse("private-record-viewer", kwargs=kw),
        "upload": reverse("private-record-upload", kwargs=kw),
        "mat": reverse("private-record-download", kwargs={**kw, "fmt": "mat"}),
        "txt": reverse("private-record-download", kwargs={**kw, "fmt": "txt"}),
        "match": reverse("private-match", kwargs=kw),
    }


def _file_url(mf: MatchFile, token: str | None) -> str:
    if token:
        return reverse("private-record-file", kwargs={"token": token, "file_id": mf.pk})
    return reverse("record-file", kwargs={"slug": mf.tournament.slug, "file_id": mf.pk})


def _upload(request, actor, match: Match, *, urls: dict[str, str], token: str | None = None) -> HttpResponse:
    """Upload a file or paste a record for ``match``; it is kept, then decided on its own page."""
    if not allowed(actor, "record.upload", match):
        raise PermissionDenied
    tournament = match.round.tournament
    ctx: dict[str, Any] = {"tournament": tournament, "match": match, "urls": urls, "errors": [], "text": ""}
    if request.method == "POST":
        upload = request.FILES.get("file")
        text = request.POST.get("text") or ""
        ctx["text"] = text
        if upload is not None:
            check = match_files.read_file(
                upload.read(match_files.MAX_BYTES + 1), name=upload.name, variant=tournament.variant
            )
        elif text.strip():
            check = match_files.check_text(text, variant=tournament.variant, name=_("pasted record"))
        else:
            check = None
            ctx["errors"].append(_("Paste a record or choose a file."))
        if check is not None and not check.text:
            ctx["errors"].extend(p.message(current_language()) for p in check.problems)
        elif check is not None:
            mf = match_files.store(
                check, tournament=tournament, match=match, user=actor,
                side=side_of(actor, match) or "", proposed=match_files.propose(match, check.players),
            )
            return redirect(_file_url(mf, token))
    return render(request, "scoring/records/record_upload.html", ctx, status=400 if ctx["errors"] else 200)


@login_first
@tournament_view("tournament.view")
def record_upload(request, tournament, match_id: int) -> HttpResponse:
    match = _viewable_match(request, tournament, match_id)
    return _upload(request, request.user, match, urls=_match_urls(tournament, match))


def _file_page(request, actor, mf: MatchFile, *, token: str | None = None) -> HttpResponse:
    if not match_files.may_decide(actor, mf):
        raise PermissionDenied
    tournament = mf.tournament
    language = current_language()
    check = match_files.stored_check(mf, tournament.variant)
    official = allowed(actor, "result.enter", tournament)
    errors: list[str] = []
    chosen = request.POST.get("first_is") or request.GET.get("first_is") or mf.first_is or mf.proposed
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "pairing" and official:
            match = Match.objects.filter(round=mf.round, pk=_int(request.POST.get("match"))).first()
            if match is not None:
                mf.match = match
                mf.proposed = match_files.propose(match, check.players)
                mf.save(update_fields=["match", "proposed"])
                chosen = mf.proposed
        elif action == "discard":
            match_files.discard(mf, actor if getattr(actor, "pk", None) else None)
            messages.success(request, _("The file was discarded."))
            return redirect(_after(mf, token))
        elif action == "attach" and mf.match is not None:
            replacing = mf.match.files.filter(state=MatchFileState.ATTACHED).exclude(pk=mf.pk).exists()
            if replacing and not (official and request.POST.get("replace")):
                errors.append(
                    _("This match already has a match file. Only a referee may replace it, by ticking “replace”.")
                )
            else:
                try:
                    match_files.attach(
                        mf, actor, first_is=request.POST.get("first_is") or "",
                        use_result=bool(request.POST.get("use_result")),
                        confirm=official and acts_as_official(actor, mf.match),
                        reason=request.POST.get("reason") or "",
                        despite=bool(request.POST.get("despite")),
                        despite_reason=request.POST.get("despite_reason") or "",
                    )
                except match_files.FileRefused as exc:
                    errors.extend(p.message(language) for p in exc.problems)
                except workflow.InvalidResult as exc:
                    errors.extend(p.message(language, mf.match.side_names(language)) for p in exc.problems)
                except (workflow.ResultError, workflow.StaleVersion) as exc:
                    errors.append(exc.message)
                except PermissionDenied:
                    errors.append(_("You may not enter this result."))
                else:
                    messages.success(request, _("The match file is attached to the match."))
                    return redirect(_after(mf, token))
    match = mf.match
    comparison = match_files.compare(match, check, chosen if chosen in ("a", "b") else "") if match else None
    names = {"white": check.players[0], "black": check.players[1]} if check.kind == "mat" else {}
    ctx = {
        "tournament": tournament,
        "mf": mf,
        "match": match,
        "check": check,
        "file_problems": [p.message(language, names) for p in check.problems],
        "comparison": comparison,
        "comparison_problems": [
            p.message(language, match.side_names(language)) for p in comparison.problems
        ] if comparison else [],
        "chosen": chosen,
        "official": official,
        "errors": errors,
        "pairings": (
            Match.objects.filter(round=mf.round).select_related("entry_a__player", "entry_b__player")
            if official and mf.round_id else []
        ),
        "replacing": bool(match and match.files.filter(state=MatchFileState.ATTACHED).exclude(pk=mf.pk).exists()),
        "token": token,
        "back": _after(mf, token),
        "despite_reason": request.POST.get("despite_reason", ""),
        "has_problems": bool(check.problems) or any(
            p.code != "matchfile.mapping_needed" for p in (comparison.problems if comparison else [])
        ),
    }
    return render(request, "scoring/records/record_file.html", ctx, status=400 if errors else 200)


def _after(mf: MatchFile, token: str | None) -> str:
    if token and mf.match_id:
        return reverse("private-match", kwargs={"token": token, "match_id": mf.match_id})
    if mf.batch and mf.round_id:
        return reverse("round-records", kwargs={"slug": mf.tournament.slug, "round_id": mf.round_id})
    if mf.match_id:
        return reverse("result-match", kwargs={"slug": mf.tournament.slug, "match_id": mf.match_id})
    return reverse("tournament", kwargs={"slug": mf.tournament.slug})


@login_first
@tournament_view("tournament.view")
def record_file(request, tournament, file_id: int) -> HttpResponse:
    mf = get_object_or_404(MatchFile.objects.select_related("match__round", "tournament"), pk=file_id, tournament=tournament)
    return _file_page(request, request.user, mf)


# --------------------------------------------------------------------------- private links


def private_viewer(request, token: str, match_id: int) -> HttpResponse:
    _holder, match = holder_and_match(token, match_id)
    return _match_viewer(request, match.round.tournament, match, urls=_private_urls(token, match))


def private_download(request, token: str, match_id: int, fmt: str) -> HttpResponse:
    _holder, match = holder_and_match(token, match_id)
    return _download(match, fmt)


def private_upload(request, token: str, match_id: int) -> HttpResponse:
    holder, match = holder_and_match(token, match_id)
    return _upload(request, holder, match, urls=_private_urls(token, match), token=token)


def private_file(request, token: str, file_id: int) -> HttpResponse:
    holder = holder_or_404(token)
    mf = get_object_or_404(MatchFile, pk=file_id, tournament_id=holder.entry.tournament_id)
    if mf.match is None or not allowed(holder, "match.see", mf.match):
        raise Http404
    return _file_page(request, holder, mf, token=token)


# --------------------------------------------------------------------------- bulk upload


@login_first
@tournament_view("result.enter")
def round_records(request, tournament, round_id: int) -> HttpResponse:
    """Bulk upload of a round's match files, and the report: matched, unmatched, mismatching."""
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    errors: list[str] = []
    if request.method == "POST":
        uploads = request.FILES.getlist("files")
        if not uploads:
            errors.append(_("Choose one or more files, or a zip archive."))
        elif len(uploads) > MAX_UPLOADS:
            errors.append(_("At most %(n)s files at once; put more in a zip archive.") % {"n": MAX_UPLOADS})
        elif sum(upload.size for upload in uploads) > match_files.MAX_TOTAL_BYTES:
            errors.append(_("At most %(mb)s MB at once; upload the files in parts.")
                          % {"mb": match_files.MAX_TOTAL_BYTES // 2**20})
        else:
            job = jobs.start(tournament.slug)
            names = []
            for i, upload in enumerate(uploads):
                path = jobs.file_path(tournament.slug, job, f"-{i}.upload")
                jobs.atomic_write(path, upload.read(match_files.MAX_BYTES * 40 + 1))
                names.append(upload.name)
            jobs.enqueue(bulk_upload_task, (tournament.pk, rnd.pk, job, names), job)
            return redirect(f"{reverse('round-records', kwargs={'slug': tournament.slug, 'round_id': rnd.pk})}?job={job}")
    job = request.GET.get("job") or ""
    status = jobs.read_status(tournament.slug, job) if job else None
    language = current_language()
    rows = []
    files = rnd.match_files.exclude(state=MatchFileState.DISCARDED).select_related(
        "match__entry_a__player", "match__entry_b__player"
    ).order_by("state", "name", "pk")
    for mf in files:
        summary = mf.summary or {}
        verdict = mf.summary.get("verdict", "unmatched" if mf.match_id is None else "matched")
        final = summary.get("final")
        side = mf.first_is or mf.proposed
        if final and mf.match_id is not None and side == "b":
            final = [final[1], final[0]]  # in the pairing's order (A – B), as its problems say it
        rows.append({"file": mf, "verdict": verdict, "final": final,
                     "in_file_order": bool(final) and mf.match_id is not None and side not in ("a", "b"),
                     "problems": [Problem.from_data(p).message(language) for p in summary.get("compare", [])][:3]
                     + [Problem.from_data(p).message(language) for p in mf.problems][:3]})
    groups = {v: [r for r in rows if r["verdict"] == v] for v in ("mismatch", "unmatched", "matched")}
    ctx = {
        "tournament": tournament, "round": rnd, "errors": errors, "job": job, "status": status,
        "job_problems": [p.message(language) for p in jobs.problems(status)] if status else [],
        "groups": groups, "running": bool(status and status.get("state") in (jobs.QUEUED, jobs.PROGRESS)),
    }
    template = "scoring/records/_round_records_progress.html" if htmx.is_htmx(request) else "scoring/records/round_records.html"
    return htmx.vary(render(request, template, ctx, status=400 if errors else 200))


@require_POST
@login_first
@tournament_view("result.enter")
def round_records_discard(request, tournament, round_id: int) -> HttpResponse:
    """Discard the checked files of a bulk upload (the referee's decision, audited)."""
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    ids = [i for i in (_int(v) for v in request.POST.getlist("file")) if i]
    for mf in rnd.match_files.filter(pk__in=ids).exclude(state=MatchFileState.DISCARDED):
        match_files.discard(mf, request.user)
    return redirect("round-records", slug=tournament.slug, round_id=rnd.pk)
