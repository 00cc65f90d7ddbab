"""One person, one player (issue 37): every way a person comes in asks the identity service.

A name in any alphabet, with ё or without, in any order, is proposed to the organiser
side by side with what tells namesakes apart (clubs, year of birth, id); the organiser
confirms; nothing silently creates a second player or takes over someone else's.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.test import TestCase
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.identity.matching import Person
from clubs.identity.services import NEW, IdentityUndecided, identify
from clubs.models import CategoryChange, ClubRole, ClubRoleKind, Membership, Player, PlayerRating
from clubs.ratings.history import RatedMatch, replay
from scoring import workflow
from tests.factories import (
    ClubFactory,
    MatchFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
)
from tournaments.entries import importer
from tournaments.identity.services import MergeRefused, merge
from tournaments.models import (
    AuditEntry,
    Entry,
    Match,
    OfficialRole,
    RatingChange,
    Registration,
    RegistrationStatus,
)
from tournaments.registration import services as registration

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet_email(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def kazan():
    return ClubFactory(name="Казань", slug="kazan")


@pytest.fixture
def elena(kazan):
    player = PlayerFactory(
        last_name="Семёнова", first_name="Елена", last_name_latin="Semyonova", first_name_latin="Elena",
        email="lena@example.org", birth_year=1990,
    )  # fmt: skip
    Membership.objects.create(player=player, club=kazan, started_on="2020-01-01")
    return player


@pytest.fixture
def organiser(kazan):
    user = UserFactory(username="kazan-organiser")
    ClubRole.objects.create(club=kazan, user=user, role=ClubRoleKind.ORGANISER)
    return user


def _rows(text: str) -> list[importer.Row]:
    return importer.read_file("list.csv", text.encode())


def _apply_form(tournament, **data):
    base = {"email": "elena.s@example.org", "category": 4, "rating": None, "club_name": "",
            "last_name_latin": "", "first_name_latin": ""}  # fmt: skip
    return registration.apply(tournament, {**base, **data}).registration


def _semenova_players() -> int:
    return Player.objects.filter(search_key__contains="semenova").count()


def test_a_person_registered_imported_and_entered_five_ways_is_one_player(client, kazan, elena, organiser):
    # 1. Self-registration as «Семенова Елена» (no ё, another email): the organiser is shown
    #    Семёнова and approves the application as her.
    event = TournamentFactory(club=kazan, registration_open=True, registration_approval=True)
    reg = _apply_form(event, last_name="Семенова", first_name="Елена")
    assert [c.player for c in registration.candidates_for(reg)] == [elena]
    with pytest.raises(registration.RegistrationRefused):
        registration.approve(reg, organiser)  # not without saying who she is
    registration.approve(reg, organiser, player=elena.pk)
    assert event.entries.get().player == elena

    # 1b. Without approval, the same email and name (Latin letters, order swapped) is her at once.
    open_event = TournamentFactory(club=kazan, registration_open=True, registration_approval=False)
    reg = _apply_form(open_event, last_name="Elena", first_name="Semenova", email="LENA@example.org")
    assert reg.status == RegistrationStatus.APPROVED and reg.entry.player == elena

    # 2. The entries import: «Semenova, Elena», no club. The row waits for the organiser.
    imported = TournamentFactory(club=kazan)
    rows = _rows("Фамилия,Имя\nSemenova,Elena\n")
    preview = importer.plan(imported, rows)
    assert [r.action for r in preview.rows] == [importer.DECIDE]
    assert [c.player for c in preview.rows[0].candidates] == [elena]
    importer.apply(imported, rows, organiser, choices={2: str(elena.pk)})
    assert imported.entries.get().player == elena

    # 3. Another club's member list: «Семёнова, Елена». Proposed, confirmed: she joins that club too.
    other = ClubFactory(name="Пермь")
    rows = _rows("Фамилия,Имя\nСемёнова,Елена\n")
    assert importer.plan_members(other, rows).rows[0].action == importer.DECIDE
    importer.apply_members(other, rows, choices={2: str(elena.pk)})
    assert Membership.objects.filter(club=other, player=elena, ended_on__isnull=True).exists()

    # 4. The API, given and family names swapped: refused with her named, then entered by id.
    api_event = TournamentFactory(club=kazan)
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/tournaments/{api_event.slug}/entries/"
    refused = api.post(url, {"last_name": "Елена", "first_name": "Семенова", "category": 4}, format="json",
                       HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert refused.status_code == 400 and f"#{elena.pk}" in str(refused.json())
    assert api.post(url, {"player": elena.pk}, format="json").status_code == 201

    # 5. The organiser's new-player form on the entries desk: her candidate line, with a button.
    desk_event = TournamentFactory(club=kazan)
    client.force_login(organiser)
    page = client.post(
        reverse("manage-entries-new", kwargs={"slug": desk_event.slug}),
        {"last_name": "СЕМЁНОВА", "first_name": "елена", "category": 4},
    )
    text = page.content.decode()
    assert page.status_code == 400 and "Казань" in text and f'name="player" value="{elena.pk}"' in text
    assert not desk_event.entries.exists()

    assert _semenova_players() == 1


def test_a_member_list_row_in_both_alphabets_proposes_the_namesake_of_another_club(client, kazan, organiser):
    """The issue's row ``Гусейнов,Эльдар,Guseinov,Eldar,8``: the player of another club is shown, not duplicated."""
    baku = ClubFactory(name="Баку")
    eldar = PlayerFactory(last_name="Гусейнов", first_name="Эльдар", last_name_latin="", first_name_latin="",
                          birth_year=1985)  # fmt: skip
    Membership.objects.create(player=eldar, club=baku, started_on="2019-05-01")
    client.force_login(organiser)
    url = reverse("club-members-import", kwargs={"slug": kazan.slug})
    upload = io.BytesIO("Фамилия,Имя,last_name_latin,first_name_latin,Категория\nГусейнов,Эльдар,Guseinov,Eldar,8\n".encode())
    upload.name = "members.csv"
    text = client.post(url, {"file": upload}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # Side by side: the club, the year of birth and the id tell namesakes apart.
    assert "Баку" in text and "1985" in text and f"#{eldar.pk}" in text
    assert f'name="person-2" value="{eldar.pk}"' in text and 'name="person-2" value="new"' in text
    client.post(url, {"confirm": "1"})  # no choice made: nothing written, the row waits
    assert Player.objects.filter(search_key__contains="guseinov").count() == 1
    assert not Membership.objects.filter(club=kazan).exists()
    client.post(url, {"confirm": "1", "person-2": str(eldar.pk)})
    assert Membership.objects.filter(club=kazan, player=eldar).exists()
    assert Player.objects.filter(search_key__contains="guseinov").count() == 1


def test_an_application_needing_a_choice_waits_even_without_approval(kazan, elena):
    event = TournamentFactory(club=kazan, registration_open=True, registration_approval=False)
    reg = _apply_form(event, last_name="Семенова", first_name="Елена")
    assert reg.status == RegistrationStatus.PENDING and reg.entry is None
    assert _semenova_players() == 1


def test_the_same_email_under_the_same_name_is_the_same_applicant(kazan):
    event = TournamentFactory(club=kazan, registration_open=True, registration_approval=True)
    _apply_form(event, last_name="Семёнова", first_name="Елена")
    with pytest.raises(registration.RegistrationRefused) as refused:
        _apply_form(event, last_name="Semenova", first_name="Elena", email="ELENA.S@example.org")
    assert refused.value.problem.code == "registration.duplicate"
    assert Registration.objects.count() == 1


def test_a_chosen_player_must_be_one_of_the_proposed(elena):
    stranger = PlayerFactory(last_name="Петров", first_name="Олег")
    with pytest.raises(IdentityUndecided) as refused:
        identify(Person("Семенова", "Елена"), choice=stranger.pk)
    assert refused.value.problem.code == "identity.not_a_candidate"
    assert identify(Person("Семенова", "Елена"), choice=NEW).player is None


def test_a_different_year_of_birth_keeps_a_same_club_namesake_a_question(kazan, elena):
    with pytest.raises(IdentityUndecided):
        identify(Person("Семёнова", "Елена", birth_year=2010, clubs=frozenset({kazan.pk})))
    assert identify(Person("Семёнова", "Елена", clubs=frozenset({kazan.pk}))).player == elena


def test_the_desk_creates_a_new_namesake_only_when_told(client, kazan, elena, organiser):
    event = TournamentFactory(club=kazan)
    client.force_login(organiser)
    url = reverse("manage-entries-new", kwargs={"slug": event.slug})
    data = {"last_name": "Семёнова", "first_name": "Елена", "category": 4, "birth_year": 2012}
    assert client.post(url, data).status_code == 400
    assert client.post(url, {**data, "new_person": "on"}).status_code == 302
    assert _semenova_players() == 2 and event.entries.get().player.birth_year == 2012


# --- the merge: two stored players are one person ------------------------------------------


def _rated_event(director, players, **fields):
    event = TournamentFactory(rated=True, variant="backgammon", **fields)
    OfficialFactory(tournament=event, user=director, role=OfficialRole.ORGANISER)
    return event, enter(event, players), [RoundFactory(tournament=event, number=n) for n in (1, 2)]


def _play(director, rnd, a, b, score):
    match = MatchFactory(round=rnd, entry_a=a, entry_b=b)
    with TestCase.captureOnCommitCallbacks(execute=True):
        workflow.submit_result(match.pk, director, version=match.version, final=score, confirm=True)


def _replay_of_stored_history():
    """The pool replayed from the stored confirmed results in the stored order (not by the service)."""
    order = []
    for match_id in (
        RatingChange.objects.filter(pool="backgammon").order_by("sequence").values_list("match_id", flat=True)
    ):
        if not order or order[-1][0] != match_id:
            m = Match.objects.select_related("entry_a", "entry_b").get(pk=match_id)
            order.append((match_id, RatedMatch(m.entry_a.player_id, m.entry_b.player_id, 5, m.score_a, m.score_b)))
    return replay(None, [r for _, r in order])[0]


def test_a_merge_moves_everything_and_recomputes_ratings(kazan, elena, organiser):
    director = UserFactory(username="director")
    perm = ClubFactory(name="Пермь")
    twin = PlayerFactory(last_name="Semenova", first_name="Elena", last_name_latin="", first_name_latin="",
                         email="", birth_year=None, city="Пермь", user=UserFactory(username="lena-perm"))  # fmt: skip
    Membership.objects.create(player=twin, club=kazan, started_on="2015-01-01", ended_on="2018-01-01")
    Membership.objects.create(player=twin, club=perm, started_on="2018-02-01")
    CategoryChange.objects.create(player=twin, category_from=4, category_to=5, on="2024-05-01", reason="1st place")
    x, y = PlayerFactory(), PlayerFactory()
    _, (e1, ex, ey), (r1, r2) = _rated_event(director, [elena, x, y], starts_on=dt.date(2026, 3, 1))
    _play(director, r1, e1, ex, (5, 2))
    _play(director, r2, e1, ey, (3, 5))
    _, (t1, tx, ty), (s1, s2) = _rated_event(director, [twin, x, y], starts_on=dt.date(2026, 4, 1))
    _play(director, s1, t1, tx, (5, 1))
    _play(director, s2, t1, ty, (5, 4))
    half = PlayerRating.objects.get(player=elena, pool="backgammon").rating
    x_before = PlayerRating.objects.get(player=x, pool="backgammon").rating

    done = merge(elena, twin, organiser, "the same person: Пермь moved to Казань, same phone")

    assert not Player.objects.filter(pk=twin.pk).exists()
    assert set(Entry.objects.filter(pk__in=[e1.pk, t1.pk]).values_list("player_id", flat=True)) == {elena.pk}
    assert set(Membership.objects.filter(player=elena).values_list("club__name", "ended_on")) == {
        ("Казань", None), ("Казань", dt.date(2018, 1, 1)), ("Пермь", None)}  # fmt: skip
    assert CategoryChange.objects.filter(player=elena, category_to=5).exists()
    elena.refresh_from_db()
    assert elena.user.username == "lena-perm" and elena.city == "Пермь"
    assert elena.email == "lena@example.org" and elena.birth_year == 1990  # what she had is kept
    # The rating history: one person with four rated matches, recomputed in order.
    assert not RatingChange.objects.filter(Q(player_id=twin.pk) | Q(opponent_id=twin.pk)).exists()
    mine = PlayerRating.objects.get(player=elena, pool="backgammon")
    assert (mine.matches, mine.experience) == (4, 20)
    assert not PlayerRating.objects.filter(player_id=twin.pk).exists()
    expected = _replay_of_stored_history()
    assert mine.rating == pytest.approx(expected[elena.pk].rating, abs=1e-9) and mine.rating != half
    x_after = PlayerRating.objects.get(player=x, pool="backgammon").rating
    assert x_after == pytest.approx(expected[x.pk].rating, abs=1e-9) and x_after != x_before  # opponents too
    assert done.pools == ["backgammon"] and done.entries == 1 and done.rating_changes == 2
    assert AuditEntry.objects.filter(action="player.merge", object_id=elena.pk).exists()


def test_a_merge_of_two_players_entered_in_one_tournament_is_refused(kazan, elena, organiser):
    twin = PlayerFactory(last_name="Семенова", first_name="Елена")
    Membership.objects.create(player=twin, club=kazan, started_on="2020-01-01")
    enter(TournamentFactory(club=kazan), [elena, twin])
    with pytest.raises(MergeRefused) as refused:
        merge(elena, twin, organiser, "one person")
    assert refused.value.problem.code == "merge.both_entered"
    assert Player.objects.filter(pk=twin.pk).exists()


def test_only_an_organiser_of_their_club_may_merge_two_players(kazan, elena):
    stranger = UserFactory(username="elsewhere")
    ClubRole.objects.create(club=ClubFactory(), user=stranger, role=ClubRoleKind.ORGANISER)
    twin = PlayerFactory(last_name="Семенова", first_name="Елена")
    with pytest.raises(PermissionDenied):
        merge(elena, twin, stranger, "one person")


def test_the_organisers_merge_page_compares_side_by_side_then_merges(client, kazan, elena, organiser):
    twin = PlayerFactory(last_name="Semenova", first_name="Elena", last_name_latin="", first_name_latin="",
                         birth_year=1990)  # fmt: skip
    Membership.objects.create(player=twin, club=kazan, started_on="2019-01-01", ended_on="2019-12-31")
    client.force_login(organiser)
    url = reverse("club-members-merge", kwargs={"slug": kazan.slug})
    compare = client.get(url, {"keep": elena.pk, "gone": twin.pk}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Семёнова Елена" in compare and "Semenova Elena" in compare and 'id="merge-compare"' in compare
    assert Player.objects.filter(pk=twin.pk).exists()  # comparing writes nothing
    no_reason = client.post(url, {"keep": elena.pk, "gone": twin.pk, "confirm": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert no_reason.status_code == 400 and "Say why these two players are one person" in no_reason.content.decode()
    done = client.post(url, {"keep": elena.pk, "gone": twin.pk, "reason": "same birth year", "confirm": "1"})
    assert done.status_code == 302 and not Player.objects.filter(pk=twin.pk).exists()
    assert Membership.objects.filter(player=elena, club=kazan).count() == 2


def test_an_organiser_of_another_club_cannot_open_the_merge_of_these_players(client, kazan, elena):
    other = ClubFactory()
    stranger = UserFactory(username="other-organiser")
    ClubRole.objects.create(club=other, user=stranger, role=ClubRoleKind.ORGANISER)
    twin = PlayerFactory(last_name="Семенова", first_name="Елена")
    Membership.objects.create(player=twin, club=kazan, started_on="2020-01-01", ended_on="2020-02-01")
    client.force_login(stranger)
    url = reverse("club-members-merge", kwargs={"slug": other.slug})
    assert client.get(url, {"keep": elena.pk, "gone": twin.pk}).status_code == 403


def test_many_players_sharing_a_given_name_never_crowd_out_the_namesake():
    letters = "абвгдежзиклмнопрстуфхцчшэюя"
    for i in range(210):
        PlayerFactory(last_name=f"Петрова{letters[i % 27]}{letters[i // 27]}", first_name="Елена",
                      last_name_latin="", first_name_latin="")  # fmt: skip
    elena = PlayerFactory(last_name="Семёнова", first_name="Елена", last_name_latin="", first_name_latin="")
    with pytest.raises(IdentityUndecided) as undecided:
        identify(Person("Семенова", "Елена"))
    assert undecided.value.candidates[0].player == elena


def test_the_club_members_page_proposes_the_namesake_instead_of_a_new_member(client, kazan, elena, organiser):
    """The sixth way in: the members page's "new player" form."""
    perm = ClubFactory(name="Пермь", slug="perm")
    ClubRole.objects.create(club=perm, user=organiser, role=ClubRoleKind.ORGANISER)
    client.force_login(organiser)
    url = reverse("club-members", kwargs={"slug": perm.slug})
    page = client.post(url, {"action": "new", "new-last_name": "Semenova", "new-first_name": "Elena",
                             "new-category": 4, "new-started_on": "2026-01-10"}, HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    text = page.content.decode()
    assert page.status_code == 400 and f'name="player" value="{elena.pk}"' in text
    assert 'name="action" value="add"' in text and 'name="started_on" value="2026-01-10"' in text
    assert client.post(url, {"action": "add", "player": elena.pk, "started_on": "2026-01-10"}).status_code == 302
    assert Membership.objects.filter(club=perm, player=elena, started_on="2026-01-10").exists()
    assert _semenova_players() == 1
    client.post(url, {"action": "new", "new-last_name": "Семёнова", "new-first_name": "Елена", "new-category": 4,
                      "new-started_on": "2026-01-10", "new-new_person": "on", "new-birth_year": 2011})  # fmt: skip
    assert _semenova_players() == 2  # said to be someone else: a new player


def test_a_trf_files_birth_dates_give_the_new_players_their_year_of_birth():
    line = "001    1 m    Gusejnov, Eldar                   1620 AZE             1985/03/04  0.0    1"
    rows = importer.read_file("event.trf", f"012 Open\n{line}\n".encode())
    event = TournamentFactory()
    importer.apply(event, rows, None)
    assert event.entries.get().player.birth_year == 1985
