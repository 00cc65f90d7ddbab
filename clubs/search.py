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

from .models import Player
from .names import search_key

#: Below this trigram similarity a PostgreSQL candidate is not shown (pg_trgm's default is 0.3).
MIN_SIMILARITY = 0.2


def _all_words(key: str) -> Q:
    q = Q()
    for word in key.split():
        q &= Q(search_key__icontains=word)
    return q


def search_players(query: str, limit: int = 20, players: QuerySet | None = None) -> list[Player]:
    """The players whose name matches ``query`` best, at most ``limit`` of them.

    ``players`` narrows the search (default: every player). An empty or
    letterless query finds nobody.
    """
    key = search_key(query or "")
    if not key:
        return []
    qs = (players if players is not None else Player.objects.all()).select_related("user")
    if connection.vendor == "postgresql":
        contains = _all_words(key)
        rank = Case(
            When(contains & Q(search_key__startswith=key.split()[0]), then=Value(2)),
            When(contains, then=Value(1)),
            default=Value(0),
            output_field=IntegerField(),
        )
        qs = (
            qs.annotate(similarity=TrigramSimilarity("search_key", key), rank=rank)
            .filter(contains | Q(similarity__gte=MIN_SIMILARITY))
            .order_by("-rank", "-similarity", "last_name", "first_name", "pk")
        )
    else:
        qs = qs.filter(_all_words(key)).order_by("last_name", "first_name", "pk")
    return list(qs[:limit])
