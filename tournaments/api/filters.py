"""``?tournament=<slug>`` and friends: every collection can be narrowed to one tournament."""

from __future__ import annotations

import django_filters
from django import forms

from ..models import Entry, Match, Round

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

    class Meta:
        model = Match
        fields = ["tournament", "round", "round__number", "result_status"]

    def filter_entry(self, queryset, name, value):
        """The matches one entry plays, on either side."""
        return queryset.filter(entry_a=value) | queryset.filter(entry_b=value)
