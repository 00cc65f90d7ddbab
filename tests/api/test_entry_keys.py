"""Issue 47: a player with only a private link plays over the API — the link exchanged for an entry key.

The players here have no accounts: the organiser enters them by name, and each gets
only the private link printed on their card. A player app exchanges it at
``POST /api/entry-tokens/`` and then checks in, asks for a bye, reads its match,
reports, confirms and disputes with that key — and nothing else; reissuing the link
revokes the key.
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import ClubRole
from scoring.models import Result, ResultState
from tests.factories import ClubFactory, UserFactory
from tournaments.access import private_links
from tournaments.api.http.tokens import issue as issue_token
from tournaments.models import AuditEntry, Entry, EntryStatus, TokenScope

pytestmark = pytest.mark.django_db


def call(http: Client, method: str, url: str, data=None, ok=(200, 201, 204)):
    answer = getattr(http, method)(url, data, content_type="application/json")
    assert answer.status_code in ok, (url, answer.status_code, answer.content[:500])
    return answer.json() if answer.content else None


def _event(players: int = 4, rounds: int = 2):
    """An organiser's released Swiss of ``players`` entered by name (no accounts), and the organiser's client."""
    club = ClubFactory()
    director = UserFactory()
    ClubRole.objects.create(club=club, user=director, role="organiser")
    _token, key = issue_token(director, "desk", TokenScope.WRITE)
    organiser = Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")
    call(organiser, "post", "/api/tournaments/", {
        "club": club.slug, "name": "Link Friday", "slug": "link-friday", "starts_on": "2026-05-01",
        "system": "swiss", "rounds_planned": rounds, "match_length": 5, "public": True,
        "seeding": "registration",
    })  # fmt: skip
    call(organiser, "post", "/api/tournaments/link-friday/entries/", [
        {"first_name": "Пётр", "last_name": f"Безаккаунтов{i}", "category": 5} for i in range(players)
    ])  # fmt: skip
    return organiser


def _app_of(entry: Entry) -> tuple[Client, dict]:
    """A player app that was given only the entry's private link (as printed on the card)."""
    link = "https://zarik.example" + private_links.url_for(entry)
    exchanged = call(Client(HTTP_ACCEPT_LANGUAGE="en"), "post", "/api/entry-tokens/", {"link": link})
    return Client(HTTP_AUTHORIZATION=f"Bearer {exchanged['key']}", HTTP_ACCEPT_LANGUAGE="en"), exchanged


def _action(match: dict, name: str) -> dict:
    [found] = [a for a in match["result_state"]["actions"] if a["action"] == name]
    return found


def test_players_with_only_a_private_link_check_in_and_play_a_whole_round_through_the_api():
    organiser = _event()
    apps = {}
    for entry in Entry.objects.filter(tournament__slug="link-friday"):
        assert entry.player.user_id is None  # no account anywhere
        app, exchanged = _app_of(entry)
        assert exchanged["entry"] == entry.pk and exchanged["tournament"] == "link-friday"
        checked_in = call(app, "post", exchanged["check_in"])
        assert checked_in["status"] == EntryStatus.CHECKED_IN
        apps[entry.pk] = app
    [rnd] = call(organiser, "post", "/api/tournaments/link-friday/generate/", {})["rounds"]
    call(organiser, "post", f"/api/rounds/{rnd['id']}/publish/")
    for pairing in rnd["pairings"]:
        a, b = apps[pairing["player_a"]["entry"]], apps[pairing["player_b"]["entry"]]
        [mine] = call(a, "get", "/api/me/matches/")["results"]
        assert mine["id"] == pairing["match"]
        verdict = call(a, "post", f"/api/matches/{mine['id']}/check/", {"final": [5, 3]})
        assert verdict["ok"] is True
        report = _action(mine, "report")
        call(a, "post", report["href"], {**report["body"], "final": [5, 3]})
        [theirs] = call(b, "get", "/api/me/matches/")["results"]
        confirm = _action(theirs, "confirm")
        assert call(b, "post", confirm["href"], confirm["body"])["state"] == "confirmed"
    assert call(organiser, "get", f"/api/rounds/{rnd['id']}/")["status"] == "finished"
    assert Result.objects.filter(state=ResultState.CONFIRMED).count() == 2
    # the same audit lines as the private page's: a report and a confirmation per match, by no account
    lines = AuditEntry.objects.filter(tournament__slug="link-friday", action__in=["result.report", "result.confirm"])
    assert sorted(lines.values_list("action", flat=True)) == ["result.confirm"] * 2 + ["result.report"] * 2
    assert not lines.filter(user__isnull=False).exists()


def test_a_link_holder_disputes_and_asks_for_a_bye_with_the_key():
    organiser = _event(rounds=3)
    entries = list(Entry.objects.filter(tournament__slug="link-friday").order_by("pk"))
    app, exchanged = _app_of(entries[0])
    bye = call(app, "post", exchanged["bye_requests"], {"entry": entries[0].pk, "round": 2})
    assert bye["round"] == 2 and bye["entry"] == entries[0].pk
    someone_else = call(app, "post", exchanged["bye_requests"], {"entry": entries[1].pk, "round": 2}, ok=(403,))
    assert someone_else["status"] == 403
    [rnd] = call(organiser, "post", "/api/tournaments/link-friday/generate/", {})["rounds"]
    call(organiser, "post", f"/api/rounds/{rnd['id']}/publish/")
    [mine] = call(app, "get", "/api/me/matches/")["results"]
    opponent_entry = next(e for e in entries if e.pk in (mine["player_a"]["entry"], mine["player_b"]["entry"])
                          and e.pk != entries[0].pk)  # fmt: skip
    opponent, _ = _app_of(opponent_entry)
    call(opponent, "post", f"/api/matches/{mine['id']}/report/", {"final": [5, 0], "version": mine["version"]})
    dispute = _action(call(app, "get", f"/api/matches/{mine['id']}/"), "dispute")
    raised = call(app, "post", dispute["href"], {**dispute["body"], "reason": "It was 5:4"})
    assert call(app, "get", f"/api/disputes/{raised['id']}/")["reason"] == "It was 5:4"


def test_an_entry_key_may_do_only_what_the_private_page_does():
    organiser = _event()
    entry = Entry.objects.filter(tournament__slug="link-friday").first()
    app, _ = _app_of(entry)
    assert call(app, "get", "/api/tournaments/link-friday/standings/") is not None  # reads are open
    for method, url, body in [
        ("patch", "/api/tournaments/link-friday/", {"name": "Mine now"}),
        ("post", "/api/tournaments/link-friday/generate/", {}),
        ("post", "/api/tokens/", {"name": "wider", "scope": "write"}),
        ("post", f"/api/tournaments/link-friday/entries/{entry.pk}/withdraw/", {"reason": "x"}),
    ]:
        refused = call(app, method, url, body, ok=(403,))
        assert refused["code"] == "api.entry_key_scope", url
    assert call(organiser, "get", "/api/tournaments/link-friday/")["name"] == "Link Friday"


def test_reissuing_the_link_revokes_its_key_and_the_old_link_is_refused():
    _event()
    entry = Entry.objects.filter(tournament__slug="link-friday").first()
    app, _ = _app_of(entry)
    old_link = private_links.url_for(entry)
    assert call(app, "get", "/api/me/matches/")["results"] == []
    private_links.reissue(entry)
    revoked = call(app, "get", "/api/me/matches/", ok=(401,))
    assert revoked["code"] == "api.entry_key_revoked"
    stale = call(Client(HTTP_ACCEPT_LANGUAGE="en"), "post", "/api/entry-tokens/", {"link": old_link}, ok=(409,))
    assert stale["code"] == "api.link_reissued"
    fresh, _ = _app_of(entry)
    assert call(fresh, "get", "/api/me/matches/")["results"] == []


def test_a_made_up_link_or_key_is_refused_in_the_callers_language():
    _event()
    made_up = Client(HTTP_ACCEPT_LANGUAGE="ru").post(
        "/api/entry-tokens/", {"link": "https://zarik.example/p/12.0:forged/"}, content_type="application/json"
    )
    assert made_up.status_code == 400 and made_up.json()["code"] == "api.link_unknown"
    assert "личная ссылка" in made_up.json()["errors"]["link"][0]
    forged = Client(HTTP_AUTHORIZATION="Bearer ze_12.0:forged").get("/api/me/matches/")
    assert forged.status_code == 401 and forged.json()["code"] == "api.token_invalid"
