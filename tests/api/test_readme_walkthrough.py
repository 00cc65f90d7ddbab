"""Issue 28: the manual's API walkthrough runs as written, against a live server with the demo loaded.

The walkthrough is one file, ``docs/snippets/api-walkthrough.sh``, that the integrator's
page of the manual shows in both languages (issue 48 moved it there from the README); it is
run as it is with bash, curl and jq against pytest-django's ``live_server`` — so the manual
cannot drift from the API: a wrong slug, a missing required field or a changed answer fails
here (every curl has ``-f``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tournaments.models import Round, RoundStatus, Tournament
from zarik.management.demo import load_demo

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = ROOT / "docs" / "snippets"
WALKTHROUGH = SNIPPETS / "api-walkthrough.sh"
PAGES = [ROOT / "docs" / "manual" / language / "integrator" / "index.md" for language in ("ru", "en")]


def walkthrough() -> str:
    return WALKTHROUGH.read_text(encoding="utf-8")


def test_the_manual_shows_the_walkthrough_that_runs_in_both_languages():
    script = walkthrough()
    assert "$API/tournaments/" in script and "```" not in script
    assert "/generate/" in script and "/me/matches/" in script and "/standings/" in script
    for page in PAGES:
        assert '```sh\n--8<-- "api-walkthrough.sh"\n```' in page.read_text(encoding="utf-8"), page


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq") and shutil.which("bash")),
                    reason="the walkthrough is a curl + jq script")
def test_the_readme_walkthrough_runs_as_written_and_finishes_the_event(live_server, transactional_db):
    load_demo()  # what `make run` serves: the demo's organiser, players and club
    env = {**os.environ, "API": f"{live_server.url}/api"}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", walkthrough()], env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    friday = Tournament.objects.get(slug="friday")
    rounds = Round.objects.filter(tournament=friday).order_by("number")
    assert [(r.number, r.status) for r in rounds] == [(1, RoundStatus.FINISHED), (2, RoundStatus.FINISHED)]
    # round 1 was confirmed by the players themselves, no official
    players = {e.player.user_id for e in friday.entries.select_related("player")}
    assert all(m.results.get(state="confirmed").confirmed_by_id in players for m in rounds[0].matches.all())
    assert '"rounds":[1,2]' in done.stdout.replace(" ", "")


def readme_curls() -> list[str]:
    """Every curl command the README and the manual show (their shell blocks and the manual's shell
    snippets), a command continued over lines joined into one."""
    blocks = [path.read_text(encoding="utf-8") for path in sorted(SNIPPETS.glob("*.sh"))]
    for path in [ROOT / "README.md", *sorted((ROOT / "docs" / "manual").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        blocks += re.findall(r"^```(?:sh|bash|shell)\n(.*?)^```$", text, flags=re.S | re.M)
    commands = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            commands += [part.strip() for part in re.split(r"\$\(|\|", line) if re.match(r"\s*curl\b", part)]
    return commands


def test_the_readme_sends_the_api_json_and_a_form_only_to_the_entries_import():
    """The API takes JSON only (a form body is a 415 problem): a README curl that sends a form
    (``-F``) posts a file to the entries import, and one that sends data (``-d``) says it is JSON."""
    curls = readme_curls()
    assert len(curls) >= 8, curls
    forms = [c for c in curls if re.search(r"\s-F\s|--form\b", c)]
    assert all("/entries/import/" in c for c in forms), forms
    data = [c for c in curls if re.search(r"\s-d\s|--data\b", c)]
    assert data and all('"$J"' in c or "application/json" in c for c in data), data
