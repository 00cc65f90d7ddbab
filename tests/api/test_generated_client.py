"""Issue 47: the schema is usable as integrators use it — a Python client generated from it plays an event.

At test time (never committed) ``openapi-python-client`` generates a client from
``/api/schema/`` into a temporary folder; then the README's walkthrough runs through
that client against a live server, player-driven: the organiser's token from the
account's password, the event, its players (by name: no accounts), round 1 played by
the players' apps with only their private links (exchanged for entry keys; each finds
its match and reports or confirms through ``result_state.actions``), round 2 entered by
the desk in one call, and the standings read. Every answer is parsed by the generated
models, so a schema that lies (a null where it promised an object, an undeclared
status) fails here.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client as DjangoClient

from clubs.models import ClubRole
from tests.factories import ClubFactory
from tournaments.access import private_links
from tournaments.models import Entry, Round, RoundStatus

pytestmark = pytest.mark.django_db(transaction=True)
GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture
def generated(tmp_path, monkeypatch):
    """The client package ``zarik_client`` generated from the live schema (post hooks off: no formatter)."""
    schema = DjangoClient().get("/api/schema/", {"format": "json"}, HTTP_ACCEPT="application/vnd.oai.openapi+json")
    (tmp_path / "schema.json").write_text(json.dumps(schema.json()))
    (tmp_path / "config.json").write_text(json.dumps({"post_hooks": []}))
    done = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(tmp_path / "schema.json"), "--output-path",
         str(tmp_path / "zarik_client"), "--meta", "none", "--config", str(tmp_path / "config.json")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module("zarik_client")


def _ok(answer, kind):
    assert isinstance(answer, kind), answer.to_dict() if hasattr(answer, "to_dict") else answer
    return answer


def test_the_readme_walkthrough_runs_player_driven_through_the_generated_client(generated, live_server):
    from zarik_client.api.entry_tokens import entry_tokens_create
    from zarik_client.api.matches import matches_confirm_create, matches_report_create
    from zarik_client.api.me import me_matches_list
    from zarik_client.api.rounds import rounds_publish_create, rounds_results_create
    from zarik_client.api.tokens import tokens_create
    from zarik_client.api.tournaments import (
        tournaments_create,
        tournaments_entries_create,
        tournaments_generate_create,
        tournaments_standings_retrieve,
    )  # fmt: skip
    from zarik_client.models import (
        BulkResultsIn,
        BulkResultsOut,
        Confirm,
        EntryIn,
        EntryKey,
        Generate,
        Generated,
        LinkIn,
        NewToken,
        PaginatedMyMatchList,
        Report,
        ResultOut,
        RoundOut,
        TokenIn,
        Tournament,
        TournamentIn,
    )  # fmt: skip

    club = ClubFactory(slug="gen-club")
    organiser = get_user_model().objects.create_user("gen-organiser", password="gen-secret")
    ClubRole.objects.create(club=club, user=organiser, role="organiser")
    anonymous = generated.Client(base_url=live_server.url, raise_on_unexpected_status=True)

    key = _ok(tokens_create.sync(client=anonymous, body=TokenIn.from_dict(
        {"name": "walkthrough", "scope": "write", "username": "gen-organiser", "password": "gen-secret"})), NewToken).key
    desk = generated.AuthenticatedClient(base_url=live_server.url, token=key, raise_on_unexpected_status=True)
    _ok(tournaments_create.sync(client=desk, body=TournamentIn.from_dict({
        "club": "gen-club", "name": "Generated Friday", "slug": "gen-friday", "starts_on": "2026-05-01",
        "system": "swiss", "rounds_planned": 2, "match_length": 5, "public": True, "seeding": "registration",
    })), Tournament)  # fmt: skip
    entered = tournaments_entries_create.sync("gen-friday", client=desk, body=[
        EntryIn.from_dict({"last_name": f"Генеров{i}", "first_name": "Пётр", "category": 5}) for i in range(4)
    ])  # fmt: skip
    assert isinstance(entered, list) and len(entered) == 4

    # Round 1, player-driven: each player's app has only the private link printed on the card.
    rnd = _ok(tournaments_generate_create.sync("gen-friday", client=desk, body=Generate.from_dict({})), Generated).rounds[0]
    _ok(rounds_publish_create.sync(str(rnd.id), client=desk), RoundOut)
    for entry in Entry.objects.filter(tournament__slug="gen-friday").order_by("pk"):
        link = private_links.url_for(entry)
        exchanged = _ok(entry_tokens_create.sync(client=anonymous, body=LinkIn.from_dict({"link": link})), EntryKey)
        app = generated.AuthenticatedClient(base_url=live_server.url, token=exchanged.key, raise_on_unexpected_status=True)
        [mine] = _ok(me_matches_list.sync(client=app), PaginatedMyMatchList).results
        actions = {a.action: a for a in mine.result_state.actions}
        if "confirm" in actions:  # the opponent reported: confirm what was read
            body = Confirm.from_dict(actions["confirm"].body.to_dict())
            assert _ok(matches_confirm_create.sync(str(mine.id), client=app, body=body), ResultOut).state == "confirmed"
        else:
            body = Report.from_dict({"final": [5, 2], "version": mine.version})
            _ok(matches_report_create.sync(str(mine.id), client=app, body=body), ResultOut)
    assert Round.objects.get(pk=rnd.id).status == RoundStatus.FINISHED

    # Round 2, entered by the desk in one call.
    rnd = _ok(tournaments_generate_create.sync("gen-friday", client=desk, body=Generate.from_dict({})), Generated).rounds[0]
    _ok(rounds_publish_create.sync(str(rnd.id), client=desk), RoundOut)
    rows = [{"match": p.match, "final": [2, 5], "version": p.version} for p in rnd.pairings]
    done = _ok(rounds_results_create.sync(str(rnd.id), client=desk, body=BulkResultsIn.from_dict({"results": rows})),
               BulkResultsOut)  # fmt: skip
    assert (done.saved, done.refused) == (2, 0)
    standings = tournaments_standings_retrieve.sync("gen-friday", client=desk)
    assert standings.rounds == [1, 2] and len(standings.sections[0].rows) == 4
