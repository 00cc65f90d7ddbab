"""Public pages: what a player sees, how many queries it costs, and when the cache lets go."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Player
from scoring.models import ResultState
from tests.factories import (
    MatchFactory,
    OfficialFactory,
    ResultFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    enter,
    swiss_event,
)
from tournaments.cache import KeptInProcess
from tournaments.models import (
    Match,
    ResultStatus,
    RoundStatus,
    Tournament,
)
from tournaments.public.bracket_layout import bracket_columns
from tournaments.standings_service import load_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

#: The small "↗" link to the player's profile that follows every name in the tables.
PROFILE_LINK = r' <a class="profile-link[^>]*>↗</a>'


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def main(response) -> str:
    """The page's main content (the header carries a per-request CSRF token)."""
    return response.content.decode().split("<main")[1].split("</main>")[0]


def score_cells(response) -> list[str]:
    """The pairings' score cells only (without the table's state badge, tested on its own in
    test_pairings_table_state): the rest of the page carries times and tokens."""
    cells = re.findall(r'<td class="score">(.*?)</td>', response.content.decode(), re.S)
    return [re.sub(r'\s*<span class="badge table-state [a-z]+">[^<]*</span>', "", c).strip() for c in cells]


def url(name: str, t: Tournament, **kwargs) -> str:
    return reverse(name, kwargs={"slug": t.slug, **kwargs})


PAGES = [
    ("public-overview", ""),
    ("public-pairings", ""),
    ("public-pairings", "?q=игроков001"),
    ("public-pairings", "?round=1"),
    ("public-pairings-print", ""),
    ("public-standings", ""),
    ("public-standings-print", ""),
    ("public-crosstable", ""),
    ("public-crosstable", "?layout=rows"),
    ("public-crosstable-rounds", ""),
    ("public-bracket", ""),
    ("public-player", ""),
]


def page_url(name: str, query: str, t: Tournament) -> str:
    if name == "public-player":
        first = t.entries.order_by("draw_number").first()
        return url(name, t, entry_id=first.pk) + query
    return url(name, t) + query


def count_queries(client, address: str) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(address)
    return len(queries), response


def live_refresh_queries(client, t: Tournament) -> int:
    """Queries of helper-6's auto-refresh snippet, if it is installed (0 otherwise)."""
    from django.template.loader import get_template
    from django.test import RequestFactory

    from tournaments.public.frame import live_refresh_template as _live_refresh_template

    name = _live_refresh_template()
    if name is None:
        return 0
    template = get_template(name)
    cache.clear()  # its stamp is cached with the pages: measure it cold
    with CaptureQueriesContext(connection) as queries:
        template.render({"tournament": t}, RequestFactory().get("/"))
    return len(queries)


def test_query_counts_are_the_same_for_20_and_200_players(client):
    small, large = swiss_event(20, slug="small"), swiss_event(200, slug="large")
    for name, query in PAGES:
        counts = {}
        for t in (small, large):
            address = page_url(name, query, t)
            cache.clear()  # print versions share their page's fragment: measure each one cold,
            KeptInProcess.clear_all()  # as a new web process would serve it
            cold, response = count_queries(client, address)
            assert response.status_code == 200, address
            warm, again = count_queries(client, address)
            assert main(again) == main(response)
            counts[t.slug] = (cold, warm)
        # The tournament's id by its address and its row at its cache version, kept by this
        # process (tournaments.cache.tournament_by_slug) + entries/players + rounds + matches +
        # the rulings' adjustments when built (the standings also read the prize table); nothing
        # when cached — plus, on the pairings and player pages built, whatever the live-refresh
        # snippet costs (fixed too)
        # and, when built, the expected win %: the players' pool ratings, and for a round with
        # confirmed results the stored rating changes (tournaments.public.win_chances).
        extra = live_refresh_queries(client, small) if name in ("public-pairings", "public-player") else 0
        # The pairings cold also read the published rounds' ids once (their versions key the
        # fragment: tournaments.public.frame.public_round_ids).
        # And the matches being recorded live now, once (their "live" mark: tournaments.public.marks).
        chances = 0
        if name.startswith("public-pairings"):
            chances = (2 if query == "?round=1" else 1) + 1 + 1
        prizes = 1 if name.startswith("public-standings") else 0
        # The live-refresh stamp is cached with the pages, so a cached page costs no query.
        assert counts["small"] == counts["large"] == (6 + extra + chances + prizes, 0), (
            name, query, counts,
        )


def test_a_confirmed_result_shows_at_once_although_the_page_was_cached(client):
    t = swiss_event(6, slug="live")
    standings = url("public-standings", t)
    pairings = url("public-pairings", t)
    before = client.get(standings).content
    client.get(pairings)
    assert count_queries(client, standings)[0] == 0  # served from the cache, the tournament kept
    match = Match.objects.get(round__tournament=t, round__number=3, table=1)
    assert "7:0" not in score_cells(client.get(pairings))
    match.score_a, match.score_b, match.winner = 0, 7, "b"
    match.result_status = ResultStatus.CONFIRMED
    match.save()
    ResultFactory(match=match, score_a=0, score_b=7, state=ResultState.CONFIRMED)
    queries, after = count_queries(client, standings)
    # the matches and the prize table; the tournament, entries, rounds and adjustments stay
    # kept (they change only with the tournament's version, not with a result)
    assert queries == 2 and after.content != before
    assert "0:7" in score_cells(client.get(pairings))


def test_renaming_a_player_or_publishing_a_round_refreshes_the_pages(client):
    t = swiss_event(4, slug="rename")
    assert "Игроков000" in text(client.get(url("public-standings", t)))
    player = Player.objects.get(last_name="Игроков000")
    player.last_name = "Переименов"
    player.save()
    assert "Переименов" in text(client.get(url("public-standings", t)))
    draft = RoundFactory(tournament=t, number=4, draft=True)
    entries = list(t.entries.order_by("draw_number"))
    MatchFactory(round=draft, table=1, entry_a=entries[0], entry_b=entries[3])
    hidden = client.get(url("public-pairings", t) + "?round=4")
    assert hidden.status_code == 404 and "Игроков003" not in text(hidden)  # still a draft
    draft.status = RoundStatus.PUBLISHED
    draft.save()
    response = client.get(url("public-pairings", t) + "?round=4")
    assert response.status_code == 200 and "Игроков003" in text(response)


def test_book_crosstable_in_the_books_layout(client, book):
    body = text(client.get(url("public-crosstable", book)))
    cells = re.findall(r"<td class=\"(?:win|loss|diagonal)\">([^<]*)</td>", body)
    # Row 1 (Иванов): his column is grey, then the other players' points against him first.
    assert cells[:6] == ["", "4:5", "7:4", "3:6", "5:2", "5:4"]
    assert re.search(r"Итого:</td>(\s*<td>\d+</td>){6}", body)
    totals = re.search(r"Итого:</td>((?:\s*<td>\d+</td>){6})", body).group(1)
    assert re.findall(r"\d+", totals) == ["21", "22", "27", "26", "22", "19"]
    places = re.search(r"Место</td>((?:\s*<td>[^<]+</td>){6})", body).group(1)
    assert re.findall(r"<td>([^<]+)</td>", places) == ["5", "3", "1", "2", "4", "6"]


def test_row_layout_reads_along_the_rows(client, book):
    body = text(client.get(url("public-crosstable", book) + "?layout=rows"))
    ivanov = re.search(r"Иванов</bdi></a>" + PROFILE_LINK + r"</td>(.*?)</tr>", body).group(1)
    cells = re.findall(r"<td class=\"[a-z]*\">([^<]*)</td>", ivanov)
    # Иванов's own points first: he beat Петров 5:4 and lost to Серов 2:5.
    assert cells == ["", "5:4", "4:7", "6:3", "2:5", "4:5"]
    assert re.findall(r"<strong>([^<]+)</strong>", ivanov) == ["21", "5"]


def test_standings_show_the_books_order_and_shared_places(client, book):
    body = text(client.get(url("public-standings", book)))
    order = re.findall(r"/player/\d+/\"><bdi>([^<]+)</bdi></a>", body)
    assert order == ["Сидоров", "Белов", "Петров", "Серов", "Иванов", "Чернов"]
    assert "Личн" in body and reverse("public-standings-print", kwargs={"slug": book.slug}) in body
    # Without head-to-head the two 22-point players share 3rd–4th place.
    book.tiebreaks = ["points"]
    book.save()
    body = text(client.get(url("public-standings", book)))
    assert re.findall(r'<td class="num">(\d+(?:–\d+)?)</td>\s*<td class="num phone-hide">\d+</td>', body) == [
        "1",
        "2",
        "3–4",
        "3–4",
        "5",
        "6",
    ]


def test_unknown_tiebreak_is_explained_not_a_crash(client, book):
    book.tiebreaks = ["points", "luck"]
    book.save()
    response = client.get(url("public-standings", book))
    assert response.status_code == 200 and "luck" in text(response)


def test_swiss_crosstable_by_rounds_shows_opponent_result_and_running_score(client):
    t = swiss_event(4, slug="rounds")
    client.cookies["django_language"] = "en"
    body = text(client.get(url("public-crosstable-rounds", t)))
    first = re.search(r"Petr Igrokov000</bdi></a>" + PROFILE_LINK + r"</td>(.*?)</tr>", body).group(1)
    cells = re.findall(
        r"<td class=\"(\w+)\">([^<]*)(?:<span class=\"running\">([^<]*)</span>)?</td>", first
    )
    # Beat no. 2 then no. 4 (5:2 both), round 3 not played yet: 1, 2 running wins.
    # Five rounds are planned: rounds 4 and 5 are still empty.
    assert [c[0] for c in cells] == ["win", "win", "pending", "none", "none"]
    assert [c[2] for c in cells[:2]] == ["1", "2"]
    assert cells[0][1].split()[1:] == ["W", "5:2"]


def test_find_my_table_without_javascript(client):
    t = swiss_event(6, slug="find")
    body = text(client.get(url("public-pairings", t) + "?q=IGROKOV004"))
    assert '<tr class="found">' in body and body.count('class="found"') == 1
    assert re.search(r"Игроков004 Пётр</bdi></strong> — [^<]*3[^<]*Игроков", body)
    cyrillic = text(client.get(url("public-pairings", t) + "?q=игроков004"))
    assert cyrillic.count('class="found"') == 1
    nobody = client.get(url("public-pairings", t) + "?q=Zzyzx")
    assert (
        nobody.status_code == 200
        and "Zzyzx" in text(nobody)
        and 'class="found"' not in text(nobody)
    )


def test_print_versions_are_bare_sheets_with_a_print_button(client, book):
    for name in ("public-standings-print", "public-pairings-print"):
        body = text(client.get(url(name, book)))
        assert "data-print" in body and 'media="print"' in body  # static/js/zarik.js prints
        assert 'class="site"' not in body  # no site header or menu on the noticeboard sheet
    assert "Сидоров" in text(client.get(url("public-standings-print", book)))


def test_player_page_lists_their_matches_from_their_side(client, book):
    serov = book.entries.get(player__last_name="Серов")
    body = text(client.get(url("public-player", book, entry_id=serov.pk)))
    rows = re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>")[1])
    assert len(rows) == 5
    petrov = next(r for r in rows if "Петров" in r)
    assert "4:5" in petrov and 'class="loss"' in petrov
    assert re.search(r"<dd>4</dd>", body)  # 4th place


def test_knockout_bracket_is_drawn_as_svg(client):
    t = TournamentFactory(
        slug="cup", name="Cup", starts_on=dt.date(2026, 5, 1), system="knockout", rounds_planned=None
    )
    names = ["Альфа", "Бета", "Гамма", "Дельта"]
    a, b, c, d = enter(t, [{"last_name": name, "short": True} for name in names])
    semis = RoundFactory(tournament=t, number=1, finished=True)
    MatchFactory(round=semis, table=1, entry_a=a, entry_b=d, confirmed=True, score_a=5, score_b=3)
    MatchFactory(round=semis, table=2, entry_a=b, entry_b=c, confirmed=True, score_a=1, score_b=5)
    final = RoundFactory(tournament=t, number=2)
    MatchFactory(round=final, table=1, entry_a=a, entry_b=c)
    MatchFactory(round=final, table=2, entry_a=d, entry_b=b)  # for third place
    response = client.get(url("public-bracket", t))
    body = text(response)
    assert response.status_code == 200 and "<svg" in body
    assert body.count("<rect") == 4 and body.count("<path") == 4
    assert re.search(r'class="win">Альфа', body) and re.search(r'class="win">Гамма', body)
    columns = bracket_columns(load_event(t), "")
    slots = {(n, m.table): y for n, placed in columns for m, y in placed}
    # The final sits midway between the semi-finals; the third-place match goes below it.
    assert slots == {(1, 1): 0.0, (1, 2): 1.0, (2, 1): 0.5, (2, 2): 1.5}


def test_round_robin_has_no_bracket(client, book):
    response = client.get(url("public-bracket", book))
    assert response.status_code == 200 and "<svg" not in text(response)
    assert "Круговая" in text(response) or "Round robin" in text(response)


def test_unreleased_tournament_is_404_for_outsiders_and_visible_to_officials(client):
    t = swiss_event(4, slug="hidden", public=False)
    pages = [page_url(name, query, t) for name, query in PAGES]
    for address in pages:
        assert client.get(address).status_code == 404
    stranger = UserFactory(username="stranger")
    client.force_login(stranger)
    assert client.get(url("public-standings", t)).status_code == 404
    organiser = OfficialFactory(tournament=t, user__username="boss").user
    client.force_login(organiser)
    for address in pages:
        assert client.get(address).status_code == 200, address


@pytest.mark.parametrize(
    ("name", "query", "status", "message"),
    [
        ("public-crosstable", "?layout=spiral", 400, "spiral"),
        ("public-pairings", "?round=abc", 400, "abc"),
        ("public-pairings", "?round=99", 404, "99"),
        ("public-crosstable", "?section=77", 404, "77"),
        ("public-crosstable-rounds", "?section=x", 404, "x"),
    ],
)
def test_bad_parameters_get_a_clear_message(client, name, query, status, message):
    t = swiss_event(4, slug="bad")
    response = client.get(url(name, t) + query)
    assert response.status_code == status
    assert 'role="alert"' in text(response) and message in text(response)


def test_unknown_tournament_or_player_is_404(client):
    t = swiss_event(4, slug="exists")
    assert client.get("/t/no-such-event/standings/").status_code == 404
    assert client.get(url("public-player", t, entry_id=999999)).status_code == 404
    assert client.get("/t/exists/player/abc/").status_code == 404


def test_pairings_page_includes_the_live_refresh_snippet_when_it_exists(client, settings, tmp_path):
    t = swiss_event(4, slug="refresh")
    assert "live-refresh-marker" not in text(client.get(url("public-pairings", t)))
    (tmp_path / "scoring" / "entry").mkdir(parents=True)
    (tmp_path / "scoring" / "entry" / "_live_refresh.html").write_text(
        "<script id='live-refresh-marker' data-t='{{ tournament.slug }}'></script>"
    )
    templates = [dict(settings.TEMPLATES[0])]
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates
    assert "live-refresh-marker' data-t='refresh'" in text(client.get(url("public-pairings", t)))


def test_pages_follow_the_readers_language(client, book):
    client.cookies["django_language"] = "en"
    english = text(client.get(url("public-standings", book)))
    assert "Sidorov" in english and "Сидоров" not in english
    client.cookies["django_language"] = "ru"
    assert "Сидоров" in text(client.get(url("public-standings", book)))


def test_tournament_page_links_to_the_public_pages(client, book):
    body = text(client.get(reverse("tournament", kwargs={"slug": book.slug})))
    for name in ("public-pairings", "public-standings", "public-crosstable", "public-export"):
        assert f'href="{url(name, book)}"' in body


def test_head_requests_work_and_other_methods_are_refused(client, book):
    assert client.head(url("public-standings", book)).status_code == 200
    assert client.post(url("public-standings", book)).status_code == 405


def test_every_page_names_its_icon_so_browsers_do_not_ask_for_a_missing_favicon(client):
    """Without a <link rel="icon"> a browser asks /favicon.ico on every page: a 404 each time."""
    from pathlib import Path

    from django.contrib.staticfiles import finders

    t = TournamentFactory(public=True)
    for url in ("/", reverse("tournament", kwargs={"slug": t.slug}), reverse("login")):
        html = client.get(url).content.decode()
        icon = re.search(r'<link rel="icon" href="/static/([^"]+)" type="image/svg\+xml">', html)
        assert icon, url
        found = finders.find(icon.group(1))
        assert found and Path(found).read_text().startswith("<svg")
