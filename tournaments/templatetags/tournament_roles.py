"""``{% tournament_roles tournament as roles %}``: which working pages to link for this user.

Only decides which links to show; every page checks permissions again on the
server. Anonymous visitors cost no query.
"""

from django import template

from tournaments.access.permissions import JURY, ORGANISER, REFEREE, official_roles, player_entry

register = template.Library()


@register.simple_tag(takes_context=True)
def tournament_roles(context, tournament) -> dict[str, bool]:
    user = context["request"].user
    if not user.is_authenticated:
        return {}
    roles = official_roles(user, tournament)
    return {
        "organiser": ORGANISER in roles,
        "jury": JURY in roles,
        "referee": bool(roles & {ORGANISER, REFEREE}),
        "player": player_entry(user, tournament) is not None,
    }
