"""``manage.py validate_match FILE.json [--json] [--lang ru|en]`` — check a match result file.

A thin shell over :func:`scoring.rules.match.check.validate_match_data`, the same call
the model validation, admin and API make; nothing here decides a rule.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.rules.match.check import validate_match_data
from scoring.rules.match.spec import MatchValidation, format_score
from scoring.rules.problems.match import MATCH


class Command(BaseCommand):
    help = (
        "Validate a match result (games, final score or both) against its options. "
        "Exit status 0 when the result is possible, 1 when it is refused."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="JSON file with the match options, games and/or final")
        parser.add_argument(
            "--json",
            action="store_true",
            help="print one JSON object {ok, errors, score, winner, crawford_game}",
        )
        parser.add_argument(
            "--lang",
            choices=("ru", "en"),
            default=None,
            help="language of the messages (default: the site language)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        language = options["lang"] or settings.LANGUAGE_CODE[:2]
        result = validate_match_data(self._load(options["file"], language, options["json"]))
        if options["json"]:
            self._emit(result.as_dict(language))
        else:
            self._print_text(result, language)
        if not result.ok:
            raise SystemExit(1)

    def _load(self, path: str, language: str, as_json: bool) -> Any:
        """The decoded file, or a clean refusal naming what is wrong with it."""
        try:
            with open(path, encoding="utf-8") as handle:
                return json.load(handle)
        except OSError as exc:
            problem = MATCH.problem("file_unreadable", path=path, reason=exc.strerror or str(exc))
        except UnicodeDecodeError:
            problem = MATCH.problem("file_not_utf8", path=path)
        except json.JSONDecodeError as exc:
            problem = MATCH.problem(
                "file_not_json", path=path, reason=exc.msg, line=exc.lineno, column=exc.colno
            )
        message = problem.message(language)
        if as_json:
            self._emit(
                {
                    "ok": False,
                    "errors": [{"game": None, "code": problem.code, "message": message}],
                    "score": [0, 0],
                    "winner": None,
                    "crawford_game": None,
                }
            )
            raise SystemExit(2)
        raise CommandError(message, returncode=2)

    def _emit(self, payload: dict[str, Any]) -> None:
        self.stdout.write(json.dumps(payload, ensure_ascii=False))

    def _print_text(self, result: MatchValidation, language: str) -> None:
        ru = language == "ru"
        score = format_score(result.score)
        if result.ok:
            head = f"Результат возможен: {score}" if ru else f"Result accepted: {score}"
            if result.winner:
                head += f", {'победитель' if ru else 'winner'} {result.winner}"
            self.stdout.write(self.style.SUCCESS(head))
        else:
            head = "Результат отклонён" if ru else "Result refused"
            self.stdout.write(self.style.ERROR(f"{head} ({score})"))
        if result.crawford_game is not None:
            label = "Кроуфордская партия" if ru else "Crawford game"
            self.stdout.write(f"{label}: {result.crawford_game}")
        for line in result.games:
            marks = []
            if line.crawford:
                marks.append("кроуфордская" if ru else "Crawford")
            elif line.post_crawford:
                marks.append("пост-кроуфордская" if ru else "post-Crawford")
            if line.holland:
                marks.append("Холланд" if ru else "Holland")
            suffix = f"  [{', '.join(marks)}]" if marks else ""
            self.stdout.write(f"  {line.number}: {format_score(line.score)}{suffix}")
        for problem in result.problems:
            # The message already starts with its place ("Game 2: "), said once.
            self.stdout.write(f"  {problem.code}: {problem.message(language)}")
