"""Invisible and bidi control characters in names (issue 45).

«Смир\u200bнов» was accepted beside «Смирнов» (two identical-looking rows on printed
standings), an unterminated U+202E reversed the rest of its cell, pages had no ``<bdi>``
and the workbook kept the characters. Now one rule (:func:`clubs.names.clean_name`)
cleans a name on every way in — the registration form, the import, the organiser's
desk, the API, the admin, a plain save — the identity service compares the cleaned
form, pages isolate names in ``<bdi>``, and the workbook writer drops the characters
from every text cell.
"""

from __future__ import annotations

import importlib
import io
import unicodedata

import lxml.html
import pytest
from django.apps import apps
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook
from rest_framework.test import APIClient

from clubs.models import ClubRole, ClubRoleKind, Player
from clubs.names import INVISIBLE_CATEGORIES, clean_name, search_key
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory, enter
from tests.smtp import smtp_server
from tournaments.entries import importer
from tournaments.jobs.export_tasks import build_workbook
from tournaments.models import Registration

ZWSP, RLO, LRM, BOM, SHY = "\u200b", "\u202e", "\u200e", "\ufeff", "\u00ad"
HIDDEN = "Смир\u200bнов"


# --- the rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        (HIDDEN, "Смирнов"),
        (f"{RLO}вонримС", "вонримС"),  # an unterminated override: removed, nothing reversed
        (f"{BOM}Иванов{LRM}", "Иванов"),
        (f"Ива{SHY}нов", "Иванов"),
        ("Иван\u00a0 \tПетрович", "Иван Петрович"),  # no-break space, tab: one space
        ("Йошкин", "Йошкин"),  # И + combining breve → Й (NFC)
        (ZWSP * 3, ""),  # invisible only: empty, refused as a missing name
    ],
)
def test_a_name_is_stored_without_invisible_characters(typed, stored):
    assert clean_name(typed) == stored


@given(st.text())
def test_the_rule_is_idempotent_and_leaves_nothing_invisible(text):
    once = clean_name(text)
    assert clean_name(once) == once
    assert unicodedata.is_normalized("NFC", once)
    assert not any(unicodedata.category(ch) in INVISIBLE_CATEGORIES for ch in once)
    assert search_key(text) == search_key(once)  # the identity service sees the cleaned name


@given(st.text(alphabet="Смирнов"), st.lists(st.sampled_from([ZWSP, RLO, LRM, BOM, SHY, "\u2066", "\u2069"])))
def test_invisible_characters_never_make_a_second_name(name, inserted):
    hidden = name
    for i, ch in enumerate(inserted):
        at = i % (len(hidden) + 1)
        hidden = hidden[:at] + ch + hidden[at:]
    assert clean_name(hidden) == clean_name(name)


# --- every way in ----------------------------------------------------------------------------


@pytest.fixture
def smirnov(db):
    return PlayerFactory(last_name="Смирнов", first_name="Иван", last_name_latin="", first_name_latin="")


@pytest.fixture
def organiser(db):
    club = ClubFactory(name="Казань", slug="kazan")
    user = UserFactory(username="kazan-organiser")
    ClubRole.objects.create(club=club, user=user, role=ClubRoleKind.ORGANISER)
    user.club = club
    return user


@pytest.mark.django_db
def test_a_plain_save_and_a_factory_store_the_cleaned_name():
    player = PlayerFactory(last_name=f"{RLO}{HIDDEN}", first_name=f"Иван{ZWSP}")
    player.refresh_from_db()
    assert (player.last_name, player.first_name) == ("Смирнов", "Иван")
    assert player.search_key.startswith("smirnov ivan")


@pytest.mark.django_db
def test_the_registration_form_stores_the_cleaned_name_and_refuses_an_invisible_one(client):
    TournamentFactory(public=True, registration_open=True, slug="kubok")
    url = reverse("register", kwargs={"slug": "kubok"})
    form = {"last_name": HIDDEN, "first_name": "Иван", "email": "ivan@example.org", "category": "4"}
    with smtp_server():
        client.post(url, form)
    assert Registration.objects.get(email="ivan@example.org").last_name == "Смирнов"

    page = client.post(url, {**form, "last_name": ZWSP * 2, "email": "other@example.org"}, HTTP_ACCEPT_LANGUAGE="ru")
    html = lxml.html.fromstring(page.content)
    assert "Обязательное поле" in html.text_content()  # the name was empty: said so, in Russian
    assert not Registration.objects.filter(email="other@example.org").exists()


@pytest.mark.django_db
def test_the_import_proposes_the_stored_player_for_a_name_with_a_hidden_space(smirnov, organiser):
    event = TournamentFactory(club=organiser.club)
    rows = importer.read_file("list.csv", f"Фамилия,Имя\n{HIDDEN},Иван\n".encode())
    assert rows[0].get("last_name") == "Смирнов"
    preview = importer.plan(event, rows)
    assert [c.player for c in preview.rows[0].candidates] == [smirnov]


@pytest.mark.django_db
def test_the_desk_and_the_api_propose_the_stored_player_instead_of_a_second_one(client, smirnov, organiser):
    desk_event = TournamentFactory(club=organiser.club)
    client.force_login(organiser)
    page = client.post(
        reverse("manage-entries-new", kwargs={"slug": desk_event.slug}),
        {"last_name": HIDDEN, "first_name": "Иван", "category": 4},
    )
    assert page.status_code == 400 and f'name="player" value="{smirnov.pk}"' in page.content.decode()

    api = APIClient()
    api.force_authenticate(organiser)
    api_event = TournamentFactory(club=organiser.club)
    refused = api.post(f"/api/tournaments/{api_event.slug}/entries/",
                       {"last_name": HIDDEN, "first_name": "Иван", "category": 4}, format="json")  # fmt: skip
    assert refused.status_code == 400 and f"#{smirnov.pk}" in str(refused.json())
    created = api.post(f"/api/tournaments/{api_event.slug}/entries/",
                       {"last_name": f"Петров{RLO}", "first_name": "Пётр", "category": 4}, format="json")  # fmt: skip
    assert created.status_code == 201
    assert Player.objects.filter(last_name="Петров").exists()
    assert Player.objects.filter(last_name__contains="Смирнов").count() == 1


@pytest.mark.django_db
def test_the_admin_stores_the_cleaned_name(admin_client):
    page = admin_client.post(
        reverse("admin:clubs_player_add"),
        {"last_name": f"Сидоров{ZWSP}", "first_name": f"{RLO}Олег", "category": 4, "rating": 1500,
         "experience": 0, "language": "ru", "memberships-TOTAL_FORMS": 0, "memberships-INITIAL_FORMS": 0},  # fmt: skip
    )
    assert page.status_code == 302, page.content.decode()[:2000]
    assert Player.objects.get(first_name="Олег").last_name == "Сидоров"


@pytest.mark.django_db
def test_rows_stored_before_the_rule_are_cleaned_by_the_migration():
    player = PlayerFactory(last_name="Смирнов")
    Player.objects.filter(pk=player.pk).update(last_name=HIDDEN, first_name=f"{RLO}Иван")  # bypasses save()
    migration = importlib.import_module("clubs.migrations.0009_names_cleaned")
    migration.clean_stored_names(apps, None)
    player.refresh_from_db()
    assert (player.last_name, player.first_name) == ("Смирнов", "Иван")
    assert player.search_key.startswith("smirnov ivan")


# --- where names are shown -------------------------------------------------------------------


@pytest.mark.django_db
def test_pages_isolate_names_and_the_workbook_carries_no_control_character(client):
    event = TournamentFactory(public=True, name=f"Кубок{RLO} клуба")
    players = enter(event, [{"last_name": "عمر", "first_name": "Ахмед"}, {"last_name": "Смирнов"}])
    Player.objects.filter(pk=players[1].player_id).update(last_name=f"{RLO}Смирнов")  # a row from before the rule
    page = client.get(reverse("public-standings", kwargs={"slug": event.slug}))
    html = lxml.html.fromstring(page.content)
    isolated = [b.text_content() for b in html.xpath("//table//bdi")]
    assert any("عمر" in name for name in isolated) and any("Смирнов" in name for name in isolated)

    out = io.BytesIO()
    build_workbook(event, out)
    book = load_workbook(io.BytesIO(out.getvalue()), read_only=True)
    texts = [v for ws in book.worksheets for row in ws.iter_rows(values_only=True) for v in row if isinstance(v, str)]
    assert any("Смирнов" in t for t in texts)
    assert not [t for t in texts if any(unicodedata.category(ch) == "Cf" for ch in t)]
