"""Organiser forms: generate a round, change a draft by hand, a tournament's typed options.

The forms only collect and shape input; every rule (rematches, byes, closed
rounds) is checked by :mod:`tournaments.rounds.pairing_manager`, whose refusals the
views attach to the form so the organiser sees them next to what was typed.
"""

from __future__ import annotations

from types import SimpleNamespace

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Category
from scoring.rules.errors import RuleViolation
from tournaments.models import ByeRequest, Entry, EntryStatus, Round, Section, Tournament
from tournaments.pairing.options import (
    SYSTEM_OPTIONS,
    OptionSpec,
    dump_options,
    option_specs,
    parse_options,
)
from tournaments.pairing.problems import PAIRING
from tournaments.standings.order import dump_tiebreaks, parse_tiebreaks
from zarik.i18n import current_language, problems_to_validation_error

from .pairing_manager import SYSTEMS


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
    """Pair the next round (or the whole schedule) of one section.

    Absent players and requested half-point byes are two check-box columns of
    one table of entries (:meth:`entry_rows`; withdrawn entries are never
    listed). When the tournament pairs only players who checked in
    (``check_in_required``), every entry that has not checked in is ticked
    absent to begin with and the table says why; the organiser may untick one.

    A check-in made while the page stood open is not lost (issue 43): the page carries who
    had not checked in when it was drawn (``unchecked``), and a form that still ticks absent
    a player who has checked in since is refused (``pairing.checked_in_since``, naming them)
    and shown again with those players unticked and everything else as typed — one more tap
    pairs them. Refused rather than silently paired: a tick may be the organiser's own
    decision (he knows the player is leaving), so he sees the change before it is made. A
    post without ``unchecked`` (the API: its ``absent`` list is the client's own, sent as it
    pairs) is taken as it is.
    """

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
        widget=forms.CheckboxSelectMultiple,
    )
    half_bye = EntryMultipleChoiceField(
        label=_("Requested half-point bye this round"),
        queryset=Entry.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
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
    unchecked = forms.CharField(required=False, widget=forms.HiddenInput)

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
        self.entries = list(
            tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
            .select_related("player", "section")
            .order_by("section__name", "draw_number", "id")
        )
        if tournament.system == "swiss":
            pks = [e.pk for e in self.entries]
            self.fields["absent"].queryset = Entry.objects.filter(pk__in=pks)
            self.fields["half_bye"].queryset = Entry.objects.filter(pk__in=pks)
            if tournament.check_in_required and not self.is_bound:
                self.initial["absent"] = [e.pk for e in self.entries if not _present(e)]
            self.initial["unchecked"] = _unchecked(self.entries)
            self.requested = _requested_byes(tournament)
        else:
            self.entries = []
            del self.fields["absent"]
            del self.fields["half_bye"]
            del self.fields["unchecked"]

    def _ticked(self, name: str) -> set[str]:
        if self.is_bound:
            return {str(v) for v in self.data.getlist(name)} if hasattr(self.data, "getlist") else set()
        return {str(v) for v in self.initial.get(name, ())}

    def entry_rows(self) -> list[dict]:
        """One row per entry still in the event: the two check boxes, ticked as posted or preset."""
        absent, half = self._ticked("absent"), self._ticked("half_bye")
        check_in = self.tournament.check_in_required
        requested = getattr(self, "requested", set())
        return [
            {
                "entry": e,
                "absent": str(e.pk) in absent,
                "half_bye": str(e.pk) in half,
                "requested": e.pk in requested,
                "not_checked_in": check_in and not _present(e),
            }
            for e in self.entries
        ]

    def clean(self):
        data = super().clean()
        section = data.get("section")
        if section is not None:  # the table lists every section; only the chosen one is paired
            for name in ("absent", "half_bye"):
                if name in data:
                    data[name] = [e for e in data[name] or () if e.section_id == section.pk]
        self._arrived_since(data)
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
        return data

    def _arrived_since(self, data: dict) -> None:
        """Refuse a form that ticks absent a player who checked in after it was drawn; show it
        again with them unticked (see the class's docstring)."""
        if "unchecked" not in self.data or not hasattr(self.data, "getlist"):
            return
        unchecked = set(str(self.data.get("unchecked") or "").split())
        arrived = [e for e in data.get("absent") or () if str(e.pk) in unchecked and _present(e)]
        if not arrived:
            return
        gone = {str(e.pk) for e in arrived}
        posted = self.data.copy()
        posted.setlist("absent", [v for v in self.data.getlist("absent") if v not in gone])
        posted["unchecked"] = _unchecked(self.entries)
        self.data = posted  # drawn again as typed, without the ticks the players' arrival undid
        names = ", ".join(_name(e) for e in sorted(arrived, key=lambda e: (e.draw_number or 0, e.pk)))
        raise problems_to_validation_error([PAIRING.problem("checked_in_since", names=names)])


def _unchecked(entries: list[Entry]) -> str:
    """The entries not checked in as the page is drawn (space-separated ids)."""
    return " ".join(str(e.pk) for e in entries if not _present(e))


def _name(entry: Entry) -> str:
    number = f"№{entry.draw_number} " if entry.draw_number else ""
    return f"{number}{entry.player}"


def _requested_byes(tournament: Tournament) -> set[int]:
    """Entries that asked in advance to sit out their section's next round (the pairing
    gives them the requested bye whatever is ticked; the form only shows it)."""
    last = {
        section: number
        for section, number in tournament.rounds.values_list("section_id", "number").order_by("number")
    }
    return {
        entry_id
        for entry_id, section, number in ByeRequest.objects.filter(entry__tournament=tournament)
        .values_list("entry_id", "entry__section_id", "round_number")
        if number == last.get(section, 0) + 1
    }


def _present(entry: Entry) -> bool:
    return entry.status == EntryStatus.CHECKED_IN


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
    discard_results = forms.BooleanField(
        label=_("Discard results already entered on these tables"),
        required=False,
        help_text=_("Needed when a changed table has a result; give the reason above."),
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


# ---------------------------------------------------------------------------------------------
# typed pairing options and tie-breaks as form fields (admin, the organiser's wizard)
# ---------------------------------------------------------------------------------------------

#: Headings of the options (the options themselves come from the dataclass table).
OPTION_LABELS = {
    "score": _("Score groups by"),
    "first_round": _("First round"),
    "seed_by": _("Seeding by"),
    "bye_points": _("Points for a pairing bye"),
    "half_bye_points": _("Points for a requested bye"),
    "alternate_colours": _("Alternate colours (White/Black)"),
    "allow_rematches": _("Allow rematches when unavoidable"),
    "repair_limit": _("Largest group re-ordered exactly"),
    "cycles": _("Cycles"),
    "swap_last_two_rounds": _("Swap the last two rounds of the first cycle"),
    "random_seed": _("Random seed (random seeding)"),
    "match_lengths": _("Match lengths by round (comma-separated)"),
    "final_length": _("Final's length"),
    "side_length": _("Side brackets' length"),
    "third_place": _("Match for third place"),
    "consolation": _("Consolation bracket"),
    "last_chance": _("Last-chance bracket"),
    "double_elimination": _("Double elimination"),
    "single_grand_final": _("Grand final without a reset"),
    "progressive_consolation": _("Progressive consolation"),
    "club_apart_rounds": _("Same club apart for the first rounds"),
    "late_entry_points": _("Points per missed round for a late entry"),
}


#: What each option means, in the book's words (shown under the field).
OPTION_HELP = {
    "score": _("What makes a score group: match wins, or game points scored."),
    "first_round": _(
        "Round 1: neighbours by number meet (1 and 2, 3 and 4, … as the book says), "
        "or the top half meets the bottom half."
    ),
    "seed_by": _("How players are placed: by draw number, by rating (in a cup also at random)."),
    "bye_points": _("Points for the free round a player gets when the number of players is odd."),
    "half_bye_points": _("Points for a free round the player asked for in advance."),
    "alternate_colours": _("Each player gets White and Black in turn (long nardy by games)."),
    "allow_rematches": _("When no other pairing exists, two players may meet a second time."),
    "repair_limit": _("Technical: the largest score group the pairing re-orders exactly."),
    "cycles": _(
        "How many times everyone meets everyone; the book: 2 or more cycles reduce chance."
    ),
    "swap_last_two_rounds": _(
        "Swap the last two rounds of the first cycle, so nobody has the same colour three "
        "times at the seam of the cycles."
    ),
    "random_seed": _("The seed of a random bracket, published so anyone can repeat the draw."),
    "match_lengths": _(
        "Match length of each round of the main bracket, comma-separated; the last value "
        "repeats; empty: every round is played to the event's match length."
    ),
    "final_length": _("Length of the final; empty: as the last round."),
    "side_length": _(
        "Length of the consolation, last-chance and losers' bracket matches; empty: as the "
        "main bracket."
    ),
    "third_place": _("The losers of the semi-finals play for third place."),
    "consolation": _("Players knocked out of the main bracket go on in a consolation bracket."),
    "last_chance": _(
        "Players knocked out of the consolation bracket get a last chance; needs the "
        "consolation bracket."
    ),
    "double_elimination": _(
        "A player leaves only after a second loss; not together with a consolation bracket."
    ),
    "single_grand_final": _(
        "Double elimination: by default, if the losers' bracket winner wins the grand final it "
        "is played again, so the winners' bracket finalist also leaves only after a second "
        "loss; tick to play the grand final once."
    ),
    "progressive_consolation": _(
        "The losers of each main round (the final excepted) enter a consolation draw at their "
        "level: first-round losers play each other, their winners meet the second-round losers, "
        "and so on."
    ),
    "club_apart_rounds": _(
        "Players of the same club do not meet in rounds 1 to K (0: no such rule); the "
        "director's forbidden pairs apply in every round."
    ),
    "late_entry_points": _(
        "A late entry is credited with these points for each round played before they joined "
        "(0 by default; 0.5 gives half a point per missed round)."
    ),
}

#: Names of the options' choice values (the stored values stay the core's keys).
OPTION_CHOICE_LABELS = {
    "match_wins": _("Match wins"),
    "game_points": _("Game points"),
    "adjacent": _("Neighbours by number (1–2, 3–4, …)"),
    "top_vs_bottom": _("Top half against bottom half"),
    "draw_number": _("Draw number"),
    "rating": _("Rating"),
    "random": _("At random"),
}

#: The tournament's own fields explained in the book's words (the model keeps short help).
TOURNAMENT_HELP = {
    "slug": _("The tournament's address, /t/<slug>/: Latin letters, digits and hyphens."),
    "variant": _(
        "The game played: backgammon, short nardy (trictrac), long nardy or one of their "
        "relatives; every game is checked by its rules."
    ),
    "scoring": _(
        "What a game is worth: backgammon 1-2-3 (single game, gammon, backgammon), trictrac "
        "1-2-4-8, long nardy oyun 1, mars 2, koks 3, or oyun and mars only."
    ),
    "system": _(
        "Swiss: the loser stays in and equal scores meet; round robin: everyone meets everyone; "
        "cup: the loser leaves at once; Scheveningen: each player of one team meets each "
        "player of the other."
    ),
    "match_format": _(
        "A match to N points, or a match of a fixed number of games (usual in long nardy)."
    ),
    "match_length": _("N: the first player to reach N points wins the match."),
    "fixed_games": _("For a match of a fixed number of games: how many games are played."),
    "cube": _("The doubling cube: before rolling a player may offer a double (davé)."),
    "crawford": _(
        "In the game after a player first comes within one point of winning the match, "
        "nobody may double (the Crawford game)."
    ),
    "holland": _(
        "In post-Crawford games the trailer may double only after both players have made two "
        "moves each; needs the Crawford rule."
    ),
    "jacoby": _(
        "Gammons count only after the cube was turned: money play only, never in matches."
    ),
    "beaver": _("The player who is doubled may at once redouble and keep the cube."),
    "raccoon": _("The doubler may answer a beaver with one more redouble; needs the beaver."),
    "autodouble_limit": _(
        "How many automatic doubles (equal dice at the opening roll) a game may have; 0: none. "
        "Needs the cube."
    ),
    "max_cube": _("The highest value the cube may reach: 2, 4, 8, … 64."),
    "draw_value": _(
        "Equal-moves rule: a drawn game gives each player 1 point (1:1, as in Perm) or ½; "
        "only in matches of a fixed number of games."
    ),
    "rounds_planned": _(
        "How many rounds the event will have; the book: 10–13 Swiss rounds are enough for "
        "more than 20 players."
    ),
    "time_control": _("Anything else about time, as announced in the programme (free text)."),
    "move_seconds": _(
        "The book (Part 9): a reasonable limit, usually 30, 35, 40 or 45 seconds a move, no more; "
        "shown on score sheets and pairings."
    ),
    "clock_minutes_per_point": _(
        "When the director installs clocks: each player's time is this many minutes times the "
        "match length (points, or games); empty: no clocks."
    ),
    "clock_delay_seconds": _("Seconds each move may take before the clock runs (delay); 0: none."),
    "clock_increment_seconds": _("Seconds added after each move (increment); a clock has a delay or an increment, not both."),
    "late_penalty_minutes": _("One penalty point goes to the opponent for every N whole minutes late; the match starts from that score."),
    "late_forfeit_minutes": _("A player this many minutes late loses the match by forfeit."),
    "forfeit_score": _(
        "The score a forfeit gets: the whole match to the winner (e.g. 5:0; in a fixed-games "
        "match every unplayed game as a single game won), or the points already played."
    ),
}


def option_field_name(system: str, option: str) -> str:
    return f"{system}__{option}"


def _option_field(spec: OptionSpec) -> forms.Field:
    common = {
        "label": OPTION_LABELS.get(spec.name, spec.name),
        "help_text": OPTION_HELP.get(spec.name, ""),
        "required": False,
    }
    if spec.kind == "boolean":
        return forms.BooleanField(initial=spec.default, **common)
    if spec.kind == "choice":
        return forms.ChoiceField(
            initial=spec.default,
            choices=[(c, OPTION_CHOICE_LABELS.get(c, c)) for c in spec.choices],
            **common,
        )
    if spec.kind in ("integer", "optional_integer"):
        return forms.IntegerField(initial=spec.default, min_value=spec.minimum, **common)
    if spec.kind == "number":
        return forms.FloatField(initial=spec.default, min_value=0, **common)
    if spec.kind == "lengths":  # empty: the event's match length (knockout_defaults)
        return forms.CharField(initial="", **common)
    return forms.CharField(initial=spec.default, **common)


def option_fields(*systems: str) -> dict[str, forms.Field]:
    """One form field per option of ``systems`` (default: every system), ``<system>__<option>``."""
    return {
        option_field_name(system, spec.name): _option_field(spec)
        for system in systems or SYSTEM_OPTIONS
        for spec in option_specs(system)
    }


def option_field_names(system: str) -> list[str]:
    """The names of ``system``'s option fields, in the dataclass's order."""
    return [option_field_name(system, spec.name) for spec in option_specs(system)]


def _json_value(spec: OptionSpec, value):
    """A cleaned form value as the options JSON holds it (None: leave it to the default)."""
    if value in (None, "") and spec.kind != "boolean":
        return None
    if spec.kind == "lengths":
        parts = [p.strip() for p in str(value).replace(";", ",").split(",") if p.strip()]
        return [int(p) if p.isdigit() else p for p in parts]
    if spec.kind == "text_or_integer":
        return int(value) if str(value).isdigit() else value
    return value


class PairingOptionsMixin:
    """Reads the ``<system>__<option>`` fields of the chosen system into pairing-options JSON."""

    def initial_options(self, system: str, stored, defaults: dict | None = None) -> dict:
        """Initial field values from the stored JSON of ``system`` (others keep defaults).

        ``defaults`` are the tournament's own (``SYSTEMS[system].defaults``), so a field
        shows what the pairing will really use where the JSON says nothing.
        """
        out = {}
        try:
            options = parse_options(system, stored, defaults)
        except RuleViolation:
            return out
        json_key = SYSTEM_OPTIONS[system].json_key
        own = (stored or {}).get(json_key) or {} if json_key else stored or {}
        for spec in option_specs(system):
            value = getattr(options, spec.name)
            if spec.kind == "lengths":
                # Lengths the JSON does not give follow the event's match length: shown empty,
                # so changing the match length later is not undone by this field (issue 43).
                value = ", ".join(str(n) for n in value) if spec.name in own else ""
            out[option_field_name(system, spec.name)] = value
        return out

    def options_json(self, system: str, defaults: dict) -> dict | None:
        """The chosen system's options as JSON, or None after adding the problems to fields."""
        row = SYSTEM_OPTIONS[system]
        raw = {}
        for spec in option_specs(system):
            value = _json_value(spec, self.cleaned_data.get(option_field_name(system, spec.name)))
            if value is not None:
                raw[spec.name] = value
        stored = {row.json_key: raw} if row.json_key else raw
        try:
            options = parse_options(system, stored, defaults)
        except RuleViolation as exc:
            for p in exc.problems:
                option = p.details.get("option")
                name = option_field_name(system, option) if option else None
                self.add_error(name if name in self.fields else None, p.message(current_language()))
            return None
        return dump_options(system, options, defaults)


class PairingOptionsForm(PairingOptionsMixin, forms.Form):
    """A system's pairing options, one field per option (the creation wizard's step)."""

    def __init__(self, system: str, *args, stored=None, defaults=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.system = system
        self.defaults = dict(defaults or {})
        self.fields.update(option_fields(system))
        self.initial.update(self.initial_options(system, stored))

    def clean(self):
        data = super().clean()
        self.pairing_options = self.options_json(self.system, self.defaults)
        return data


class TiebreaksField(forms.CharField):
    """The tie-break order as text ("wins, buchholz, points"), stored as a list of keys."""

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return ", ".join(value)
        return value

    def to_python(self, value):
        text = super().to_python(value) or ""
        keys = [k.strip() for k in text.split(",") if k.strip()]
        try:
            return dump_tiebreaks(parse_tiebreaks(keys))
        except RuleViolation as exc:
            raise problems_to_validation_error(exc.problems) from exc


class TournamentOptionsForm(PairingOptionsMixin, forms.ModelForm):
    """The tournament with its pairing options as form fields and the tie-breaks as text.

    The raw JSON of ``pairing_options`` is never shown: the chosen system's
    fields are read, checked by the typed options and written back as JSON.
    """

    tiebreaks = TiebreaksField(
        label=_("Tie-breaks"),
        required=False,
        help_text=_("metric keys in order, comma-separated; empty: the system's default"),
    )
    registration_categories = forms.TypedMultipleChoiceField(
        label=_("Categories allowed to register"),
        choices=Category.choices,
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("none ticked: all categories"),
    )

    class Meta:
        model = Tournament
        fields = [  # everything but the raw pairing_options JSON
            f.name
            for f in Tournament._meta.get_fields()
            if f.concrete and f.editable and not f.auto_created and f.name != "pairing_options"
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, text in TOURNAMENT_HELP.items():
            if name in self.fields:
                self.fields[name].help_text = text
        if self.instance.pk or self.instance.pairing_options:
            system = self.instance.system
            self.initial.update(
                self.initial_options(
                    system, self.instance.pairing_options, SYSTEMS[system].defaults(self.instance)
                )
            )

    def clean(self):
        data = super().clean()
        system = data.get("system") or self.instance.system
        context = SimpleNamespace(
            variant=data.get("variant", self.instance.variant),
            match_format=data.get("match_format", self.instance.match_format),
            match_length=data.get("match_length", self.instance.match_length),
        )
        options = self.options_json(system, SYSTEMS[system].defaults(context))
        if options is not None:
            self.instance.pairing_options = options
        return data


_OPTION_FIELDS = option_fields()
TournamentOptionsForm.base_fields.update(_OPTION_FIELDS)
TournamentOptionsForm.declared_fields.update(_OPTION_FIELDS)
