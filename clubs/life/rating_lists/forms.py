"""The rating list's filter form; its bounds are the list's own (:mod:`clubs.rating_lists`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Category, Club
from clubs.problems import CLUB
from clubs.rating_lists import MAX_MONTHS
from clubs.ratings.pools import POOLS
from zarik.i18n import current_language, problems_to_validation_error


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
