"""Entry keys: a player with only a private link acts over the API for that one entry (issue 47).

Most players have no account, only the private link on their card or in their
email. An app exchanges the link for an entry key (``POST /api/entry-tokens/``);
the key acts as the link's holder (:class:`~tournaments.access.private_links.LinkHolder`),
so the one permissions table decides as it does on the private page, and the key
is revoked when the organiser reissues the link. Beyond reading, the key may only
do what the private page does: :data:`ENTRY_KEY_WRITES` is that list — one row
per route, a newcomer adds a row.
"""

from __future__ import annotations

from dataclasses import dataclass

from rest_framework.permissions import SAFE_METHODS

from tournaments.access import private_links
from tournaments.models import Entry

#: The writes an entry key may make, by route name (both the flat and the nested route) → methods.
ENTRY_KEY_WRITES: dict[str, frozenset[str]] = {
    "api-match-check": frozenset({"POST"}),
    "api-match-report": frozenset({"POST"}),
    "api-match-confirm": frozenset({"POST"}),
    "api-match-dispute": frozenset({"POST"}),
    "api-tournament-match-check": frozenset({"POST"}),
    "api-tournament-match-report": frozenset({"POST"}),
    "api-tournament-match-confirm": frozenset({"POST"}),
    "api-tournament-match-dispute": frozenset({"POST"}),
    "api-dispute-appeal": frozenset({"POST"}),
    "api-tournament-entry-check-in": frozenset({"POST", "DELETE"}),
    "api-tournament-bye-request-list": frozenset({"POST"}),
    "api-tournament-bye-request-detail": frozenset({"DELETE"}),
}


@dataclass(frozen=True)
class EntryKey:
    """``request.auth`` of a request made with an entry key: the entry it acts for."""

    entry: Entry

    @property
    def throttle_ident(self) -> str:
        return f"entry-{self.entry.pk}"


def is_entry_key(key: str) -> bool:
    return key.startswith(private_links.API_KEY_PREFIX)


def may(method: str, route: str | None) -> bool:
    """May an entry key call ``method`` on the route named ``route``? Reads yes; writes by the table."""
    return method in SAFE_METHODS or method in ENTRY_KEY_WRITES.get(route or "", frozenset())
