"""``manage.py validate_record FILE`` — check a game record or a .mat match file.

Book-style text (Part 6 layout), a match in it (the site's multi-game ``.txt``) and
Jellyfish .mat files are told apart by content, by the very reader the web pages use
(:func:`scoring.viewer.frames.view_text`); this command only reads the file and prints.

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

from scoring.records.match_files import decode
from scoring.rules.errors import is_english, side_word
from scoring.rules.problems.record import result_kind_name
from scoring.rules.variants import VARIANTS, get_variant
from scoring.viewer.frames import view_text
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
        lang = "en" if is_english(options["lang"] or current_language()) else "ru"
        try:
            raw = path.read_bytes()
        except OSError as exc:
            self._refuse(options, "unreadable", f"cannot read {path}: {exc}", f"не удаётся прочитать {path}: {exc}")
        # The web's own decoding (UTF-8, then Windows-1251) and size cap: what the site
        # accepts, the command accepts.
        text, problem = decode(raw, path.name)
        if problem is not None or text is None:
            message = problem.message(lang) if problem else "?"
            self._refuse(options, problem.code if problem else "unreadable", message, message)
        assert text is not None
        # The web's own reader: a .mat, one game or a match in the book's notation (our
        # multi-game .txt) reads here exactly as on the viewer and upload pages.
        view = view_text(text, variant=options["variant"], numbering=options["numbering"])
        data = view.as_dict(lang)
        self._exit_code = 0 if data["ok"] else 1
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False))
            return
        self.stdout.write(_readable(data, lang, path.name))

    _exit_code = 0

    def _refuse(self, options: dict[str, Any], code: str, en: str, ru: str) -> None:
        """The file cannot be checked: exit status 2; with ``--json`` still one JSON object."""
        lang = "en" if is_english(options["lang"] or current_language()) else "ru"
        message = en if lang == "en" else ru
        if options["json"]:
            self.stdout.write(json.dumps({"ok": False, "error": {"code": code, "message": message}}, ensure_ascii=False))
        raise CommandError(message, returncode=2)


def _readable(data: dict[str, Any], lang: str, name: str) -> str:
    ru = lang == "ru"
    variant = get_variant(data["variant"])
    lines = [f"{name}: {variant.name_ru if ru else variant.name_en}"]
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
    if "final" in data:  # a .mat: the match score, whoever won
        a, b = data["players"]
        score = f"{a} {data['final'][0]} : {data['final'][1]} {b}"
        length = data["length"]
        if ru:
            lines.append(f"Счёт матча: {score}" + (f" (матч до {length})." if length else "."))
        else:
            lines.append(f"Match score: {score}" + (f" (match to {length})." if length else "."))
        if result:
            winner = a if result["winner"] == "white" else b
            lines.append(f"Матч выиграл {winner}." if ru else f"Match won by {winner}.")
        return "\n".join(lines)
    if result:
        winner = side_word(result["winner"], "ru") if ru else result["winner"]
        if ru:
            lines.append(
                f"Итог: выиграли {winner}, {result_kind_name(result['kind'], 'ru')}, куб {result['cube']}, "
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
