"""``{% live_link match %}``: on a match's pages, the way to its live board while it is recorded.

The rule is the pairings' (:func:`scoring.live.services.is_live`: steps recorded, the match not
over), so the match page and the pairings row show the mark together.
"""

from __future__ import annotations

from django import template

from scoring.live import services
from scoring.live.models import LiveRecording

register = template.Library()


@register.inclusion_tag("scoring/live/_live_link.html")
def live_link(match) -> dict:
    rec = LiveRecording.objects.filter(match_id=match.pk).only("state", "seq").first()
    return {"live": rec is not None and services.is_live(rec), "match": match,
            "slug": match.round.tournament.slug}
