"""Issue 28: every write of the API answers where its resource is (``Location``) and that resource's ``ETag``.

The test walks the schema's write operations as an integrator would use them —
an event created, entered, paired, played (every result action, flat and under
the tournament), disputed, ruled, appealed and qualified into a cup, beside an
open draw, a team event, registrations, sanctions, webhooks and tokens — and
records every answer. Then, for every write answered 200 or 201 with a JSON body:
``Location`` names an address that a GET with the same credentials reads (200),
and ``ETag`` is the tag that GET answers. Every write operation of the schema
that answers 201 or 200 must have been walked: an endpoint added later without
a row here fails the coverage check, not silently.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubs.models import ClubRole
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.access import private_links
from tournaments.api.http.tokens import issue as issue_token
from tournaments.api.http.written import NOTHING_WRITTEN
from tournaments.models import Entry, Match, ResultStatus, TokenScope

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict[str, Any]:
    with django_db_blocker.unblock():
        answer = Client().get("/api/schema/", {"format": "json"}, HTTP_ACCEPT="application/vnd.oai.openapi+json")
    return answer.json()


def template_of(schema: dict[str, Any], method: str, url: str) -> str:
    """The schema's path template of ``url`` (the most specific one, when two match)."""
    path = url.split("?")[0]
    found = [
        template for template, item in schema["paths"].items()
        if method in item and re.match("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$", path)
    ]  # fmt: skip
    assert found, f"no operation for {method.upper()} {url}"
    return min(found, key=lambda t: t.count("{"))


class Walk:
    """Every write answer, by operation; each actor is a token's client."""

    def __init__(self, schema):
        self.schema = schema
        self.answers: list[tuple[str, str, Client, Any]] = []  # (operation, url, who, answer)
        self.wrong: list[str] = []
        self.organiser: Client | None = None  # reads what a visitor's write made

    def actor(self, user=None) -> Client:
        if user is None:
            return Client(HTTP_ACCEPT_LANGUAGE="en")
        _token, key = issue_token(user, "walk", TokenScope.WRITE)
        return Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en")

    def __call__(self, who: Client, method: str, url: str, body=None, ok=(200, 201), multipart=False):
        if multipart:
            answer = getattr(who, method)(url, body)
        elif body is None:
            answer = getattr(who, method)(url)
        else:
            answer = getattr(who, method)(url, body, content_type="application/json")
        assert answer.status_code in ok, (method, url, answer.status_code, answer.content[:600])
        operation = f"{method.upper()} {template_of(self.schema, method, url)}"
        self.answers.append((operation, url, who, answer))
        self.check(operation, who, answer)
        return answer.json() if answer.content and "json" in answer["Content-Type"] else None


    def check(self, operation: str, who: Client, answer) -> None:
        """Right after the write, before anything else changes: its Location reads, its ETag is that read's."""
        if answer.status_code not in (200, 201) or not answer["Content-Type"].startswith("application/json"):
            return
        if answer.wsgi_request.resolver_match.url_name in NOTHING_WRITTEN:
            if answer.has_header("Location"):
                self.wrong.append(f"{operation}: a Location on what writes nothing")
            return
        location = answer.get("Location")
        if not location:
            self.wrong.append(f"{operation}: no Location")
            return
        reader = who if "HTTP_AUTHORIZATION" in who.defaults else self.organiser
        read = reader.get(location)
        if read.status_code != 200:
            self.wrong.append(f"{operation}: Location {location} answers {read.status_code}")
            return
        if answer.status_code == 200 and answer.get("Content-Location") != location:
            self.wrong.append(f"{operation}: Content-Location {answer.get('Content-Location')} is not {location}")
        if who is reader and answer.get("ETag") != read["ETag"]:
            self.wrong.append(f"{operation}: ETag {answer.get('ETag')} is not the one GET {location} answers")


def walk_everything(walk: Walk):
    """One integrator's whole use of the API's writes. Returns the organiser's client."""
    club = ClubFactory(slug="walk-club")
    organiser_user, jury_user = UserFactory(), UserFactory(username="walk-jury")
    ClubRole.objects.create(club=club, user=organiser_user, role="organiser")
    org = walk.organiser = walk.actor(organiser_user)
    jury = walk.actor(jury_user)
    walk(org, "post", "/api/tokens/", {"name": "scoreboard", "scope": "read"})

    # --- the event, its officials, players and desk
    walk(org, "post", "/api/tournaments/", {
        "club": "walk-club", "name": "Walk Swiss", "slug": "walk", "starts_on": "2026-05-01", "system": "swiss",
        "rounds_planned": 2, "match_length": 5, "public": True, "seeding": "registration", "late_penalty_minutes": 5,
    })  # fmt: skip
    walk(org, "patch", "/api/tournaments/walk/", {"venue": "Hall 2"})
    walk(org, "post", "/api/tournaments/walk/officials/", {"user": "walk-jury", "role": "jury"})
    users = [UserFactory() for _ in range(9)]
    players = [PlayerFactory(user=user) for user in users]
    player_api = {p.pk: walk.actor(u) for p, u in zip(players, users, strict=True)}
    entries = walk(org, "post", "/api/tournaments/walk/entries/", [{"player": p.pk} for p in players[:8]])
    ninth = walk(org, "post", "/api/tournaments/walk/entries/", {"player": players[8].pk})
    api_of = {e["id"]: player_api[e["player"]] for e in [*entries, ninth]}
    desk = f"/api/tournaments/walk/entries/{ninth['id']}/"
    walk(org, "patch", desk, {"seed_rating": 1500})
    walk(api_of[ninth["id"]], "post", desk + "check-in/")
    link = private_links.url_for(Entry.objects.get(pk=ninth["id"]))
    walk(walk.actor(), "post", "/api/entry-tokens/", {"link": link})  # a player app's key (issue 47)
    walk(org, "delete", desk + "check-in/")
    walk(org, "post", desk + "withdraw/", {"reason": "left the hall ill"})
    walk(org, "post", desk + "reinstate/", {"reason": "back"})
    walk(org, "delete", desk, ok=(204,))
    csv = SimpleUploadedFile("list.csv", "last_name,first_name,category\nИванов,Иван,4\n".encode(), content_type="text/csv")
    walk(org, "post", "/api/tournaments/walk/entries/import/?dry_run=1", {"file": csv}, multipart=True)
    hook = walk(org, "post", "/api/tournaments/walk/webhooks/", {"url": "https://example.org/zarik", "events": ["round.published"]})
    walk(org, "patch", f"/api/tournaments/walk/webhooks/{hook['id']}/", {"active": False})
    hook = walk(org, "post", "/api/clubs/walk-club/webhooks/", {"url": "https://example.org/zarik", "events": ["round.published"]})
    walk(org, "patch", f"/api/clubs/walk-club/webhooks/{hook['id']}/", {"active": False})

    # --- round 1 through the flat routes: pair, change, publish, unpublish, publish again
    [rnd] = walk(org, "post", "/api/tournaments/walk/generate/", {})["rounds"]
    first, second = rnd["pairings"][0]["player_a"]["entry"], rnd["pairings"][1]["player_a"]["entry"]
    walk(org, "post", f"/api/rounds/{rnd['id']}/change/", {"action": "swap", "player_x": first, "player_y": second})
    walk(org, "post", f"/api/rounds/{rnd['id']}/publish/")
    walk(org, "post", f"/api/rounds/{rnd['id']}/unpublish/", {"reason": "a table was missing"})
    rnd = walk(org, "post", f"/api/rounds/{rnd['id']}/publish/")
    play_round(walk, org, jury, api_of, rnd, base="/api/matches")
    walk(org, "post", "/api/tournaments/walk/sanctions/", {"entry": first, "kind": "warning", "reason": "noisy dice cup"})

    # --- round 2 through the tournament's nested routes, then the cup of its leaders
    [rnd] = walk(org, "post", "/api/tournaments/walk/generate/", {})["rounds"]
    rnd = walk(org, "post", f"/api/rounds/{rnd['id']}/publish/")
    play_round(walk, org, jury, api_of, rnd, base="/api/tournaments/walk/matches")
    for top in (4, 2, 3, 5, 6):  # a cut between two players the tie-breaks do not separate is refused (409)
        cup = walk(org, "post", "/api/tournaments/walk/qualify/", {"top": top, "name": "Walk Final", "slug": "walk-final"},
                   ok=(201, 409))
        if "seeds" in (cup or {}):
            break
    assert "seeds" in cup

    # --- a second event: sections, forbidden pairs, byes, registrations, the open draw
    walk(org, "post", "/api/tournaments/", {
        "club": "walk-club", "name": "Walk Open", "slug": "walk-open", "starts_on": "2026-06-01", "system": "swiss",
        "rounds_planned": 3, "match_length": 5, "public": True, "seeding": "draw",
    })  # fmt: skip
    section = walk(org, "post", "/api/tournaments/walk-open/sections/", {
        "name": "Высшая", "group": "higher", "min_category": 7, "max_category": 9, "cube": True, "match_length": 11,
    })  # fmt: skip
    walk(org, "patch", f"/api/tournaments/walk-open/sections/{section['id']}/", {"name": "Высшая лига"})
    entered = walk(org, "post", "/api/tournaments/walk-open/entries/", [{"player": p.pk} for p in players[:4]])
    walk(org, "post", "/api/tournaments/walk-open/forbidden-pairs/",
         {"entry_a": entered[0]["id"], "entry_b": entered[1]["id"], "reason": "sisters"})
    walk(org, "post", "/api/tournaments/walk-open/bye-requests/", {"entry": entered[2]["id"], "round": 2})
    walk(org, "patch", "/api/tournaments/walk-open/", {"registration_open": True, "registration_approval": True})
    visitor = walk.actor()
    application = {"last_name": "Петров", "first_name": "Иван", "email": "ivan@example.org", "category": 4}
    applied = walk(visitor, "post", "/api/tournaments/walk-open/registrations/", application)
    walk(org, "post", f"/api/tournaments/walk-open/registrations/{applied['id']}/approve/", {"player": "new"})
    applied = walk(visitor, "post", "/api/tournaments/walk-open/registrations/", {**application, "email": "i2@example.org"})
    walk(org, "post", f"/api/tournaments/walk-open/registrations/{applied['id']}/refuse/", {"reason": "full"})
    walk(org, "post", "/api/tournaments/walk-open/draw/commit/")
    walk(org, "post", "/api/tournaments/walk-open/draw/perform/")

    # --- a team event (Scheveningen): teams and their boards
    walk(org, "post", "/api/tournaments/", {
        "club": "walk-club", "name": "Walk Teams", "slug": "walk-teams", "starts_on": "2026-07-01",
        "system": "scheveningen", "match_length": 5, "public": True, "seeding": "registration",
    })  # fmt: skip
    boarded = walk(org, "post", "/api/tournaments/walk-teams/entries/", [{"player": p.pk} for p in players[:2]])
    team = walk(org, "post", "/api/tournaments/walk-teams/teams/", {"name": "Зарик-1", "club": "walk-club"})
    walk(org, "post", f"/api/tournaments/walk-teams/teams/{team['id']}/members/", {"entry": boarded[0]["id"], "board": 1})
    team_match = org.get("/api/tournaments/walk-teams/team-match/")  # the team match, the event's main result
    if team_match.status_code != 200 or not team_match.has_header("ETag"):
        walk.wrong.append(f"GET team-match: {team_match.status_code} without an ETag")
    return org


def play_round(walk: Walk, org: Client, jury: Client, api_of: dict[int, Client], rnd: dict, base: str) -> None:
    """Every result action on the round's four matches; the fourth is confirmed at the desk, then the round closed."""
    m1, m2, m3, m4 = rnd["pairings"]
    a, b = api_of[m1["player_a"]["entry"]], api_of[m1["player_b"]["entry"]]
    assert walk(a, "post", f"{base}/{m1['match']}/check/", {"final": [5, 2]})["ok"] is True  # writes nothing
    reported = walk(a, "post", f"{base}/{m1['match']}/report/", {"final": [5, 2], "version": m1["version"]})
    walk(b, "post", f"{base}/{m1['match']}/confirm/", {"result": reported["id"], "version": reported["match_version"]})

    a, b = api_of[m2["player_a"]["entry"]], api_of[m2["player_b"]["entry"]]
    reported = walk(a, "post", f"{base}/{m2['match']}/report/", {"final": [5, 3], "version": m2["version"]})
    dispute = walk(b, "post", f"{base}/{m2['match']}/dispute/",
                   {"result": reported["id"], "version": reported["match_version"], "reason": "It was 3:5"})
    ruled = walk(org, "post", f"/api/disputes/{dispute['id']}/rule/",
                 {"outcome": "uphold", "ruling": "The sheet says 5:3", "version": dispute["match_version"]})
    if base == "/api/matches":  # once is enough for the appeal and the jury (they have no nested routes)
        appealed = walk(b, "post", f"/api/disputes/{dispute['id']}/appeal/", {"reason": "The sheet was not read"})
        walk(jury, "post", f"/api/disputes/{dispute['id']}/decide/",
             {"outcome": "uphold", "decision": "Ruling sustained", "version": appealed["match_version"]})
    else:
        assert ruled["state"]

    version = m3["version"]
    late = walk(org, "post", f"{base}/{m3['match']}/lateness/",
                {"late_side": "a", "minutes": 3, "reason": "arrived late", "version": version})
    clocked = walk(org, "post", f"{base}/{m3['match']}/clock/",
                   {"minutes_per_point": 2, "delay_seconds": 12, "reason": "slow play", "version": late["version"]})
    walk(org, "post", f"{base}/{m3['match']}/settle/",
         {"kind": "forfeit", "winner": "b", "reason": "A left", "version": clocked["version"]})

    if base == "/api/matches":
        Match.objects.filter(pk=m4["match"]).update(score_a=5, score_b=1, winner="a", result_status=ResultStatus.CONFIRMED)
        walk(org, "post", f"/api/rounds/{rnd['id']}/close/")
    else:  # the desk's bulk results (issue 47): the last confirmation closes the round itself
        walk(org, "post", f"/api/rounds/{rnd['id']}/results/", {"results": [{"match": m4["match"], "final": [5, 1]}]})


def test_every_write_answers_a_readable_location_and_its_etag(schema):
    walk = Walk(schema)
    walk_everything(walk)
    assert len(walk.answers) > 60
    assert not walk.wrong, walk.wrong


def test_every_write_operation_answering_200_or_201_is_walked(schema):
    walk = Walk(schema)
    walk_everything(walk)
    walked = {operation for operation, *_ in walk.answers}
    declared = {
        f"{method.upper()} {path}"
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in WRITES and {"200", "201"} & set(operation["responses"])
    }
    never = sorted(declared - walked)
    assert not never, never


def test_the_schema_declares_the_location_and_etag_of_writes_and_the_etag_of_reads(schema):
    missing = []
    for path, item in schema["paths"].items():
        if path.endswith("/schema/"):
            continue
        for method, operation in item.items():
            for status, answer in operation.get("responses", {}).items():
                if status not in ("200", "201") or "application/json" not in answer.get("content", {}):
                    continue
                headers = set(answer.get("headers", {}))
                wanted = {"ETag"} if method == "get" else {"Location", "ETag"} if method in WRITES else set()
                if method in WRITES and status == "200":
                    wanted.add("Content-Location")
                if not wanted <= headers:
                    missing.append(f"{method.upper()} {path} {status}: {sorted(wanted - headers)}")
    assert not missing, missing
