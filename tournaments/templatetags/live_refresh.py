"""``{% live_stamp tournament %}``: the version stamp a page was rendered with (see live.json)."""

from django import template

from tournaments.rounds.flow import cached_live_state

register = template.Library()


@register.simple_tag
def live_stamp(tournament) -> str:
    return cached_live_state(tournament)["stamp"]
