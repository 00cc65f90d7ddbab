"""Forms of the organiser's setup pages: the wizard's options, sections, officials, club roles.

The options form is :class:`tournaments.rounds.forms.TournamentOptionsForm` (one field
per option, pairing options typed by the core) grouped into fieldsets, with the
tie-break order picked from the metric registry instead of typed as text. All
validation is the core's (``Tournament.clean`` → ``tournament_problems``,
``options_problems``, ``parse_tiebreaks``); a contradiction found there is moved
onto the field it is about (:data:`PROBLEM_FIELDS`), so the organiser sees it
next to what they typed.
"""

from __future__ import annotations

import iuliia
from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS
from django.db.models import Max
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.models import ClubRoleKind
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.variants import get_variant
from tournaments.models import CompetitionSystem, OfficialRole, Section, Tournament, Variant
from tournaments.pairing.options import SYSTEM_OPTIONS
from tournaments.rounds.forms import TournamentOptionsForm, option_field_names
from tournaments.standings.metrics import all_metrics
from tournaments.standings.order import (
    TiebreakOrder,
    dump_tiebreaks,
    main_score_first,
    parse_tiebreaks,
)
from zarik.i18n import current_language

from .problems import SETUP
from .services import section_in_use

#: The form's fields by group, in the order the page shows them (issue 44's groups: Event ·
#: Match · Pairing · Tie-breaks · Time and forfeits · Registration · Prizes). The chosen system's
#: pairing options and the tie-break order follow "pairing" (:meth:`SetupOptionsForm.fieldsets`).
FIELDSETS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("event", pgettext_lazy("options group", "Event"), ("name", "slug", "starts_on", "ends_on", "venue", "public")),
    ("match", pgettext_lazy("options group", "Match"),
     ("variant", "scoring", "match_format", "match_length", "fixed_games", "draw_value",
      "cube", "crawford", "holland", "jacoby", "beaver", "raccoon", "autodouble_limit", "max_cube")),
    ("pairing", pgettext_lazy("options group", "Pairing"), ("system", "rounds_planned", "seeding", "check_in_required", "rated")),
    ("time", pgettext_lazy("options group", "Time and forfeits"),
     ("time_control", "move_seconds", "clock_minutes_per_point", "clock_delay_seconds",
      "clock_increment_seconds", "late_penalty_minutes", "late_forfeit_minutes", "forfeit_score",
      "penalty_from", "dispute_window")),
    ("registration", pgettext_lazy("options group", "Registration"),
     ("registration_open", "registration_deadline", "entry_limit", "registration_categories",
      "registration_approval")),
    ("prizes", pgettext_lazy("options group", "Prizes"), ("entry_fee",)),
)  # fmt: skip

#: What every event needs: the wizard's first step asks these (with the preset), the rest of the
#: options wait in closed groups (issue 44: step 2 was 7,613 px tall on a phone).
ESSENTIALS = ("name", "starts_on", "ends_on", "variant", "system", "match_length")

#: Fields that do not apply to what else was chosen: the pages hide them (``setup.css``, by the
#: same conditions) and the summary leaves them out.
CUBE_RULES = ("crawford", "holland", "jacoby", "beaver", "raccoon", "autodouble_limit", "max_cube")


def inapplicable(data) -> set[str]:
    """The fields that say nothing for these values: a match to N points has no number of games
    nor a drawn game's value; a fixed number of games has no length in points, no Crawford and no
    Holland rule; without the cube, no cube rules."""
    out: set[str] = set()
    if data.get("match_format") == "points":
        out |= {"fixed_games", "draw_value"}
    elif data.get("match_format") == "games":
        out |= {"match_length", "crawford", "holland"}
    if not data.get("cube"):
        out |= set(CUBE_RULES)
    return out


#: The groups the settings page opens at first (the event and its pairing: 1,802 px at 390 px);
#: the wizard's options step opens none (its first step asked the essentials). A group holding
#: an error is always open.
OPEN_GROUPS = frozenset({"event", "pairing"})

#: Core problem codes → the field they are about (the rest stay above the form).
PROBLEM_FIELDS = {
    "match.jacoby_in_match": "jacoby",
    "match.holland_needs_crawford": "holland",
    "match.bad_draw_value": "draw_value",
    "match.draw_needs_fixed_games": "draw_value",
    "match.bad_format": "match_length",
    "match.bad_length": "match_length",
    "match.bad_fixed_games": "fixed_games",
    "match.bad_scoring": "scoring",
    "match.bad_max_cube": "max_cube",
    "match.move_limit_range": "move_seconds",
    "match.bad_clock": "clock_minutes_per_point",
    "match.delay_and_increment": "clock_increment_seconds",
    "match.clock_bonus_without_clock": "clock_minutes_per_point",
    "match.bad_late_rule": "late_forfeit_minutes",
    "match.raccoon_needs_beaver": "raccoon",
    "match.bad_autodouble_limit": "autodouble_limit",
    "match.autodouble_in_dave": "autodouble_limit",
    "match.autodoubles_without_cube": "autodouble_limit",
}

#: Options that shape played rounds: frozen once round 1 exists.
LOCKED_AFTER_ROUND_ONE = ("system", "variant", "match_format")

TIEBREAK_PREFIX = "tb__"


def tiebreak_field(key: str) -> str:
    return f"{TIEBREAK_PREFIX}{key}"


def tiebreak_order_field(key: str) -> str:
    return f"{TIEBREAK_PREFIX}{key}__order"


class TiebreakPickerMixin:
    """The tie-break order as a checkbox and a position per metric of the registry.

    Works without JavaScript: tick the criteria, number them; unnumbered ones follow
    the numbered, in the registry's order. Nothing ticked: the system's default.
    """

    def add_tiebreak_fields(self, stored) -> None:
        try:
            chosen = list(parse_tiebreaks(stored).keys)
        except RuleViolation:
            chosen = []
        lang = current_language()
        for metric in all_metrics():
            use, order = tiebreak_field(metric.key), tiebreak_order_field(metric.key)
            self.fields[use] = forms.BooleanField(
                label=metric.name(lang), required=False, initial=metric.key in chosen,
                help_text=metric.help(lang),
            )
            label = _("Position of %(name)s") % {"name": metric.name(lang)}
            self.fields[order] = forms.IntegerField(
                label=label, required=False, min_value=1, max_value=99,
                initial=chosen.index(metric.key) + 1 if metric.key in chosen else None,
                widget=forms.NumberInput(
                    attrs={"class": "order", "inputmode": "numeric", "aria-label": label}
                ),
            )

    def tiebreak_rows(self) -> list[dict]:
        """(metric, its checkbox, its position) for the template, in the registry's order."""
        return [
            {"metric": m, "use": self[tiebreak_field(m.key)], "order": self[tiebreak_order_field(m.key)]}
            for m in all_metrics()
        ]

    def chosen_tiebreaks(self, data) -> list[str] | None:
        """The ordered keys from cleaned ``data`` (None after adding the core's problems),
        the main score first (:func:`~tournaments.standings.order.main_score_first`: ticking
        Buchholz alone stores the system's score, then Buchholz — the order that ranks)."""
        picked = []
        for index, metric in enumerate(all_metrics()):
            if data.get(tiebreak_field(metric.key)):
                position = data.get(tiebreak_order_field(metric.key))
                picked.append((position if position is not None else 1000, index, metric.key))
        keys = [key for _position, _index, key in sorted(picked)]
        try:
            order = parse_tiebreaks(keys)
        except RuleViolation as exc:
            for p in exc.problems:
                self.add_error(None, p.message(current_language()))
            return None
        system = data.get("system") or getattr(getattr(self, "instance", None), "system", None)
        return dump_tiebreaks(TiebreakOrder(main_score_first(order.keys, system)))


class SetupOptionsForm(TiebreakPickerMixin, TournamentOptionsForm):
    """Every option of a tournament, grouped, with help text; the wizard's step 2 and Settings."""

    tiebreaks = None  # replaced by the picker's fields

    class Meta(TournamentOptionsForm.Meta):
        fields = [name for _key, _legend, names in FIELDSETS for name in names]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "registration_deadline": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club if club is not None else self.instance.club
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _(
            "The tournament's address, /t/<slug>/: Latin letters, digits and hyphens; "
            "empty: made from the name."
        )
        # The same minutes bound an appeal to the jury, counted from the director's ruling
        # (tournaments.access.permissions.appeal_window_closed).
        self.fields["dispute_window"].help_text = _(
            "Either player may dispute a confirmed result this long after it was confirmed, and "
            "appeal the director's ruling to the jury this long after the ruling; 0: only a player "
            "who took no part in confirming it may dispute it, and a ruling may be appealed until "
            "the jury decides."
        )
        self.add_tiebreak_fields(self.instance.tiebreaks)
        self.played = bool(self.instance.pk and self.instance.rounds.exists())

    # -- layout ---------------------------------------------------------------------------

    #: The groups open at first (the wizard's options step passes none: its first step asked them).
    open_groups = OPEN_GROUPS

    def fieldsets(self) -> list[dict]:
        """The groups in page order; each says whether it starts open: :attr:`open_groups`, and
        any group holding an error (a closed group must never hide what to fix)."""
        out = []
        for key, legend, names in FIELDSETS:
            out.append({"key": key, "legend": legend, "fields": [self[n] for n in names if n in self.fields]})
            if key == "pairing":
                for system, label in CompetitionSystem.choices:
                    if system in SYSTEM_OPTIONS and option_field_names(system):
                        out.append({
                            "key": f"options-{system}", "system": system,
                            "legend": _("Pairing options: %(system)s") % {"system": label},
                            "fields": [self[n] for n in option_field_names(system)],
                        })  # fmt: skip
                tiebreak_fields = [row[part] for row in self.tiebreak_rows() for part in ("use", "order")]
                out.append({"key": "tiebreaks", "legend": _("Tie-break order"), "fields": [],
                            "errors": any(f.errors for f in tiebreak_fields)})  # fmt: skip
        for group in out:
            group["open"] = (
                group["key"] in self.open_groups or group.get("errors", False) or any(f.errors for f in group["fields"])
            )
        return out

    # -- validation -----------------------------------------------------------------------

    def clean(self):
        data = super().clean()
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            data["slug"] = self.unique_slug(data["name"], data.get("starts_on"))
        if self.played:
            if "slug" in self.changed_data and data.get("slug") != self.instance.slug:  # issue 47
                self.add_error("slug", _coded(SETUP.problem("slug_fixed", slug=self.instance.slug)))
            for name in LOCKED_AFTER_ROUND_ONE:
                if name in self.changed_data and name in data:
                    label = str(self.fields[name].label)
                    self.add_error(name, _coded(SETUP.problem("locked_after_round_one", option=label)))
            self._check_rounds_planned(data)
        keys = self.chosen_tiebreaks(data)
        if keys is not None:
            self.instance.tiebreaks = keys
        return data

    def unique_slug(self, name: str, starts_on) -> str:
        """A free slug from the name (transliterated), else from the club and the date."""
        base = slugify(iuliia.WIKIPEDIA.translate(name))[:60].strip("-")
        if not base:
            base = slugify(f"{self.club.slug if self.club else 'tournament'}-{starts_on or ''}")[:60]
        taken = set(
            Tournament.objects.filter(slug__startswith=base)
            .exclude(pk=self.instance.pk)
            .values_list("slug", flat=True)
        )
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        return slug

    def _check_rounds_planned(self, data) -> None:
        """Fewer rounds planned than already paired would end the event behind its own rounds
        (issue 28: ``rounds_planned: 1`` was accepted with 3 rounds played)."""
        planned = data.get("rounds_planned")
        if "rounds_planned" not in self.changed_data or planned is None:
            return
        paired = self.instance.rounds.aggregate(last=Max("number"))["last"] or 0
        if planned < paired:
            self.add_error("rounds_planned", _coded(SETUP.problem("rounds_below_paired", planned=planned, paired=paired)))

    def _update_errors(self, errors):
        """The model's errors on a field this form does not show (``pairing_options``, set on
        the pairing options' own fields) stay the form's errors: Django's ``add_error`` raises
        on a field the form lacks, which answered a settings change with a server error
        (issue 28: ``{"match_length": 3, "system": "knockout"}`` after round 1)."""
        if hasattr(errors, "error_dict"):
            for field in [f for f in errors.error_dict if f != NON_FIELD_ERRORS and f not in self.fields]:
                errors.error_dict.setdefault(NON_FIELD_ERRORS, []).extend(errors.error_dict.pop(field))
        super()._update_errors(errors)

    def _post_clean(self):
        super()._post_clean()
        errors = self._errors.pop(NON_FIELD_ERRORS, None) if self._errors else None
        if not errors:
            return
        for error in errors.as_data():
            field = PROBLEM_FIELDS.get(error.code or "")
            self.add_error(field if field in self.fields else None, error)


def _label(name: str):
    """The model field's own label (one wording for the first step and the options)."""
    return capfirst(Tournament._meta.get_field(name).verbose_name)


class EssentialsForm(forms.Form):
    """The wizard's first step: what every event needs (issue 44), on top of a preset.

    The preset is the starting point (its cube, scoring and pairing options); the variant, the
    system and the match length typed here replace the preset's, and the options step shows
    everything prefilled, grouped and closed. The rules are checked once, where they live: the
    options step runs the whole form (``Tournament.clean``: dates in order, a length the format
    allows…) on what this step prefilled, and shows a refusal beside its field.
    """

    preset = forms.ChoiceField(label=_("Starting point"), widget=forms.RadioSelect)
    name = forms.CharField(label=_label("name"), max_length=200)
    starts_on = forms.DateField(
        label=_label("starts_on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    ends_on = forms.DateField(
        label=_label("ends_on"), required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )  # fmt: skip
    variant = forms.ChoiceField(label=_("Game"), required=False)
    system = forms.ChoiceField(label=_("Competition system"), required=False)
    match_length = forms.IntegerField(
        label=_("Match length, points"), required=False, min_value=1, max_value=99,
        help_text=_("empty: the starting point's"), widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )  # fmt: skip

    def __init__(self, presets, *args, **kwargs):
        super().__init__(*args, **kwargs)
        lang = current_language()
        self.fields["preset"].choices = [(p.key, p.name(lang)) for p in presets]
        same = [("", _("as the starting point"))]
        self.fields["variant"].choices = same + list(Variant.choices)
        self.fields["system"].choices = same + list(CompetitionSystem.choices)

    def apply(self, draft: Tournament) -> Tournament:
        """``draft`` (the preset's unsaved tournament) with this step's answers."""
        data = self.cleaned_data
        draft.name, draft.starts_on, draft.ends_on = data["name"], data["starts_on"], data.get("ends_on")
        if data.get("variant") and data["variant"] != draft.variant:
            draft.variant = data["variant"]
            draft.scoring = get_variant(data["variant"]).scoring  # the game's own table
        if data.get("system") and data["system"] != draft.system:
            draft.system = data["system"]
            draft.pairing_options = {}  # the preset's options were the other system's
        if data.get("match_length"):
            draft.match_length = data["match_length"]
        return draft


def _problem(problem: Problem) -> str:
    return problem.message(current_language())


def _coded(problem: Problem) -> forms.ValidationError:
    """The problem's message with its catalogue code (the API answers the code, the page the text)."""
    return forms.ValidationError(problem.message(current_language()), code=problem.code)


class TiebreakPreviewForm(TiebreakPickerMixin, forms.Form):
    """What the live preview reads: the system and the picked order (nothing is saved)."""

    system = forms.ChoiceField(choices=CompetitionSystem.choices, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_tiebreak_fields([])

    def clean(self):
        data = super().clean()
        self.keys = self.chosen_tiebreaks(data)
        return data


# ---------------------------------------------------------------------------------------------
# sections
# ---------------------------------------------------------------------------------------------

SECTION_FIELDS = (
    "name", "group", "min_category", "max_category", "rule_category", "cube", "match_length",
    "override_reason", "order",
)  # fmt: skip


class SectionForm(forms.ModelForm):
    cube = forms.NullBooleanField(
        label=_("Doubling cube"),
        required=False,
        widget=forms.Select(
            choices=[
                ("", _("As the category table says")),
                ("True", _("With the cube")),
                ("False", _("Without the cube")),
            ]
        ),
        help_text=_("The table: no cube for categories 1–3, the cube from category 4."),
    )

    class Meta:
        model = Section
        fields = SECTION_FIELDS
        help_texts = {
            "override_reason": _(
                "Needed only when the cube or the length departs from the book's category table."
            ),
        }


# Sections (category groups) of one tournament; also the formset's absolute_max, so a posted
# TOTAL_FORMS of a billion builds at most this many forms and is refused with the message below.
MAX_SECTIONS = 50


class BaseSectionFormSet(forms.BaseModelFormSet):
    """Sections of one tournament: names unique, and a section in use is never deleted."""

    default_error_messages = {
        "too_many_forms": _("A tournament has at most %(num)d sections; the form sent more rows. "
                            "Reload the page and try again."),
    }

    def clean(self):
        super().clean()
        seen: set[str] = set()
        for form in self.forms:
            if not getattr(form, "cleaned_data", None) or form.cleaned_data.get("DELETE"):
                continue
            name = (form.cleaned_data.get("name") or "").strip()
            if not name:
                continue
            if name.casefold() in seen:
                form.add_error("name", _problem(SETUP.problem("duplicate_section", section=name)))
            seen.add(name.casefold())
        in_use = [
            _problem(SETUP.problem("section_in_use", section=form.instance.name))
            for form in self.deleted_forms
            if form.instance.pk and section_in_use(form.instance)
        ]
        if in_use:  # a deleted form's own errors would be ignored: refuse the whole set
            raise forms.ValidationError(in_use)


def section_formset(preset_count: int, data=None, **kwargs) -> BaseSectionFormSet:
    """Sections with one blank row to add; ``preset_count`` prefilled rows count as filled in.

    (An unchanged prefilled extra row would otherwise be skipped as empty, and a
    preset's sections silently not created.)
    """
    cls = forms.modelformset_factory(
        Section, form=SectionForm, formset=BaseSectionFormSet, extra=1, min_num=preset_count,
        can_delete=True, max_num=MAX_SECTIONS, validate_max=True, absolute_max=MAX_SECTIONS,
    )
    return cls(data, **kwargs)


# ---------------------------------------------------------------------------------------------
# people: officials of a tournament, organisers of a club
# ---------------------------------------------------------------------------------------------


def find_user(text: str):
    """The account with this username or email; ValidationError (coded, RU/EN) otherwise."""
    text = text.strip()
    users = get_user_model().objects
    by_name = users.filter(username__iexact=text).first()
    if by_name is not None:
        return by_name
    by_email = list(users.filter(email__iexact=text)[:2]) if "@" in text else []
    if len(by_email) == 1:
        return by_email[0]
    code = "ambiguous_email" if by_email else "unknown_user"
    raise forms.ValidationError(_problem(SETUP.problem(code, value=text)), code=f"setup.{code}")


class PersonField(forms.CharField):
    """A username or an email, cleaned to the user account."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Username or email"))
        kwargs.setdefault("max_length", 254)
        super().__init__(**kwargs)
        self.widget.attrs.update({"autocomplete": "off", "autocapitalize": "none"})

    def clean(self, value):
        return find_user(super().clean(value))


#: The roles the officials page appoints, in the book's words (director, referee, jury).
OFFICIAL_ROLE_CHOICES = [
    (OfficialRole.ORGANISER, _("Director (organiser)")),
    (OfficialRole.REFEREE, _("Referee")),
    (OfficialRole.JURY, _("Jury")),
]


class OfficialForm(forms.Form):
    user = PersonField()
    role = forms.ChoiceField(label=_("Role"), choices=OFFICIAL_ROLE_CHOICES)

    def __init__(self, tournament: Tournament, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean(self):
        data = super().clean()
        user, role = data.get("user"), data.get("role")
        if user is None or not role:
            return data
        if self.tournament.officials.filter(user=user, role=role).exists():
            self.add_error("user", _problem(SETUP.problem("already_holds_role", user=user.username)))
        elif self.tournament.entries.filter(player__user=user).exists():
            self.add_error("user", _problem(SETUP.problem("official_plays", user=user.username)))
        return data


class ClubOrganiserForm(forms.Form):
    user = PersonField()

    def __init__(self, club, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_user(self):
        user = self.cleaned_data["user"]
        if self.club.roles.filter(user=user, role=ClubRoleKind.ORGANISER).exists():
            raise forms.ValidationError(_problem(SETUP.problem("already_holds_role", user=user.username)))
        return user
