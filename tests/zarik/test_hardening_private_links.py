"""One player typing made-up private links cannot lock a hall (one Wi-Fi address) out.

Before issue 29, 20 made-up ``/p/…`` links from one address made every link from it,
the real ones too, answer 429 for minutes. Now forged links are counted and refused
past the limit, while links we issued (they bear our signature) are always served.
"""

from __future__ import annotations

import pytest

from tests.factories import MatchFactory, RoundFactory, TournamentFactory
from tournaments.access import private_links

HALL = "192.0.2.44"  # every phone in the hall behind one address


@pytest.mark.django_db
def test_made_up_links_from_a_hall_do_not_lock_out_its_real_links(client, settings):
    settings.PRIVATE_LINK_MISS_RATE = "20/10m"
    match = MatchFactory(round=RoundFactory(tournament=TournamentFactory(), number=1), table=1)
    real = [private_links.path_for(match.entry_a), private_links.path_for(match.entry_b)]

    guesses = [client.get(f"/p/made-up-{n}/", REMOTE_ADDR=HALL).status_code for n in range(40)]

    assert guesses[:20] == [404] * 20 and set(guesses[20:]) == {429}
    assert [client.get(path, REMOTE_ADDR=HALL).status_code for path in real] == [200, 200]


@pytest.mark.django_db
def test_a_forged_signature_is_still_limited(client, settings):
    settings.PRIVATE_LINK_MISS_RATE = "3/10m"
    match = MatchFactory(round=RoundFactory(tournament=TournamentFactory(), number=1), table=1)
    token = private_links.token_for(match.entry_a)
    forged = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    assert not private_links.signed(forged)
    answers = [client.get(f"/p/{forged}/", REMOTE_ADDR="192.0.2.45").status_code for _ in range(5)]
    assert answers == [404, 404, 404, 429, 429]
