"""Running the rounds the way a desk works (issue 12, item 9).

The results grid for a whole round, check boxes for absent / half-point bye,
check-in required, the publish confirmation, withdrawing a publication, the
tournament's status moving by itself, and the tab bar on every organiser page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import workflow
from scoring.models import Result, ResultState
from tests.factories import (
    OfficialFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
    enter,
)
from tournaments.models import (
    AuditEntry,
    EntryStatus,
    Match,
    OfficialRole,
    ResultStatus,
    RoundStatus,
    TournamentStatus,
)
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.flow import close_round


def _players(n: int) -> list[dict]:
    return [
        {"last_name": f"Игрок{i}", "last_name_latin": f"Igrok{i}", "first_name": "И", "short": True}
        for i in range(1, n + 1)
    ]


@pytest.fixture
def event(db):
    """An 8-player Swiss (matches to 5, two rounds planned) with its organiser; nothing paired."""
    t = TournamentFactory(slug="desk-cup", match_length=5, rounds_planned=2)
    org = UserFactory(username="org")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    entries = enter(t, _players(8))
    return {"t": t, "org": org, "entries": entries}


@pytest.fixture
def published(event):
    [r1] = pm.generate_next(event["t"], user=event["org"])
    pm.publish_round(r1, user=event["org"])
    return {**event, "r1": r1}


def _grid_url(t, rnd) -> str:
    return reverse("manage-results", kwargs={"slug": t.slug, "round_id": rnd.pk})


def _grid_post(rnd, scores: dict[int, tuple[str, str]], **extra) -> dict:
    """The grid's POST: every table's version as shown, and the typed cells of ``scores``."""
    data = dict(extra)
    for m in rnd.matches.filter(entry_b__isnull=False):
        a, b = scores.get(m.table, ("", ""))
        data[f"m{m.pk}-a"], data[f"m{m.pk}-b"] = a, b
        data[f"m{m.pk}-version"] = str(m.version)
    return data


# --------------------------------------------------------------------------- results grid


def test_grid_lists_every_table_with_two_score_cells(client, published):
    client.force_login(published["org"])
    page = client.get(_grid_url(published["t"], published["r1"]))
    assert page.status_code == 200
    html = page.content.decode()
    for m in published["r1"].matches.all():
        assert f'name="m{m.pk}-a"' in html and f'name="m{m.pk}-b"' in html
        assert f'name="m{m.pk}-version" value="{m.version}"' in html
    assert "autofocus" in html  # the first empty cell: typing starts at once


def test_grid_saves_good_rows_and_keeps_bad_rows_typed(client, published):
    t, r1 = published["t"], published["r1"]
    client.force_login(published["org"])
    data = _grid_post(r1, {1: ("5", "2"), 2: ("x", "3"), 3: ("5", "5"), 4: ("3", "")})
    page = client.post(_grid_url(t, r1), data, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    assert "1 saved, 3 refused." in html

    m1, m2, m3, m4 = (r1.matches.get(table=n) for n in (1, 2, 3, 4))
    assert (m1.result_status, m1.score_a, m1.score_b) == (ResultStatus.CONFIRMED, 5, 2)
    assert Result.objects.filter(match=m1, state=ResultState.CONFIRMED).count() == 1
    assert AuditEntry.objects.filter(action="result.enter").count() == 1  # confirmed once
    for m in (m2, m3, m4):
        assert m.result_status == ResultStatus.PENDING and not m.results.exists()

    # what was typed is kept, row by row, each refusal next to its row
    assert f'name="m{m2.pk}-a" value="x"' in html
    assert f'name="m{m3.pk}-a" value="5"' in html and f'name="m{m3.pk}-b" value="5"' in html
    assert f'name="m{m4.pk}-a" value="3"' in html
    assert "«x» is not a score" in html
    assert "Give both scores, or neither." in html
    assert html.count('aria-invalid="true"') == 6  # two cells of each refused row


def test_grid_refusal_in_russian(client, published):
    client.force_login(published["org"])
    data = _grid_post(published["r1"], {2: ("x", "3")})
    page = client.post(_grid_url(published["t"], published["r1"]), data, HTTP_ACCEPT_LANGUAGE="ru")
    assert "«x» — это не счёт" in page.content.decode()


def test_grid_all_good_redirects_and_closes_the_round(client, published):
    t, r1 = published["t"], published["r1"]
    client.force_login(published["org"])
    data = _grid_post(r1, {n: ("5", "1") for n in range(1, 5)})
    page = client.post(_grid_url(t, r1), data)
    assert page.status_code == 302
    r1.refresh_from_db()
    assert r1.status == RoundStatus.FINISHED  # the last confirmation closes the round
    # sending the same (confirmed) grid again changes nothing
    again = client.post(_grid_url(t, r1), _grid_post(r1, {n: ("5", "1") for n in range(1, 5)}))
    assert again.status_code == 302
    assert Result.objects.filter(match__round=r1).count() == 4


def test_grid_confirms_the_players_report_with_the_same_score(client, published):
    t, r1 = published["t"], published["r1"]
    m = r1.matches.get(table=1)
    referee = UserFactory(username="ref")
    OfficialFactory(tournament=t, user=referee, role=OfficialRole.REFEREE)
    report = workflow.submit_result(m.pk, referee, version=m.version, final=(2, 5))
    client.force_login(published["org"])
    page = client.get(_grid_url(t, r1))
    m.refresh_from_db()
    assert f'name="m{m.pk}-a" value=""' in page.content.decode()  # the report is beside the cells
    assert "2:5" in page.content.decode()
    client.post(_grid_url(t, r1), _grid_post(r1, {1: ("2", "5")}))
    report.refresh_from_db()
    assert report.state == ResultState.CONFIRMED  # the report itself, not a second result
    assert m.results.count() == 1


def test_grid_version_conflict_keeps_the_typed_row(client, published):
    t, r1 = published["t"], published["r1"]
    client.force_login(published["org"])
    data = _grid_post(r1, {1: ("5", "3"), 2: ("5", "0")})  # versions as the desk saw them
    m1 = r1.matches.get(table=1)
    workflow.submit_result(m1.pk, published["org"], version=m1.version, final=(1, 5))  # a report
    page = client.post(_grid_url(t, r1), data, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 409
    html = page.content.decode()
    assert "Someone else saved this match" in html and "1 saved, 1 refused." in html
    m1.refresh_from_db()
    assert m1.result_status == ResultStatus.REPORTED  # the other save stands
    assert f'name="m{m1.pk}-a" value="5"' in html and f'name="m{m1.pk}-b" value="3"' in html
    assert f'name="m{m1.pk}-version" value="{m1.version}"' in html  # now a knowing decision
    assert r1.matches.get(table=2).result_status == ResultStatus.CONFIRMED
    data[f"m{m1.pk}-version"] = str(m1.version)
    client.post(_grid_url(t, r1), data)
    m1.refresh_from_db()
    assert (m1.result_status, m1.score_a, m1.score_b) == (ResultStatus.CONFIRMED, 5, 3)


def test_grid_correction_needs_a_reason(client, published):
    t, r1 = published["t"], published["r1"]
    client.force_login(published["org"])
    client.post(_grid_url(t, r1), _grid_post(r1, {1: ("5", "2")}))
    page = client.post(_grid_url(t, r1), _grid_post(r1, {1: ("5", "4")}), HTTP_ACCEPT_LANGUAGE="en")
    assert "0 saved, 1 refused." in page.content.decode()
    assert r1.matches.get(table=1).score_b == 2
    client.post(_grid_url(t, r1), _grid_post(r1, {1: ("5", "4")}, reason="sheet misread"))
    assert r1.matches.get(table=1).score_b == 4
    assert AuditEntry.objects.filter(action="result.correct", reason="sheet misread").exists()


def test_grid_on_a_draft_saves_nothing(client, event):
    [r1] = pm.generate_next(event["t"], user=event["org"])
    client.force_login(event["org"])
    page = client.post(_grid_url(event["t"], r1), _grid_post(r1, {1: ("5", "2")}))
    assert page.status_code == 200 and 'name="m' not in page.content.decode()
    assert not Result.objects.exists()


def test_grid_is_for_officials_only(client, published):
    client.force_login(UserFactory(username="stranger"))
    url = _grid_url(published["t"], published["r1"])
    assert client.get(url).status_code == 403
    assert client.post(url, _grid_post(published["r1"], {1: ("5", "2")})).status_code == 403
    assert not Result.objects.exists()


# --------------------------------------------------------------------------- generate form


def test_generate_form_has_two_check_box_columns_without_the_withdrawn(client, event):
    t, entries = event["t"], event["entries"]
    entries[7].status = EntryStatus.WITHDRAWN
    entries[7].save()
    client.force_login(event["org"])
    html = client.get(reverse("manage-rounds", kwargs={"slug": t.slug})).content.decode()
    for e in entries[:7]:
        assert f'type="checkbox" name="absent" value="{e.pk}"' in html
        assert f'type="checkbox" name="half_bye" value="{e.pk}"' in html
    assert f'value="{entries[7].pk}"' not in html
    assert "<select multiple" not in html


def test_generate_with_absent_and_half_bye_boxes(client, event):
    t, entries = event["t"], event["entries"]
    client.force_login(event["org"])
    page = client.post(
        reverse("manage-generate", kwargs={"slug": t.slug}),
        {"absent": [entries[0].pk], "half_bye": [entries[1].pk]},
    )
    assert page.status_code == 302
    rnd = t.rounds.get()
    seated = set(rnd.seats.values_list("entry_id", flat=True))
    assert entries[0].pk not in seated and entries[1].pk not in seated
    kinds = {b["kind"] for b in rnd.explanation["byes"]}
    assert kinds == {"absent", "requested"}


def test_generate_refuses_absent_and_bye_together_keeping_the_ticks(client, event):
    t, entries = event["t"], event["entries"]
    client.force_login(event["org"])
    page = client.post(
        reverse("manage-generate", kwargs={"slug": t.slug}),
        {"absent": [entries[2].pk], "half_bye": [entries[2].pk]},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    html = page.content.decode()
    assert page.status_code == 200 and "both absent and on a half-point bye" in html
    assert f'name="absent" value="{entries[2].pk}" id="absent-{entries[2].pk}" checked' in html
    assert not t.rounds.exists()


def test_check_in_required_presets_the_absent_and_pairs_only_the_present(client, event):
    t, entries = event["t"], event["entries"]
    t.check_in_required = True
    t.save()
    present = entries[:6]
    for e in present:
        e.status = EntryStatus.CHECKED_IN
        e.save()
    client.force_login(event["org"])
    html = client.get(
        reverse("manage-rounds", kwargs={"slug": t.slug}), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Only players who checked in are paired" in html
    for e in entries[6:]:
        assert f'name="absent" value="{e.pk}" id="absent-{e.pk}" checked' in html
    for e in present:
        assert f'name="absent" value="{e.pk}" id="absent-{e.pk}" aria-label' in html
    # the organiser sends the form as shown
    page = client.post(
        reverse("manage-generate", kwargs={"slug": t.slug}), {"absent": [e.pk for e in entries[6:]]}
    )
    assert page.status_code == 302
    rnd = t.rounds.get()
    assert set(rnd.seats.values_list("entry_id", flat=True)) == {e.pk for e in present}


# --------------------------------------------------------------------------- publishing


def test_publish_asks_for_confirmation_first(client, event):
    [r1] = pm.generate_next(event["t"], user=event["org"])
    client.force_login(event["org"])
    url = reverse("manage-round-publish", kwargs={"slug": event["t"].slug, "round_id": r1.pk})
    round_page = client.get(
        reverse("manage-round", kwargs={"slug": event["t"].slug, "round_id": r1.pk})
    )
    assert f'href="{url}"' in round_page.content.decode()  # the button leads to the confirmation
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert "Publish round 1: 4 tables; players will see it." in page.content.decode()
    r1.refresh_from_db()
    assert r1.status == RoundStatus.DRAFT  # looking at the confirmation publishes nothing
    assert (
        "Опубликовать тур 1: 4 стола" in client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    )
    assert client.post(url, {"confirm": "1"}).status_code == 302
    r1.refresh_from_db()
    assert r1.status == RoundStatus.PUBLISHED


def test_withdraw_publication_before_any_result_is_audited(client, published):
    t, r1 = published["t"], published["r1"]
    client.force_login(published["org"])
    url = reverse("manage-round-unpublish", kwargs={"slug": t.slug, "round_id": r1.pk})
    # a reason is required
    client.post(url, {"reason": ""})
    r1.refresh_from_db()
    assert r1.status == RoundStatus.PUBLISHED
    client.post(url, {"reason": "wrong sections"})
    r1.refresh_from_db()
    assert r1.status == RoundStatus.DRAFT and r1.published_at is None
    entry = AuditEntry.objects.get(action="round.unpublish")
    assert entry.reason == "wrong sections"
    t.refresh_from_db()
    assert t.status == TournamentStatus.REGISTRATION  # nothing published any more


def test_withdraw_publication_refused_once_a_result_exists(client, published):
    t, r1 = published["t"], published["r1"]
    m = r1.matches.get(table=3)
    workflow.submit_result(m.pk, published["org"], version=m.version, final=(5, 1), confirm=True)
    client.force_login(published["org"])
    round_page = client.get(reverse("manage-round", kwargs={"slug": t.slug, "round_id": r1.pk}))
    assert "manage-round-unpublish" not in round_page.content.decode()
    url = reverse("manage-round-unpublish", kwargs={"slug": t.slug, "round_id": r1.pk})
    page = client.post(url, {"reason": "oops"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "cannot be withdrawn" in page.content.decode() and "tables 3" in page.content.decode()
    r1.refresh_from_db()
    assert r1.status == RoundStatus.PUBLISHED
    assert not AuditEntry.objects.filter(action="round.unpublish").exists()
    with pytest.raises(pm.PairingRefused) as exc:
        pm.unpublish_round(r1, published["org"], "oops")
    assert exc.value.problems[0].code == "pairing.unpublish_results"
    assert "Публикацию тура 1 нельзя отозвать" in exc.value.problems[0].message("ru")


# --------------------------------------------------------------------------- tournament status


def test_status_moves_through_a_whole_small_swiss(client, event):
    t, org = event["t"], event["org"]
    assert t.status == TournamentStatus.DRAFT
    client.force_login(org)

    def status():
        t.refresh_from_db()
        return t.status

    for number in (1, 2):
        client.post(reverse("manage-generate", kwargs={"slug": t.slug}), {})
        rnd = t.rounds.get(number=number)
        assert status() == (
            TournamentStatus.REGISTRATION if number == 1 else TournamentStatus.IN_PROGRESS
        )
        client.post(reverse("manage-round-publish", kwargs={"slug": t.slug, "round_id": rnd.pk}))
        assert status() == TournamentStatus.IN_PROGRESS
        client.post(_grid_url(t, rnd), _grid_post(rnd, {n: ("5", "2") for n in range(1, 5)}))
        rnd.refresh_from_db()
        assert rnd.status == RoundStatus.FINISHED
    assert status() == TournamentStatus.FINISHED
    assert AuditEntry.objects.filter(action="tournament.status").count() == 3

    # a round beyond the plan (with a reason) brings the tournament back in progress
    client.post(reverse("manage-generate", kwargs={"slug": t.slug}), {"reason": "play-off round"})
    assert t.rounds.count() == 3
    assert status() == TournamentStatus.IN_PROGRESS


def test_status_of_a_knockout_finishes_with_the_final(event):
    t, org = event["t"], event["org"]
    t.system = "knockout"
    t.pairing_options = {}
    t.save()
    while True:
        rounds = pm.generate_next(t, user=org)
        for rnd in rounds:
            pm.publish_round(rnd, user=org)
            confirm_round(rnd, winner_of=lambda m: "a", loser_score=1)
            close_round(rnd, org)
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            break
        assert t.status == TournamentStatus.IN_PROGRESS
        assert t.rounds.count() < 5
    assert Match.objects.filter(round__tournament=t).count() == 7


# --------------------------------------------------------------------------- the tab bar


def test_tab_bar_on_every_organiser_page(client, published):
    t, r1, org = published["t"], published["r1"], published["org"]
    m = r1.matches.get(table=1)
    workflow.submit_result(m.pk, org, version=m.version, final=(5, 1), confirm=True)
    result = m.results.get()
    client.force_login(org)
    slug = t.slug
    pages = {
        reverse("manage-rounds", kwargs={"slug": slug}): "rounds",
        reverse("manage-round", kwargs={"slug": slug, "round_id": r1.pk}): "rounds",
        _grid_url(t, r1): "rounds",
        reverse("desk", kwargs={"slug": slug}): "desk",
        reverse("referee-tables", kwargs={"slug": slug}): "referee",
        reverse("referee-match", kwargs={"slug": slug, "match_id": m.pk}): "referee",
        reverse("dispute-list", kwargs={"slug": slug}): "disputes",
        reverse("sanction-list", kwargs={"slug": slug}): "sanctions",
        reverse("audit-log", kwargs={"slug": slug}): "audit",
    }
    labels = {"rounds": "Rounds", "desk": "Desk", "referee": "Tables", "disputes": "Disputes",
              "sanctions": "Discipline", "audit": "Audit log"}  # fmt: skip
    for url, key in pages.items():
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert 'class="tabs no-print"' in html, url
        assert f'aria-current="page">{labels[key]}</a>' in html, url
        assert f'href="/t/{slug}/"' in html, url  # the way back to the tournament
    assert result.state == ResultState.CONFIRMED
    # the confirmation page and the pairing progress page carry it too
    [r2] = pm.generate_next(t, user=org, reason="test")
    url = reverse("manage-round-publish", kwargs={"slug": slug, "round_id": r2.pk})
    assert 'class="tabs no-print"' in client.get(url).content.decode()


def test_round_page_links_the_results_grid(client, published):
    client.force_login(published["org"])
    t, r1 = published["t"], published["r1"]
    html = client.get(
        reverse("manage-round", kwargs={"slug": t.slug, "round_id": r1.pk})
    ).content.decode()
    assert f'href="{_grid_url(t, r1)}"' in html
    desk = client.get(reverse("desk", kwargs={"slug": t.slug})).content.decode()
    assert f'href="{_grid_url(t, r1)}"' in desk
