"""Swiss options a director sets: forbidden pairs, clubs apart, requested byes, late entries,
and the top N qualified into a cup — through the services, the pages and the real pairing."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from clubs.models import Membership
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OfficialFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
)
from tournaments.access import private_links
from tournaments.models import AuditEntry, ByeRequest, ForbiddenPair, OfficialRole, Tournament
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.pairing_manager.constraints import forbidden_pairs_for
from tournaments.rounds.pairing_manager.refusals import PairingRefused
from tournaments.rounds.swiss import requests as swiss_requests
from tournaments.standings_service import load_event

pytestmark = pytest.mark.django_db


def swiss(n: int, **options) -> Tournament:
    t = TournamentFactory(slug="fam", pairing_options=options, seeding="rating")
    for i in range(1, n + 1):
        EntryFactory(tournament=t, draw_number=i, seed_rating=2000 - i, player__last_name=f"Игрок{i}")
    return t


def entry(t: Tournament, number: int):
    return t.entries.get(draw_number=number)


def pairs(rnd) -> set[frozenset[int]]:
    return {
        frozenset((a.draw_number, b.draw_number))
        for a, b in ((m.entry_a, m.entry_b) for m in rnd.matches.select_related("entry_a", "entry_b"))
        if b is not None
    }


def codes(rnd) -> list[str]:
    return [n["code"] for n in rnd.explanation.get("notes", [])]


@pytest.fixture
def director(db):
    return UserFactory(username="director")


def test_a_forbidden_pair_is_never_paired_and_the_explanation_says_so(client, director):
    t = swiss(4)
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    swiss_requests.forbid_pair(t, entry(t, 1), entry(t, 2), "братья", director)
    [r1] = pm.generate_next(t, user=director)
    assert frozenset((1, 2)) not in pairs(r1)  # the book's round 1 would be 1–2, 3–4
    note = next(n for n in r1.explanation["notes"] if n["code"] == "pairing.why.forbidden_pair")
    assert note["details"]["comment"] == "братья"
    client.force_login(director)
    page = client.get(f"/t/{t.slug}/manage/round/{r1.pk}/").content.decode()
    assert "запретил эту пару" in page and "братья" in page
    assert AuditEntry.objects.filter(action="swiss.forbid_pair", tournament=t).exists()


def test_without_a_forbidden_pair_the_explanation_says_nothing(director):
    t = swiss(4)
    [r1] = pm.generate_next(t, user=director)
    assert pairs(r1) == {frozenset((1, 2)), frozenset((3, 4))}
    assert "pairing.why.forbidden_pair" not in codes(r1)


def test_same_club_is_kept_apart_only_in_the_first_k_rounds(director):
    t = swiss(4, club_apart_rounds=1)
    club = ClubFactory()
    for n in (1, 2):
        Membership.objects.create(player=entry(t, n).player, club=club, started_on=dt.date(2025, 1, 1))
    [r1] = pm.generate_next(t, user=director)
    assert frozenset((1, 2)) not in pairs(r1)
    assert "pairing.why.club_apart" in codes(r1)
    assert forbidden_pairs_for(t, None, 2, 1) == {}  # round 2: no longer apart


def test_refusals_are_specific(director):
    t = swiss(4)
    with pytest.raises(PairingRefused) as same:
        swiss_requests.forbid_pair(t, entry(t, 1), entry(t, 1), "", director)
    assert same.value.problems[0].code == "pairing.forbid_same"
    swiss_requests.forbid_pair(t, entry(t, 2), entry(t, 1), "", director)
    with pytest.raises(PairingRefused) as twice:
        swiss_requests.forbid_pair(t, entry(t, 1), entry(t, 2), "", director)
    assert twice.value.problems[0].code == "pairing.forbid_exists"
    assert "уже" in twice.value.problems[0].message("ru")


@pytest.mark.parametrize("points", [0.0, 0.5, 1.0])
def test_a_requested_bye_sits_the_player_out_for_the_organisers_points(director, points):
    t = swiss(5, half_bye_points=points)
    swiss_requests.request_bye(entry(t, 3), 1, director)
    [r1] = pm.generate_next(t, user=director)
    assert 3 not in {n for p in pairs(r1) for n in p}
    [bye] = [b for b in r1.explanation["byes"] if b["kind"] == "requested"]
    assert bye["player"] == 3 and bye["points"] == points
    pm.publish_round(r1, user=director)
    confirm_round(r1)
    # The public standings count it as the pairing did.
    table = next(iter(load_event(t).standings.values()))
    assert table.row(entry(t, 3).pk).values[table.options.tiebreaks[0]] == points
    # Round 2's score groups count the requested bye's points.
    [r2] = pm.generate_next(t, user=director)
    groups = {p: g["score"] for g in r2.explanation["groups"] for p in g["players"]}
    assert groups[3] == points


def test_requested_bye_refusals(director):
    t = swiss(4)
    [r1] = pm.generate_next(t, user=director)
    with pytest.raises(PairingRefused) as past:
        swiss_requests.request_bye(entry(t, 1), 1, director)
    assert past.value.problems[0].code == "pairing.bye_request_past"
    with pytest.raises(PairingRefused) as beyond:
        swiss_requests.request_bye(entry(t, 1), 9, director)
    assert beyond.value.problems[0].code == "pairing.bye_request_beyond"
    swiss_requests.request_bye(entry(t, 1), 3, director)
    with pytest.raises(PairingRefused) as twice:
        swiss_requests.request_bye(entry(t, 1), 3, director)
    assert twice.value.problems[0].code == "pairing.bye_request_exists"


@pytest.mark.parametrize("points", [0.0, 0.5])
def test_a_late_entry_is_credited_by_the_documented_rule(director, points):
    t = swiss(4, late_entry_points=points)
    [r1] = pm.generate_next(t, user=director)
    pm.publish_round(r1, user=director)
    confirm_round(r1)
    EntryFactory(tournament=t, draw_number=5, joined_round=2, player__last_name="Опоздавший")
    [r2] = pm.generate_next(t, user=director)
    groups = {p: g["score"] for g in r2.explanation["groups"] for p in g["players"]}
    assert groups.get(5, 0.0) == points
    assert ("pairing.why.late_entry_points" in codes(r2)) == bool(points)
    pm.publish_round(r2, user=director)
    table = next(iter(load_event(t).standings.values()))
    pairing_bye = r2.matches.filter(entry_a=entry(t, 5), entry_b__isnull=True).count()  # 1 point
    assert table.row(entry(t, 5).pk).values[table.options.tiebreaks[0]] == points + pairing_bye


def test_director_page_forbids_a_pair_and_keeps_bad_input(client, director):
    t = swiss(4)
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    client.force_login(director)
    url = f"/t/{t.slug}/manage/swiss/"
    page = client.get(url)
    assert page.status_code == 200 and "Запрещённые пары" in page.content.decode()
    one = entry(t, 1)
    bad = client.post(url + "forbid/", {"forbid-entry_a": one.pk, "forbid-entry_b": one.pk, "forbid-reason": "x"})
    assert bad.status_code == 400
    assert "разных" in bad.content.decode() and 'value="x"' in bad.content.decode()
    ok = client.post(url + "forbid/", {"forbid-entry_a": one.pk, "forbid-entry_b": entry(t, 2).pk})
    assert ok.status_code == 302 and ForbiddenPair.objects.filter(tournament=t).count() == 1
    done = client.post(url + "bye/", {"bye-entry": one.pk, "bye-round_number": 1})
    assert done.status_code == 302 and ByeRequest.objects.get().round_number == 1
    # The generate form shows the request next to the player's half-point-bye box.
    assert "заявлено заранее" in client.get(f"/t/{t.slug}/manage/").content.decode()
    past = client.post(url + "bye/", {"bye-entry": one.pk, "bye-round_number": 0})
    assert past.status_code == 400
    strangers = UserFactory()
    client.force_login(strangers)
    assert client.post(url + "bye/", {"bye-entry": one.pk, "bye-round_number": 3}).status_code in (403, 404)


def test_player_asks_for_a_bye_on_their_private_page(client, director):
    t = swiss(4)
    e = entry(t, 2)
    token = private_links.token_for(e)
    page = client.get(f"/p/{token}/")
    assert 'name="round_number"' in page.content.decode()
    client.post(f"/p/{token}/bye/", {"round_number": 2})
    assert list(e.bye_requests.values_list("round_number", flat=True)) == [2]
    again = client.post(f"/p/{token}/bye/", {"round_number": 2}, follow=True)
    assert "уже" in again.content.decode()
    req = e.bye_requests.get()
    client.post(f"/p/{token}/bye/{req.pk}/cancel/")
    assert not e.bye_requests.exists()


def test_top_n_of_a_swiss_are_seeded_into_a_cup(client, director):
    t = swiss(6)
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    for _ in range(3):
        [rnd] = pm.generate_next(t, user=director)
        pm.publish_round(rnd, user=director)
        confirm_round(rnd, winner_of=lambda m: "a" if m.entry_a.draw_number < m.entry_b.draw_number else "b")
    client.force_login(director)
    bad = client.post(f"/t/{t.slug}/manage/swiss/qualify/", {
        "qualify-top": 40, "qualify-name": "Кубок", "qualify-slug": "fam-cup",
    })
    assert bad.status_code == 400 and "40" in bad.content.decode()
    early = client.post(f"/t/{t.slug}/manage/swiss/qualify/", {
        "qualify-top": 3, "qualify-name": "Кубок", "qualify-slug": "fam-cup",
    })
    assert early.status_code == 400 and "не закончена" in early.content.decode()  # rounds still open
    done = client.post(f"/t/{t.slug}/manage/swiss/qualify/", {
        "qualify-top": 3, "qualify-name": "Кубок", "qualify-slug": "fam-cup",
        "qualify-double_elimination": "on", "qualify-reason": "the cup starts tonight",
    })
    assert done.status_code == 302
    cup = Tournament.objects.get(slug="fam-cup")
    # Seeds follow the Swiss places: the cup's draw number N is the player placed N-th.
    rows = next(iter(load_event(t).standings.values())).rows
    placed = [t.entries.get(pk=r.player.id).player_id for r in rows[:3]]
    assert [e.player_id for e in cup.entries.order_by("draw_number")] == placed
    assert list(cup.entries.values_list("draw_number", flat=True).order_by("draw_number")) == [1, 2, 3]
    assert cup.pairing_options["knockout"]["double_elimination"] is True
    [r1] = pm.generate_next(cup, user=director)  # the director runs the cup: same officials
    byes = [m for m in r1.matches.all() if m.entry_b_id is None]
    assert [m.entry_a.draw_number for m in byes] == [1]  # the Swiss winner gets the bye
    assert AuditEntry.objects.filter(action="knockout.qualify", tournament=t).exists()


def test_the_api_runs_the_same_services(director):
    t = swiss(4)
    OfficialFactory(tournament=t, user=director, role=OfficialRole.ORGANISER)
    api = APIClient()
    api.force_authenticate(director)
    base = f"/api/tournaments/{t.slug}"
    one, two = entry(t, 1), entry(t, 2)
    made = api.post(f"{base}/forbidden-pairs/", {"entry_a": one.pk, "entry_b": two.pk, "reason": "сёстры"}, format="json")
    assert made.status_code == 201, made.content
    again = api.post(f"{base}/forbidden-pairs/", {"entry_a": two.pk, "entry_b": one.pk}, format="json",
                     HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 409 and again.json()["code"] == "pairing.forbid_exists"
    assert [p["reason"] for p in api.get(f"{base}/forbidden-pairs/").json()["results"]] == ["сёстры"]
    bad = api.post(f"{base}/bye-requests/", {"entry": one.pk, "round": "x"}, format="json")
    assert bad.status_code == 400 and "round_number" in bad.json()["errors"]
    asked = api.post(f"{base}/bye-requests/", {"entry": one.pk, "round": 1}, format="json")
    assert asked.status_code == 201 and asked.json()["round"] == 1
    [r1] = pm.generate_next(t, user=director)
    assert any(b["kind"] == "requested" and b["player"] == 1 for b in r1.explanation["byes"])
    late = api.delete(f"{base}/bye-requests/{asked.json()['id']}/")
    assert late.status_code == 409 and late.json()["code"] == "pairing.bye_request_past"
    assert api.delete(f"{base}/forbidden-pairs/{made.json()['id']}/").status_code == 204
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    assert stranger.post(f"{base}/forbidden-pairs/", {"entry_a": one.pk, "entry_b": two.pk}, format="json").status_code == 403
    few = api.post(f"{base}/qualify/", {"top": 9, "name": "Cup", "slug": "api-cup"}, format="json")
    assert few.status_code == 409 and few.json()["code"] == "pairing.qualify_count"
