"""Showing PR: numbers as the players read them, and the analysis block of the record viewer."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring.analysis import services
from scoring.analysis.problems import ANALYSIS
from tournaments.access import private_links
from tournaments.access.permissions import allowed
from zarik.i18n import current_language

register = template.Library()


@register.filter
def pr(value) -> str:
    """A PR with one decimal (gnubg and XG print it so) in the reader's format; "—" when none."""
    return "—" if value is None else number_format(round(float(value), 1), 1)


@register.filter
def millipoints(value) -> str:
    """An error in equity, as the players say it: "0.123" of a point (normalised)."""
    return "—" if value is None else number_format(round(float(value), 3), 3)


@register.filter
def error_class(value) -> str:
    """Strip colour: a doubtful play, an error, a blunder (gnubg's marks: 0.04 / 0.08)."""
    value = float(value or 0)
    return "l" if value >= 0.08 else "m" if value >= 0.04 else "s"


@register.filter
def decision(value: str) -> str:
    words = {"double": _("double"), "no double": _("no double"), "take": _("take"), "drop": _("pass")}
    return words.get(value, value)


@register.filter
def round_pr(row, number):
    return row.round_pr(int(number))


@register.inclusion_tag("scoring/analysis/_viewer_strip.html", takes_context=True)
def match_analysis(context, match):
    """Both players' PR and the per-move error strip, on the record viewer of ``match``."""
    request = context.get("request")
    user = getattr(request, "user", None)
    token = getattr(getattr(request, "resolver_match", None), "kwargs", {}).get("token")
    holder = private_links.entry_for(token) if token else None
    if holder is not None:  # the private viewer: the link's player, without an account
        user = private_links.LinkHolder(holder)
        url = reverse("private-analysis-match", kwargs={"token": token, "match_id": match.pk})
    else:
        url = reverse("analysis-match", kwargs={"slug": match.round.tournament.slug, "match_id": match.pk})
    summary = services.match_summary(match, user, current_language())
    return {"a": summary, "analysis_url": url}


def round_progress_context(request, rnd) -> dict:
    """The round's analysis block (records, progress, "Analyse round N") for officials; empty for others."""
    user = getattr(request, "user", None)
    tournament = rnd.tournament
    if user is None or not allowed(user, "tournament.officiate", tournament):
        return {"show": False}
    engine = tournament.variant in services.ENGINE_VARIANTS
    progress = services.round_progress(rnd) if engine else None
    return {
        "show": True, "round": rnd, "tournament": tournament, "engine": engine,
        "available": services.available(), "progress": progress,
        "no_engine": "" if engine else ANALYSIS.problem(
            "no_engine", variant=tournament.get_variant_display()
        ).message(current_language()),
    }


@register.inclusion_tag("scoring/analysis/_round_progress.html", takes_context=True)
def round_analysis(context, rnd):
    """On a round's bulk-upload page: how far the round's analysis is, and "Analyse round N"."""
    return {**round_progress_context(context.get("request"), rnd), "csrf_token": context.get("csrf_token")}


#: The bar graph's scale: an error of this size (a big blunder) fills a half; larger ones are clipped.
GRAPH_CAP = 0.25
GRAPH_HALF = 40  # height of one side's half, in the graph's units
GRAPH_STEP = 4  # one move's width


@register.inclusion_tag("scoring/analysis/_error_graph.html")
def error_graph(summary):
    """The error strip as a bar graph: side A's errors up, side B's down, one bar per move.

    Drawn as SVG geometry (no style attributes, so the strict CSP holds) with a text
    summary for screen readers; the strip's list of links stays as the detailed alternative.
    """
    strip = summary.get("strip") or []
    if not strip:
        return {"bars": []}
    last = max(e["ply"] for e in strip)
    bars = []
    for e in strip:
        height = max(round(min(float(e["error"]), GRAPH_CAP) / GRAPH_CAP * GRAPH_HALF, 2), 1.0)
        y = GRAPH_HALF - height if e["side"] == "a" else GRAPH_HALF
        # Geometry as plain strings: never localised (a Russian page would write "12,5").
        bars.append({**e, "x": str((e["ply"] - 1) * GRAPH_STEP), "height": f"{height:g}", "y": f"{y:g}"})
    sides = []
    for side in ("a", "b"):
        mine = [e for e in strip if e["side"] == side]
        info = (summary.get("sides") or {}).get(side)
        if info is None or not info.get("visible"):
            continue
        sides.append({
            "side": side, "name": info["name"], "count": len(mine),
            "blunders": sum(1 for e in mine if float(e["error"]) >= 0.08),
        })
    worst = max(strip, key=lambda e: float(e["error"]))
    worst_name = ((summary.get("sides") or {}).get(worst["side"]) or {}).get("name", worst["side"].upper())
    return {
        "bars": bars, "width": last * GRAPH_STEP, "height": 2 * GRAPH_HALF, "half": GRAPH_HALF,
        "bar_width": GRAPH_STEP - 1, "sides": sides, "worst": worst, "worst_name": worst_name,
        "id": f"error-graph-{summary.get('match', '')}",
    }
