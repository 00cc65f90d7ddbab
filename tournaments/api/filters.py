"""``?tournament=<slug>`` and friends: every collection can be narrowed to one tournament."""

from __future__ import annotations

import django_filters

from ..models import Entry, Match, Round


class EntryFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")
    section = django_filters.CharFilter(field_name="section__name")

    class Meta:
        model = Entry
        fields = ["tournament", "section", "status"]


class RoundFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")
    section = django_filters.CharFilter(field_name="section__name")

    class Meta:
        model = Round
        fields = ["tournament", "section", "number", "status"]


class MatchFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="round__tournament__slug")
    round = django_filters.NumberFilter(field_name="round__number")
    entry = django_filters.NumberFilter(method="filter_entry", label="entry")

    class Meta:
        model = Match
        fields = ["tournament", "round", "round__number", "result_status"]

    def filter_entry(self, queryset, name, value):
        """The matches one entry plays, on either side."""
        return queryset.filter(entry_a=value) | queryset.filter(entry_b=value)
