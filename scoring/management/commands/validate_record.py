"""``manage.py validate_record FILE`` — check a game record or a .mat match file.

Book-style text (Part 6 layout) and Jellyfish .mat files are told apart by content. All the
work is in :mod:`scoring.rules.record_validate` and :mod:`scoring.rules.matfile`; this command only
reads the file and prints.

Exit status (from the shell): 0 when the record is clean, 1 when problems were found,
2 when the file cannot be read (``CommandError``). ``call_command`` never exits; it
returns nothing and writes the same output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.rules.errors import is_english, side_word
from scoring.rules.matfile import looks_like_mat, validate_mat_text
from scoring.rules.record_validate import validate_text
from scoring.rules.variants import VARIANTS
from zarik.i18n import current_language


class Command(BaseCommand):
    help = "Replay a game record (book notation or .mat) and report every problem found."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="record text (book layout) or a .mat match file")
        parser.add_argument("--variant", choices=sorted(VARIANTS), default=None)
        parser.add_argument("--numbering", choices=["through", "traditional"], default=None)
        parser.add_argument("--json", action="store_true", help="print exactly one JSON object")
        parser.add_argument("--lang", choices=["ru", "en"], default=None)

    def run_from_argv(self, argv: list[str]) -> None:
        self._exit_code = 0
        super().run_from_argv(argv)
        if self._exit_code:
            sys.exit(self._exit_code)

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from exc
        lang = "en" if is_english(options["lang"] or current_language()) else "ru"
        if looks_like_mat(text):
            report = validate_mat_text(text, variant=options["variant"] or "backgammon")
        else:
            report = validate_text(text, variant=options["variant"], numbering=options["numbering"])
        data = report.as_dict(lang)
        self._exit_code = 0 if data["ok"] else 1
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        self.stdout.write(_readable(data, lang, path.name))

    _exit_code = 0


def _readable(data: dict[str, Any], lang: str, name: str) -> str:
    ru = lang == "ru"
    lines = [f"{name}: {data['variant']}"]
    if data["ok"]:
        lines.append("Запись без ошибок." if ru else "The record is clean.")
    else:
        count = len(data["errors"])
        lines.append(f"Найдено проблем: {count}." if ru else f"Problems found: {count}.")
    for error in data["errors"]:
        lines.append(f"  [{error['code']}] {error['message']}")
    for note in data.get("notes", []):
        lines.append(f"  [{note['code']}] {note['message']}")
    for check in data["checkpoints"]:
        side = side_word(check["side"], "ru") if ru else check["side"]
        mark = "ok" if check["ok"] else ("не совпадает" if ru else "differs")
        where = f"ход {check['move']}, {side}" if ru else f"move {check['move']}, {side}"
        lines.append(f"  {'Проверочная позиция' if ru else 'Checkpoint'} ({where}): {mark}")
    result = data["result"]
    if result:
        winner = side_word(result["winner"], "ru") if ru else result["winner"]
        if ru:
            lines.append(
                f"Итог: выиграли {winner}, {result['kind']}, куб {result['cube']}, "
                f"очков {result['points']}."
            )
        else:
            lines.append(
                f"Result: {winner} wins, {result['kind']}, cube {result['cube']}, "
                f"{result['points']} points."
            )
    else:
        lines.append("Итог не определён." if ru else "No result (the game is not finished).")
    return "\n".join(lines)
