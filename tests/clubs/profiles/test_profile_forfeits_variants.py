"""Head-to-head and the profile's matches (issue 49): forfeits are not games played, variants apart.

Regressions: a forfeit awarded 7:0 was shown as "7:0 won" and counted in the matches and wins
of head-to-head; backgammon and long nardy were mixed with no column or filter.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.clubs.profiles.test_profiles import play, text
from tests.factories import PlayerFactory, TournamentFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def pair():
    hero = PlayerFactory(last_name="Героев", first_name="", last_name_latin="Geroev", first_name_latin="")
    rival = PlayerFactory(last_name="Соперников", first_name="", last_name_latin="Sopernikov", first_name_latin="")
    spring = TournamentFactory(slug="spring", match_length=7)
    play(spring, 1, hero, rival, 7, 3)
    play(spring, 2, hero, rival, 7, 0, result_kind="forfeit")  # the rival did not come
    nardy = TournamentFactory(slug="nardy", variant="long_nardy", scoring="long_nardy", match_length=5)
    play(nardy, 1, rival, hero, 5, 1)
    return hero, rival


def _h2h_row(body: str, name: str) -> list[str]:
    table = body.split('class="grid h2h"', 1)[1].split("</table>", 1)[0]
    row = table[table.index(name):table.index("</tr>", table.index(name))]
    return re.findall(r'<td class="num">(\d+)</td>', row)


def test_a_forfeit_is_not_counted_as_a_match_played_in_head_to_head(client, pair):
    hero, rival = pair
    body = text(client.get(reverse("player-profile", kwargs={"player_id": hero.pk}), HTTP_ACCEPT_LANGUAGE="en"))
    assert _h2h_row(body, rival.display_name("en")) == ["2", "1", "1", "1"]  # matches, wins, losses, forfeits
    h2h = text(client.get(reverse("player-h2h", kwargs={"player_id": hero.pk, "other_id": rival.pk}),
                          HTTP_ACCEPT_LANGUAGE="en"))  # fmt: skip
    assert '<dd id="h2h-matches">2</dd>' in h2h and '<dd id="h2h-wins">1</dd>' in h2h
    assert '<dd id="h2h-forfeits">1</dd>' in h2h
    assert "+:−" in h2h and "won by forfeit (not played)" in h2h and ">7:0<" not in h2h
    rival_side = text(client.get(reverse("player-h2h", kwargs={"player_id": rival.pk, "other_id": hero.pk}),
                                 HTTP_ACCEPT_LANGUAGE="ru"))  # fmt: skip
    assert "−:+" in rival_side and "поражение неявкой (не играли)" in rival_side


def test_the_matches_show_their_game_and_can_be_filtered_by_it(client, pair):
    hero, rival = pair
    url = reverse("player-profile", kwargs={"player_id": hero.pk})
    every = text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    matches = every.split('id="matches"', 1)[1].split("</table>", 1)[0]
    assert "<td>Long nardy</td>" in matches and "<td>Backgammon</td>" in matches
    nardy = text(client.get(url, {"variant": "long_nardy"}, HTTP_ACCEPT_LANGUAGE="en"))
    matches = nardy.split('id="matches"', 1)[1].split("</table>", 1)[0]
    assert "<td>Long nardy</td>" in matches and "<td>Backgammon</td>" not in matches
    assert _h2h_row(nardy, rival.display_name("en")) == ["1", "0", "1", "0"]
    assert '<option value="long_nardy" selected>' in nardy
    h2h = text(client.get(reverse("player-h2h", kwargs={"player_id": hero.pk, "other_id": rival.pk}),
                          {"variant": "backgammon"}, HTTP_ACCEPT_LANGUAGE="en"))  # fmt: skip
    assert '<dd id="h2h-matches">1</dd>' in h2h and "Long nardy</td>" not in h2h


def test_an_unknown_variant_in_the_address_shows_every_game(client, pair):
    hero, _rival = pair
    page = client.get(reverse("player-profile", kwargs={"player_id": hero.pk}), {"variant": "chess"},
                      HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    body = page.content.decode()
    assert page.status_code == 200 and body.count("<td>Backgammon</td>") == 2 and "<td>Long nardy</td>" in body
