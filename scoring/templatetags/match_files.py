"""``{% pending_match_files match %}``: a match's uploads waiting for a decision, on its pages.

The list is the service's (:func:`scoring.records.match_files.pending_files`, the same
rule as a file's decision page: officials see every pending file, a player the ones they
sent); the round's records page lists the same files for the referee.
"""

from __future__ import annotations

from django import template

from scoring.records import match_files
from tournaments.access import private_links

register = template.Library()


@register.inclusion_tag("scoring/records/_pending_files.html", takes_context=True)
def pending_match_files(context, match) -> dict:
    token = context.get("token")
    if token:  # a private link: its player, without an account
        entry = private_links.entry_for(token)
        actor = private_links.LinkHolder(entry) if entry is not None else None
    else:
        user = getattr(context.get("request"), "user", None)
        actor = user if user is not None and user.is_authenticated else None
    files = match_files.pending_files(match, actor)
    return {"files": files, "token": token, "tournament": match.round.tournament}
