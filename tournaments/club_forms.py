"""Forms of the club pages: members (add, new, end), the member import, seasons, rating-list filters.

Every refusal is a coded ``club.*`` problem shown next to its field in the
reader's language; what was typed is kept.
"""

from __future__ import annotations

from django import forms
from django.core.validators import MinValueValidator
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from clubs.models import Category, Club, Membership, Player, Season
from clubs.names import to_latin
from clubs.problems import CLUB
from clubs.ratings.pools import POOLS
from scoring.rules.errors import RuleViolation
from zarik.i18n import current_language, problems_to_validation_error

from .cache import invalidate
from .models import Tournament
from .seasons import format_points, parse_points
from .setup_forms import TiebreakPickerMixin

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def _today():
    return timezone.localdate()


class AddMemberForm(forms.Form):
    """A stored player found by the search becomes a member from a date."""

    player = forms.ModelChoiceField(
        queryset=Player.objects.all(), widget=forms.HiddenInput,
        error_messages={"required": _("Pick a player from the search results."),
                        "invalid_choice": _("Pick a player from the search results.")},
    )  # fmt: skip
    started_on = forms.DateField(label=_("member since"), initial=_today, widget=DATE)

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean(self):
        data = super().clean()
        player = data.get("player")
        if player and Membership.objects.filter(player=player, club=self.club, ended_on__isnull=True).exists():
            self.add_error(None, problems_to_validation_error(
                [CLUB.problem("already_member", player=player.display_name(current_language()))]
            ))  # fmt: skip
        return data


class NewMemberForm(forms.ModelForm):
    """A player who is not in the database yet: created and made a member in one go."""

    started_on = forms.DateField(label=_("member since"), initial=_today, widget=DATE)

    class Meta:
        model = Player
        fields = ["last_name", "first_name", "last_name_latin", "first_name_latin", "category", "city", "email"]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "new")
        super().__init__(*args, **kwargs)
        self.fields["last_name"].widget.attrs["autocomplete"] = "off"


class EndMembershipForm(forms.Form):
    ended_on = forms.DateField(label=_("member until"), initial=_today, widget=DATE)

    def __init__(self, membership: Membership, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.membership = membership

    def clean_ended_on(self):
        ended = self.cleaned_data["ended_on"]
        if ended < self.membership.started_on:
            raise problems_to_validation_error([CLUB.problem(
                "end_before_start", player=self.membership.player.display_name(current_language()),
                start=self.membership.started_on.isoformat(),
            )])  # fmt: skip
        return ended


class MemberImportForm(forms.Form):
    file = forms.FileField(
        label=_("file"),
        help_text=_(
            "CSV (UTF-8) or XLSX with a header row: Фамилия/last_name, Имя/first_name, "
            "Категория/category, email; every row becomes a member of this club"
        ),
    )


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


#: "Active in the last N months": at most this many.
MAX_MONTHS = 600


class RatingFilterForm(forms.Form):
    """The rating list's filters (GET): pool, club, city, category, active in the last N months."""

    pool = forms.ChoiceField(label=_("rating pool"), required=False)
    club = forms.ModelChoiceField(label=_("club"), queryset=Club.objects.all(), required=False,
                                  to_field_name="slug", empty_label=_("all clubs"))
    city = forms.CharField(label=_("city"), required=False, max_length=120)
    category = forms.TypedChoiceField(label=_("category"), required=False, coerce=int, empty_value=None,
                                      choices=[("", _("all categories")), *Category.choices])
    months = forms.IntegerField(label=_("active in the last N months"), required=False)
    order = forms.ChoiceField(label=_("order"), required=False,
                              choices=[("-rating", _("rating, highest first")),
                                       ("rating", _("rating, lowest first"))])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        lang = current_language()
        self.fields["pool"].choices = [(p.key, p.name(lang)) for p in POOLS.values()]

    def clean_pool(self):
        return self.cleaned_data.get("pool") or next(iter(POOLS))

    def clean_months(self):
        months = self.cleaned_data.get("months")
        if months is not None and not 1 <= months <= MAX_MONTHS:
            raise problems_to_validation_error([CLUB.problem("bad_months", top=MAX_MONTHS)])
        return months

    def clean_order(self):
        return self.cleaned_data.get("order") or "-rating"
