"""``{% organiser_tabs tournament "key" %}``: the tab bar of :mod:`tournaments.organiser_tabs`."""

from django import template
from django.urls import reverse

from tournaments.access.permissions import allowed
from tournaments.organiser_tabs import TABS

register = template.Library()


@register.inclusion_tag("organiser/_tabs.html", takes_context=True)
def organiser_tabs(context, tournament, current: str = "") -> dict:
    user = context["request"].user
    tabs = [
        {
            "url": reverse(tab.url_name, kwargs={"slug": tournament.slug}),
            "label": tab.label,
            "current": tab.key == current,
        }
        for tab in TABS
        if tab.shown_for(tournament) and allowed(user, tab.action, tournament)
    ]
    current_tab = next((tab for tab in tabs if tab["current"]), None)
    return {"tournament": tournament, "tabs": tabs, "current_tab": current_tab}
