"""Each user sees links to the working pages of their role — and only those."""

import pytest
from django.contrib.auth import get_user_model

from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db

LINKS = {
    "my": f"/t/{SWISS_SLUG}/my-match/",
    "referee": f"/t/{SWISS_SLUG}/referee/",
    "manage": f"/t/{SWISS_SLUG}/manage/",
    "audit": f"/t/{SWISS_SLUG}/audit/",
}


@pytest.mark.parametrize(
    ("username", "visible"),
    [
        (None, set()),
        ("player1", {"my"}),
        ("referee", {"referee"}),
        ("organiser", {"referee", "manage", "audit"}),
        ("jury", {"audit"}),
    ],
)
def test_tournament_page_links_by_role(client, demo, username, visible):
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    body = client.get(f"/t/{SWISS_SLUG}/").content.decode()
    shown = {name for name, url in LINKS.items() if f'href="{url}"' in body}
    assert shown == visible
    for name in visible:  # and each link leads somewhere the user may go
        assert client.get(LINKS[name]).status_code in (200, 302)
