"""``manage.py rate_matches FILE.json [--json] [--strict] [--lang ru|en]`` — FIBS ratings from a file.

Needs no database content: a thin shell over the ratings core
(:func:`clubs.ratings.files.parse` and :func:`clubs.ratings.history.replay`), the
same code that rates confirmed results, so anyone can reproduce our ratings
from the published results. Exit status 0 on success, 1 when the input is
refused (every problem names its match).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from clubs.ratings.files import parse, ratings_data
from clubs.ratings.history import replay
from clubs.ratings.problems import RATINGS
from scoring.rules.errors import Problem, RuleViolation


class Command(BaseCommand):
    help = (
        "Rate a history of matches with the FIBS formula. Input: {\"start\": {NAME: {rating, "
        "experience}}, \"matches\": [{a, b, length|games, score_a, score_b}]} in chronological "
        "order. Output: {\"ratings\": {NAME: {rating, experience}}}. Exit 1 on bad input."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="JSON file with an optional start table and the matches")
        parser.add_argument("--json", action="store_true", help="print JSON at full precision")
        parser.add_argument(
            "--strict", action="store_true",
            help="every player must be in the start table (an unknown name is an error)",
        )
        parser.add_argument("--lang", choices=("ru", "en"), default=None,
                            help="language of the messages (default: the site language)")

    def handle(self, *args: Any, **options: Any) -> None:
        language = options["lang"] or settings.LANGUAGE_CODE[:2]
        try:
            start, matches = parse(self._load(options["file"]))
            table, _ = replay(start, matches, strict=options["strict"], record=False)
        except RuleViolation as exc:
            self._refuse(exc.problems, language, options["json"])
        if options["json"]:
            self.stdout.write(json.dumps(ratings_data(table), ensure_ascii=False))
            return
        heads = ("Игрок", "Рейтинг", "Опыт") if language == "ru" else ("Player", "Rating", "Experience")
        rows = sorted(table.items(), key=lambda item: (-item[1].rating, str(item[0])))
        width = max([len(heads[0]), *(len(str(name)) for name, _ in rows)])
        self.stdout.write(f"{heads[0]:<{width}}  {heads[1]:>9}  {heads[2]:>10}")
        for name, s in rows:
            self.stdout.write(f"{name!s:<{width}}  {s.rating:>9.2f}  {s.experience:>10g}")

    def _load(self, path: str) -> Any:
        try:
            with open(path, encoding="utf-8") as handle:
                return json.load(handle)
        except OSError as exc:
            problem = RATINGS.problem("file_unreadable", path=path, reason=exc.strerror or str(exc))
        except UnicodeDecodeError:
            problem = RATINGS.problem("file_unreadable", path=path, reason="not UTF-8")
        except json.JSONDecodeError as exc:
            problem = RATINGS.problem(
                "file_not_json", path=path, reason=exc.msg, line=exc.lineno, column=exc.colno
            )
        raise RuleViolation(problem)

    def _refuse(self, problems: list[Problem], language: str, as_json: bool) -> None:
        if as_json:
            errors = [{"code": p.code, "message": p.message(language)} for p in problems]
            self.stdout.write(json.dumps({"errors": errors}, ensure_ascii=False))
        else:
            for problem in problems:
                self.stderr.write(f"{problem.code}: {problem.message(language)}")
        raise SystemExit(1)
