"""``manage.py export_standings <slug> OUT.xlsx [--lang ru|en]``: the Excel workbook from the shell.

The same workbook the web page's Celery task builds (Standings, Crosstable,
Pairings, Players), written directly. An unknown tournament or an unwritable
file is a one-line error, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.rules.errors import RuleViolation
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament's standings, crosstable, pairings and players to an Excel workbook."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug, e.g. book-crosstable")
        parser.add_argument("out", help="the .xlsx file to write")
        parser.add_argument(
            "--lang", default="ru", choices=["ru", "en"], help="language of the headings"
        )

    def handle(self, *args: object, **opts: object) -> None:
        slug, lang = str(opts["slug"]), str(opts["lang"])
        out = Path(str(opts["out"]))
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            known = ", ".join(
                Tournament.objects.order_by("slug").values_list("slug", flat=True)[:20]
            )
            if lang == "ru":
                raise CommandError(f"Турнир {slug!r} не найден. Есть: {known or '—'}.")
            raise CommandError(f"No tournament with slug {slug!r}. Known: {known or 'none'}.")
        if out.suffix.lower() != ".xlsx":
            raise CommandError(
                f"{out}: нужен файл .xlsx" if lang == "ru" else f"{out}: the file must end in .xlsx"
            )
        if not out.parent.is_dir():
            raise CommandError(
                f"{out.parent}: папка не существует"
                if lang == "ru"
                else f"{out.parent}: no such directory"
            )
        try:
            problems = build_workbook(tournament, out, lang)
        except RuleViolation as exc:
            raise CommandError("; ".join(p.message(lang) for p in exc.problems)) from None
        except OSError as exc:
            raise CommandError(f"{out}: {exc.strerror or exc}") from None
        for problem in problems:
            self.stderr.write(problem.message(lang))
        self.stdout.write(f"{out}")
