"""``{{ value|score }}``: a match score as people write it — 5, 2½ (a drawn game worth ½).

Scores are stored exactly in halves (``tournaments.models.ScoreField``); the one
formatting rule is the standings core's :func:`~tournaments.standings.crosstable.format_score`.
"""

from django import template

from tournaments.standings.crosstable import format_score

register = template.Library()


@register.filter
def score(value):
    if value is None or value == "":
        return ""
    try:
        return format_score(float(value))
    except (TypeError, ValueError):
        return value
