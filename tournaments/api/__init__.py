"""The REST API of tournaments: reads (filterable, players named) and the event's setup.

``serializers`` shape the JSON, ``filters`` the ``?tournament=<slug>`` filters,
``reads`` the collections, ``setup`` the writes (tournaments, sections, entries,
officials, the draw) through the same forms and services as the organiser's pages.
The scoring app extends :class:`MatchViewSet` with the result workflow.
"""

from .reads import EntryViewSet, MatchViewSet, RoundViewSet
from .setup import OfficialViewSet, SectionViewSet, TournamentViewSet

__all__ = [
    "EntryViewSet", "MatchViewSet", "OfficialViewSet", "RoundViewSet", "SectionViewSet",
    "TournamentViewSet",
]  # fmt: skip
