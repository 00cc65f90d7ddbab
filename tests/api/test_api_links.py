"""Issue 28: collections answer RFC 8288 ``Link`` headers for their pages."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def _links(answer) -> dict[str, str]:
    out = {}
    for part in answer["Link"].split(","):
        url, rel = part.split(";")
        out[rel.strip().removeprefix('rel="').removesuffix('"')] = url.strip().strip("<>")
    return out


def test_a_middle_page_links_to_the_first_previous_next_and_last_pages():
    for n in range(5):
        TournamentFactory(public=True, slug=f"links-{n}")
    answer = Client().get("/api/tournaments/?page=2&page_size=2")
    assert answer.status_code == 200
    links = _links(answer)
    assert links == {
        "first": "http://testserver/api/tournaments/?page_size=2",
        "prev": "http://testserver/api/tournaments/?page_size=2",
        "next": "http://testserver/api/tournaments/?page=3&page_size=2",
        "last": "http://testserver/api/tournaments/?page=3&page_size=2",
    }
    assert links["next"] == answer.json()["next"]
    last = Client().get(links["last"])
    assert set(_links(last)) == {"first", "prev", "last"}  # no next after the last page
