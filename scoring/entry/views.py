"""Pages of the working day: referee entry, player reports, disputes, discipline, audit, desk.

Every view checks the user's role in THIS tournament on the server
(:mod:`tournaments.access.permissions`, the one table of who may do what, for the tournament and the
match or dispute); the services check again inside their transaction. A refusal
of the rules, a stale version or a duplicate confirmation re-renders the page
with the input kept and a plain message — never a 500.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import workflow
from scoring.models import Dispute, DisputeState, ResultState, Sanction
from scoring.workflow.problems import workflow_message
from tournaments.access.permissions import (
    acts_as_official,
    allowed,
    can_view,
    dispute_window_closed,
    login_first,
    player_entry,
    side_of,
    tournament_view,
)
from tournaments.access.visibility import can_see_round, public_matches
from tournaments.cache import read_once, tournament_by_slug
from tournaments.entries import status as entry_status
from tournaments.models import (
    AuditEntry,
    Entry,
    Match,
    ResultStatus,
    Round,
    RoundStatus,
)
from tournaments.pairing.problems import PAIRING
from tournaments.public.frame import conditional, etag_of
from tournaments.rounds import flow as round_flow
from zarik.i18n import current_language

from . import appeals
from .forms import SETTLE_CHOICES as SETTLE_CHOICE_LABELS
from .forms import (
    AppealForm,
    AuditFilterForm,
    ClockForm,
    DisputeForm,
    KindResultForm,
    LatenessForm,
    RemoveEntryForm,
    ResultEntry,
    RulingForm,
    SanctionForm,
)


def _match(request, tournament, match_id: int, may: str) -> Match:
    """A match of THIS tournament that the user *may* act on (``PermissionDenied`` otherwise).

    Another tournament's match id is a 404 here, and a match of a draft round
    does not exist for anyone but the tournament's officials
    (:func:`tournaments.access.visibility.can_see_round`).
    """
    match = get_object_or_404(
        Match.objects.select_related(
            "round__tournament", "round__section", "entry_a__player", "entry_b__player"
        ),
        pk=match_id,
        round__tournament=tournament,
    )
    if not can_see_round(request.user, match.round):
        raise Http404
    if not allowed(request.user, may, match):
        raise PermissionDenied
    return match


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _version(request) -> int | None:
    return _int(request.POST.get("version"))


def _results(match: Match, user) -> list:
    """The match's results newest first, each with what this user may do with it.

    A player who may not dispute a confirmed result is told why (``dispute_note``):
    a ruling set it (the jury hears a disagreement, :func:`workflow.ruled_results`),
    the organiser's window has closed, or they took part in confirming it; the
    page then points to the jury when a ruling on the match may still be appealed.
    """
    results = list(
        match.results.select_related("reported_by__player", "confirmed_by__player").order_by("-reported_at", "-pk")
    )
    under_dispute = None  # asked once, and only if someone may dispute a result
    side = None
    ruled = workflow.ruled_results(match) if results else {}
    for r in results:
        r.match = match
        r.user_can_confirm = allowed(user, "result.confirm", r)
        r.user_can_dispute = allowed(user, "result.dispute", r)
        r.dispute_note = ""
        if r.pk in ruled:  # decided by a ruling: the jury hears a disagreement, not the director again
            r.user_can_dispute = False
            side = side if side is not None else (side_of(user, match) or "")
            if side:
                final = ruled[r.pk] == DisputeState.FINAL
                r.dispute_note = workflow_message("jury_final" if final else "ruling_stands")
        elif r.user_can_dispute:
            if under_dispute is None:
                under_dispute = match.disputes.filter(
                    state__in=[DisputeState.OPEN, DisputeState.APPEALED]
                ).exists()
            r.user_can_dispute = not under_dispute
        elif r.state == ResultState.CONFIRMED:
            side = side if side is not None else (side_of(user, match) or "")
            if side:
                closed = dispute_window_closed(r)
                r.dispute_note = (
                    workflow_message("dispute_window", minutes=closed)
                    if closed
                    else workflow_message("dispute_own_result")
                )
    return results


def _current_matches(tournament):
    return (
        public_matches()
        .filter(round__tournament=tournament, round__status=RoundStatus.PUBLISHED)
        .select_related("round__section", "entry_a__player", "entry_b__player")
        .order_by("round__number", "table", "id")
    )


# --------------------------------------------------------------------------- live


@require_GET
@read_once  # the tournament by its address and the stamp: one read of their versions
def live_json(request, slug: str) -> JsonResponse:
    """The version stamp public pages poll (see templates/scoring/entry/_live_refresh.html).

    Every watching phone asks every few seconds (the hall every 2 s): the tournament comes from
    this process's copy (no query), the stamp from the cache, and a poll naming the current
    stamp in ``If-None-Match`` gets a 304 with no body (issue 50).
    """
    tournament = tournament_by_slug(slug)
    if tournament is None or not can_view(request.user, tournament):
        raise Http404
    state = round_flow.cached_live_state(tournament)
    return conditional(request, etag_of("live", state["stamp"]), lambda: JsonResponse(state))


# --------------------------------------------------------------------------- referee


@login_first
@tournament_view("result.enter")
def referee_tables(request, tournament) -> HttpResponse:
    """The current round's tables, searchable by table number or name (mobile first)."""
    query = (request.GET.get("q") or "").strip()
    matches = _current_matches(tournament)
    if query:
        cond = (
            Q(entry_a__player__last_name__icontains=query)
            | Q(entry_b__player__last_name__icontains=query)
            | Q(entry_a__player__last_name_latin__icontains=query)
            | Q(entry_b__player__last_name_latin__icontains=query)
        )
        if query.isdigit():
            cond |= Q(table=int(query))
        matches = matches.filter(cond)
    return render(
        request,
        "scoring/entry/referee_tables.html",
        {"tournament": tournament, "matches": matches, "q": query},
    )


def entry_context(
    request, tournament, match, entry: ResultEntry, *, user=None, refused: appeals.Refused | None = None,
    **extra: Any,
) -> dict:
    """The result page's context for ``user`` (default: the signed-in user; or a link holder).

    The disputes carry their decisions and, for a player, the appeal to the jury
    (:mod:`.appeals`); a private page passes its ``token`` so the appeal posts there.
    """
    user = request.user if user is None else user
    disputes = appeals.disputes_context(match, user, token=extra.get("token"), refused=refused)
    results = _results(match, user)
    return {
        "tournament": tournament,
        "match": match,
        "entry": entry,
        "results": results,
        **disputes,
        "appealable": next((d for d in disputes["disputes"] if d.can_appeal), None),
        "is_official": acts_as_official(user, match),
        **extra,
    }


def submit(request, tournament, match, *, confirm: bool, template: str, ctx: dict, user=None):
    """Validate and save through the services; on refusal re-render with the input kept.

    ``user`` acts (default: the signed-in user); the private pages pass the link holder.
    Returns None once saved (the caller redirects).
    """
    user = request.user if user is None else user
    need_reason = match.result_status == ResultStatus.CONFIRMED
    data = request.POST.copy()
    entry = ResultEntry(match, data, request.FILES, need_reason=need_reason)
    status = 200
    posted = _version(request)
    if posted is not None and posted != match.version:
        entry.is_valid()
        entry.add_error(workflow.StaleVersion.message_for(posted, match.version))
        status = 409
    elif entry.is_valid():
        try:
            workflow.submit_result(
                match.pk,
                user,
                version=entry.version,
                final=entry.final,
                games=entry.ledger,
                confirm=confirm,
                reason=entry.form.cleaned_data.get("reason") or "",
            )
        except workflow.InvalidResult as exc:
            entry.problems(exc.problems)
        except workflow.StaleVersion as exc:
            entry.add_error(exc.message)
            status = 409
        except workflow.ResultError as exc:
            entry.add_error(exc.message)
            status = 409 if exc.code == "duplicate" else 200
        else:
            if confirm or need_reason:
                messages.success(request, _("Result saved and confirmed."))
            else:
                messages.success(request, _("Result reported; it awaits confirmation."))
            return None
    entry.keep_text(data)
    if status == 409:
        match.refresh_from_db()
        data["version"] = str(match.version)  # resubmitting is now a knowing decision
    ctx = entry_context(request, tournament, match, entry, user=user, **ctx)
    return render(request, template, ctx, status=status)




@login_first
@tournament_view("result.enter")
def referee_match(request, tournament, match_id: int) -> HttpResponse:
    match = _match(request, tournament, match_id, may="result.enter")
    if request.method == "POST":
        confirm = request.POST.get("action") != "report"
        response = submit(
            request,
            tournament,
            match,
            confirm=confirm,
            template="scoring/entry/referee_match.html",
            ctx={},
        )
        if response is None:
            return redirect("referee-tables", slug=tournament.slug)
        return response
    entry = ResultEntry(match, need_reason=match.result_status == ResultStatus.CONFIRMED)
    return render(
        request, "scoring/entry/referee_match.html", entry_context(request, tournament, match, entry)
    )


# --------------------------------------------------------------------------- players


@login_first
@tournament_view("tournament.view")
def match_result(request, tournament, match_id: int) -> HttpResponse:
    """A match's result page: players report, the opponent confirms or disputes."""
    match = _match(request, tournament, match_id, may="match.see")
    can_report = allowed(request.user, "result.report", match) and match.result_status in (
        ResultStatus.PENDING,
        ResultStatus.REPORTED,
    )
    if can_report and request.method == "GET":
        # With someone else's report pending, the player confirms or disputes it instead.
        can_report = not workflow.others_reports(match, request.user).exists()
    template = "scoring/entry/match.html"
    if request.method == "POST":
        if not can_report:
            raise PermissionDenied
        response = submit(
            request, tournament, match, confirm=False, template=template, ctx={"can_report": True}
        )
        if response is None:
            return redirect("result-match", slug=tournament.slug, match_id=match.pk)
        return response
    entry = ResultEntry(match) if can_report else None
    return render(
        request,
        template,
        entry_context(
            request,
            tournament,
            match,
            entry,
            can_report=can_report,
            dispute_form=DisputeForm(initial={"version": match.version}),
        ),
    )


@login_first
@tournament_view("tournament.view")
def my_match(request, tournament) -> HttpResponse:
    """The signed-in player's match in the current round."""
    entry = player_entry(request.user, tournament)
    if entry is None:
        raise PermissionDenied
    match = _current_matches(tournament).filter(Q(entry_a=entry) | Q(entry_b=entry)).last()
    if match is None:
        messages.info(request, _("You have no match in a published round."))
        return redirect("tournament", slug=tournament.slug)
    return redirect("result-match", slug=tournament.slug, match_id=match.pk)


@require_http_methods(["GET", "HEAD", "POST"])
@login_first
@tournament_view("tournament.view")
def appeal(request, tournament, match_id: int) -> HttpResponse:
    """A player appeals the director's ruling to the jury from their match page (the one service)."""
    match = _match(request, tournament, match_id, may="match.see")
    if request.method != "POST":
        return redirect("result-match", slug=tournament.slug, match_id=match.pk)
    dispute, refused = appeals.appeal_posted(request, match, request.user)
    if refused is None:
        messages.success(request, _("Appeal lodged; the jury will decide."))
        url = reverse("result-match", kwargs={"slug": tournament.slug, "match_id": match.pk})
        return redirect(f"{url}#dispute-{dispute.pk}")
    match.refresh_from_db()
    return appeal_refused_page(request, tournament, match, request.user, refused, "scoring/entry/match.html")


def appeal_refused_page(request, tournament, match, user, refused, template: str, **extra: Any) -> HttpResponse:
    """The match page again, with the appeal's problem and the text the player typed.

    No report form: the page is about the appeal now; a reload offers the rest again.
    """
    ctx = entry_context(request, tournament, match, None, user=user, refused=refused, can_report=False, **extra)
    return render(request, template, ctx, status=refused.status)


def _back(request, tournament, match):
    # acts_as_official is never true for a player of the match (they act on it as a player)
    if acts_as_official(request.user, match) and request.POST.get("back") == "referee":
        return redirect("referee-match", slug=tournament.slug, match_id=match.pk)
    return redirect("result-match", slug=tournament.slug, match_id=match.pk)


@require_POST
@login_first
@tournament_view("tournament.view")
def confirm(request, tournament, match_id: int) -> HttpResponse:
    match = _match(request, tournament, match_id, may="match.see")
    confirm_posted(request, match, request.user)
    return _back(request, tournament, match)


def confirm_posted(request, match: Match, user) -> None:
    """Confirm the posted result as ``user`` (an account or a private-link holder); say how it went."""
    # The service reads the result under the match's lock and checks the user's right there
    # (an unknown result is its "report missing" message): one read, not two.
    try:
        workflow.confirm_result(match.pk, _int(request.POST.get("result")) or 0, user, version=_version(request))
    except workflow.ResultError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Result confirmed."))


@require_http_methods(["GET", "HEAD", "POST"])
@login_first
@tournament_view("tournament.view")
def dispute(request, tournament, match_id: int) -> HttpResponse:
    """POST contests a result; a GET (a bookmarked or typed address) lands on the match page."""
    match = _match(request, tournament, match_id, may="match.see")
    if request.method == "POST":
        dispute_posted(request, match, request.user)
    return redirect("result-match", slug=tournament.slug, match_id=match.pk)


def dispute_posted(request, match: Match, user) -> None:
    """Contest the posted result as ``user`` (an account or a private-link holder); say how it went."""
    result = get_object_or_404(match.results, pk=_int(request.POST.get("result")) or 0)
    if not allowed(user, "result.dispute", result):
        closed = dispute_window_closed(result)
        if closed is not None and side_of(user, match):
            messages.error(request, workflow_message("dispute_window", minutes=closed))
            return
        raise PermissionDenied
    form = DisputeForm(request.POST)
    if not form.is_valid():
        messages.error(request, workflow_message("dispute_reason"))
        return
    try:
        workflow.dispute_result(
            match.pk,
            result.pk,
            user,
            version=form.cleaned_data["version"],
            reason=form.cleaned_data["reason"],
        )
    except workflow.ResultError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Dispute raised; the director will rule on it."))


# --------------------------------------------------------------------------- disputes


@login_first
@tournament_view("dispute.list")
def dispute_list(request, tournament) -> HttpResponse:
    disputes = (
        Dispute.objects.filter(match__round__tournament=tournament)
        .select_related(
            "match__round", "match__entry_a__player", "match__entry_b__player", "raised_by__player"
        )
        .order_by("state", "-raised_at")
    )
    return render(
        request, "scoring/entry/disputes.html", {"tournament": tournament, "disputes": disputes}
    )


def _dispute(request, tournament, dispute_id: int, may: str) -> Dispute:
    """A dispute of THIS tournament that the user *may* act on (``PermissionDenied`` otherwise).

    One on a draft round's match exists only for officials.
    """
    item = get_object_or_404(
        Dispute.objects.select_related(
            "match__round__tournament",
            "match__entry_a__player",
            "match__entry_b__player",
            "result",
            "raised_by__player",
            "ruled_by__player",
            "appealed_by__player",
            "jury_by__player",
            "decided_result",
        ),
        pk=dispute_id,
        match__round__tournament=tournament,
    )
    if not can_see_round(request.user, item.match.round):
        raise Http404
    if not allowed(request.user, may, item):
        raise PermissionDenied
    return item


def _dispute_page(
    request,
    tournament,
    item: Dispute,
    *,
    ruling=None,
    appeal=None,
    decision=None,
    status: int = 200,
) -> HttpResponse:
    user = request.user
    match = item.match
    ctx = {
        "tournament": tournament,
        "dispute": item,
        "match": match,
        "results": match.results.select_related("reported_by__player").order_by("-reported_at"),
        "can_rule": allowed(user, "dispute.rule", item) and item.state == DisputeState.OPEN,
        "can_appeal": allowed(user, "dispute.appeal", item) and item.state == DisputeState.RULED,
        "can_decide": allowed(user, "dispute.decide", item) and item.state == DisputeState.APPEALED,
    }
    ctx["ruling_form"] = ruling or RulingForm(initial={"version": match.version})
    ctx["appeal_form"] = appeal or AppealForm()
    ctx["decision_form"] = decision or RulingForm(
        initial={"version": match.version}, jury=True, prefix="jury"
    )
    return render(request, "scoring/entry/dispute.html", ctx, status=status)


@login_first
@tournament_view("tournament.view")
def dispute_detail(request, tournament, dispute_id: int) -> HttpResponse:
    item = _dispute(request, tournament, dispute_id, may="dispute.see")
    return _dispute_page(request, tournament, item)


def _ruling(request, tournament, item, *, jury: bool) -> HttpResponse:
    """The director's ruling or (``jury``) the jury's decision on an appeal, from the posted form."""
    if jury:
        form = RulingForm(request.POST, jury=True, prefix="jury")
        func, key = workflow.decide_appeal, "decision"
    else:
        form = RulingForm(request.POST)
        func, key = workflow.rule_dispute, "ruling"
    if not form.is_valid():
        return _dispute_page(request, tournament, item, **{key: form})
    data = form.cleaned_data
    final = None
    if data.get("score_a") is not None and data.get("score_b") is not None:
        final = (data["score_a"], data["score_b"])
    try:
        func(
            item.pk,
            request.user,
            outcome=data["outcome"],
            version=data["version"],
            final=final,
            **{key: data["text"]},
        )
    except workflow.InvalidResult as exc:
        language = current_language()
        names = item.match.side_names(language)
        for p in exc.problems:
            form.add_error("score_a", p.message(language, names))
    except workflow.ResultError as exc:
        form.add_error(None, exc.message)
    else:
        messages.success(
            request,
            _("The jury's decision is recorded; it is final.")
            if jury
            else _("The ruling is recorded."),
        )
        rnd = item.match.round
        if rnd.tournament.rounds.filter(section=rnd.section_id, number__gt=rnd.number).exists():
            messages.warning(
                request,
                _("The standings are recomputed. Later rounds were paired from the old standings: "
                  "see “Rulings and pairings” to keep them or pair a draft again."),
            )
        return redirect("dispute-detail", slug=tournament.slug, dispute_id=item.pk)
    item.refresh_from_db()
    return _dispute_page(request, tournament, item, **{key: form})


@require_POST
@login_first
@tournament_view("dispute.rule")
def dispute_rule(request, tournament, dispute_id: int) -> HttpResponse:
    item = _dispute(request, tournament, dispute_id, may="dispute.rule")
    return _ruling(request, tournament, item, jury=False)


@require_POST
@login_first
@tournament_view("tournament.view")
def dispute_appeal(request, tournament, dispute_id: int) -> HttpResponse:
    item = _dispute(request, tournament, dispute_id, may="dispute.appeal")
    form = AppealForm(request.POST)
    if form.is_valid():
        try:
            workflow.appeal_dispute(item.pk, request.user, reason=form.cleaned_data["reason"])
        except workflow.ResultError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Appeal lodged; the jury will decide."))
            return redirect("dispute-detail", slug=tournament.slug, dispute_id=item.pk)
    return _dispute_page(request, tournament, item, appeal=form)


@require_POST
@login_first
@tournament_view("dispute.decide")
def dispute_decide(request, tournament, dispute_id: int) -> HttpResponse:
    item = _dispute(request, tournament, dispute_id, may="dispute.decide")
    return _ruling(request, tournament, item, jury=True)


# --------------------------------------------------------------------------- discipline


@login_first
@tournament_view("sanction.record")
def sanction_list(request, tournament) -> HttpResponse:
    form = SanctionForm(request.POST or None, tournament=tournament)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            workflow.record_sanction(
                tournament,
                data["entry"],
                request.user,
                kind=data["kind"],
                reason=data["reason"],
                points=data.get("points"),
                match=data.get("match"),
                game=data.get("game"),
            )
        except workflow.ResultError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Decision recorded."))
            return redirect("sanction-list", slug=tournament.slug)
    sanctions = Sanction.objects.filter(tournament=tournament).select_related(
        "entry__player", "decided_by__player", "match"
    )
    return render(
        request,
        "scoring/entry/sanctions.html",
        {"tournament": tournament, "sanctions": sanctions, "form": form},
        status=status,
    )


# --------------------------------------------------------------------------- audit


@login_first
@tournament_view("audit.view")
def audit_log(request, tournament) -> HttpResponse:
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("user__player")
    # order_by(): the default "-at" ordering would make DISTINCT return one row per entry
    types = sorted(entries.order_by().values_list("object_type", flat=True).distinct())
    actions = sorted(entries.order_by().values_list("action", flat=True).distinct())
    form = AuditFilterForm(request.GET or None, object_types=types, actions=actions)
    if form.is_valid():
        data = form.cleaned_data
        if data.get("action"):
            entries = entries.filter(action__icontains=data["action"])
        if data.get("object_type"):
            entries = entries.filter(object_type=data["object_type"])
        if data.get("user"):
            who = data["user"]
            entries = entries.filter(
                Q(user__player__last_name__icontains=who)
                | Q(user__player__last_name_latin__icontains=who)
                | Q(user__player__first_name__icontains=who)
                | Q(user__username__icontains=who)
                | Q(actor__icontains=who)
            )
        if data.get("since"):
            entries = entries.filter(at__date__gte=data["since"])
        if data.get("until"):
            entries = entries.filter(at__date__lte=data["until"])
    page = Paginator(entries.order_by("-at", "-pk"), 100).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "scoring/entry/audit.html",
        {
            "tournament": tournament,
            "page": page,
            "form": form,
            "query": query.urlencode(),
        },
    )


# --------------------------------------------------------------------------- desk (round flow)


@login_first
@tournament_view("desk.run")
def desk(request, tournament) -> HttpResponse:
    """Check-in, withdrawals and the rounds' progress, for the organiser."""
    entries = tournament.entries.select_related("player", "section").order_by("draw_number", "id")
    rounds = list(tournament.rounds.select_related("section").order_by("number"))
    for rnd in rounds:
        rnd.open = list(
            round_flow.open_matches(rnd).select_related("entry_a__player", "entry_b__player")
        )
        rnd.open_tables = [m.table for m in rnd.open]
        rnd.complete = rnd.matches.exists() and not rnd.open_tables
    return render(
        request,
        "scoring/entry/desk.html",
        {
            "tournament": tournament, "entries": entries, "rounds": rounds,
            "settle_choices": SETTLE_CHOICE_LABELS, "remove_form": RemoveEntryForm(),
        },
    )


def _problems_text(exc: workflow.ResultError) -> str:
    """A refusal as one line: the rules core's problems when there are some, else the message."""
    problems = getattr(exc, "problems", ())
    if problems:
        language = current_language()
        return " ".join(p.message(language) for p in problems)
    return exc.message


@login_first
@tournament_view("desk.run")
def desk_match(request, tournament, match_id: int) -> HttpResponse:
    """One match at the desk: lateness (penalty points / forfeit) and results without play.

    Both forms go through the result workflow (:func:`workflow.apply_lateness`,
    :func:`workflow.record_kind_result`): the rules core computes the score, every
    change is audited, refusals are shown with the input kept.
    """
    match = _match(request, tournament, match_id, may="match.see")
    # One page, three forms, each with a "reason": ids of their own (issue 44: two id="id_reason").
    kind_form = KindResultForm(match=match, auto_id="kind_%s")
    late_form = LatenessForm(match=match, auto_id="late_%s")
    clock_form = ClockForm(auto_id="clock_%s", initial={
        "minutes_per_point": match.clock_minutes_per_point,
        "delay_seconds": match.clock_delay_seconds, "increment_seconds": match.clock_increment_seconds,
    })
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        version = request.POST.get("version")
        try:
            if action == "lateness":
                late_form = LatenessForm(request.POST, match=match, auto_id="late_%s")
                if late_form.is_valid():
                    data = late_form.cleaned_data
                    workflow.apply_lateness(
                        match.pk, request.user, version=version, late_side=data["late_side"],
                        minutes=data["minutes"], reason=data["reason"],
                    )
                    messages.success(request, _("Lateness applied."))
                    return redirect("desk-match", slug=tournament.slug, match_id=match.pk)
            elif action == "kind":
                kind_form = KindResultForm(request.POST, match=match, auto_id="kind_%s")
                if kind_form.is_valid():
                    data = kind_form.cleaned_data
                    workflow.record_kind_result(
                        match.pk, request.user, version=version, kind=data["kind"],
                        winner=data["winner"] or None, reason=data["reason"],
                        played=kind_form.played(), games_played=data["games_played"] or 0,
                    )
                    messages.success(request, _("Result recorded."))
                    return redirect("desk", slug=tournament.slug)
            elif action == "clock":
                clock_form = ClockForm(request.POST, auto_id="clock_%s")
                if clock_form.is_valid():
                    data = clock_form.cleaned_data
                    workflow.install_clock(
                        match.pk, request.user, version=version,
                        minutes_per_point=data["minutes_per_point"] or None,
                        delay_seconds=data["delay_seconds"] or 0,
                        increment_seconds=data["increment_seconds"] or 0, reason=data["reason"],
                    )
                    messages.success(request, _("Clock settings saved."))
                    return redirect("desk-match", slug=tournament.slug, match_id=match.pk)
            else:
                raise Http404
        except workflow.ResultError as exc:
            form = {"lateness": late_form, "clock": clock_form}.get(action, kind_form)
            form.add_error(None, _problems_text(exc))
        status = 400
    return render(
        request,
        "scoring/entry/desk_match.html",
        {"tournament": tournament, "match": match, "kind_form": kind_form, "late_form": late_form,
         "clock_form": clock_form, "timing": workflow.match_timing(match),
         "late_rule": bool(tournament.late_penalty_minutes or tournament.late_forfeit_minutes)},
        status=status,
    )


@require_POST
@login_first
@tournament_view("desk.run")
def desk_entry(request, tournament, entry_id: int, action: str) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("tournament"), pk=entry_id, tournament=tournament
    )
    actions = {
        "check-in": entry_status.check_in,
        "withdraw": entry_status.withdraw,
        "reinstate": entry_status.reinstate,
        "remove": None,
    }
    if action not in actions:
        raise Http404
    reason = request.POST.get("reason", "")
    try:
        if action == "check-in":
            entry_status.check_in(entry, request.user)
        elif action == "withdraw":
            settle = request.POST.get("settle", entry_status.SETTLE_FORFEIT)
            entry_status.withdraw(entry, request.user, reason, settle=settle)
            if note := entry_status.redrawn_note(entry):
                messages.info(request, note)
        elif action == "remove":
            form = RemoveEntryForm(request.POST)
            if not form.is_valid():
                messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
            else:
                workflow.remove_entry(entry, request.user, **form.cleaned_data)
        else:
            actions[action](entry, request.user, reason)
    except entry_status.EntryRefused as exc:
        messages.error(request, exc.message)
    except workflow.ResultError as exc:
        messages.error(request, _problems_text(exc))
    return redirect(reverse("desk", kwargs={"slug": tournament.slug}) + f"#entry-{entry.pk}")


@require_POST
@login_first
@tournament_view("desk.run")
def desk_round_close(request, tournament, round_id: int) -> HttpResponse:
    rnd = get_object_or_404(Round, pk=round_id, tournament=tournament)
    outcome = round_flow.close(rnd, request.user)
    if outcome == round_flow.CLOSED:
        messages.success(
            request, _("Round %(n)s is finished; the next round can be paired.") % {"n": rnd.number}
        )
    elif outcome == round_flow.ALREADY_CLOSED:  # another director closed it first
        messages.info(request, PAIRING.problem("close_already_closed", round=rnd.number).message(current_language()))
    else:
        tables = ", ".join(
            str(t) for t in round_flow.open_matches(rnd).values_list("table", flat=True)
        )
        messages.error(request, workflow_message("round_open", round=rnd.number, tables=tables or "—"))
    return redirect("desk", slug=tournament.slug)
