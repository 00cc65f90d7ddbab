"""The director's page after a ruling: later pairings made from the old standings, and a decision.

A ruling or correction that changed a confirmed result (an audited
``match.result`` whose before-state was confirmed) is listed with every later
round of its section paired again from the new standings
(:mod:`.pairing_manager.recheck`). The director keeps a round (audited) or
pairs an unplayed draft again through the pairing manager. Nothing changes by
itself.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.access.permissions import tournament_view
from tournaments.models import AuditEntry, Entry, Match, Round, Tournament
from zarik.i18n import current_language

from .pairing_manager import PairingRefused
from .pairing_manager import recheck as rechecking

MANAGE = "round.manage"
RESULT_FIELDS = ("score_a", "score_b", "winner")


def changed_results(tournament: Tournament, only_match: int | None = None) -> list[dict]:
    """Confirmed results a ruling or correction changed, newest first (from the audit log)."""
    rows = AuditEntry.objects.filter(
        tournament=tournament, action="match.result", object_type="match",
        before__result_status="confirmed",
    ).order_by("-at", "-pk")
    if only_match is not None:
        rows = rows.filter(object_id=str(only_match))
    out, seen = [], set()
    for row in rows.select_related("user"):
        before, after = row.before or {}, row.after or {}
        if all(before.get(f) == after.get(f) for f in RESULT_FIELDS):
            continue
        match_id = int(row.object_id)
        if match_id in seen:
            continue  # the latest change of a match is the one that counts now
        seen.add(match_id)
        out.append({"entry": row, "match_id": match_id, "before": before, "after": after})
    return out


def _names(tournament: Tournament, language: str) -> dict[int, str]:
    return {
        e.pk: (f"№{e.draw_number} " if e.draw_number else "") + e.player.display_name(language)
        for e in Entry.objects.filter(tournament=tournament).select_related("player")
    }


def _pair_text(pair, names: dict[int, str]) -> str:
    ids = sorted(pair)
    if len(ids) == 1:
        return _("%(name)s — bye") % {"name": names.get(ids[0], "?")}
    return " — ".join(names.get(i, "?") for i in ids)


def _decisions(tournament: Tournament) -> dict[int, AuditEntry]:
    """The latest "keep" per round (a re-paired round is a new round, so it needs none)."""
    out: dict[int, AuditEntry] = {}
    rows = AuditEntry.objects.filter(
        tournament=tournament, action="ruling.keep_pairings", object_type="round"
    ).order_by("at", "pk")
    for row in rows:
        out[int(row.object_id)] = row
    return out


@login_required
@tournament_view(MANAGE)
def rulings(request, tournament: Tournament):
    """GET: rulings that changed confirmed results and what they mean for later rounds."""
    language = current_language()
    only = request.GET.get("match")
    changes = changed_results(tournament, int(only) if only and only.isdigit() else None)
    matches = Match.objects.select_related(
        "round__tournament", "round__section", "entry_a__player", "entry_b__player"
    ).in_bulk([c["match_id"] for c in changes])
    names = _names(tournament, language)
    decisions = _decisions(tournament)
    items = []
    for change in changes:
        match = matches.get(change["match_id"])
        if match is None:
            continue
        checks = []
        for check in rechecking.later_rounds(match):
            checks.append(
                {
                    "round": check.round,
                    "changed": check.changed,
                    "repairable": check.repairable,
                    "refused": [p.message(language) for p in check.refused],
                    "only_actual": [_pair_text(p, names) for p in check.only_actual],
                    "only_recomputed": [_pair_text(p, names) for p in check.only_recomputed],
                    "kept": decisions.get(check.round.pk),
                }
            )
        items.append({**change, "match": match, "checks": checks})
    context = {"tournament": tournament, "items": items, "swiss": tournament.system == "swiss"}
    return render(request, "rounds/rulings.html", context)


@login_required
@tournament_view(MANAGE)
def ruling_decide(request, tournament: Tournament, round_id: int):
    """POST: keep a later round as paired, or pair an unplayed draft again (both audited)."""
    if request.method != "POST":
        return redirect(reverse("manage-rulings", kwargs={"slug": tournament.slug}))
    rnd = get_object_or_404(Round.objects.select_related("tournament", "section"), pk=round_id,
                            tournament=tournament)  # fmt: skip
    reason = request.POST.get("reason", "").strip()[:300] or _("a ruling changed an earlier result")
    back = reverse("manage-rulings", kwargs={"slug": tournament.slug})
    if request.POST.get("decision") == "repair":
        try:
            new = rechecking.repair_draft(rnd, request.user, reason)
        except PairingRefused as exc:
            for text in exc.messages(current_language()):
                messages.error(request, text)
            return redirect(back)
        messages.success(
            request,
            _("Round %(n)s paired again from the new standings (a draft: check and publish it).")
            % {"n": new[0].number},
        )
        return redirect(
            reverse("manage-round", kwargs={"slug": tournament.slug, "round_id": new[0].pk})
        )
    rechecking.keep(rnd, request.user, reason)
    messages.success(request, _("Round %(n)s kept as paired.") % {"n": rnd.number})
    return redirect(back)
