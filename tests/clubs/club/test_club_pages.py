"""Club pages: the public list and page, the organisers' members page and the member-list import."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.urls import reverse
from openpyxl import Workbook

from clubs.models import ClubRole, Membership, Player, PlayerRating
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    """Pages in English unless a test asks otherwise (the site's default is Russian)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def club():
    return ClubFactory(name="Зарик", slug="zarik", city="Москва")


@pytest.fixture
def organiser(club):
    user = UserFactory(username="boss")
    ClubRole.objects.create(club=club, user=user)
    return user


def member(club, started=dt.date(2025, 1, 10), ended=None, **player):
    p = PlayerFactory(**player)
    Membership.objects.create(player=p, club=club, started_on=started, ended_on=ended)
    return p


def test_club_list_and_page_show_members_events_and_ratings(client, club):
    current = member(club, last_name="Семёнов", last_name_latin="Semenov")
    former = member(club, ended=dt.date(2025, 6, 1), last_name="Хайкин")
    PlayerRating.objects.create(player=current, pool="backgammon", rating=1612.345, matches=7)
    PlayerRating.objects.create(player=former, pool="backgammon", rating=1700)  # not a member now
    TournamentFactory(club=club, name="Кубок Зарика")
    TournamentFactory(club=club, name="Скрытый", public=False)
    listing = client.get(reverse("club-list")).content.decode()
    assert "Зарик" in listing and reverse("club-detail", kwargs={"slug": "zarik"}) in listing
    page = client.get(reverse("club-detail", kwargs={"slug": "zarik"})).content.decode()
    assert "Семёнов" in page and "Хайкин" in page  # current and former members
    assert "10.01.2025" in page or "2025" in page
    assert "Кубок Зарика" in page and "Скрытый" not in page  # released events only
    assert "1612.35" in page or "1612,35" in page
    assert "1700" not in page
    assert "Manage members" not in page  # the public sees no management links


def test_club_page_queries_do_not_grow_with_members(client, club, django_assert_max_num_queries):
    for i in range(30):
        p = member(club)
        PlayerRating.objects.create(player=p, pool="long_nardy", rating=1500 + i)
    with django_assert_max_num_queries(14):
        assert client.get(reverse("club-detail", kwargs={"slug": "zarik"})).status_code == 200


def test_unknown_club_is_404(client):
    assert client.get(reverse("club-detail", kwargs={"slug": "nope"})).status_code == 404


@pytest.mark.parametrize("name", ["club-members", "club-members-import"])
def test_only_club_organisers_manage_members(client, club, organiser, name):
    url = reverse(name, kwargs={"slug": club.slug})
    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(UserFactory(username="stranger"))
    assert client.get(url).status_code == 403
    other = ClubFactory()
    outsider = UserFactory(username="other-boss")
    ClubRole.objects.create(club=other, user=outsider)
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_stranger_cannot_post_a_member(client, club):
    p = PlayerFactory()
    client.force_login(UserFactory(username="stranger"))
    url = reverse("club-members", kwargs={"slug": club.slug})
    assert client.post(url, {"action": "add", "player": p.pk, "started_on": "2026-01-01"}).status_code == 403
    assert not Membership.objects.exists()


def test_search_then_add_an_existing_player(client, club, organiser):
    p = PlayerFactory(last_name="Семёнов", first_name="Юрий", last_name_latin="Semenov")
    client.force_login(organiser)
    url = reverse("club-members", kwargs={"slug": club.slug})
    found = client.get(url, {"q": "semenov"}).content.decode()
    assert "Семёнов" in found and f'value="{p.pk}"' in found
    live = client.get(reverse("club-members-search", kwargs={"slug": club.slug}), {"q": "Семенов"},
                      HTTP_HX_REQUEST="true").content.decode()
    assert "Семёнов" in live and "<html" not in live
    response = client.post(url, {"action": "add", "player": p.pk, "started_on": "2026-02-01"})
    assert response.status_code == 302
    m = Membership.objects.get(player=p, club=club)
    assert m.started_on == dt.date(2026, 2, 1) and m.ended_on is None
    assert AuditEntry.objects.filter(action="membership.add").exists()
    again = client.post(url, {"action": "add", "player": p.pk, "started_on": "2026-02-01"})
    assert again.status_code == 400 and "already a current member" in again.content.decode()


def test_add_a_new_player_keeps_input_on_error(client, club, organiser):
    client.force_login(organiser)
    url = reverse("club-members", kwargs={"slug": club.slug})
    bad = client.post(url, {"action": "new", "new-last_name": "", "new-first_name": "Анна",
                            "new-category": "1", "new-started_on": "2026-01-01"})
    assert bad.status_code == 400
    assert 'value="Анна"' in bad.content.decode()
    ok = client.post(url, {"action": "new", "new-last_name": "Новикова", "new-first_name": "Анна",
                           "new-category": "3", "new-started_on": "2026-01-01"})
    assert ok.status_code == 302
    assert Membership.objects.get(club=club, player__last_name="Новикова").started_on == dt.date(2026, 1, 1)


def test_end_a_membership_on_a_date(client, club, organiser):
    p = member(club, started=dt.date(2025, 3, 1))
    m = p.memberships.get()
    client.force_login(organiser)
    url = reverse("club-members", kwargs={"slug": club.slug})
    early = client.post(url, {"action": "end", "membership": m.pk, f"end{m.pk}-ended_on": "2025-01-01"})
    assert early.status_code == 400 and "cannot end earlier" in early.content.decode()
    m.refresh_from_db()
    assert m.ended_on is None
    bad = client.post(url, {"action": "end", "membership": m.pk, f"end{m.pk}-ended_on": "soon"})
    assert bad.status_code == 400
    assert client.post(url, {"action": "end", "membership": m.pk,
                             f"end{m.pk}-ended_on": "2025-12-31"}).status_code == 302
    m.refresh_from_db()
    assert m.ended_on == dt.date(2025, 12, 31)
    assert AuditEntry.objects.filter(action="membership.end").exists()


def test_end_a_membership_of_another_club_is_404(client, club, organiser):
    other = member(ClubFactory())
    client.force_login(organiser)
    url = reverse("club-members", kwargs={"slug": club.slug})
    m = other.memberships.get()
    assert client.post(url, {"action": "end", "membership": m.pk}).status_code == 404


def _xlsx(rows) -> io.BytesIO:
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    buf = io.BytesIO()
    wb.save(buf)
    buf.seek(0)
    buf.name = "members.xlsx"
    return buf


def test_member_import_preview_then_confirm(client, club, organiser):
    already = member(club, last_name="Семёнов", first_name="Юрий", last_name_latin="Semenov",
                     first_name_latin="Yury")
    clubless = PlayerFactory(last_name="Хайкин", first_name="Борис", last_name_latin="", first_name_latin="")
    elsewhere = member(ClubFactory(), last_name="Щукин", first_name="Иван", last_name_latin="",
                       first_name_latin="")
    client.force_login(organiser)
    url = reverse("club-members-import", kwargs={"slug": club.slug})
    upload = _xlsx([
        ["Фамилия", "Имя", "Категория"],
        ["Семёнов", "Юрий", "5"],  # a member already
        ["Хайкин", "Борис", ""],  # a player of no club: proposed, the organiser says it is him
        ["Щукин", "Иван", ""],  # a namesake in another club: proposed, the organiser says "a new player"
        ["Новиков", "Олег", "3"],  # new
        ["", "Без фамилии", ""],  # refused
        ["Петров", "Пётр", "10"],  # refused: bad category
    ])  # fmt: skip
    preview = client.post(url, {"file": upload})
    assert preview.status_code == 200
    text = preview.content.decode()
    assert "1 will become members, 1 are members already, 2 refused. 2 rows wait until you say who they are." in text
    assert f'name="person-3" value="{clubless.pk}"' in text and f'name="person-4" value="{elsewhere.pk}"' in text
    assert not Membership.objects.filter(player=clubless).exists()  # nothing written yet
    players_before = Player.objects.count()
    done = client.post(url, {"confirm": "1", "person-3": str(clubless.pk), "person-4": "new"})
    assert done.status_code == 302
    assert Membership.objects.filter(club=club, player=clubless, ended_on__isnull=True).exists()
    assert Membership.objects.filter(club=club, player=already).count() == 1
    assert Player.objects.count() == players_before + 2  # Щукин (new person) and Новиков
    assert not Membership.objects.filter(club=club, player=elsewhere).exists()
    assert Player.objects.get(last_name="Новиков").category == 3
    assert AuditEntry.objects.filter(action="membership.import").exists()
    # importing the same list again adds nobody
    client.post(url, {"file": _xlsx([["Фамилия", "Имя"], ["Новиков", "Олег"]])})
    client.post(url, {"confirm": "1"})
    assert Membership.objects.filter(club=club, player__last_name="Новиков").count() == 1


def test_member_import_refuses_a_bad_file_with_a_field_error(client, club, organiser):
    client.force_login(organiser)
    url = reverse("club-members-import", kwargs={"slug": club.slug})
    upload = io.BytesIO("Имя\nЮрий\n".encode())
    upload.name = "members.csv"
    response = client.post(url, {"file": upload})
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()


def test_organise_and_home_link_the_club_pages(client, club, organiser):
    client.force_login(organiser)
    assert reverse("club-detail", kwargs={"slug": club.slug}) in client.get(reverse("organise")).content.decode()
    assert reverse("club-list") in client.get(reverse("home")).content.decode()


def test_club_pages_in_russian(client, club, organiser):
    member(club)
    client.force_login(organiser)
    page = client.get(reverse("club-detail", kwargs={"slug": club.slug}), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Члены клуба" in page.content.decode()
