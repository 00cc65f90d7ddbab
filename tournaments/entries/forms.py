"""Forms of the entries desk, the import and the team sheet (all server-rendered, RU and EN)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.identity import services as identity
from clubs.models import Club, Player
from tournaments.models import Entry, Section, Team, TeamMember, Tournament
from zarik.i18n import current_language, problems_to_validation_error

from .importer import header_names
from .problems import ENTRY


def _sections(tournament: Tournament, field: forms.ModelChoiceField) -> None:
    field.queryset = Section.objects.filter(tournament=tournament)
    field.empty_label = _("by category (or none)")


class AddPlayerForm(forms.Form):
    """Enter a stored player found by the search."""

    player = forms.ModelChoiceField(queryset=Player.objects.all(), widget=forms.HiddenInput)
    section = forms.ModelChoiceField(queryset=Section.objects.none(), required=False, label=_("section"))

    def __init__(self, tournament: Tournament, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _sections(tournament, self.fields["section"])


class NewPlayerForm(forms.ModelForm):
    """A player who is not in the database yet: created and entered in one go.

    The identity service is asked first (:mod:`clubs.identity`): when the name (any
    alphabet, any order) or the email matches stored players, the form is refused with
    them as ``candidates`` — enter one of them, or tick ``new_person`` ("none of these").
    """

    club = forms.ModelChoiceField(queryset=Club.objects.all(), required=False, label=_("club"))
    section = forms.ModelChoiceField(queryset=Section.objects.none(), required=False, label=_("section"))
    new_person = forms.BooleanField(
        required=False, label=_("none of the proposed players: this is a new player"),
    )

    class Meta:
        model = Player
        fields = [
            "last_name", "first_name", "last_name_latin", "first_name_latin", "category", "rating", "email",
            "birth_year",
        ]  # fmt: skip

    def __init__(self, tournament: Tournament, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _sections(tournament, self.fields["section"])
        self.fields["rating"].required = False
        self.fields["rating"].initial = None
        self.fields["last_name"].widget.attrs["autocomplete"] = "off"

    def clean_rating(self):
        rating = self.cleaned_data.get("rating")
        return Player._meta.get_field("rating").default if rating is None else rating

    #: The stored players this person may be (set by :meth:`clean`; the page shows them side by side).
    candidates: list = []

    def clean(self):
        data = super().clean()
        if self.errors or data.get("new_person"):
            return data
        club = data.get("club")
        try:
            identity.check_new(identity.person_from_form(data, frozenset({club.pk}) if club else frozenset()))
        except identity.IdentityUndecided as exc:
            self.candidates = exc.candidates
            raise problems_to_validation_error([exc.problem]) from exc
        return data


#: The columns the entries import names on its page (it reads a few more: the Latin spellings).
IMPORT_COLUMNS = ("last_name", "first_name", "club", "category", "rating", "birth_year", "email")


class ImportForm(forms.Form):
    file = forms.FileField(label=_("file"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        own, other = header_names(IMPORT_COLUMNS, current_language())
        self.fields["file"].help_text = _(
            "CSV (UTF-8) or XLSX with a header row: %(own)s (also accepted: %(other)s); "
            "or a FIDE TRF-16 file"
        ) % {"own": own, "other": other}


class TeamForm(forms.ModelForm):
    class Meta:
        model = Team
        fields = ["name", "club"]

    def __init__(self, tournament: Tournament, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.tournament = tournament

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        taken = Team.objects.filter(tournament=self.instance.tournament).values_list("name", flat=True)
        if name.casefold() in {t.casefold() for t in taken}:  # SQLite's iexact ignores Cyrillic case
            raise problems_to_validation_error([ENTRY.problem("team_name_taken", team=name)])
        return name


class TeamMemberForm(forms.Form):
    """Put an entry on a board of a team (moving it from any other team)."""

    team = forms.ModelChoiceField(queryset=Team.objects.none(), label=_("team"))
    entry = forms.ModelChoiceField(queryset=Entry.objects.none(), label=_("player"))
    board = forms.IntegerField(min_value=1, max_value=99, label=_("board"))

    def __init__(self, tournament: Tournament, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.filter(tournament=tournament)
        self.fields["entry"].queryset = Entry.objects.filter(tournament=tournament).select_related("player")
        self.fields["entry"].label_from_instance = lambda e: e.player.full_name

    def clean(self):
        data = super().clean()
        team, entry, board = data.get("team"), data.get("entry"), data.get("board")
        if team and entry and board:
            taken = (
                TeamMember.objects.filter(team=team, board=board)
                .exclude(entry=entry)
                .select_related("entry__player")
                .first()
            )
            if taken:
                problem = ENTRY.problem("team_board_taken", board=board, who=taken.entry.player.full_name)
                raise problems_to_validation_error([problem], "board")
        return data
