"""``?tournament=<slug>`` and friends: every collection can be narrowed to one tournament, and
matches and entries to one player; matches to a round by its id and to what changed since a time.

Issue 47: ``?round=`` is a round's *number* (``?round=1`` is round 1 of every visible
tournament); a client holding a round's id sends ``?round_id=``. ``updated_since`` (an
ISO 8601 time) is the incremental sync: matches whose result or pairing changed at or
after it, or whose round was published at or after it; entries changed at or after it
(``Entry.updated_at``, moved by every write).
"""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import Q

from ..models import Entry, Match, Round, Tournament

#: Ids and numbers as the database stores them: anything else is a field error (400), never
#: an overflow inside the database (a 500).
ID_RANGE = {"min_value": 0, "max_value": 2**31 - 1}


class IdFilter(django_filters.NumberFilter):
    """A whole number in the database's integer range."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.update(ID_RANGE)
        super().__init__(*args, **kwargs)


class EntryFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")
    section = django_filters.CharFilter(field_name="section__name")
    player = IdFilter(field_name="player_id", label="the player's id: their entries")
    updated_since = django_filters.IsoDateTimeFilter(
        field_name="updated_at", lookup_expr="gte",
        label="ISO 8601: entries changed at or after it (status, section, draw number, category, check-in…)",
    )

    class Meta:
        model = Entry
        fields = ["tournament", "section", "status"]


class RoundFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")
    section = django_filters.CharFilter(field_name="section__name")
    number = IdFilter(field_name="number")

    class Meta:
        model = Round
        fields = ["tournament", "section", "number", "status"]


class MatchFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="round__tournament__slug")
    round = IdFilter(field_name="round__number")
    round__number = IdFilter(field_name="round__number")
    entry = IdFilter(method="filter_entry", label="entry")
    round_id = IdFilter(field_name="round_id", label="the round's id (`round` is its number)")
    player = IdFilter(method="filter_player", label="the player's id: the matches they play, either side")
    updated_since = django_filters.IsoDateTimeFilter(
        method="filter_updated_since", label="ISO 8601: matches changed (or published) at or after it"
    )

    class Meta:
        model = Match
        fields = ["tournament", "round", "round__number", "result_status"]

    def filter_entry(self, queryset, name, value):
        """The matches one entry plays, on either side."""
        return queryset.filter(entry_a=value) | queryset.filter(entry_b=value)

    def filter_player(self, queryset, name, value):
        return queryset.filter(Q(entry_a__player_id=value) | Q(entry_b__player_id=value))

    def filter_updated_since(self, queryset, name, value):
        """A result saved moves ``updated_at``; publishing a round does not touch its matches, so
        the round's publication counts as their change too."""
        return queryset.filter(Q(updated_at__gte=value) | Q(round__published_at__gte=value))


class TournamentFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="the organising club's slug")

    class Meta:
        model = Tournament
        fields = ["club", "status", "system", "variant"]
