"""``manage.py import_entries SLUG FILE [--dry-run] [--json]``: the preview page's import, from a shell.

The same code as the page (:mod:`tournaments.entries.importer`, the one plan): good
rows are imported even when others are refused, a person already entered is not
entered again, ``--dry-run`` writes nothing. ``--json`` prints
``{"created": n, "existing": n, "errors": [{"row": r, "message": "..."}], "undecided": [...],
"done": {counts}, "rows": [per-row plan]}`` with ``row`` as a spreadsheet shows it
(the header is row 1); a dry run prints ``"dry_run": true`` and ``"would_be"``
counts instead of ``created`` (nothing was). Each row's ``plan`` is new, existing
(``player``: its id), entered, waiting (``candidates``, ``proposed``) or refused
(``message``). A club named in the file is found by name or slug; an unknown one
is created only with ``--new-club NAME``. Messages are English unless
``--language ru``. A file refused as a whole (unknown format, no last name column)
exits with status 1; refused rows do not.
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.entries import importer as entry_import
from tournaments.models import Tournament
from zarik.i18n import current_language

ACTIONS_TEXT = {
    entry_import.CREATE: gettext_lazy("new player, entered"),
    entry_import.MATCH: gettext_lazy("existing player, entered"),
    entry_import.ENTERED: gettext_lazy("already entered"),
    entry_import.REFUSED: gettext_lazy("refused"),
    entry_import.DECIDE: gettext_lazy(
        "waits: not imported until you say who (--person ROW=ID|new, --accept-proposed) or create its club (--new-club)"
    ),
}


class Command(BaseCommand):
    help = "Import a tournament's entries from a CSV, XLSX or FIDE TRF-16 file."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file")
        parser.add_argument("--dry-run", action="store_true", help="show what would happen, write nothing")
        parser.add_argument("--json", action="store_true", dest="as_json", help="print the summary as JSON")
        parser.add_argument("--language", choices=["en", "ru"], default="en", help="language of messages")
        parser.add_argument(
            "--person", action="append", default=[], metavar="ROW=ID|new",
            help="who the person of a row is: a proposed player's id, or new (repeat for each row)",
        )  # fmt: skip
        parser.add_argument(
            "--accept-proposed", action="store_true",
            help="take the pre-selected candidate (the one uncontradicted namesake) of each waiting row",
        )  # fmt: skip
        parser.add_argument(
            "--new-club", action="append", default=[], metavar="NAME",
            help="create this club named in the file (repeat for each); unknown clubs are never created otherwise",
        )  # fmt: skip

    def handle(self, slug, file, dry_run=False, as_json=False, language="en", person=(), **options):
        choices = entry_import.choices_from(
            {f"person-{row}": value for row, _, value in (p.partition("=") for p in person)}
        )
        self.accept_proposed = options.get("accept_proposed", False)
        self.new_clubs = options.get("new_club") or []
        with translation.override(language):
            self._run(slug, Path(file), dry_run, as_json, choices)

    def _run(self, slug: str, path: Path, dry_run: bool, as_json: bool, choices: dict[int, str]) -> None:
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"No tournament with slug {slug!r}") from exc
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}") from exc
        lang = current_language()
        try:
            rows = entry_import.read_file(path.name, data)
        except entry_import.ImportRefused as exc:
            message = exc.problem.message(lang)
            if as_json:
                counts = {"errors": [{"row": 1, "message": message}], "undecided": [], "rows": []}
                self._print_json({"dry_run": True, "existing": 0, **counts} if dry_run
                                 else {"created": 0, "existing": 0, **counts})  # fmt: skip
            raise CommandError(message) from exc
        if self.accept_proposed:
            preview = entry_import.plan(tournament, rows, choices, self.new_clubs)
            choices = {**{i.row.number: str(i.proposed) for i in preview.rows if i.proposed}, **choices}
        if dry_run:
            result = entry_import.plan(tournament, rows, choices, self.new_clubs)
        else:
            result = entry_import.apply(
                tournament, rows, None, reason="import_entries", choices=choices, new_clubs=self.new_clubs
            )
        summary = result.summary(lang)
        if as_json:
            self._print_json(result.as_data(lang, dry_run=dry_run))
            return
        for item in result.rows:
            notes = " ".join(item.messages(lang))
            what = ACTIONS_TEXT[item.action]
            if item.action in (entry_import.MATCH, entry_import.ENTERED) and item.player is not None:
                what = f"{what} #{item.player.pk}"
            elif item.action == entry_import.DECIDE and item.proposed:
                what = f"{what} " + _("(proposed: #%(id)s)") % {"id": item.proposed}
            self.stdout.write(f"{item.row.number:>5}  {item.name or '—'}: {what} {notes}".rstrip())
        for club in result.new_clubs:
            self.stdout.write(_("new club: %(name)s") % {"name": club})
        for club in result.unknown_clubs:
            self.stdout.write(_("unknown club, not created: %(name)s (--new-club to create it)") % {"name": club})
        counts = {"n": summary["created"], "existing": summary["existing"], "refused": len(summary["errors"])}
        if dry_run:
            line = _("Dry run: %(n)s would be entered, %(existing)s already entered, %(refused)s refused.")
        else:
            line = _("%(n)s entered, %(existing)s already entered, %(refused)s refused.")
        self.stdout.write(line % counts)

    def _print_json(self, data: dict) -> None:
        self.stdout.write(json.dumps(data, ensure_ascii=False))
