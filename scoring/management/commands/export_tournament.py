"""``manage.py export_tournament SLUG FILE`` — one whole tournament as a versioned JSON archive.

A thin shell over :func:`scoring.archive.backup.export`, the same code as the organiser's
"download archive" button; ``-`` writes to standard output.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.archive import backup as archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write one tournament (entries, players, rounds, matches, results, disputes, audit log) to a JSON archive."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's address (its slug)")
        parser.add_argument("file", help="the archive to write (.json); - for standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug {options['slug']!r}")
        if options["file"] == "-":
            archive.export(tournament, sys.stdout)
            return
        with open(options["file"], "w", encoding="utf-8") as out:
            archive.export(tournament, out)
        self.stdout.write(f"{tournament.slug}: archive written to {options['file']}")
