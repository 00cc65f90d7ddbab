"""Seam (issue 27): players on a private link reach the jury.

After the director's ruling, the player's private page (``/p/<token>/`` and the
match page under it) shows the ruling and, while the rules allow, an appeal form
that works without a login through the same service and permission row as the
signed-in appeal; the jury's decision then shows on the same page. The book,
Part 9 (``part9_competition_rules.ru.txt`` line 37): a player who disagrees with
the director's decision goes to the jury, whose decision is final. The time to
appeal is the organiser's dispute window counted from the ruling (FIDE Handbook
C.06, VII.4: "not later than the deadline specifically fixed in advance").
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from scoring import workflow
from scoring.models import Dispute, DisputeState, Outcome, Result
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.access import private_links
from tournaments.access.permissions import appeal_window_closed
from tournaments.models import AuditEntry, OfficialRole, ResultStatus

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


@pytest.fixture
def match():
    t = TournamentFactory(match_length=7)
    return MatchFactory(round=RoundFactory(tournament=t, number=1), table=3)


@pytest.fixture
def organiser(match):
    return OfficialFactory(tournament=match.round.tournament, role=OfficialRole.ORGANISER).user


@pytest.fixture
def jury(match):
    return OfficialFactory(tournament=match.round.tournament, role=OfficialRole.JURY).user


def fresh(match):
    match.refresh_from_db()
    return match


def token(entry) -> str:
    return private_links.token_for(entry)


def match_url(entry, match) -> str:
    return reverse("private-match", kwargs={"token": token(entry), "match_id": match.pk})


def appeal_url(entry, match) -> str:
    return reverse("private-appeal", kwargs={"token": token(entry), "match_id": match.pk})


def ruled(match, organiser, *, outcome=Outcome.UPHOLD) -> Dispute:
    """A reports 7:3 through the link, B disputes it through theirs, the director rules."""
    report = workflow.submit_result(
        match.pk, private_links.LinkHolder(match.entry_a), version=fresh(match).version, final=(7, 3)
    )
    dispute = workflow.dispute_result(
        match.pk, report.pk, private_links.LinkHolder(match.entry_b), version=fresh(match).version,
        reason="It was 7:5",
    )
    return workflow.rule_dispute(
        dispute.pk, organiser, outcome=outcome, ruling="The score sheet says 7:3.",
        version=fresh(match).version,
    )


def test_private_link_player_sees_ruling_and_appeals_without_login(client, match, organiser):
    dispute = ruled(match, organiser)
    b = match.entry_b
    # The private page and the match page show the ruling, its outcome and the appeal form.
    for url in (private_links.path_for(b), match_url(b, match)):
        page = client.get(url, **EN)
        text = page.content.decode()
        assert page.status_code == 200
        assert "The score sheet says 7:3." in text and "The reported result stands" in text
        assert f'id="dispute-{dispute.pk}"' in text and "Ruled by the director" in text
        assert f'action="{appeal_url(b, match)}"' in text
        assert "/accounts/login/" not in text.split(f'id="dispute-{dispute.pk}"')[1]
    answer = client.post(
        appeal_url(b, match), {"dispute": dispute.pk, "reason": "Two witnesses saw 7:5."}, **EN
    )
    assert answer.status_code == 302
    assert answer["Location"].endswith(f"#dispute-{dispute.pk}")
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.APPEALED
    assert (dispute.appeal_reason, dispute.appealed_side, dispute.appealed_by) == (
        "Two witnesses saw 7:5.", "b", None,
    )
    # Audited as made by that player through the link: no account, the side named.
    line = AuditEntry.objects.get(action="dispute.appeal")
    assert line.user is None and line.reason == "Two witnesses saw 7:5."
    assert line.after["appealed_side"] == "b" and line.before["state"] == DisputeState.RULED
    page = client.get(private_links.path_for(b), **EN).content.decode()
    assert "Appealed to the jury" in page and "The jury has not decided yet." in page
    assert match.entry_b.player.display_name("en") in page.split("Two witnesses saw 7:5.")[1][:300]
    assert f'action="{appeal_url(b, match)}"' not in page  # one appeal only


def test_private_link_appeal_same_service_as_login(client, match, organiser):
    """The signed-in player's match view (where /me/ lands) offers the same appeal, same rules."""
    dispute = ruled(match, organiser)
    user = UserFactory()
    match.entry_b.player.user = user
    match.entry_b.player.save()
    client.force_login(user)
    me = client.get(reverse("me"))
    slug = match.round.tournament.slug
    page_url = reverse("result-match", kwargs={"slug": slug, "match_id": match.pk})
    assert me["Location"] == page_url
    text = client.get(page_url, **EN).content.decode()
    form_url = reverse("result-appeal", kwargs={"slug": slug, "match_id": match.pk})
    assert "The score sheet says 7:3." in text and f'action="{form_url}"' in text
    empty = client.post(form_url, {"dispute": dispute.pk, "reason": "   "}, **RU)
    assert empty.status_code == 400
    assert "Укажите для жюри основания апелляции." in empty.content.decode()
    assert client.post(form_url, {"dispute": dispute.pk, "reason": "Witnesses"}).status_code == 302
    dispute.refresh_from_db()
    assert (dispute.state, dispute.appealed_by, dispute.appealed_side) == (DisputeState.APPEALED, user, "b")


@pytest.mark.parametrize(
    ("headers", "words"),
    [(EN, "the time the organiser fixed for an appeal to the jury has passed"),
     (RU, "установленное организатором время для апелляции в жюри истекло")],
)
def test_private_link_appeal_refused_after_window_keeps_text(client, match, organiser, headers, words):
    t = match.round.tournament
    t.dispute_window = 30
    t.save()
    dispute = ruled(match, organiser)
    b = match.entry_b
    page = client.get(match_url(b, match), **headers).content.decode()
    assert f'action="{appeal_url(b, match)}"' in page  # within the window: the form, with its deadline
    Dispute.objects.filter(pk=dispute.pk).update(ruled_at=dispute.ruled_at - dt.timedelta(minutes=31))
    answer = client.post(appeal_url(b, match), {"dispute": dispute.pk, "reason": "Late, but 7:5"}, **headers)
    text = answer.content.decode()
    assert answer.status_code == 409
    assert words in text
    assert "Late, but 7:5</textarea>" in text  # kept, to copy
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.RULED and not dispute.appeal_reason
    assert not AuditEntry.objects.filter(action="dispute.appeal").exists()
    # The page itself says the window is closed and offers no form.
    page = client.get(match_url(b, match), **headers).content.decode()
    assert words in page and f'action="{appeal_url(b, match)}"' not in page
    # The API says the same (one service).
    with pytest.raises(workflow.ResultError) as refused:
        workflow.appeal_dispute(dispute.pk, private_links.LinkHolder(b), reason="late")
    assert refused.value.problem.code == "workflow.appeal_window"


def test_private_link_empty_appeal_refused_keeps_form(client, match, organiser):
    dispute = ruled(match, organiser)
    b = match.entry_b
    answer = client.post(appeal_url(b, match), {"dispute": dispute.pk, "reason": "  \n "}, **EN)
    text = answer.content.decode()
    assert answer.status_code == 400
    assert "Give the grounds of the appeal for the jury." in text
    assert f'action="{appeal_url(b, match)}"' in text  # the form is still there to fill in
    assert Dispute.objects.get().state == DisputeState.RULED


def test_private_link_second_appeal_refused_keeps_text(client, match, organiser):
    dispute = ruled(match, organiser)
    a, b = match.entry_a, match.entry_b
    assert client.post(appeal_url(b, match), {"dispute": dispute.pk, "reason": "First"}).status_code == 302
    # The other player of the match is a party too (the ruling may go against either), but only once.
    again = client.post(appeal_url(a, match), {"dispute": dispute.pk, "reason": "Me too, 7:3 is right"}, **EN)
    text = again.content.decode()
    assert again.status_code == 409
    assert "This dispute has already gone to the jury." in text
    assert "Me too, 7:3 is right</textarea>" in text
    dispute.refresh_from_db()
    assert (dispute.appeal_reason, dispute.appealed_side) == ("First", "b")


def test_private_link_appeal_by_other_player_refused(client, match, organiser):
    dispute = ruled(match, organiser)
    other = MatchFactory(round=match.round, table=4)
    c = other.entry_a
    # Through their own match page: a clear problem, the text kept, nothing changed.
    answer = client.post(appeal_url(c, other), {"dispute": dispute.pk, "reason": "I saw it"}, **RU)
    text = answer.content.decode()
    assert answer.status_code == 403
    assert "Обжаловать решение директора может только игрок оспоренного матча" in text
    assert "I saw it</textarea>" in text
    # Another player's match does not exist for the link (as every private page).
    assert client.post(appeal_url(c, match), {"dispute": dispute.pk, "reason": "I saw it"}).status_code == 404
    dispute.refresh_from_db()
    assert dispute.state == DisputeState.RULED
    # Nor does another player's link page show this dispute.
    assert "The score sheet says 7:3." not in client.get(private_links.path_for(c), **EN).content.decode()


def test_private_link_revoked_link_appeal_refused_keeps_text(client, match, organiser):
    dispute = ruled(match, organiser)
    b = match.entry_b
    old_url = appeal_url(b, match)
    private_links.reissue(b)
    answer = client.post(old_url, {"dispute": dispute.pk, "reason": "Witnesses saw 7:5"}, **EN)
    text = answer.content.decode()
    assert answer.status_code == 410
    assert "This private link has been replaced by the organiser" in text
    assert "Witnesses saw 7:5</textarea>" in text
    assert Dispute.objects.get().state == DisputeState.RULED
    # A forged token is still a plain 404 (nothing to say about a link we never gave).
    forged = reverse("private-appeal", kwargs={"token": "1.1:forged", "match_id": match.pk})
    assert client.post(forged, {"dispute": dispute.pk, "reason": "x"}).status_code == 404


def test_private_link_sees_jury_decision(client, match, organiser, jury):
    dispute = ruled(match, organiser)
    b = match.entry_b
    client.post(appeal_url(b, match), {"dispute": dispute.pk, "reason": "Two witnesses saw 7:5."})
    workflow.decide_appeal(
        dispute.pk, jury, outcome=Outcome.REPLACE, decision="The witnesses are right: 7:5.",
        version=fresh(match).version, final=(7, 5),
    )
    for url in (private_links.path_for(b), match_url(b, match), private_links.path_for(match.entry_a)):
        text = client.get(url, **EN).content.decode()
        assert "The witnesses are right: 7:5." in text and "A different result is set" in text
        assert "Jury&#x27;s decision (final)" in text or "Jury's decision (final)" in text
        assert 'name="dispute"' not in text  # final: nothing follows it
    assert (fresh(match).result_status, match.score_a, match.score_b) == (ResultStatus.CONFIRMED, 7, 5)
    ru = client.get(private_links.path_for(b), **RU).content.decode()
    assert "Решение жюри (окончательное)" in ru or "окончательн" in ru


def test_private_link_closed_dispute_window_says_so(client, match):
    """A confirmed result past the organiser's window: the page says why it cannot be disputed."""
    t = match.round.tournament
    t.dispute_window = 30
    t.save()
    a, b = match.entry_a, match.entry_b
    report = workflow.submit_result(match.pk, private_links.LinkHolder(a), version=fresh(match).version, final=(7, 3))
    result = workflow.confirm_result(match.pk, report.pk, private_links.LinkHolder(b), version=fresh(match).version)
    assert "Dispute this result" in client.get(match_url(b, match), **EN).content.decode()  # within it
    Result.objects.filter(pk=result.pk).update(confirmed_at=result.confirmed_at - dt.timedelta(minutes=31))
    text = client.get(match_url(b, match), **RU).content.decode()
    assert "установленное организатором время для спора истекло" in text
    assert "Dispute this result" not in text and 'name="reason"' not in text


def test_private_link_ruled_result_goes_to_the_jury_not_the_director_again(client, match, organiser):
    """After the ruling the result is not disputed before the director again: the page points to the appeal."""
    dispute = ruled(match, organiser)  # the director upheld 7:3: the ruling confirmed it
    b = match.entry_b
    text = client.get(match_url(b, match), **EN).content.decode()
    assert "The director has already ruled on this result" in text
    assert f'href="#dispute-{dispute.pk}"' in text  # the appeal route, still open
    assert "Send to the director" not in text
    again = client.post(
        reverse("private-dispute", kwargs={"token": token(b), "match_id": match.pk}),
        {"version": fresh(match).version, "result": dispute.decided_result_id, "reason": "Still 7:5"},
        follow=True, **EN,
    )
    assert "appeal the ruling to the jury" in again.content.decode()
    assert Dispute.objects.count() == 1


def test_private_link_confirmed_by_player_without_window_says_ask_the_director(client, match):
    """No dispute window: the player who confirmed the result reads why there is no dispute button."""
    a, b = match.entry_a, match.entry_b
    report = workflow.submit_result(match.pk, private_links.LinkHolder(a), version=fresh(match).version, final=(7, 3))
    workflow.confirm_result(match.pk, report.pk, private_links.LinkHolder(b), version=fresh(match).version)
    text = client.get(match_url(b, match), **RU).content.decode()
    assert "Вы сами сообщили или подтвердили этот результат" in text
    assert 'name="reason"' not in text


@given(
    window=st.integers(min_value=0, max_value=24 * 60),
    elapsed=st.integers(min_value=0, max_value=48 * 60 * 60),
    state=st.sampled_from([s.value for s in DisputeState]),
)
def test_private_link_appeal_window_is_the_organisers_minutes_from_the_ruling(window, elapsed, state):
    """Closed exactly when a ruled dispute is older than a window the organiser set; nothing else closes it."""
    ruled_at = timezone.now()
    dispute = SimpleNamespace(
        state=state, ruled_at=ruled_at,
        match=SimpleNamespace(round=SimpleNamespace(tournament=SimpleNamespace(dispute_window=window))),
    )
    closed = appeal_window_closed(dispute, now=ruled_at + dt.timedelta(seconds=elapsed))
    expected = state == DisputeState.RULED and window > 0 and elapsed > window * 60
    assert closed == (window if expected else None)
