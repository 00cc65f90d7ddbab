"""The organiser's tab bar: ONE table of the working pages of a tournament.

Every organiser, desk and referee page shows the same bar (``organiser/_tabs.html``,
filled by ``{% organiser_tabs tournament "key" %}``), so there is always a way
to every other page and back. A newcomer adds a page by adding a row here; a tab
shows only when the permissions table allows its action, and the page checks
again on the server.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Tab:
    key: str  # what a page passes to say "I am this tab"
    url_name: str  # reversed with the tournament's slug
    label: str
    action: str  # a row of tournaments.access.permissions.PERMISSIONS
    systems: tuple[str, ...] = ()  # competition systems the page is for; empty: every system

    def shown_for(self, tournament) -> bool:
        return not self.systems or tournament.system in self.systems


TABS: tuple[Tab, ...] = (
    Tab("settings", "manage-settings", _("Settings"), "tournament.edit"),
    Tab("sections", "manage-sections", _("Sections"), "tournament.edit"),
    Tab("officials", "manage-officials", _("Officials"), "tournament.edit"),
    Tab("entries", "manage-entries", _("Entries"), "tournament.edit"),
    Tab("prizes", "manage-prizes", _("Fees and prizes"), "tournament.edit"),
    Tab("teams", "manage-teams", _("Teams"), "tournament.edit", systems=("scheveningen",)),
    Tab(
        "registrations", "manage-registrations", _("Registration requests"), "tournament.edit"
    ),  # not "Registrations": in Russian it would read «Заявки», the name of the entries tab
    Tab("links", "manage-links", _("Private links"), "tournament.edit"),
    Tab("check-in", "manage-check-in", _("Check-in"), "desk.run"),
    Tab("draw", "manage-draw", _("Draw"), "round.manage"),
    Tab("rounds", "manage-rounds", _("Rounds"), "tournament.officiate"),
    Tab("swiss", "manage-swiss", _("Pairs and byes"), "round.manage", systems=("swiss",)),
    Tab("desk", "desk", _("Desk"), "desk.run"),
    Tab("referee", "referee-tables", _("Tables"), "result.enter"),
    Tab("disputes", "dispute-list", _("Disputes"), "dispute.list"),
    Tab("rulings", "manage-rulings", _("Rulings and pairings"), "round.manage"),
    Tab("sanctions", "sanction-list", _("Discipline"), "sanction.record"),
    Tab("print", "manage-print", _("Print"), "tournament.officiate"),
    Tab("analysis", "analysis-table", _("PR table"), "tournament.officiate"),  # match analysis by gnubg
    Tab("audit", "audit-log", _("Audit log"), "audit.view"),
    Tab("webhooks", "manage-webhooks", _("Webhooks"), "tournament.edit"),
    Tab("hall-settings", "manage-hall", _("Hall display settings"), "tournament.edit"),
    Tab("hall", "hall", _("Hall display"), "tournament.officiate"),
)
