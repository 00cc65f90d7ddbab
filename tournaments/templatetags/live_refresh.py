"""``{% live_stamp tournament %}``: the version stamp a page was rendered with (see live.json)."""

from django import template

from tournaments.round_flow import live_state

register = template.Library()


@register.simple_tag
def live_stamp(tournament) -> str:
    return live_state(tournament)["stamp"]
