"""``manage.py swiss_pair FILE.trf [--json]``: pair the next round of a TRF-16 tournament.

A thin shell around the pure core, so arbiters can cross-check Zarik's Swiss
pairing against JaVaFo/bbpPairings on the same file. ``--json`` prints exactly
``{"pairs": [[a, b], ...], "bye": int|null}`` with TRF start numbers. A bad
file is reported as a one-line error naming the line — never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.rules.errors import RuleViolation
from tournaments.pairing.explain import fmt
from tournaments.pairing.swiss import pair_swiss, score_of
from tournaments.pairing.trf import parse_trf, to_pairing_input

#: Decisions every table shares; the command prints only the interesting ones.
QUIET_NOTES = (
    "pairing.why.same_group",
    "pairing.why.first_round_adjacent",
    "pairing.why.first_round_halves",
)


class Command(BaseCommand):
    help = "Pair the next Swiss round of the tournament in a FIDE TRF-16 file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="TRF-16 file")
        parser.add_argument("--json", action="store_true", help="print {pairs, bye} as JSON")
        parser.add_argument(
            "--lang", default="en", choices=["en", "ru"], help="language of the explanations"
        )

    def handle(self, *args: object, **opts: object) -> None:
        path = Path(str(opts["file"]))
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise CommandError(f"{path} is not UTF-8 text") from None
        try:
            tournament = parse_trf(text)
        except RuleViolation as exc:
            raise CommandError(f"{path}: {exc.problems[0].message(str(opts['lang']))}") from None
        inp = to_pairing_input(tournament)
        result = pair_swiss(inp)
        lang = str(opts["lang"])
        if result.status == "invalid":
            raise CommandError("; ".join(p.message(lang) for p in result.problems))
        for problem in result.problems:
            self.stderr.write(problem.message(lang))
        if opts["json"]:
            payload = {
                "pairs": [[p.a, p.b] for p in result.pairings],
                "bye": result.pairing_bye,
            }
            self.stdout.write(json.dumps(payload))
            return
        names = {p.start_number: p.name for p in tournament.players}
        score = {p.id: score_of(p, inp.options) for p in inp.players}
        title = tournament.name or path.name
        self.stdout.write(f"{title}: round {inp.round_number}, {len(result.pairings)} tables")
        for p in result.pairings:
            flag = "  REMATCH" if p.rematch else ""
            self.stdout.write(
                f"{p.table:>4}. {p.a:>4} {names.get(p.a, ''):<24} ({fmt(score[p.a])})  –  "
                f"{p.b:>4} {names.get(p.b, ''):<24} ({fmt(score[p.b])}){flag}"
            )
            for note in p.notes:
                if note.code not in QUIET_NOTES:
                    self.stdout.write(f"        {note.message(lang)}")
        for bye in result.byes:
            self.stdout.write(
                f"  bye: {bye.player:>4} {names.get(bye.player, '')} ({bye.kind}, "
                f"{fmt(bye.points)})"
            )
