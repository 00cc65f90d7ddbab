"""The pairing core imports only the standard library and the rules core (no Django)."""

from __future__ import annotations

import subprocess
import sys


def test_pairing_core_imports_nothing_from_django():
    code = (
        "import sys, tournaments.pairing, tournaments.pairing.options, tournaments.pairing.problems; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery')"
        " or m.startswith('tournaments.') and not m.startswith(('tournaments.pairing', "
        "'tournaments.standings'))]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_pairing_and_standings_code_is_said_in_both_languages():
    from tournaments.pairing import problems as pairing
    from tournaments.standings.problems import STANDINGS

    catalogues = [
        pairing.WHY,
        pairing.SWISS,
        pairing.KNOCKOUT,
        pairing.ROUND_ROBIN,
        pairing.SCHEVENINGEN,
        pairing.TRF,
        pairing.OPTIONS,
        pairing.PAIRING,
        STANDINGS,
    ]
    count = 0
    for catalogue in catalogues:
        for name in catalogue:
            en, ru = catalogue.templates(name)
            assert en and ru and en != ru, catalogue.code(name)
            problem = catalogue.problem(name)
            assert problem.message("en") and problem.message("ru")  # renders with no details
            count += 1
    assert count > 60
