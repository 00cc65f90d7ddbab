"""Find players by name in any alphabet: ``search_players("Semenov")`` finds Семёнов.

Both the stored key and the query go through :func:`clubs.names.search_key`, so the
search is ё/е-blind and transliteration-blind. On PostgreSQL the key is compared
by trigram similarity (``pg_trgm``, indexed by migration ``clubs.0003``), which
also forgives a typo; players whose key contains every word typed come first
(those whose key starts with the first word typed before them), then the
rest by similarity. Other databases (SQLite, the embedded default) match
each word typed with a plain ``icontains`` on the key.
"""

from __future__ import annotations

from django.contrib.postgres.search import TrigramSimilarity
from django.db import connection
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from .models import Club, Player
from .names import search_key

#: Below this trigram similarity a PostgreSQL candidate is not shown (pg_trgm's default is 0.3).
MIN_SIMILARITY = 0.2


def _all_words(key: str) -> Q:
    q = Q()
    for word in key.split():
        q &= Q(search_key__icontains=word)
    return q


def player_matches(query: str, players: QuerySet | None = None) -> QuerySet:
    """Every player whose name matches ``query``, best first (a queryset, so a caller may page it).

    ``players`` narrows the search (default: every player). An empty or letterless
    query matches nobody.
    """
    key = search_key(query or "")
    qs = (players if players is not None else Player.objects.all()).select_related("user")
    if not key:
        return qs.none()
    if connection.vendor == "postgresql":
        contains = _all_words(key)
        rank = Case(
            When(contains & Q(search_key__startswith=key.split()[0]), then=Value(2)),
            When(contains, then=Value(1)),
            default=Value(0),
            output_field=IntegerField(),
        )
        return (
            qs.annotate(similarity=TrigramSimilarity("search_key", key), rank=rank)
            .filter(contains | Q(similarity__gte=MIN_SIMILARITY))
            .order_by("-rank", "-similarity", "last_name", "first_name", "pk")
        )
    return qs.filter(_all_words(key)).order_by("last_name", "first_name", "pk")


def search_players(query: str, limit: int = 20, players: QuerySet | None = None) -> list[Player]:
    """The players whose name matches ``query`` best, at most ``limit`` of them (the pages' pickers)."""
    return list(player_matches(query, players)[:limit])


def search_clubs(query: str) -> list[Club]:
    """The clubs whose name or city contains every word of ``query``, in any alphabet, by name.

    The same folding as the players' (:func:`clubs.names.search_key`: ё/е- and
    transliteration-blind), applied to each club as it is read: clubs are few (one
    row per club of the federation), so they carry no stored key to keep in step.
    An empty or letterless query matches every club.
    """
    wanted = search_key(query or "").split()
    clubs = Club.objects.order_by("name", "pk")
    if not wanted:
        return list(clubs)
    found = []
    for club in clubs:
        key = search_key(f"{club.name} {club.city}")
        if all(word in key for word in wanted):
            found.append(club)
    return found
