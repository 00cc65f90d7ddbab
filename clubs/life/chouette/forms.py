"""Forms of the chouette pages: a new session, and one game entered from the table.

Refusals are the core's ``chouette.*`` problems (RU/EN) shown on the form; what was
typed is kept.
"""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import ChouetteSession, Club
from scoring.rules import chouette as core
from scoring.rules.errors import RuleViolation
from zarik.i18n import problems_to_validation_error

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
KIND_CHOICES = [
    ("single", _("single game")),
    ("gammon", _("gammon")),
    ("backgammon", _("backgammon")),
]
CUBE_CHOICES = [(v, str(v)) for v in core.CUBE_VALUES]


class SessionForm(forms.ModelForm):
    """A new session: its name, date, cube rule, stake and the players in the order of the draw."""

    player_names = forms.CharField(
        label=_("players in the order of the draw"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One name a line: the box (highest die) first, then the captain, then the queue."),
    )

    class Meta:
        model = ChouetteSession
        fields = ["name", "played_on", "cube_mode", "stake"]
        widgets = {"played_on": DATE}

    def __init__(self, club: Club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.club = club
        self.fields["played_on"].initial = timezone.localdate
        self.order_fields(["name", "played_on", "player_names", "cube_mode", "stake"])

    def clean_player_names(self):
        names = [line.strip() for line in self.cleaned_data["player_names"].splitlines() if line.strip()]
        try:
            core.start(names)
        except RuleViolation as exc:
            raise problems_to_validation_error(exc.problems) from None
        return names

    def save(self, commit: bool = True):
        self.instance.players = self.cleaned_data["player_names"]
        return super().save(commit)


class GameForm(forms.Form):
    """One game: box and captain (proposed by the rotation), the result, each member's cube and pass.

    Rows exist for every player; the box's row is ignored (the box has no cube of its own
    to enter), so a box chosen out of order is refused by the core with the expected seats.
    """

    box = forms.ChoiceField(label=_("box"))
    captain = forms.ChoiceField(label=_("captain"))
    winner = forms.ChoiceField(
        label=_("won the game"), choices=[("box", _("the box")), ("team", _("the team"))],
        widget=forms.RadioSelect,
    )  # fmt: skip
    kind = forms.ChoiceField(label=_("result"), choices=KIND_CHOICES, initial="single")

    def __init__(self, session: ChouetteSession, lineup: core.Lineup, number: int, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session
        self.lineup = lineup
        self.number = number
        choices = [(p, p) for p in session.players]
        self.fields["box"].choices = choices
        self.fields["captain"].choices = choices
        self.fields["box"].initial = lineup.box
        self.fields["captain"].initial = lineup.captain
        self.rows = []
        for index, player in enumerate(session.players):
            cube = forms.TypedChoiceField(
                label=_("cube of %(player)s") % {"player": player}, choices=CUBE_CHOICES,
                coerce=int, initial=1, required=False, empty_value=1,
            )  # fmt: skip  (the box's row is not shown, so it may be missing)
            passed = forms.BooleanField(
                label=_("%(player)s passed the double") % {"player": player}, required=False
            )
            self.fields[f"cube_{index}"] = cube
            self.fields[f"passed_{index}"] = passed
            self.rows.append((player, f"cube_{index}", f"passed_{index}"))

    def member_rows(self):
        """(player, cube field, passed field) for the current team, in seat order (the template)."""
        order = {p: n for n, p in enumerate(self.lineup.team)}
        rows = [r for r in self.rows if r[0] in order]
        rows.sort(key=lambda r: order[r[0]])
        return [(player, self[cube], self[passed]) for player, cube, passed in rows]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        box = data["box"]
        members = tuple(
            core.Member(player, data[cube], data[passed])
            for player, cube, passed in self.rows
            if player != box
        )
        game = core.Game(box, data["captain"], members, data["winner"], data["kind"])
        try:
            core.settle(self.lineup, game, self.session.cube_mode, number=self.number)  # type: ignore[arg-type]
        except RuleViolation as exc:
            raise problems_to_validation_error(exc.problems) from None
        data["game"] = game
        return data
