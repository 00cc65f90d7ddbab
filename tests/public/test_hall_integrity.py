"""Integrity at the hall's tables (issue 30): what lies on a shared table carries no private link.

A table card lies between two players; a private link there lets either of them
report or confirm as the other. The QR codes are read back from the printed SVG
into module matrices and matched against every link the event has, so a test
that only checked the visible text could not pass with a private code drawn.
"""

from __future__ import annotations

import re

import pytest
import segno
import zxingcpp
from django.urls import reverse

from scoring import workflow
from tests.factories import OfficialFactory, TournamentFactory, UserFactory, enter
from tournaments.access.private_links import path_for, token_for, url_for
from tournaments.models import OfficialRole
from tournaments.rounds import pairing_manager as pm

SVG = re.compile(r'<svg viewBox="0 0 (\d+) \d+" class="qr">.*?<path[^>]* d="([^"]+)"', re.S)
STEP = re.compile(r"([MmHh])\s*(-?[\d.]+)(?:\s+(-?[\d.]+))?")


def qr_matrices(html: str) -> list[tuple[tuple[bool, ...], ...]]:
    """Every inline QR code on the page as its dark/light module rows, quiet zone (2) stripped.

    segno draws each run of dark modules as a horizontal stroke (``h``) on the
    row's centre line (y + 0.5); moves are absolute (``M``) or relative (``m``).
    """
    found = []
    for size, path in SVG.findall(html):
        n = int(size)
        grid = [[False] * n for _ in range(n)]
        x = y = 0.0
        for op, a, b in STEP.findall(path):
            if op == "M":
                x, y = float(a), float(b)
            elif op == "m":
                x, y = x + float(a), y + float(b)
            else:
                length = float(a)
                for col in range(int(x), int(x + length)):
                    grid[int(y)][col] = True
                x += length
        found.append(tuple(tuple(row[2 : n - 2]) for row in grid[2 : n - 2]))
    return found


def matrix_of(data: str) -> tuple[tuple[bool, ...], ...]:
    return tuple(tuple(bool(v) for v in row) for row in segno.make(data, error="m", micro=False).matrix)


@pytest.fixture
def hall(db):
    t = TournamentFactory(name="Кубок зала", slug="hall-integrity", match_length=5, rounds_planned=None)
    org = UserFactory(username="org")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    entries = enter(t, [
        {"last_name": f"Игрок{i}", "first_name": "Анна", "last_name_latin": f"Igrok{i}", "first_name_latin": "Anna"}
        for i in range(1, 7)
    ])
    [r1] = pm.generate_next(t, user=org)
    pm.publish_round(r1, user=org)
    return {"t": t, "org": org, "r1": r1, "entries": entries}


def _table_cards(client, hall) -> str:
    client.force_login(hall["org"])
    response = client.get(
        reverse("print-table-cards", kwargs={"slug": "hall-integrity", "round_id": hall["r1"].pk})
    )
    assert response.status_code == 200
    return response.content.decode()


def test_table_cards_carry_no_private_link_in_text_or_qr(client, hall):
    body = _table_cards(client, hall)
    assert body.count('class="sheet table-card"') == 3
    assert "/p/" not in body
    for entry in hall["entries"]:
        assert path_for(entry) not in body
    codes = qr_matrices(body)
    assert len(codes) == 3  # one code per card
    private = {matrix_of("http://testserver" + url_for(e)) for e in hall["entries"]}
    assert not private & set(codes)


def test_table_card_qr_opens_the_rounds_public_pairings(client, hall):
    body = _table_cards(client, hall)
    public = "http://testserver" + reverse("public-pairings", kwargs={"slug": "hall-integrity"}) + "?round=1"
    assert set(qr_matrices(body)) == {matrix_of(public)}
    assert client.get(public).status_code == 200  # the code leads to a page anyone may open


def test_player_cards_still_carry_each_players_own_private_qr(client, hall):
    client.force_login(hall["org"])
    body = client.get(reverse("print-player-cards", kwargs={"slug": "hall-integrity"})).content.decode()
    codes = qr_matrices(body)
    assert codes == [matrix_of("http://testserver" + url_for(e)) for e in sorted(
        hall["entries"], key=lambda e: (e.draw_number or 0, e.player.last_name, e.pk))]


def decoded_payloads(html: str, scale: int = 4, quiet: int = 4) -> list[str]:
    """Every printed QR code read by a real decoder (zxing-cpp), not compared with codes we made.

    The printed SVG's modules are drawn as a grayscale image (``scale`` pixels a
    module, a white quiet zone) and handed to zxing-cpp as a 2-D buffer, as a
    phone's camera would hand it a photo of the card.
    """
    payloads = []
    for matrix in qr_matrices(html):
        n = len(matrix) + 2 * quiet
        side = n * scale
        pixels = bytearray(b"\xff" * side * side)
        for r, row in enumerate(matrix):
            for c, dark in enumerate(row):
                if dark:
                    for dy in range(scale):
                        start = ((r + quiet) * scale + dy) * side + (c + quiet) * scale
                        pixels[start : start + scale] = b"\x00" * scale
        found = zxingcpp.read_barcodes(memoryview(pixels).cast("B", (side, side)))
        assert len(found) == 1, "a printed code the decoder cannot read"
        payloads.append(found[0].text)
    return payloads


def test_a_decoder_reads_only_the_public_pairings_link_from_the_table_cards(client, hall):
    body = _table_cards(client, hall)
    payloads = decoded_payloads(body)
    public = "http://testserver" + reverse("public-pairings", kwargs={"slug": "hall-integrity"}) + "?round=1"
    assert payloads == [public] * 3
    for entry in hall["entries"]:
        assert not any(token_for(entry) in p or path_for(entry) in p for p in payloads)
    client.force_login(hall["org"])
    cards = client.get(reverse("print-player-cards", kwargs={"slug": "hall-integrity"})).content.decode()
    assert sorted(decoded_payloads(cards)) == sorted("http://testserver" + url_for(e) for e in hall["entries"])


# --- a refusal is a page that says what was refused and the way forward ---------------------------


@pytest.fixture
def confirmed(hall):
    """Table 1 of round 1, reported 5:3 by player A and confirmed by player B (no dispute window)."""
    match = hall["r1"].matches.select_related("entry_a__player", "entry_b__player").order_by("table").first()
    a, b = UserFactory(username="anna_a"), UserFactory(username="boris_b")
    for entry, user in ((match.entry_a, a), (match.entry_b, b)):
        entry.player.user = user
        entry.player.save(update_fields=["user"])
    result = workflow.submit_result(match.pk, a, version=match.version, final=(5, 3))
    match.refresh_from_db()
    workflow.confirm_result(match.pk, result.pk, b, version=match.version)
    match.refresh_from_db()
    return {"match": match, "result": result, "a": a, "b": b}


def _dispute_after_confirmation(client, hall, confirmed, lang: str):
    client.cookies["django_language"] = lang
    client.force_login(confirmed["a"])
    match = confirmed["match"]
    return client.post(
        reverse("result-dispute", kwargs={"slug": "hall-integrity", "match_id": match.pk}),
        {"version": match.version, "result": confirmed["result"].pk, "reason": "счёт не тот"},
    )


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", ("Нет доступа", "уже нельзя оспорить", "жюри", "К матчу")),
        ("en", ("Not allowed", "can no longer be disputed", "jury", "Back to the match")),
    ],
)
def test_dispute_after_confirmation_answers_a_styled_403_with_the_jury_route(
    client, hall, confirmed, lang, words
):
    response = _dispute_after_confirmation(client, hall, confirmed, lang)
    body = response.content.decode()
    assert response.status_code == 403
    assert '<header class="site">' in body and f'<html lang="{lang}">' in body  # the site's page, not a bare one
    assert "403 Forbidden" not in body
    for word in words:
        assert word in body
    match_url = reverse("result-match", kwargs={"slug": "hall-integrity", "match_id": confirmed["match"].pk})
    assert f'href="{match_url}"' in body
    assert "readonly>счёт не тот</textarea>" in body  # what the player typed is not lost


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ru", ("Нет доступа", "outsider", "судейскую коллегию", "Назад к турниру")),
        ("en", ("Not allowed", "outsider", "officials", "Back to the tournament")),
    ],
)
def test_a_desk_page_refused_to_an_outsider_says_why_and_where_to_go(client, hall, lang, words):
    client.cookies["django_language"] = lang
    client.force_login(UserFactory(username="outsider"))
    response = client.get(
        reverse("print-table-cards", kwargs={"slug": "hall-integrity", "round_id": hall["r1"].pk})
    )
    body = response.content.decode()
    assert response.status_code == 403
    assert f'<html lang="{lang}">' in body
    for word in words:
        assert word in body
    assert f'href="{reverse("tournament", kwargs={"slug": "hall-integrity"})}"' in body


def test_dispute_through_a_private_link_after_confirmation_points_back_to_the_private_match_page(
    client, hall, confirmed
):
    match = confirmed["match"]
    token = token_for(match.entry_a)
    response = client.post(
        reverse("private-dispute", kwargs={"token": token, "match_id": match.pk}),
        {"version": match.version, "result": confirmed["result"].pk, "reason": "wrong score"},
    )
    body = response.content.decode()
    assert response.status_code == 403
    assert f'href="{reverse("private-match", kwargs={"token": token, "match_id": match.pk})}"' in body
    assert "readonly>wrong score</textarea>" in body
