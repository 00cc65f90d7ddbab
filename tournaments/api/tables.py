"""Standings, crosstable and pairings as JSON, rating lists and a player's rating history.

Standings and crosstables come from :func:`tournaments.standings_service.load_event`
(published and finished rounds only) like the public pages, and are kept in the
page cache (:mod:`tournaments.cache`) under the tournament's cache version: a
warm read of a 1,000-player Swiss is one cache hit (``bench/bench_api_standings.py``).
Rating lists use :mod:`clubs.rating_lists` (the page's filters) and
histories :func:`tournaments.player_history.rating_changes`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from clubs.models import Club, Player, PlayerRating
from clubs.rating_lists import MAX_MONTHS, Filters, list_ranks, rating_list
from clubs.ratings.lists import is_provisional, rank_label
from clubs.ratings.pools import POOLS
from tournaments import cache as page_cache
from tournaments import player_history as profiles
from tournaments import standings as core
from tournaments.access.permissions import visible_tournaments
from tournaments.api.http.pagination import ApiPagination
from tournaments.standings_service import Event, load_event
from tournaments.team_match import crosstable_lineup
from zarik.i18n import current_language

#: Rows a page of the API's standings when the request names no ``page_size``.
DEFAULT_PAGE_ROWS: int = ApiPagination.page_size


def _player(event: Event, entry_id: int) -> dict[str, Any]:
    e = event.entries[entry_id]
    return {"entry": e.id, "player": e.player_id, "name": e.name_ru, "name_latin": e.name_latin}


def standings_data(event: Event, start: int = 0, stop: int | None = None) -> dict[str, Any]:
    """Per section: rows with place, the player named, and each tie-break's key, names RU/EN and
    value; a cup's section adds ``brackets``: each side bracket's own table (consolation …),
    ranked among its players and never mixed into the main draw's places.

    Only rows ``start``..``stop - 1`` are given, counted across the tables in the pages' order
    (each section's table, then its brackets): a page of a 10,000-player field, not 3 MB of
    JSON (issue 32). Every section and bracket is still listed, with its ``row_count``."""
    seen = 0

    def window(table: core.Standings) -> list[core.StandingRow]:
        nonlocal seen
        rows, first = table.rows, seen
        seen += len(rows)
        lo, hi = max(start - first, 0), len(rows) if stop is None else max(min(stop - first, len(rows)), 0)
        return list(rows[lo:hi]) if lo < hi else []

    sections = []
    for key, table in event.standings.items():
        sections.append(
            {
                "key": key,
                "name": event.sections.get(key) or "",
                **_table_data(event, table, window(table)),
                "brackets": [
                    {
                        "bracket": side.bracket,
                        "name_ru": core.bracket_name(side.bracket, "ru"),
                        "name_en": core.bracket_name(side.bracket, "en"),
                        **_table_data(event, side, window(side)),
                    }
                    for side in table.side_tables
                ],
            }
        )
    return {
        "tournament": event.tournament.slug,
        "rounds": event.round_numbers(),
        "sections": sections,
        "champion": _champion_data(event),
        "problems": [{"code": p.code, "message": p.message(current_language())} for p in event.option_problems],
    }


def standings_version(event: Event) -> str:
    """A fingerprint of the whole standings (every row of every table, the champion, the
    problems' codes), the same in every language: what a sync client compares (issue 47).

    Equal fingerprints mean equal standings; any change of a place, a value, a name, a mark or
    a row moves it. Kept under the tournament's cache versions like the pages."""
    with translation.override("en"):
        data = standings_data(event)
    for problem in data["problems"]:
        problem.pop("message", None)
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def standings_row_count(event: Event) -> int:
    """Rows of every table the standings list (sections and their brackets): what is paged."""
    return sum(len(table.rows) + sum(len(side.rows) for side in table.side_tables) for table in event.standings.values())


def _champion_data(event: Event) -> dict[str, Any] | None:
    """With several sections: each section's winner(s), strongest first, and the absolute
    champion (the strongest section's winner) or the play-off — named once the event is finished."""
    decision = event.champion
    if decision is None:
        return None
    return {
        "finished": decision.finished,
        "winners": [
            {"section": key, "name": event.sections.get(key) or "", "entries": [p.id for p in players]}
            for key, players in decision.winners
        ] if decision.finished else [],
        "champion": decision.champion.id if decision.champion else None,
        "playoff_between": [p.id for p in decision.candidates] if decision.playoff_required else [],
    }


def _table_data(event: Event, table: core.Standings, rows: list[core.StandingRow]) -> dict[str, Any]:
    metrics = table.metrics
    return {
        "metrics": [{"key": m.key, "name_ru": m.name("ru"), "name_en": m.name("en")} for m in metrics],
        "row_count": len(table.rows),
        "rows": [
            {
                "place": r.place_label,
                "shared": r.shared,
                **_player(event, r.player.id),
                "withdrawn": r.player.withdrawn,
                # False: a round robin's player who withdrew before playing half of his games
                # (FIDE C.06) — listed without a place or values; his games stay in the crosstable.
                "counted": r.counted,
                # A sanction (Part 9): no place ("—"), no prize; his values stay for the record.
                "removal": r.player.removal,
                "values": [{"key": m.key, "value": r.values.get(m.key)} for m in metrics],
            }
            for r in rows
        ],
    }


def crosstable_data(event: Event) -> dict[str, Any]:
    """Per section: players in draw order (a Scheveningen event: team A by board, then team B)
    and each pair's cell (scores of their matches)."""
    sections = []
    lineup = crosstable_lineup(event.tournament)  # Scheveningen: team A by board, then team B
    for key, table in event.standings.items():
        grid = core.build_crosstable(
            event.players, event.matches, event.options, section=key, layout=core.CrosstableLayout.ROW,
            standings=table, lineup=lineup,
        )
        rows = []
        for r, player in enumerate(grid.players):
            cells = []
            for c, other in enumerate(grid.players):
                cell = grid.cells[r][c]
                if cell is None or r == c:
                    continue
                cells.append({"opponent": other.id, "text": cell.text, "outcome": cell.outcome,
                              "scores": [list(s) for s in cell.scores]})  # fmt: skip
            # A round robin's uncounted withdrawal (FIDE C.06 5.4.1): no total, and the others'
            # totals leave his games out, as the standings do.
            counted = grid.counted(r)
            rows.append({**_player(event, player.id), "place": grid.places[r],
                         "total": grid.totals[r] if counted else None, "counted": counted, "cells": cells})  # fmt: skip
        sections.append({"key": key, "name": event.sections.get(key) or "", "rows": rows})
    return {"tournament": event.tournament.slug, "sections": sections}


def _event(tournament) -> Event:
    """The published rounds' snapshot, shared with the public pages of the same version."""
    return page_cache.kept_event(tournament.pk, None, lambda: load_event(tournament))


def _cached(tournament, name: str, build, params: dict[str, object] | None = None):
    return page_cache.cached_fragment(tournament.pk, f"api-{name}", lambda: build(_event(tournament)), params)


def cached_row_count(tournament) -> int:
    """How many rows the standings' pages share (:func:`standings_row_count`), cached."""
    return _cached(tournament, "standings-count", standings_row_count)


def cached_standings_version(tournament) -> str:
    """The standings' fingerprint (:func:`standings_version`), cached."""
    return _cached(tournament, "standings-version", standings_version)


def cached_standings_page(tournament, number: int = 1, size: int = DEFAULT_PAGE_ROWS) -> dict[str, Any]:
    """Page ``number`` of ``size`` rows of the standings (:func:`standings_data`), from the cache
    or built: what the API answers and what a worker builds ahead of it after a change."""
    start = (number - 1) * size
    return _cached(
        tournament, "standings", lambda event: standings_data(event, start, start + size),
        {"page": number, "size": size},
    )  # fmt: skip


class StandingsMetricSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="the tie-break's key (the registry's, e.g. `points`, `buchholz`)")
    name_ru = serializers.CharField()
    name_en = serializers.CharField()


class StandingsValueSerializer(serializers.Serializer):
    key = serializers.CharField()
    value = serializers.FloatField(allow_null=True, help_text="null: not counted (head-to-head among others)")


class StandingsRowSerializer(serializers.Serializer):
    place = serializers.CharField(
        help_text="a shared place as 4–6; — for a player not counted or disqualified / removed"
    )
    shared = serializers.BooleanField()
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    name_latin = serializers.CharField()
    withdrawn = serializers.BooleanField()
    counted = serializers.BooleanField(
        help_text="false: a round robin's player who withdrew before playing half of his games (FIDE C.06)"
    )
    removal = serializers.CharField(
        help_text="`disqualified` or `removed` (a sanction: no place, no prize, listed last), else empty"
    )
    values = StandingsValueSerializer(many=True)


class StandingsBracketSerializer(serializers.Serializer):
    bracket = serializers.CharField()
    name_ru = serializers.CharField()
    name_en = serializers.CharField()
    metrics = StandingsMetricSerializer(many=True)
    row_count = serializers.IntegerField(help_text="rows of this bracket's table on every page")
    rows = StandingsRowSerializer(many=True, help_text="this page's rows of the bracket (maybe none)")


class StandingsSectionSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    metrics = StandingsMetricSerializer(many=True)
    row_count = serializers.IntegerField(help_text="rows of this section's table on every page")
    rows = StandingsRowSerializer(many=True, help_text="this page's rows of the section (maybe none)")
    brackets = StandingsBracketSerializer(many=True)


class StandingsWinnerSerializer(serializers.Serializer):
    section = serializers.CharField()
    name = serializers.CharField()
    entries = serializers.ListField(child=serializers.IntegerField())


class StandingsChampionSerializer(serializers.Serializer):
    finished = serializers.BooleanField()
    winners = StandingsWinnerSerializer(many=True)
    champion = serializers.IntegerField(allow_null=True)
    playoff_between = serializers.ListField(child=serializers.IntegerField())


class StandingsProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class StandingsPageSerializer(serializers.Serializer):
    """One page of the standings: rows counted across the sections' tables in order."""

    tournament = serializers.CharField()
    rounds = serializers.ListField(child=serializers.IntegerField())
    count = serializers.IntegerField(help_text="rows of every table (sections and brackets) on every page")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    version = serializers.CharField(
        help_text="the standings' fingerprint: equal while nothing in them changed, whatever the page"
    )
    changed = serializers.BooleanField(
        help_text="false: `since_version` is the current version, and `sections` is empty (nothing to read)"
    )
    sections = StandingsSectionSerializer(many=True)
    champion = StandingsChampionSerializer(allow_null=True)
    problems = StandingsProblemSerializer(many=True)


PAGE_PARAMETERS = [
    OpenApiParameter("page", OpenApiTypes.INT, description="page number (1-based)"),
    OpenApiParameter(
        "page_size", OpenApiTypes.INT, description="rows a page, across the sections (default 100, at most 500)"
    ),
]


class TournamentReadsViewSet(viewsets.GenericViewSet):
    """``/api/tournaments/<slug>/standings/`` and ``crosstable/``: what the public pages show, as JSON."""

    lookup_field = "slug"
    serializer_class = serializers.Serializer

    def get_queryset(self):
        return visible_tournaments(self.request.user)

    @extend_schema(
        parameters=[*PAGE_PARAMETERS, OpenApiParameter(
            "since_version", OpenApiTypes.STR,
            description="the `version` of an earlier answer: if the standings are still that, the answer "
            "says `changed: false` with no sections (the sync client has them already)",
        )],
        responses=StandingsPageSerializer,
    )  # fmt: skip
    @action(detail=True)
    def standings(self, request, slug=None):
        """Standings per section with tie-break values, a page of rows at a time (as on the
        standings page: `page`, `page_size`; `count`, `next`, `previous` and a `Link` header);
        every section and bracket is listed with its `row_count`. `version` fingerprints the
        whole standings: a sync client sends it back as `since_version` and reads nothing while
        they are unchanged. Cached until the tournament changes."""
        tournament = self.get_object()
        size = self.paginator.get_page_size(request)
        total = cached_row_count(tournament)
        self.paginator.paginate_queryset(range(total), request, self)  # a page past the end: a 404 problem
        page = self.paginator.page
        version = cached_standings_version(tournament)
        changed = request.query_params.get("since_version") != version
        body = cached_standings_page(tournament, page.number, size)
        paged = {
            "tournament": body["tournament"],
            "rounds": body["rounds"],
            "count": total,
            "next": self.paginator.get_next_link(),
            "previous": self.paginator.get_previous_link(),
            "version": version,
            "changed": changed,
            **{k: body[k] for k in ("sections", "champion", "problems")},
        }
        if not changed:
            paged["sections"] = []
        return self.paginator.with_link_header(Response(paged))

    @extend_schema(responses=OpenApiTypes.OBJECT)
    @action(detail=True)
    def crosstable(self, request, slug=None):
        """The crosstable per section: every pair's scores, players in draw order (a Scheveningen
        event: team A by board, then team B)."""
        return Response(_cached(self.get_object(), "crosstable", crosstable_data))


class RatingSerializer(serializers.Serializer):
    rank = serializers.CharField(help_text="the place in the filtered list; shared places as 4–6")
    provisional = serializers.BooleanField(
        help_text="fewer than 30 rated matches in the pool (clubs.ratings.lists.PROVISIONAL_MATCHES)"
    )
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.full_name")
    name_latin = serializers.CharField(source="player.latin_name")
    category = serializers.IntegerField(source="player.category", allow_null=True)
    city = serializers.CharField(source="player.city")
    rating = serializers.FloatField()
    experience = serializers.IntegerField()
    matches = serializers.IntegerField()
    last_played = serializers.DateField(
        source="shown_last_played", allow_null=True,
        help_text="the last rated match in a released event (a private event's date is not shown)",
    )
    start_rating = serializers.FloatField(help_text="the rating the player began the pool with")
    start_source = serializers.CharField(
        help_text="where the start came from: entry (rating at entry), player (imported or declared), new (1500)"
    )
    clubs = serializers.SerializerMethodField()

    def get_clubs(self, rating) -> list[str]:
        return [m.club.name for m in rating.player.current_memberships]


class RatingFilterSerializer(serializers.Serializer):
    pool = serializers.ChoiceField(choices=list(POOLS), default=next(iter(POOLS)))
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all(), required=False)
    city = serializers.CharField(required=False, default="", allow_blank=True)
    category = serializers.IntegerField(required=False, min_value=1, max_value=9)
    months = serializers.IntegerField(required=False, min_value=1, max_value=MAX_MONTHS)
    order = serializers.ChoiceField(choices=["-rating", "rating"], default="-rating")


class RatingListViewSet(viewsets.GenericViewSet):
    """The rating list of a pool, filtered by club, city, category and activity (months), as on the rating page."""

    serializer_class = RatingSerializer
    queryset = PlayerRating.objects.none()  # the list is rating_list(); this names the model for the schema

    @extend_schema(parameters=[RatingFilterSerializer])
    def list(self, request):
        filters = RatingFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        chosen = Filters(**filters.validated_data)
        page = self.paginate_queryset(rating_list(chosen, profiles.last_public_played()))
        ranks = list_ranks(chosen, profiles.last_public_played())
        for rating in page:
            rating.rank, rating.provisional = rank_label(ranks, rating.rating), is_provisional(rating.matches)
        return self.get_paginated_response(RatingSerializer(page, many=True).data)


class RatingChangeSerializer(serializers.Serializer):
    """One change; for an event the reader may not see (``hidden``) only the two ratings are given
    (the privacy rule: ``tournaments.player_history.PRIVACY_RULE``)."""

    hidden = serializers.BooleanField()
    played_on = serializers.DateField(allow_null=True)
    tournament = serializers.CharField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField(allow_null=True)
    opponent = serializers.IntegerField(allow_null=True)
    opponent_name = serializers.CharField(allow_null=True)
    length = serializers.IntegerField(allow_null=True)
    length_unit = serializers.ChoiceField(choices=["points", "games"], allow_null=True)
    score_for = serializers.FloatField(allow_null=True)
    score_against = serializers.FloatField(allow_null=True)
    experience_before = serializers.IntegerField(allow_null=True)
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    result = serializers.FloatField(allow_null=True)
    expected = serializers.FloatField(allow_null=True)


def _change_data(line: profiles.HistoryLine) -> dict:
    c = line.change
    data = dict.fromkeys(RatingChangeSerializer().fields)
    data.update(hidden=line.hidden, rating_before=line.rating_before, rating_after=line.rating_after)
    if c is not None:
        data.update(
            played_on=c.played_on, tournament=c.match.round.tournament.slug, round=c.match.round.number,
            match=c.match_id, opponent=c.opponent_id, opponent_name=c.opponent.full_name, length=c.length,
            length_unit="games" if c.match.round.tournament.match_format == "games" else "points",
            score_for=float(c.score_for), score_against=float(c.score_against),
            experience_before=c.experience_before, result=float(c.result), expected=c.expected,
        )  # fmt: skip
    return data


class RatingHistorySerializer(serializers.Serializer):
    """One player's history in one pool: who, the current rating, every change in order."""

    player = serializers.IntegerField()
    name = serializers.CharField()
    name_latin = serializers.CharField()
    pool = serializers.CharField()
    rating = serializers.FloatField(allow_null=True)
    changes = RatingChangeSerializer(many=True)


class PlayerRatingsViewSet(viewsets.GenericViewSet):
    """One player's rating history in one pool: every change, in the order the matches were played."""

    serializer_class = RatingChangeSerializer
    queryset = Player.objects.all()
    lookup_value_regex = r"\d+"

    @extend_schema(
        parameters=[OpenApiParameter("pool", OpenApiTypes.STR, enum=list(POOLS))],
        responses=RatingHistorySerializer,
    )
    @action(detail=True, url_path="rating-history", pagination_class=None)
    def rating_history(self, request, pk=None):
        pool = request.query_params.get("pool") or next(iter(POOLS))
        if pool not in POOLS:
            raise Http404("no such rating pool")
        player = get_object_or_404(Player, pk=pk)
        current = PlayerRating.objects.filter(player=player, pool=pool).first()
        changes = profiles.rating_history(player, pool, request.user)
        return Response(
            {
                "player": player.pk,
                "name": player.full_name,
                "name_latin": player.latin_name,
                "pool": pool,
                "rating": current.rating if current else None,
                "changes": RatingChangeSerializer([_change_data(line) for line in changes], many=True).data,
            }
        )
