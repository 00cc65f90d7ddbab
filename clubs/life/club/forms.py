"""Forms of the club pages: members (add, new, end) and the member import.

Every refusal is a coded ``club.*`` problem shown next to its field in the
reader's language; what was typed is kept.
"""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.identity import services as identity
from clubs.models import Club, Membership, Player
from clubs.problems import CLUB
from tournaments.entries.importer import header_names
from zarik.i18n import current_language, problems_to_validation_error

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
        if player and Membership.objects.filter(Membership.current_q(), player=player, club=self.club).exists():
            self.add_error(None, problems_to_validation_error(
                [CLUB.problem("already_member", player=player.display_name(current_language()))]
            ))  # fmt: skip
        return data


class NewMemberForm(forms.ModelForm):
    """A player who is not in the database yet: created and made a member in one go.

    Asks the identity service first (:func:`clubs.identity.services.check_new`): a namesake
    in any alphabet, or the same email, is shown side by side to add instead, unless the
    organiser ticks ``new_person``.
    """

    started_on = forms.DateField(label=_("member since"), initial=_today, widget=DATE)
    new_person = forms.BooleanField(
        required=False, label=_("none of the proposed players: this is a new player"),
    )

    class Meta:
        model = Player
        fields = [
            "last_name", "first_name", "last_name_latin", "first_name_latin", "category", "city", "email",
            "birth_year",
        ]  # fmt: skip

    #: The stored players this person may be (set by :meth:`clean`; the page shows them side by side).
    candidates: list = []

    def clean(self):
        data = super().clean()
        if self.errors or data.get("new_person"):
            return data
        try:
            identity.check_new(identity.person_from_form(data))
        except identity.IdentityUndecided as exc:
            self.candidates = exc.candidates
            raise problems_to_validation_error([exc.problem]) from exc
        return data

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


#: The columns the members import names on its page.
MEMBER_COLUMNS = ("last_name", "first_name", "category", "birth_year", "email")


class MemberImportForm(forms.Form):
    file = forms.FileField(label=_("file"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        own, other = header_names(MEMBER_COLUMNS, current_language())
        self.fields["file"].help_text = _(
            "CSV (UTF-8) or XLSX with a header row: %(own)s (also accepted: %(other)s); every row "
            "becomes a member of this club, a namesake already in the database once you confirm who it is"
        ) % {"own": own, "other": other}


class MergePlayersForm(forms.Form):
    """Two stored players an organiser says are one person (``tournaments.identity.services.merge``)."""

    keep = forms.ModelChoiceField(
        queryset=Player.objects.all(), widget=forms.NumberInput, label=_("player to keep (number)"),
    )
    gone = forms.ModelChoiceField(
        queryset=Player.objects.all(), widget=forms.NumberInput,
        label=_("the same person's second record (number): merged into the first and removed"),
    )  # fmt: skip
    reason = forms.CharField(label=_("why they are one person"), max_length=300, required=False)
