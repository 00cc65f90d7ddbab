"""The season form: a club organiser's season of events, its points by place and tie-breaks.

Every refusal is a coded ``club.*`` problem shown next to its field in the
reader's language; what was typed is kept.
"""

from __future__ import annotations

from django import forms
from django.core.validators import MinValueValidator
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clubs.life.seasons.standings import format_points, parse_points
from clubs.models import Club, Season
from clubs.names import to_latin
from clubs.problems import CLUB
from scoring.rules.errors import RuleViolation
from tournaments.cache import invalidate
from tournaments.models import Tournament
from tournaments.setup.forms import TiebreakPickerMixin
from zarik.i18n import problems_to_validation_error

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class SeasonForm(TiebreakPickerMixin, forms.ModelForm):
    """A season: its name and address, the points table, best N of M, tie-breaks, its events."""

    points = forms.CharField(
        label=_("points by place"), initial="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
        help_text=_("Season points for 1st, 2nd, 3rd … place in each event, separated by commas; "
                    "shared places share their points."),
    )  # fmt: skip
    tournaments = forms.ModelMultipleChoiceField(
        label=_("events of the season"), queryset=Tournament.objects.none(), required=False,
        widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip

    class Meta:
        model = Season
        fields = ["name", "slug", "starts_on", "ends_on", "best_of", "public"]
        widgets = {"starts_on": DATE, "ends_on": DATE}

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.club = club
        self.club = club
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("The season's address, /seasons/<slug>/; empty: made from the name.")
        self.fields["best_of"].label = _("best N events count")
        self.fields["best_of"].min_value = 1
        self.fields["best_of"].validators.append(MinValueValidator(1))
        self.fields["best_of"].widget.attrs["min"] = 1
        self.order_fields(["name", "slug", "starts_on", "ends_on", "points", "best_of", "public"])
        self.fields["tournaments"].queryset = club.tournaments.order_by("-starts_on", "name")
        if self.instance.pk:
            self.fields["points"].initial = format_points(self.instance.points_by_place)
            self.fields["tournaments"].initial = list(self.instance.tournaments.values_list("pk", flat=True))
        self.add_tiebreak_fields(self.instance.tiebreaks)

    def clean_points(self):
        try:
            return parse_points(self.cleaned_data["points"])
        except RuleViolation as exc:
            raise problems_to_validation_error(exc.problems) from None

    def clean_slug(self):
        slug = self.cleaned_data.get("slug") or ""
        if slug and Season.objects.filter(slug=slug).exclude(pk=self.instance.pk).exists():
            raise problems_to_validation_error([CLUB.problem("slug_taken", value=slug)])
        return slug

    def clean(self):
        data = super().clean()
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", problems_to_validation_error([CLUB.problem("ends_before_start")]))
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            data["slug"] = self._free_slug(data["name"])
        keys = self.chosen_tiebreaks(data)
        if keys is not None:
            self.instance.tiebreaks = keys
        if "points" in data:
            self.instance.points_by_place = data["points"]
        return data

    def _free_slug(self, name: str) -> str:
        base = slugify(to_latin(f"{self.club.slug} {name}"))[:70].strip("-") or "season"
        taken = set(Season.objects.filter(slug__startswith=base).values_list("slug", flat=True))
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        return slug

    def save(self, commit=True):
        season = super().save(commit=commit)
        if commit:
            chosen = {t.pk for t in self.cleaned_data.get("tournaments") or []}
            dropped = self.club.tournaments.filter(season=season).exclude(pk__in=chosen)
            changed = set(dropped.values_list("pk", flat=True)) | chosen
            dropped.update(season=None)
            self.club.tournaments.filter(pk__in=chosen).update(season=season)
            for tournament_id in changed:  # update() sends no signal: their kept rows and pages go
                invalidate(tournament_id)
        return season
