"""The permissions table itself, as a matrix: every action × every kind of user.

``tests/test_permissions_matrix.py`` drives the same rules through pages and
services; this file pins the table (``tournaments.access.permissions.PERMISSIONS``) so
a changed row shows up as exactly the cells it changes.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Permission
from django.urls import reverse

from clubs.models import ClubRole, ClubRoleKind
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    ResultFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.access.permissions import PERMISSIONS, allowed
from tournaments.access.private_links import LinkHolder

pytestmark = pytest.mark.django_db

ACTORS = ("anonymous", "stranger", "player_a", "player_b", "referee", "organiser", "jury",
          "referee_elsewhere", "referee_playing")

Y, N = True, False
#            anon stranger  A  B  ref  org  jury  ref-elsewhere  ref-playing
TOURNAMENT_WIDE = {
    "tournament.view": (Y, Y, Y, Y, Y, Y, Y, Y, Y),
    "tournament.officiate": (N, N, N, N, Y, Y, Y, N, Y),
    "tournament.edit": (N, N, N, N, N, Y, N, N, N),
    "round.manage": (N, N, N, N, N, Y, N, N, N),
    "desk.run": (N, N, N, N, N, Y, N, N, N),
    "sanction.record": (N, N, N, N, N, Y, Y, N, N),
    "dispute.list": (N, N, N, N, N, Y, Y, N, N),
    "audit.view": (N, N, N, N, N, Y, Y, N, N),
    "result.enter": (N, N, N, N, Y, Y, N, N, Y),
    "dispute.rule": (N, N, N, N, N, Y, N, N, N),
    "dispute.decide": (N, N, N, N, N, N, Y, N, N),
}
# On the match between A and B at which the playing referee does NOT play:
ON_THE_MATCH = {
    "match.see": (N, N, Y, Y, Y, Y, Y, N, Y),
    "result.enter": (N, N, N, N, Y, Y, N, N, Y),
    "result.report": (N, N, Y, Y, N, N, N, N, N),
    "record.upload": (N, N, Y, Y, Y, Y, N, N, Y),
    "dispute.appeal": (N, N, Y, Y, N, N, N, N, N),
    "dispute.rule": (N, N, N, N, N, Y, N, N, N),
    "analysis.run": (N, N, N, N, Y, Y, Y, N, Y),  # queue or re-run gnubg's analysis
    "live.record": (N, N, Y, Y, Y, Y, N, N, Y),  # record it step by step (or the appointed recorder)
    "live.appoint": (N, N, N, N, Y, Y, N, N, Y),  # name the recorder of a feature table
}
# On a result reported by A: B or an official confirms; A never does; B may dispute.
ON_A_REPORT = {
    "result.confirm": (N, N, N, Y, Y, Y, N, N, Y),
    "result.dispute": (N, N, N, Y, N, N, N, N, N),
}


@pytest.fixture
def world():
    match = MatchFactory(entry_a__player__user=UserFactory(), entry_b__player__user=UserFactory())
    tournament = match.round.tournament
    users = {
        "anonymous": None,
        "stranger": UserFactory(),
        "player_a": match.entry_a.player.user,
        "player_b": match.entry_b.player.user,
    }
    for role in ("referee", "organiser", "jury"):
        users[role] = OfficialFactory(tournament=tournament, role=role).user
    users["referee_elsewhere"] = OfficialFactory(tournament=TournamentFactory()).user
    playing = OfficialFactory(tournament=tournament).user
    other = MatchFactory(round=match.round, entry_a__player=PlayerFactory(user=playing))
    users["referee_playing"] = playing
    report = ResultFactory(match=match, reported_by=users["player_a"])
    return tournament, match, report, other, users


def _user(users, name):
    return users[name] or AnonymousUser()


def _check(table, obj, users):
    wrong = []
    for action, expected in table.items():
        for actor, want in zip(ACTORS, expected, strict=True):
            got = allowed(_user(users, actor), action, obj)
            if got != want:
                wrong.append(f"{action} × {actor}: expected {want}, got {got}")
    assert not wrong, "\n".join(wrong)


def test_tournament_wide_rights(world):
    tournament, *_, users = world
    _check(TOURNAMENT_WIDE, tournament, users)


def test_rights_on_a_match(world):
    _, match, _, _, users = world
    _check(ON_THE_MATCH, match, users)


def test_rights_on_a_reported_result(world):
    _, _, report, _, users = world
    _check(ON_A_REPORT, report, users)


def test_an_official_acts_on_their_own_match_only_as_a_player(world):
    _, _, _, own, users = world
    me = users["referee_playing"]
    assert not allowed(me, "result.enter", own)
    assert allowed(me, "result.report", own)


def test_a_confirmed_result_cannot_be_confirmed_again(world):
    _, _, report, _, users = world
    report.state = "confirmed"
    assert not any(allowed(_user(users, a), "result.confirm", report) for a in ACTORS)


# On player A's entry: A (by account), the organiser at the desk; officials see it.
ON_AN_ENTRY = {
    "entry.check_in": (N, N, Y, N, N, Y, N, N, N),
    "entry.request_bye": (N, N, Y, N, N, Y, N, N, N),
    "entry.see": (N, N, Y, N, Y, Y, Y, N, Y),
}


def test_rights_on_an_entry(world):
    _, match, _, _, users = world
    _check(ON_AN_ENTRY, match.entry_a, users)


def test_a_private_link_acts_as_the_entrys_player_and_nothing_more(world):
    tournament, match, report, other, _ = world
    holder_a = LinkHolder(match.entry_a)
    holder_b = LinkHolder(match.entry_b)
    assert allowed(holder_a, "entry.check_in", match.entry_a)
    assert not allowed(holder_a, "entry.check_in", match.entry_b)
    assert allowed(holder_a, "result.report", match)
    assert not allowed(holder_a, "result.report", other)
    assert not allowed(holder_a, "result.confirm", report)  # A reported it
    assert allowed(holder_b, "result.confirm", report)
    assert allowed(holder_b, "result.dispute", report)
    for action in ("tournament.officiate", "round.manage", "desk.run", "result.enter"):
        assert not allowed(holder_a, action, tournament)


def test_a_link_holder_may_not_confirm_a_report_made_through_their_own_link(world):
    _, match, report, _, _ = world
    report.reported_by, report.reported_side = None, "b"
    assert not allowed(LinkHolder(match.entry_b), "result.confirm", report)
    assert allowed(LinkHolder(match.entry_a), "result.confirm", report)


def test_club_organisers_create_tournaments_for_their_club_and_run_them(world):
    tournament, *_, users = world
    club = ClubFactory()
    other_club = ClubFactory()
    organiser = UserFactory()
    ClubRole.objects.create(club=club, user=organiser, role=ClubRoleKind.ORGANISER)
    assert allowed(organiser, "tournament.create", club)
    assert not allowed(organiser, "tournament.create", other_club)
    for action in ("tournament.create", "club.manage"):  # club organisers appoint club organisers
        assert allowed(organiser, action, club)
        assert not allowed(organiser, action, other_club)
        assert not allowed(users["stranger"], action, club)
        assert not allowed(users["organiser"], action, club)
    assert not allowed(users["stranger"], "tournament.create", club)
    assert not allowed(AnonymousUser(), "tournament.create", club)
    assert not allowed(users["organiser"], "tournament.create", club)  # a tournament role is not a club role
    assert not allowed(organiser, "round.manage", tournament)  # not this club's tournament
    tournament.club = club
    tournament.save()
    fresh = type(organiser).objects.get(pk=organiser.pk)  # roles are cached per user object
    assert allowed(fresh, "round.manage", tournament)
    assert allowed(fresh, "tournament.edit", tournament)


def test_every_action_in_the_table_is_covered_here():
    covered = (
        set(TOURNAMENT_WIDE) | set(ON_THE_MATCH) | set(ON_A_REPORT) | set(ON_AN_ENTRY)
        | {"dispute.see", "tournament.create", "club.manage"}
    )
    assert covered == set(PERMISSIONS)


def test_an_unknown_action_fails_loudly(world):
    tournament, *_, users = world
    with pytest.raises(KeyError):
        allowed(users["stranger"], "round.manaeg", tournament)


def test_the_admin_asks_the_same_table(client):
    """A staff account with every model permission still edits only the tournaments it directs."""
    mine, theirs = EntryFactory(), EntryFactory()
    staff = UserFactory(is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="tournaments"))
    OfficialFactory(tournament=mine.tournament, user=staff, role="organiser")
    client.force_login(staff)
    change = "admin:tournaments_entry_change"
    assert client.get(reverse(change, args=[mine.pk])).status_code == 200
    page = client.get(reverse(change, args=[theirs.pk]))
    assert page.status_code == 200 and b'name="_save"' not in page.content  # view only
    before = theirs.draw_number  # the factory's sequence: a fixed 99 was once the entry's own number
    client.post(reverse(change, args=[theirs.pk]), {"draw_number": (before or 0) + 1})
    theirs.refresh_from_db()
    assert theirs.draw_number == before
    assert client.post(reverse("admin:tournaments_entry_delete", args=[theirs.pk]), {"post": "yes"}).status_code == 403
