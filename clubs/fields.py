"""A person's name as a model and a form field: both apply :func:`clubs.names.clean_name`.

The rule lives in :mod:`clubs.names`; these fields are how every way a name comes in
reaches it — a model form, the admin and a page's form clean the typed value (so what
is checked and shown again is what will be stored), and a model save cleans whatever
else wrote the attribute (the import, registration approval, the API, a script).
"""

from __future__ import annotations

from django import forms
from django.db import models

from .names import clean_name


class NameFormField(forms.CharField):
    """A text box for a name: the value is cleaned before it is validated (a name of
    invisible characters only is then empty, and "required" says so)."""

    def to_python(self, value):
        value = super().to_python(value)
        return clean_name(value) if value not in self.empty_values else value


class PersonNameField(models.CharField):
    """A stored name (a player's, an applicant's): cleaned on every save."""

    def pre_save(self, model_instance, add):
        value = clean_name(getattr(model_instance, self.attname) or "")
        setattr(model_instance, self.attname, value)
        return value

    def formfield(self, **kwargs):
        return super().formfield(**{"form_class": NameFormField, **kwargs})
