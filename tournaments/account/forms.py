"""The account's name: family and given name, in any alphabet (shown by :mod:`tournaments.account.people`)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from clubs.names import clean_name


class AccountNameForm(forms.ModelForm):
    """The two name fields of Django's user, labelled for people, not for logins."""

    class Meta:
        model = get_user_model()
        fields = ["last_name", "first_name"]
        labels = {"last_name": _("Family name"), "first_name": _("Given name")}
        help_texts = {
            "last_name": _("As the players and officials at the tables know you, in any alphabet."),
            "first_name": "",
        }

    def clean(self):
        data = super().clean()
        for key in ("last_name", "first_name"):
            data[key] = clean_name(data.get(key) or "")  # the one rule for names (clubs.names)
        if not data.get("last_name") and data.get("first_name"):
            self.add_error("last_name", _("Write the family name too: a given name alone tells people apart badly."))
        return data
