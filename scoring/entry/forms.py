"""Result entry forms: a final score, a game-by-game ledger, a pasted record or a .mat file.

The forms only collect input; every rule is checked by the core through
:func:`tournaments.validation.validate_result` (the ledger and score) and by
:mod:`scoring.rules.records.validate` / :mod:`scoring.rules.records.matfile` (records). Each problem
is attached next to what was typed — the game row, the score, the record — and
the bound form is re-rendered, so nothing typed is lost.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models import Outcome, SanctionKind
from scoring.records import match_files
from scoring.rules.errors import Problem
from scoring.rules.records.matfile import MatchReport, looks_like_mat, validate_mat_text
from scoring.rules.records.report import ReplayReport
from scoring.rules.records.validate import validate_text
from scoring.rules.variants import SCORING_TABLES
from scoring.viewer.problems import MATCHFILE
from scoring.workflow.problems import workflow_message
from tournaments.audit import action_label, object_type_label
from tournaments.models import GameKind, Match, MatchFormat, ResultKind, RoundStatus, Variant
from tournaments.validation import validate_result
from zarik.i18n import current_language

MAX_RECORD_BYTES = 512 * 1024


#: Backgammon and its western relatives say single game, gammon, backgammon; the nardy words
#: (оюн, марс, кокс) belong to the nardy family (issue 44: a backgammon form offered "oyun").
WESTERN_VARIANTS = frozenset({Variant.BACKGAMMON, Variant.NACKGAMMON, Variant.HYPERGAMMON})
WESTERN_KIND_LABELS = {
    "single": gettext_lazy("single game"), "gammon": gettext_lazy("gammon"), "backgammon": gettext_lazy("backgammon"),
}  # fmt: skip


def kind_choices(match: Match) -> list[tuple[str, str]]:
    """The kinds of win of the tournament's scoring system (from the core's table), in the
    words of the variant's own family."""
    tournament = match.round.tournament
    table = SCORING_TABLES.get(tournament.scoring)
    labels = dict(GameKind.choices)
    if tournament.variant in WESTERN_VARIANTS:
        labels.update(WESTERN_KIND_LABELS)
    kinds = [k for k, _v in table.kinds] if table else [k for k, _l in GameKind.choices]
    return [("", "—")] + [(k, labels.get(k, k)) for k in kinds]


class GameForm(forms.Form):
    """One line of the ledger; an untouched row is ignored."""

    winner = forms.ChoiceField(label=gettext_lazy("Winner"), required=False)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), required=False)
    cube = forms.IntegerField(
        label=gettext_lazy("Cube"), min_value=1, max_value=4096, initial=1, required=False
    )
    dropped = forms.BooleanField(label=gettext_lazy("Dropped"), required=False)
    autodoubles = forms.IntegerField(
        label=gettext_lazy("Autodoubles"), min_value=0, max_value=10, initial=0, required=False
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any):
        super().__init__(*args, **kwargs)
        a = match.entry_a.player
        b = match.entry_b.player if match.entry_b_id else None
        self.fields["winner"].choices = [
            ("", "—"),
            ("a", f"A: {a.last_name}"),
            ("b", f"B: {b.last_name if b else ''}"),
        ]
        if match.round.tournament.match_format == MatchFormat.GAMES:  # a match to N has no drawn game
            self.fields["winner"].choices.append(("draw", _("draw")))
        self.fields["kind"].choices = kind_choices(match)
        for name in ("cube", "autodoubles"):
            self.fields[name].widget.attrs.update(inputmode="numeric", size="3")

    def entry(self) -> dict[str, Any] | None:
        data = self.cleaned_data
        winner, kind = data.get("winner") or "", data.get("kind") or ""
        if not winner and not kind:
            return None
        if winner == "draw":
            winner, kind = None, "draw"
        return {
            "winner": winner or None,
            "kind": kind or "single",
            "cube": data.get("cube") or 1,
            "dropped": bool(data.get("dropped")),
            "autodoubles": data.get("autodoubles") or 0,
        }


class BaseGameFormSet(forms.BaseFormSet):
    # absolute_max = max_num (below): a posted TOTAL_FORMS of a billion builds at most 60 forms
    # and is refused with this message instead of Django's generic one.
    default_error_messages = {
        "too_many_forms": gettext_lazy(
            "A result has at most %(num)d games; the form sent more rows. "
            "Reload the page and enter the games again."
        ),
    }

    def __init__(self, *args: Any, match: Match, **kwargs: Any):
        self.match = match
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {"match": self.match}


GameFormSet = forms.formset_factory(
    GameForm, formset=BaseGameFormSet, extra=0, max_num=60, validate_max=True, absolute_max=60
)


class ResultForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    # Halves are allowed where a drawn game scores ½ (the rules core refuses them elsewhere).
    score_a = forms.DecimalField(
        label=gettext_lazy("Score A"), min_value=0, max_value=999, decimal_places=1, required=False
    )
    score_b = forms.DecimalField(
        label=gettext_lazy("Score B"), min_value=0, max_value=999, decimal_places=1, required=False
    )
    record = forms.CharField(
        label=gettext_lazy("Game record or .mat text"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text=gettext_lazy("optional: paste a record in the book's notation or a .mat match"),
        max_length=MAX_RECORD_BYTES,  # the same bound as an uploaded .mat file
        error_messages={"max_length": gettext_lazy(
            "The record is too long (%(show_value)d characters; at most %(limit_value)d).")},
    )
    mat_file = forms.FileField(label=gettext_lazy("or upload a .mat file"), required=False)
    mat_first = forms.ChoiceField(
        label=gettext_lazy("The .mat file's first player is"),
        choices=[("", "—"), ("a", "A"), ("b", "B")],
        required=False,
        widget=forms.RadioSelect,
        help_text=gettext_lazy("a .mat file names its own players: say who is who before its score counts"),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason for the correction"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def clean_mat_file(self):
        upload = self.cleaned_data.get("mat_file")
        if upload is None:
            return None
        if upload.size > MAX_RECORD_BYTES:
            raise forms.ValidationError(_("The file is too large (at most 512 KB)."))
        raw = upload.read()
        if b"\x00" in raw[:4000]:  # a binary file (an image, a spreadsheet…), not a record
            raise forms.ValidationError(
                _("“%(file)s” is not a text file: upload a .mat match file or paste the game record.")
                % {"file": upload.name}
            )
        for encoding in ("utf-8-sig", "cp1251", "latin-1"):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
        return None  # pragma: no cover - latin-1 decodes anything


def _record_message(p: Problem) -> str:
    """The problem with its place said once (by the core) and the text typed there echoed."""
    language = current_language()
    place = p.place(language)
    body = p.message(language)[len(place) :]
    return f"{place}«{p.text}»: {body}" if p.text else place + body


class ResultEntry:
    """The result form and its game rows, validated together against the match's rules."""

    def __init__(
        self, match: Match, data=None, files=None, *, need_reason: bool = False, prefix: str = ""
    ):
        self.match = match
        self.need_reason = need_reason
        initial = {"version": match.version}
        self.form = ResultForm(data, files, initial=initial, prefix=prefix or None)
        names = match.side_names(current_language())
        self.form.fields["mat_first"].choices = [
            ("a", f"A: {names.get('a', '')}"),
            ("b", f"B: {names.get('b', '')}"),
        ]
        # A match to N points scores whole points; only a fixed number of games with a drawn game
        # worth ½ has halves (issue 44: the inputs stepped by 0.1 for a match to N).
        tournament = match.round.tournament
        halves = tournament.match_format == "games" and tournament.draw_value == Decimal("0.5")
        for name in ("score_a", "score_b"):
            self.form.fields[name].widget.attrs["step"] = "0.5" if halves else "1"
        self.proposed = ""
        rows = 0
        if data is None:
            rows = 3 if match.round.tournament.match_format == "games" else 2
        self.games = GameFormSet(
            data,
            match=match,
            prefix=(prefix + "-games") if prefix else "games",
            initial=[{"cube": 1, "autodoubles": 0}] * rows,
        )
        self.final: tuple[int, int] | None = None
        self.ledger: list[dict[str, Any]] = []
        self.record_text = ""
        self.notes: list[str] = []

    @property
    def version(self) -> int | None:
        return self.form.cleaned_data.get("version") if hasattr(self.form, "cleaned_data") else None

    def _attach(self, problems) -> None:
        language = current_language()
        names = self.match.side_names(language)
        for p in problems:
            message = p.message(language, names)
            if p.game is not None and 0 < p.game <= len(self._row_forms):
                self._row_forms[p.game - 1].add_error(None, message)
            elif p.game is not None:
                self.form.add_error(None, message)  # the message starts with "Game N: "
            elif self.final is not None and not self.ledger:
                self.form.add_error("score_a", message)
            else:
                self.form.add_error(None, message)

    def _check_record(self, text: str) -> list[dict[str, Any]] | None:
        """Validate a pasted record / .mat; a clean .mat gives the ledger when none was typed."""
        variant = self.match.round.tournament.variant
        report: MatchReport | ReplayReport
        if looks_like_mat(text):
            report = validate_mat_text(text, variant=variant)
            errors = report.errors
        else:
            report = validate_text(text, variant=variant)
            errors = report.errors
        for p in errors:
            self.form.add_error("record", _record_message(p))
        if errors or not isinstance(report, MatchReport) or self.ledger:
            return None  # a typed ledger wins; the file is then not asked to decide anything
        return self._mat_ledger(report, text)

    def _mat_ledger(self, report: MatchReport, text: str) -> list[dict[str, Any]] | None:
        """The file's games as ledger rows, once a person has said who the file's first player is.

        A .mat file names its own players; the names only *propose* a mapping
        (:func:`scoring.records.match_files.propose`), and the file's score decides nothing until
        the form's "first player is" choice is made.
        """
        players = report.match.players
        first = self.form.cleaned_data.get("mat_first") or ""
        self.proposed = match_files.propose(self.match, players)
        if first not in ("a", "b"):
            problem = MATCHFILE.problem("mapping_needed", first=players[0])
            self.form.add_error("mat_first", problem.message(current_language()))
            if self.proposed:
                names = self.match.side_names(current_language())
                self.notes.append(
                    _("Proposed from the names: %(first)s is %(name)s.")
                    % {"first": players[0], "name": names.get(self.proposed, "")}
                )
            return None
        blocks = match_files.game_blocks(text)
        ledger = []
        side = {"white": first, "black": "b" if first == "a" else "a"}
        for i, game in enumerate(report.games):
            res = game.result
            if res is None:
                continue
            ledger.append(
                {
                    "winner": side[res.winner],
                    "kind": res.kind,
                    "cube": res.cube,
                    "dropped": res.by_drop,
                    "autodoubles": 0,
                    "record": blocks[i] if i < len(blocks) else "",
                }
            )
        return ledger

    def is_valid(self) -> bool:
        form_ok = self.form.is_valid()
        games_ok = self.games.is_valid()
        self._row_forms = list(self.games.forms)
        if not (form_ok and games_ok):
            return False
        data = self.form.cleaned_data
        if self.need_reason and not (data.get("reason") or "").strip():
            self.form.add_error("reason", workflow_message("correction_reason"))
        a, b = data.get("score_a"), data.get("score_b")
        if (a is None) != (b is None):
            self.form.add_error("score_a", workflow_message("both_scores"))
            return False
        self.final = (a, b) if a is not None else None
        self.ledger = [e for e in (f.entry() for f in self._row_forms) if e is not None]
        self.record_text = data.get("mat_file") or data.get("record") or ""
        if self.record_text.strip():
            derived = self._check_record(self.record_text)
            if derived and not self.ledger:
                self.ledger = derived
            elif self.ledger and not looks_like_mat(self.record_text):
                self.ledger[0]["record"] = self.record_text
        if not self.final and not self.ledger and not self.form.errors:
            self._attach(validate_result(self.match).problems)  # the core's "nothing to check"
            return False
        if self.final or self.ledger:
            validation = validate_result(self.match, final=self.final, games=self.ledger or None)
            self._attach(validation.problems)
        return not self.form.errors and all(not f.errors for f in self._row_forms)

    def keep_text(self, data) -> None:
        """Carry an uploaded .mat into the text box (and the proposed mapping), so a re-render keeps it."""
        if self.record_text and data is not None:
            data["record" if not self.form.prefix else f"{self.form.prefix}-record"] = (
                self.record_text
            )
            key = "mat_first" if not self.form.prefix else f"{self.form.prefix}-mat_first"
            if self.proposed and not data.get(key):
                data[key] = self.proposed

    def add_error(self, message: str) -> None:
        self.form.add_error(None, message)

    def problems(self, problems) -> None:
        self._row_forms = list(self.games.forms)
        self._attach(problems)


class DisputeForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    result = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=gettext_lazy("What is wrong with this result?"), widget=forms.Textarea(attrs={"rows": 3})
    )


class RulingForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    outcome = forms.ChoiceField(label=gettext_lazy("Outcome"), widget=forms.RadioSelect)
    text = forms.CharField(
        label=gettext_lazy("Ruling and its grounds"), widget=forms.Textarea(attrs={"rows": 3})
    )
    score_a = forms.DecimalField(label=gettext_lazy("Score A"), min_value=0, decimal_places=1, required=False)
    score_b = forms.DecimalField(label=gettext_lazy("Score B"), min_value=0, decimal_places=1, required=False)

    def __init__(self, *args: Any, jury: bool = False, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choices = [(v, label) for v, label in Outcome.choices if jury or v != Outcome.SUSTAIN]
        self.fields["outcome"].choices = choices
        if jury:
            self.fields["text"].label = gettext_lazy("Jury's decision and its grounds (final)")

    def clean(self):
        data = super().clean()
        if data.get("outcome") == Outcome.REPLACE and (
            data.get("score_a") is None or data.get("score_b") is None
        ):
            self.add_error("score_a", workflow_message("replace_both_scores"))
        return data


class AppealForm(forms.Form):
    """The grounds of an appeal; an empty one is refused by the service (``workflow.appeal_reason``)."""

    reason = forms.CharField(
        label=gettext_lazy("Grounds of appeal to the jury"),
        required=False,
        strip=False,  # the service strips; what the player typed comes back as typed
        widget=forms.Textarea(attrs={"rows": 3, "required": True}),
    )


class PlayerAppealForm(AppealForm):
    """The appeal on a player's match page (account or private link): which dispute, and why."""

    dispute = forms.IntegerField(widget=forms.HiddenInput)


class SanctionForm(forms.Form):
    entry = forms.ModelChoiceField(label=gettext_lazy("Player"), queryset=None)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=SanctionKind.choices)
    points = forms.DecimalField(
        label=gettext_lazy("Penalty points"), required=False, min_value=0, max_digits=5, decimal_places=1,
        help_text=gettext_lazy("for a penalty: taken from the player's score in the standings"),
    )
    match = forms.ModelChoiceField(
        label=gettext_lazy("Match"), queryset=None, required=False,
        help_text=gettext_lazy("for an annulled game: the match it was played in"),
    )
    game = forms.IntegerField(
        label=gettext_lazy("Game number"), required=False, min_value=1, max_value=999,
        help_text=gettext_lazy("for an annulled game (Part 9: the game of a player who was prompted)"),
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, tournament, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = tournament.entries.select_related("player").order_by(
            "draw_number", "id"
        )
        self.fields["match"].queryset = (
            Match.objects.filter(round__tournament=tournament, entry_b__isnull=False)
            .exclude(round__status=RoundStatus.DRAFT)
            .select_related("round", "entry_a__player", "entry_b__player")
            .order_by("-round__number", "table")
        )


class AnyActionField(forms.ChoiceField):
    """A list of the actions by their readable names; a typed part of a code (an old link) still filters."""

    def valid_value(self, value: str) -> bool:
        return True


class AuditFilterForm(forms.Form):
    action = AnyActionField(label=gettext_lazy("Action"), required=False)
    object_type = forms.ChoiceField(label=gettext_lazy("Object"), required=False)
    user = forms.CharField(label=gettext_lazy("Who"), required=False)
    since = forms.DateField(
        label=gettext_lazy("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=gettext_lazy("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, object_types: list[str], actions: list[str] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        language = current_language()
        self.fields["object_type"].choices = [("", gettext_lazy("all"))] + sorted(
            ((t, object_type_label(t)) for t in object_types), key=lambda choice: choice[1].lower()
        )
        self.fields["action"].choices = [("", gettext_lazy("all"))] + sorted(
            ((code, action_label(code, language)) for code in actions), key=lambda choice: choice[1].lower()
        )


# --------------------------------------------------------------------------- the desk (issue 15)

#: Bounds of what the desk accepts (a day late, an hour a point): sane, and within the columns.
MAX_MINUTES_LATE = 1440
MAX_CLOCK = 3600

SETTLE_CHOICES = [
    ("forfeit", gettext_lazy("the opponent wins by forfeit")),
    ("void", gettext_lazy("void: it counts for nobody")),
]


class KindResultForm(forms.Form):
    """The director settles a match not played out: forfeit, double forfeit, time forfeit, void."""

    kind = forms.ChoiceField(
        label=gettext_lazy("Result"),
        choices=[(k, label) for k, label in ResultKind.choices if k != ResultKind.PLAYED],
    )
    winner = forms.ChoiceField(
        label=gettext_lazy("Winner"), required=False,
        choices=[("", "—"), ("a", "A"), ("b", "B")],
        help_text=gettext_lazy("for a forfeit or a time forfeit"),
    )
    played_a = forms.DecimalField(
        label=gettext_lazy("Score played, A"), required=False, min_value=0, max_value=999,
        decimal_places=1,
        help_text=gettext_lazy("a time forfeit: the score on the sheet when the flag fell"),
    )
    played_b = forms.DecimalField(
        label=gettext_lazy("Score played, B"), required=False, min_value=0, max_value=999,
        decimal_places=1,
    )
    games_played = forms.IntegerField(
        label=gettext_lazy("Games finished (fixed-games match)"), required=False, min_value=0,
        max_value=999,
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, match: Match, **kwargs: Any):
        super().__init__(*args, **kwargs)
        names = match.side_names(current_language())
        self.fields["winner"].choices = [("", "—")] + [(s, f"{s.upper()}: {n}") for s, n in names.items()]

    def played(self) -> tuple[Any, Any] | None:
        a, b = self.cleaned_data.get("played_a"), self.cleaned_data.get("played_b")
        if a is None and b is None:
            return None
        return (a or 0, b or 0)


class LatenessForm(forms.Form):
    """Minutes late → penalty points to the opponent, or a forfeit (the tournament's rule)."""

    late_side = forms.ChoiceField(label=gettext_lazy("Late player"), choices=[("a", "A"), ("b", "B")])
    minutes = forms.IntegerField(label=gettext_lazy("Minutes late"), min_value=0, max_value=MAX_MINUTES_LATE)
    reason = forms.CharField(label=gettext_lazy("Note"), required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any):
        super().__init__(*args, **kwargs)
        names = match.side_names(current_language())
        self.fields["late_side"].choices = [(s, f"{s.upper()}: {n}") for s, n in names.items()]


class ClockForm(forms.Form):
    """Clocks on one match (Part 9): minutes per point of its length, a delay or an increment."""

    minutes_per_point = forms.IntegerField(
        label=gettext_lazy("Minutes per point of match length"), min_value=0, max_value=MAX_CLOCK,
        required=False,
        help_text=gettext_lazy("empty or 0: take the clocks off (the tournament's policy applies)"),
    )
    delay_seconds = forms.IntegerField(
        label=gettext_lazy("Delay per move (s)"), min_value=0, max_value=MAX_CLOCK, required=False
    )
    increment_seconds = forms.IntegerField(
        label=gettext_lazy("Increment per move (s)"), min_value=0, max_value=MAX_CLOCK, required=False
    )
    reason = forms.CharField(label=gettext_lazy("Note"), required=False)


class RemoveEntryForm(forms.Form):
    """Disqualification or removal from the event (Part 9), with what happens to the results."""

    how = forms.ChoiceField(
        label=gettext_lazy("Action"),
        choices=[("disqualified", gettext_lazy("Disqualify")), ("removed", gettext_lazy("Remove from the event"))],
    )
    past = forms.ChoiceField(
        label=gettext_lazy("Past results"),
        choices=[("keep", gettext_lazy("kept")), ("void", gettext_lazy("voided"))],
    )
    settle = forms.ChoiceField(label=gettext_lazy("Unfinished match"), choices=SETTLE_CHOICES)
    reason = forms.CharField(label=gettext_lazy("Reason"))


def posted_int(value) -> int | None:
    """A posted whole number (a version, an id); None when the field is missing or not a number,
    so the page answers with its own refusal instead of a 500."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
