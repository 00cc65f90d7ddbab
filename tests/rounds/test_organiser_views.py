"""Organiser pages: who may see and do what, and the round workflow through the browser."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import (
    OfficialFactory,
    TeamFactory,
    TeamMemberFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
    enter,
)
from tournaments.jobs import progress as jobs
from tournaments.models import (
    AuditEntry,
    CompetitionSystem,
    Match,
    OfficialRole,
    ResultStatus,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.rounds import pairing_manager as pm
from zarik.management.demo import SWISS_SLUG

User = get_user_model()


def _confirm(rnd: Round) -> None:
    confirm_round(rnd, winner_of=lambda m: "a", loser_score=2)


@pytest.fixture
def cup(db):
    """A small released Swiss with its officials, a player with an account and a draft round 2."""
    t = TournamentFactory(
        name="Кубок",
        slug="cup-views",
        starts_on=dt.date(2026, 3, 1),
        system=CompetitionSystem.SWISS,
        rounds_planned=None,
    )
    other = TournamentFactory(
        name="Другой", slug="other-views", starts_on=dt.date(2026, 3, 1), rounds_planned=None
    )
    users = {name: UserFactory(username=name) for name in ("org", "ref", "other_ref", "player")}
    OfficialFactory(tournament=t, user=users["org"], role=OfficialRole.ORGANISER)
    OfficialFactory(tournament=t, user=users["ref"], role=OfficialRole.REFEREE)
    OfficialFactory(tournament=other, user=users["other_ref"], role=OfficialRole.REFEREE)
    players = [
        {"last_name": f"Нардист{i}", "first_name": "Н", "short": True, "user": None}
        for i in range(1, 9)
    ]
    players[0]["user"] = users["player"]
    enter(t, players)
    [r1] = pm.generate_next(t, user=users["org"])
    pm.publish_round(r1, user=users["org"])
    _confirm(r1)
    [r2] = pm.generate_next(t, user=users["org"])
    return {"t": t, "users": users, "r1": r1, "r2": r2}


def _urls(cup) -> list[tuple[str, str, dict]]:
    slug, rid = cup["t"].slug, cup["r2"].pk
    x, y = cup["r2"].matches.order_by("table").values_list("entry_a_id", flat=True)[:2]
    return [
        ("get", reverse("manage-rounds", kwargs={"slug": slug}), {}),
        ("get", reverse("manage-round", kwargs={"slug": slug, "round_id": rid}), {}),
        ("post", reverse("manage-generate", kwargs={"slug": slug}), {"reason": "r"}),
        (
            "post",
            reverse("manage-round-change", kwargs={"slug": slug, "round_id": rid}),
            {"action": "swap", "player_x": x, "player_y": y, "reason": ""},
        ),
        ("post", reverse("manage-round-publish", kwargs={"slug": slug, "round_id": rid}), {}),
        ("post", reverse("manage-round-delete", kwargs={"slug": slug, "round_id": rid}), {}),
        ("get", reverse("manage-task", kwargs={"slug": slug, "task_id": "abc"}), {}),
        ("get", reverse("manage-task-status", kwargs={"slug": slug, "task_id": "abc"}), {}),
    ]


def _call(client, method, url, data):
    return client.get(url) if method == "get" else client.post(url, data)


def test_anonymous_is_sent_to_login_everywhere(client, cup):
    for method, url, data in _urls(cup):
        response = _call(client, method, url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    assert cup["t"].rounds.get(number=2).status == RoundStatus.DRAFT


@pytest.mark.parametrize("who", ["player", "other_ref"])
def test_players_and_officials_of_other_tournaments_are_refused(client, cup, who):
    client.force_login(cup["users"][who])
    for method, url, data in _urls(cup):
        assert _call(client, method, url, data).status_code == 403, url
    assert Round.objects.get(pk=cup["r2"].pk).status == RoundStatus.DRAFT
    # An unreleased tournament does not even admit to existing.
    t = Tournament.objects.get(pk=cup["t"].pk)  # saved, as the organiser's form does: the signals move its cache version on
    t.public = False
    t.save(update_fields=["public"])
    for method, url, data in _urls(cup):
        assert _call(client, method, url, data).status_code == 404, url


def test_referee_may_look_but_not_change(client, cup):
    client.force_login(cup["users"]["ref"])
    before = list(cup["r2"].matches.values_list("entry_a_id", "entry_b_id"))
    codes = [_call(client, m, u, d).status_code for m, u, d in _urls(cup)]
    assert codes == [200, 200, 403, 403, 403, 403, 403, 403]
    page = client.get(
        reverse("manage-round", kwargs={"slug": cup["t"].slug, "round_id": cup["r2"].pk})
    )
    assert "manage-round-publish" not in page.content.decode()
    assert b'name="player_x"' not in page.content
    assert list(cup["r2"].matches.values_list("entry_a_id", "entry_b_id")) == before
    assert Round.objects.get(pk=cup["r2"].pk).status == RoundStatus.DRAFT


def test_organiser_may_do_everything(client, cup):
    jobs.start(cup["t"].slug, "abc")  # the background pairing job the progress URLs ask about
    client.force_login(cup["users"]["org"])
    codes = {u: _call(client, m, u, d).status_code for m, u, d in _urls(cup)}
    urls = _urls(cup)
    assert codes[urls[0][1]] == 200 and codes[urls[1][1]] == 200
    # generate with a draft present: the page explains, no 500
    assert codes[urls[2][1]] == 200
    assert codes[urls[3][1]] in (200, 302)  # swap done, or refused (rematch) on the page
    assert codes[urls[4][1]] == 302  # published
    assert codes[urls[5][1]] == 302  # refused (published), back to the round with a message
    assert Round.objects.get(pk=cup["r2"].pk).status == RoundStatus.PUBLISHED
    assert codes[urls[6][1]] == 200 and codes[urls[7][1]] == 200
    other = client.get(reverse("manage-task-status", kwargs={"slug": cup["t"].slug, "task_id": "x"}))
    assert other.status_code == 404  # no such job here (another tournament's jobs live elsewhere)
    assert AuditEntry.objects.filter(action="round.publish").exists()


def test_generate_refusal_is_shown_in_both_languages_and_keeps_the_reason_field(client, cup):
    client.force_login(cup["users"]["org"])
    url = reverse("manage-generate", kwargs={"slug": cup["t"].slug})
    for lang, text in (("ru", "Тур 2 ещё черновик"), ("en", "Round 2 is still a draft")):
        client.cookies["django_language"] = lang
        response = client.post(url, {"reason": "мой текст причины"})
        body = response.content.decode()
        assert response.status_code == 200
        assert text in body and "мой текст причины" in body


def test_swap_refusal_on_the_page_then_override_with_reason(client, cup):
    client.force_login(cup["users"]["org"])
    r1, r2 = cup["r1"], cup["r2"]
    a1, b1 = r1.matches.order_by("table").values_list("entry_a_id", "entry_b_id")[0]
    m = (
        Match.objects.get(round=r2, entry_a=a1)
        if Match.objects.filter(round=r2, entry_a=a1).exists()
        else Match.objects.get(round=r2, entry_b=a1)
    )
    partner = m.entry_b_id if m.entry_a_id == a1 else m.entry_a_id
    url = reverse("manage-round-change", kwargs={"slug": cup["t"].slug, "round_id": r2.pk})
    data = {"action": "swap", "player_x": partner, "player_y": b1, "reason": ""}
    client.cookies["django_language"] = "en"
    response = client.post(url, data)
    body = response.content.decode()
    assert response.status_code == 200
    assert "have already played each other" in body
    assert f'value="{partner}" selected' in body  # what was typed is kept
    client.cookies["django_language"] = "ru"
    body = client.post(url, data).content.decode()
    assert "уже встречались" in body
    data["reason"] = "Решение судейской коллегии"
    response = client.post(url, data)
    assert response.status_code == 302
    pairs = {frozenset(p) for p in r2.matches.values_list("entry_a_id", "entry_b_id")}
    assert frozenset((a1, b1)) in pairs
    assert AuditEntry.objects.get(action="round.swap").reason == "Решение судейской коллегии"
    page = client.get(response["Location"]).content.decode()
    assert "Решение судейской коллегии" in page


def test_bad_form_input_is_a_message_not_a_500(client, cup):
    client.force_login(cup["users"]["org"])
    r2 = cup["r2"]
    url = reverse("manage-round-change", kwargs={"slug": cup["t"].slug, "round_id": r2.pk})
    response = client.post(url, {"action": "swap", "player_x": "999999", "player_y": "abc"})
    assert response.status_code == 200
    assert b"errorlist" in response.content
    x = r2.matches.first().entry_a_id
    response = client.post(url, {"action": "fix", "player_x": x, "player_y": x})
    assert response.status_code == 200 and b"errorlist" in response.content
    other_round = reverse("manage-round", kwargs={"slug": "other-views", "round_id": r2.pk})
    assert client.get(other_round).status_code in (403, 404)


def test_full_cycle_publish_generate_delete(client, cup):
    client.force_login(cup["users"]["org"])
    slug, r2 = cup["t"].slug, cup["r2"]
    client.post(reverse("manage-round-publish", kwargs={"slug": slug, "round_id": r2.pk}))
    _confirm(r2)
    response = client.post(reverse("manage-generate", kwargs={"slug": slug}), {"reason": ""})
    assert response.status_code == 302
    r3 = Round.objects.get(tournament=cup["t"], number=3)
    page = client.get(response["Location"])
    body = page.content.decode()
    assert page.status_code == 200 and "Нардист" in body
    assert "группе" in body or "группа" in body  # the explanation, in Russian by default
    response = client.post(reverse("manage-round-delete", kwargs={"slug": slug, "round_id": r3.pk}))
    assert response.status_code == 302
    assert not Round.objects.filter(pk=r3.pk).exists()


def test_background_generation_runs_eagerly_without_a_broker(client, cup, settings):
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("a broker is configured")
    client.force_login(cup["users"]["org"])
    slug = cup["t"].slug
    pm.publish_round(cup["r2"])
    _confirm(cup["r2"])
    response = client.post(
        reverse("manage-generate", kwargs={"slug": slug}), {"reason": "", "background": "on"}
    )
    assert response.status_code == 302
    r3 = Round.objects.get(tournament=cup["t"], number=3)
    assert response["Location"].endswith(f"/round/{r3.pk}/")


def test_task_reports_progress_and_refusals(db, cup):
    from tournaments.rounds.tasks import pair_round

    job = jobs.start(cup["t"].slug)
    outcome = pair_round.delay(cup["t"].pk, None, cup["users"]["org"].pk, job=job).get()
    assert outcome["state"] == "FAILURE"
    assert outcome["problems"][0]["code"] == "pairing.draft_exists"
    assert jobs.read_status(cup["t"].slug, job)["problems"] == outcome["problems"]
    assert "черновик" in pm.message(outcome["problems"][0], "ru", {})


def test_organiser_can_open_the_demo_and_pair_round_four(client, demo):
    client.force_login(User.objects.get(username="organiser"))
    slug = SWISS_SLUG
    page = client.get(reverse("manage-rounds", kwargs={"slug": slug}))
    assert page.status_code == 200 and "Тур 3 не закрыт" in page.content.decode()
    for m in Match.objects.filter(round__tournament__slug=slug, round__number=3):
        m.score_a, m.score_b, m.winner, m.result_status = 7, 3, "a", ResultStatus.CONFIRMED
        m.save()
    response = client.post(reverse("manage-generate", kwargs={"slug": slug}), {"reason": ""})
    assert response.status_code == 302
    body = client.get(response["Location"]).content.decode()
    assert "Алиев" in body


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_pairs_a_round(celery_worker_app, client):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database only on PostgreSQL")
    from tournaments.rounds.tasks import pair_round

    t = TournamentFactory(name="Фон", slug="bg-worker", starts_on=dt.date(2026, 3, 1), bare=True)
    org = OfficialFactory(tournament=t, user__username="bg-org", role=OfficialRole.ORGANISER).user
    enter(t, [{"last_name": f"Ф{i}", "short": True} for i in range(1, 41)])
    job = jobs.start(t.slug)
    result = pair_round.apply_async((t.pk, None, org.pk), {"job": job}, task_id=job)
    outcome = result.get(timeout=60)
    assert outcome["state"] == "SUCCESS"
    rnd = Round.objects.get(pk=outcome["rounds"][0])
    assert rnd.matches.count() == 20
    client.force_login(org)
    status = client.get(
        reverse("manage-task-status", kwargs={"slug": t.slug, "task_id": result.id})
    ).json()
    # The state comes from the job's status file, written by the worker process.
    assert status["state"] == "SUCCESS" and status["url"].endswith(f"/round/{rnd.pk}/")


@pytest.mark.parametrize("options", [{"score": "bogus"}, {"bye_points": "много"}])
def test_invalid_pairing_options_are_explained_not_a_500(client, cup, options):
    client.force_login(cup["users"]["org"])
    pm.publish_round(cup["r2"])
    _confirm(cup["r2"])
    t = Tournament.objects.get(pk=cup["t"].pk)  # saved, as the organiser's form does: the signals move its cache version on
    t.pairing_options = options
    t.save(update_fields=["pairing_options"])
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("manage-generate", kwargs={"slug": cup["t"].slug}), {"reason": ""}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "errorlist" in body and ("not valid" in body)
    assert not Round.objects.filter(tournament=cup["t"], number=3).exists()


def test_scheveningen_round_page_names_the_team_matches(client, db):
    t = TournamentFactory(
        name="Матч городов",
        slug="schev-page",
        starts_on=dt.date(2026, 3, 1),
        system=CompetitionSystem.SCHEVENINGEN,
        bare=True,
    )
    org = OfficialFactory(tournament=t, user__username="schev-org", role=OfficialRole.ORGANISER).user
    teams = [TeamFactory(tournament=t, name=n) for n in ("Москва", "Баку")]
    entries = enter(t, [{"last_name": f"Ш{i}", "short": True} for i in range(4)])
    for i, e in enumerate(entries):
        TeamMemberFactory(team=teams[i // 2], entry=e, board=i % 2 + 1)
    client.force_login(org)
    response = client.post(reverse("manage-generate", kwargs={"slug": t.slug}), {"reason": ""})
    assert response.status_code == 302
    body = client.get(response["Location"]).content.decode()
    assert "Москва – Баку" in body
    assert Round.objects.filter(tournament=t).count() == 2


def test_deleting_a_draft_with_a_result_needs_the_explicit_discard(client, cup):
    client.force_login(cup["users"]["org"])
    slug, r2 = cup["t"].slug, cup["r2"]
    played = r2.matches.filter(entry_b__isnull=False).first()
    played.score_a, played.score_b, played.winner = 5, 2, "a"
    played.result_status = ResultStatus.REPORTED
    played.save()
    url = reverse("manage-round-delete", kwargs={"slug": slug, "round_id": r2.pk})
    client.cookies["django_language"] = "en"
    response = client.post(url, follow=True)
    body = response.content.decode()
    assert Round.objects.filter(pk=r2.pk).exists()
    assert "already has results" in body and 'name="discard_results"' in body
    response = client.post(url, {"discard_results": "1", "reason": "Тур пересоставляется"})
    assert response.status_code == 302 and not Round.objects.filter(pk=r2.pk).exists()
    assert AuditEntry.objects.get(action="round.delete_draft").reason == "Тур пересоставляется"
