"""The import pages name the file's headers in the page's language (issue 44: the English page
listed the Russian headers), and say that the other language's headers are accepted too."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import ClubRole
from tests.factories import ClubFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    club = ClubFactory(name="Нарды-Клуб", slug="nardy")
    TournamentFactory(slug="open", club=club)
    user = UserFactory(username="boss")
    ClubRole.objects.create(club=club, user=user)
    client.force_login(user)
    return user


PAGES = [reverse("manage-entries-import", kwargs={"slug": "open"}), reverse("club-members-import", kwargs={"slug": "nardy"})]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize(
    ("language", "own", "other"),
    [("en", "last_name, first_name", "Фамилия, Имя"), ("ru", "Фамилия, Имя", "last_name, first_name")],
)
def test_the_headers_follow_the_pages_language(client, organiser, page, language, own, other):
    client.cookies["django_language"] = language
    html = client.get(page).content.decode()
    assert own in html and other in html
    assert html.index(own) < html.index(other)  # the page's own language first, the other "also accepted"
    assert "Фамилия/last_name" not in html


@pytest.mark.parametrize(("language", "header"), [("en", "Фамилия;Имя"), ("ru", "last_name;first_name")])
def test_the_other_languages_headers_are_read_as_the_page_says(client, organiser, language, header):
    client.cookies["django_language"] = language
    upload = SimpleUploadedFile("e.csv", f"{header}\nПетров;Иван\n".encode(), content_type="text/csv")
    preview = client.post(PAGES[0], {"file": upload})
    assert preview.status_code == 200 and "Петров" in preview.content.decode()
