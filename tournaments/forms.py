"""Organiser forms: generate a round, change a draft by hand.

The forms only collect and shape input; every rule (rematches, byes, closed
rounds) is checked by :mod:`tournaments.pairing_manager`, whose refusals the
views attach to the form so the organiser sees them next to what was typed.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Entry, EntryStatus, Round, Section, Tournament


class EntryChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Entry) -> str:
        number = f"№{obj.draw_number} " if obj.draw_number else ""
        return f"{number}{obj.player}"


class EntryMultipleChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Entry) -> str:
        number = f"№{obj.draw_number} " if obj.draw_number else ""
        return f"{number}{obj.player}"


REASON_HELP = _(
    "Only when a rule has to be overridden (open results of the last round, proposed "
    "rematches, rounds beyond the plan). The reason is recorded in the audit log."
)


class GenerateRoundForm(forms.Form):
    """Pair the next round (or the whole schedule) of one section."""

    section = forms.ModelChoiceField(
        label=_("Section"),
        queryset=Section.objects.none(),
        required=False,
        empty_label=_("(no section)"),
    )
    absent = EntryMultipleChoiceField(
        label=_("Absent this round (not paired, no points)"),
        queryset=Entry.objects.none(),
        required=False,
        widget=forms.SelectMultiple(attrs={"size": 6}),
    )
    half_bye = EntryMultipleChoiceField(
        label=_("Requested half-point bye this round"),
        queryset=Entry.objects.none(),
        required=False,
        widget=forms.SelectMultiple(attrs={"size": 6}),
    )
    reason = forms.CharField(
        label=_("Reason for overriding a rule"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=REASON_HELP,
    )
    background = forms.BooleanField(
        label=_("Pair in the background and show progress (large fields)"), required=False
    )

    def __init__(self, tournament: Tournament, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        sections = tournament.sections.all()
        self.fields["section"].queryset = sections
        if sections.exists():
            self.fields["section"].required = True
            self.fields["section"].empty_label = None
        else:
            del self.fields["section"]
        entries = (
            tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
            .select_related("player")
            .order_by("draw_number", "id")
        )
        if tournament.system == "swiss":
            self.fields["absent"].queryset = entries
            self.fields["half_bye"].queryset = entries
        else:
            del self.fields["absent"]
            del self.fields["half_bye"]

    def clean(self):
        data = super().clean()
        absent = set(data.get("absent") or ())
        half = set(data.get("half_bye") or ())
        both = absent & half
        if both:
            names = ", ".join(str(e.player) for e in sorted(both, key=lambda e: e.pk))
            raise forms.ValidationError(
                _("A player cannot be both absent and on a half-point bye: %(names)s."),
                code="absent_and_bye",
                params={"names": names},
            )
        section = data.get("section")
        for e in absent | half:
            if section is not None and e.section_id != section.pk:
                raise forms.ValidationError(
                    _("%(player)s does not play in section %(section)s."),
                    code="wrong_section",
                    params={"player": e.player, "section": section.name},
                )
        return data


class PairingChangeForm(forms.Form):
    """Swap two players between tables, or make two players meet (their partners then meet)."""

    SWAP = "swap"
    FIX = "fix"
    action = forms.ChoiceField(
        label=_("Change"),
        choices=[
            (SWAP, _("Swap these two players between their tables")),
            (FIX, _("Pair these two players with each other")),
        ],
    )
    player_x = EntryChoiceField(label=_("First player"), queryset=Entry.objects.none())
    player_y = EntryChoiceField(label=_("Second player"), queryset=Entry.objects.none())
    reason = forms.CharField(
        label=_("Reason for overriding a rule"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Needed only to accept a rematch or a second bye; it is recorded."),
    )

    def __init__(self, rnd: Round, *args, **kwargs):
        super().__init__(*args, **kwargs)
        seated = rnd.seats.values_list("entry_id", flat=True)
        qs = Entry.objects.filter(pk__in=seated).select_related("player").order_by("draw_number")
        self.fields["player_x"].queryset = qs
        self.fields["player_y"].queryset = qs

    def clean(self):
        data = super().clean()
        x, y = data.get("player_x"), data.get("player_y")
        if x is not None and x == y:
            raise forms.ValidationError(_("Choose two different players."), code="same_player")
        return data
