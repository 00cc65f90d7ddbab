"""The webhook form, shared by the webhooks pages and the API (one set of rules for both)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from . import webhook_transport as transport
from . import webhooks

#: How many deliveries the log shows, on the page and over the API.
LOG_ROWS = 50


class WebhookForm(forms.Form):
    url = forms.URLField(label=gettext_lazy("Receiver URL"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events (none ticked: every event)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["events"].choices = webhooks.event_choices()

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        host = transport.refusal(url)
        if host is not None:
            raise forms.ValidationError(
                gettext_lazy("%(host)s is a local or private address: a webhook reaches public addresses "
                             "only. Give the receiver's public address."),
                code="private_address", params={"host": host})
        return url
