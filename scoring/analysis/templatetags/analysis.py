"""Showing PR: numbers as the players read them, and the analysis block of the record viewer."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring.analysis import services
from tournaments.access import private_links
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
