"""Private links: a player with no account sees their pairing, reports, confirms, disputes and
checks in through ``/p/<token>/``; the opponent's link confirms; forged and reissued links are 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Dispute, Result, ResultState
from tests.factories import MatchFactory, RoundFactory, TournamentFactory, UserFactory
from tournaments.access import private_links
from tournaments.access.permissions import allowed
from tournaments.models import AuditEntry, EntryStatus, ResultStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    t = TournamentFactory(match_length=7)
    return MatchFactory(round=RoundFactory(tournament=t, number=1), table=4)


def link(entry) -> str:
    return private_links.path_for(entry)


def match_url(entry, match) -> str:
    token = private_links.token_for(entry)
    return reverse("private-match", kwargs={"token": token, "match_id": match.pk})


def report(client, entry, match, a: int, b: int):
    return client.post(
        match_url(entry, match),
        {"version": match.version, "score_a": a, "score_b": b, "action": "report",
         "games-TOTAL_FORMS": 0, "games-INITIAL_FORMS": 0},
    )


def test_entry_page_shows_the_current_pairing(client, match):
    page = client.get(link(match.entry_a))
    assert page.status_code == 200
    text = page.content.decode()
    assert match.entry_b.player.full_name in text
    assert 'class="table-no"' in text and "4" in text
    assert "7" in page.context["current"].round.tournament.match_length.__str__()
    assert page.context["current"] == match


def test_forged_and_reissued_tokens_are_404(client, match):
    entry = match.entry_a
    old = link(entry)
    assert client.get(old).status_code == 200
    assert client.get(old[:-3] + "xyz/").status_code == 404
    assert client.get("/p/nonsense/").status_code == 404
    private_links.reissue(entry)
    assert client.get(old).status_code == 404
    assert client.get(link(entry)).status_code == 200
    assert client.get(match_url(entry, match)).status_code == 200


def test_report_by_link_then_the_opponent_confirms_by_theirs(client, match):
    a, b = match.entry_a, match.entry_b
    response = report(client, a, match, 7, 3)
    assert response.status_code == 302, response.content.decode()[:2000]
    result = Result.objects.get(match=match)
    assert (result.state, result.reported_side, result.reported_by) == (ResultState.REPORTED, "a", None)
    # The reporter sees no confirm button and may not confirm their own report.
    page = client.get(match_url(a, match))
    assert page.context["results"][0].user_can_confirm is False
    mine = client.post(
        reverse("private-confirm", kwargs={"token": private_links.token_for(a), "match_id": match.pk}),
        {"version": match.version + 1, "result": result.pk},
    )
    assert mine.status_code == 403
    # The opponent's link confirms it.
    page = client.get(match_url(b, match))
    assert page.context["results"][0].user_can_confirm is True
    assert a.player.full_name in page.content.decode()  # "by <the reporter's name>"
    match.refresh_from_db()
    done = client.post(
        reverse("private-confirm", kwargs={"token": private_links.token_for(b), "match_id": match.pk}),
        {"version": match.version, "result": result.pk},
    )
    assert done.status_code == 302
    match.refresh_from_db()
    result.refresh_from_db()
    assert (match.result_status, match.score_a, match.score_b) == (ResultStatus.CONFIRMED, 7, 3)
    assert (result.confirmed_side, result.confirmed_by) == ("b", None)
    assert AuditEntry.objects.filter(action="result.confirm", user__isnull=True).exists()


def test_the_same_score_from_both_links_is_a_confirmation(client, match):
    report(client, match.entry_a, match, 7, 2)
    match.refresh_from_db()
    assert report(client, match.entry_b, match, 7, 2).status_code == 302
    match.refresh_from_db()
    assert (match.result_status, match.score_a, match.score_b) == (ResultStatus.CONFIRMED, 7, 2)
    result = Result.objects.get(match=match, state=ResultState.CONFIRMED)
    assert (result.reported_side, result.confirmed_side) == ("a", "b")


def test_an_account_and_the_link_of_one_player_never_confirm_each_other(client, match):
    report(client, match.entry_a, match, 7, 2)
    user = UserFactory()
    match.entry_a.player.user = user
    match.entry_a.player.save()
    client.force_login(user)
    url = reverse("result-match", kwargs={"slug": match.round.tournament.slug, "match_id": match.pk})
    page = client.get(url)
    assert page.context["results"][0].user_can_confirm is False
    match.refresh_from_db()
    client.post(url, {"version": match.version, "score_a": 7, "score_b": 2,
                      "games-TOTAL_FORMS": 0, "games-INITIAL_FORMS": 0})
    match.refresh_from_db()
    assert match.result_status == ResultStatus.REPORTED  # a new report, not a confirmation


def test_a_bad_score_keeps_the_input_and_says_why(client, match):
    response = report(client, match.entry_a, match, 3, 2)
    assert response.status_code == 200
    assert not Result.objects.exists()
    assert 'value="3"' in response.content.decode()


def test_dispute_through_the_link(client, match):
    report(client, match.entry_a, match, 7, 3)
    match.refresh_from_db()
    result = Result.objects.get(match=match)
    token = private_links.token_for(match.entry_b)
    response = client.post(
        reverse("private-dispute", kwargs={"token": token, "match_id": match.pk}),
        {"version": match.version, "result": result.pk, "reason": "It was 7:5"},
    )
    assert response.status_code == 302
    dispute = Dispute.objects.get()
    assert dispute.raised_by is None and dispute.reason == "It was 7:5"
    match.refresh_from_db()
    assert match.result_status == ResultStatus.DISPUTED


def test_a_link_opens_only_its_own_published_matches(client, match):
    other = MatchFactory(round=match.round, table=5)
    assert client.get(match_url(match.entry_a, other)).status_code == 404
    draft = MatchFactory(round=RoundFactory(tournament=match.round.tournament, number=2, draft=True),
                         entry_a=match.entry_a, entry_b=match.entry_b)
    assert client.get(match_url(match.entry_a, draft)).status_code == 404
    elsewhere = MatchFactory()
    assert client.get(match_url(match.entry_a, elsewhere)).status_code == 404


def test_self_check_in_by_link(client, match):
    entry = match.entry_a
    page = client.get(link(entry))
    assert page.context["can_check_in"] is True
    response = client.post(reverse("private-check-in", kwargs={"token": private_links.token_for(entry)}))
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == EntryStatus.CHECKED_IN
    audit = AuditEntry.objects.get(action="entry.check_in")
    assert audit.user is None and audit.object_id == str(entry.pk)
    assert client.get(link(entry)).context["can_check_in"] is False


def test_a_withdrawn_player_cannot_check_in_by_link(client, match):
    entry = match.entry_a
    entry.status = EntryStatus.WITHDRAWN
    entry.save()
    response = client.post(reverse("private-check-in", kwargs={"token": private_links.token_for(entry)}), follow=True)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.WITHDRAWN
    assert "reinstated" in response.content.decode() or "восстановить" in response.content.decode()


@pytest.mark.parametrize("name", ["manage-rounds", "desk", "audit-log", "dispute-list", "referee-tables"])
def test_a_link_holder_is_no_organiser(client, match, name):
    holder = private_links.LinkHolder(match.entry_a)
    tournament = match.round.tournament
    for action in ("tournament.edit", "round.manage", "desk.run", "audit.view", "result.enter"):
        assert not allowed(holder, action, tournament)
    client.get(link(match.entry_a))  # having used the link gives the browser no rights
    response = client.get(reverse(name, kwargs={"slug": tournament.slug}))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
