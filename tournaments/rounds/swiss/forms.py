"""Forms of the director's Swiss options page (validation of values is the services')."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, EntryStatus, Section, Tournament
from tournaments.rounds.forms import EntryChoiceField
from tournaments.rounds.swiss.requests import CRITERION, LOT, PLAYOFF

#: The decisions of a place shared at the cut, as the form offers them.
TIE_CHOICES = [
    (PLAYOFF, _("a play-off match among the tied players")),
    (LOT, _("a lot")),
    (CRITERION, _("a criterion I state")),
]


def _entries(tournament: Tournament):
    return (
        tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
        .select_related("player")
        .order_by("draw_number", "player__last_name")
    )


class ForbidPairForm(forms.Form):
    """Pick two entries that must not be paired (e.g. a family)."""

    entry_a = EntryChoiceField(label=_("First player"), queryset=Entry.objects.none())
    entry_b = EntryChoiceField(label=_("Second player"), queryset=Entry.objects.none())
    reason = forms.CharField(
        label=_("Reason"), required=False, max_length=200,
        help_text=_("Shown to the director in the pairing explanation, e.g. “brothers”."),
    )

    def __init__(self, tournament: Tournament, *args, **kwargs):
        kwargs.setdefault("prefix", "forbid")
        super().__init__(*args, **kwargs)
        for name in ("entry_a", "entry_b"):
            self.fields[name].queryset = _entries(tournament)


class ByeRequestForm(forms.Form):
    """A player asks to sit out a round that is not paired yet."""

    entry = EntryChoiceField(label=_("Player"), queryset=Entry.objects.none())
    round_number = forms.IntegerField(label=_("Round"), min_value=1, max_value=999)

    def __init__(self, tournament: Tournament, *args, **kwargs):
        kwargs.setdefault("prefix", "bye")
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = _entries(tournament)


class OwnByeRequestForm(forms.Form):
    """The player's own request, on their private page."""

    round_number = forms.IntegerField(label=_("Round to sit out"), min_value=1, max_value=999)


class QualifyForm(forms.Form):
    """The top N of a Swiss section's standings into a new knockout cup."""

    section = forms.ModelChoiceField(
        label=_("Section"), queryset=Section.objects.none(), required=False,
        empty_label=_("the whole tournament"),
    )
    top = forms.IntegerField(label=_("Qualifiers (top N of the standings)"), min_value=2, initial=8)
    name = forms.CharField(label=_("Name of the cup"), max_length=200)
    slug = forms.SlugField(label=_("Address of the cup (slug)"), max_length=80)
    double_elimination = forms.BooleanField(label=_("Double elimination"), required=False)
    progressive_consolation = forms.BooleanField(label=_("Progressive consolation"), required=False)
    reason = forms.CharField(
        label=_("Reason to qualify before the Swiss is over"), max_length=500, required=False,
        help_text=_("Only when the Swiss is not over: it is recorded in the audit log."),
    )
    tie_decision = forms.ChoiceField(
        label=_("A place shared at the cut is decided by"), required=False,
        choices=[("", _("— (no shared place at the cut)")), *TIE_CHOICES],
        help_text=_(
            "When the tie-breaks leave a place shared across the cut: a play-off match among the "
            "tied players (drawn as a small cup; qualify again when it is over), a lot drawn here, "
            "or a criterion you state with the players it puts through. Recorded in the audit log."
        ),
    )
    tie_chosen = forms.ModelMultipleChoiceField(
        label=_("Players the criterion puts through"), queryset=Entry.objects.none(), required=False,
    )
    tie_note = forms.CharField(
        label=_("The criterion"), max_length=500, required=False,
        help_text=_("E.g. “the higher rating”: recorded with the decision."),
    )

    def __init__(self, tournament: Tournament, *args, **kwargs):
        kwargs.setdefault("prefix", "qualify")
        super().__init__(*args, **kwargs)
        self.fields["section"].queryset = tournament.sections.order_by("order", "name")
        self.fields["tie_chosen"].queryset = _entries(tournament)
        if not self.is_bound:
            self.initial.setdefault("name", f"{tournament.name}: {_('cup')}")
            self.initial.setdefault("slug", f"{tournament.slug}-cup"[:80])

    def offer_tie(self, entry_ids) -> None:
        """After a tie refusal: the criterion's choice narrowed to the tied players."""
        self.fields["tie_chosen"].queryset = self.fields["tie_chosen"].queryset.filter(pk__in=entry_ids)

    def qualify_args(self) -> dict:
        """The valid form as :func:`tournaments.rounds.swiss.requests.qualify_to_knockout`'s arguments
        (the page and the API pass the same ones)."""
        d = self.cleaned_data
        knockout = {k: True for k in ("double_elimination", "progressive_consolation") if d[k]}
        return {"section": d["section"], "top": d["top"], "name": d["name"], "slug": d["slug"],
                "knockout": knockout, "reason": d.get("reason") or "",
                "tie_decision": d.get("tie_decision") or "",
                "tie_chosen": [e.pk for e in d.get("tie_chosen") or ()],
                "tie_note": d.get("tie_note") or ""}  # fmt: skip
