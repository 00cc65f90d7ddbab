"""Forms of self-registration: the public application and the organiser's registration options.

The rules (closed, deadline, categories, limit) live in :mod:`.registration`;
the form asks it, so the page and any other caller refuse for the same reasons
with the same coded, bilingual messages.
"""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.fields import NameFormField
from clubs.models import Category
from tournaments.models import Tournament

from .services import category_refusal

CYRILLIC = re.compile(r"[\u0400-\u04FF]")


def _latin(value: str) -> str:
    value = (value or "").strip()
    if CYRILLIC.search(value):
        raise forms.ValidationError(_("Use Latin letters here (the Cyrillic name goes above)."))
    return value


class DecimalCommaField(forms.FloatField):
    """A number typed either way: "1612,5" (a Russian keyboard's decimal comma) is 1612.5.

    A text box with ``inputmode="decimal"``, not ``type=number``: a browser's number box
    in a Russian locale dropped the comma and sent 16125 (issue 36). Spaces between
    thousands ("1 612,5") are ignored.
    """

    widget = forms.TextInput

    def to_python(self, value):
        if isinstance(value, str):
            value = re.sub(r"[\s\u00a0]", "", value)
            if value.count(",") == 1 and "." not in value:
                value = value.replace(",", ".")
        return super().to_python(value)

    def widget_attrs(self, widget):
        return {**super().widget_attrs(widget), "inputmode": "decimal"}


class RegistrationForm(forms.Form):
    """What an applicant types: names, email, club, category, rating."""

    last_name = NameFormField(label=_("Last name"), max_length=100)
    first_name = NameFormField(label=_("First name"), max_length=100)
    last_name_latin = NameFormField(
        label=_("Last name in Latin letters"), max_length=100, required=False,
        help_text=_("optional, as in your passport or on international lists"),
    )
    first_name_latin = NameFormField(
        label=_("First name in Latin letters"), max_length=100, required=False
    )
    email = forms.EmailField(
        label=_("Email"), help_text=_("we send the confirmation and your private link here")
    )
    club_name = forms.CharField(label=_("Club"), max_length=200, required=False)
    category = forms.TypedChoiceField(
        label=_("Category"), choices=Category.choices, coerce=int, initial=Category.BEGINNER,
        help_text=_("your category by the book's table (1 · Beginner … 9 · Grandmaster)"),
    )
    rating = DecimalCommaField(
        label=_("Rating"), required=False, min_value=0, max_value=4000,
        help_text=_("optional: your FIBS-style rating"),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        self.tournament = tournament
        super().__init__(*args, **kwargs)
        self.fields["last_name"].widget.attrs.update(autocomplete="family-name")
        self.fields["first_name"].widget.attrs.update(autocomplete="given-name")
        self.fields["email"].widget.attrs.update(autocomplete="email")
        allowed = tournament.registration_categories or []
        if allowed:
            labels = dict(Category.choices)
            names = ", ".join(str(labels.get(int(c), c)) for c in sorted(allowed))
            self.fields["category"].help_text = _("categories allowed: %(names)s") % {"names": names}

    def clean_last_name_latin(self):
        return _latin(self.cleaned_data.get("last_name_latin"))

    def clean_first_name_latin(self):
        return _latin(self.cleaned_data.get("first_name_latin"))

    def clean_category(self):
        category = self.cleaned_data["category"]
        problem = category_refusal(self.tournament, category)  # also while closed: the applicant's page
        if problem is not None:
            raise forms.ValidationError(problem.message, code=problem.problem.code)
        return category


class RegistrationOptionsForm(forms.ModelForm):
    """The organiser's options of self-registration."""

    registration_categories = forms.TypedMultipleChoiceField(
        label=_("Categories allowed to register"), choices=Category.choices, coerce=int,
        required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("none ticked: every category may register"),
    )

    class Meta:
        model = Tournament
        fields = [
            "registration_open",
            "registration_deadline",
            "entry_limit",
            "registration_categories",
            "registration_approval",
        ]
        widgets = {
            "registration_deadline": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registration_deadline"].input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
        self.fields["registration_deadline"].help_text = _("empty: until the organiser closes it")
