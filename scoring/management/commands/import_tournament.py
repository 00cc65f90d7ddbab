"""``manage.py import_tournament FILE [--slug NEW] [--club CLUB]`` — restore a tournament archive.

A thin shell over :func:`scoring.archive.backup.import_file`, the same code as the
organiser's import form: players matched or created, ids remapped, a slug that
is already taken refused with nothing written.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from scoring.archive import backup as archive


class Command(BaseCommand):
    help = "Create a tournament from a JSON archive made by export_tournament (refuses a slug in use)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (.json)")
        parser.add_argument("--slug", default=None, help="import under this address instead of the archive's")
        parser.add_argument("--club", default=None, help="make it this club's tournament (club slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        club = None
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"no club with the slug {options['club']!r}")
        try:
            with open(options["file"], "rb") as stream:
                done = archive.import_file(stream, slug=options["slug"], club=club)
        except OSError as exc:
            raise CommandError(f"{options['file']}: {exc.strerror}") from None
        except archive.ArchiveError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"{done.tournament.slug}: {done.rows} rows imported, "
            f"{done.players_created} new players, {done.skipped} rows skipped "
            "(officials without an account here)"
        )
        for warning in done.warnings:
            self.stderr.write(f"warning: {warning.message('en')}")
