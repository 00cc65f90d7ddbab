"""Swiss events, byes, unplayed matches, per-round pairing sheets and sections in Excel."""

from __future__ import annotations

import io

from openpyxl import load_workbook

from tournaments.exports import CrosstableKind, ExportOptions, TournamentInfo, write_workbook
from tournaments.exports.styles import WIN_FILL
from tournaments.standings import Match, MatchStatus, Player, StandingsOptions, System

SWISS = StandingsOptions(system=System.SWISS)


def swiss_event() -> tuple[list[Player], list[Match]]:
    """Five players, three rounds; round 3 still being played at table 1."""
    players = [Player(i + 1, n, n.upper(), draw_number=i + 1) for i, n in enumerate("абвгд")]
    matches = [
        Match(1, 1, 2, 5, 3, winner=1, table=1),
        Match(1, 3, 4, 5, 1, winner=3, table=2),
        Match(1, 5, None, 5, 0),
        Match(2, 1, 3, 4, 5, winner=3, table=1),
        Match(2, 5, 2, 5, 2, winner=5, table=2),
        Match(2, 4, None, 5, 0),
        Match(3, 3, 5, status=MatchStatus.PENDING, table=1),
        Match(3, 1, 4, 5, 2, winner=1, table=2),
        Match(3, 2, None, 5, 0),
    ]
    return players, matches


def export(players, matches, sections=None, **options):
    buffer = io.BytesIO()
    opts = ExportOptions(standings=options.pop("standings", SWISS), **options)
    write_workbook(
        buffer,
        TournamentInfo("Открытый турнир", sections=sections or {}),
        players,
        matches,
        opts,
    )
    buffer.seek(0)
    return load_workbook(buffer)


def values(ws) -> list[tuple]:
    return list(ws.iter_rows(values_only=True))


def test_swiss_crosstable_is_by_rounds_with_running_scores():
    ws = export(*swiss_event())["Турнирная таблица"]
    rows = values(ws)
    assert rows[2][:7] == ("Место", "Делят места", "№", "Игрок", "Тур 1", "Σ", "Тур 2")
    by_name = {r[3]: r for r in rows[3:]}
    # Two wins each for а, в, д; Buchholz а 1+2+1 = 4, в 1+2 = 3, д bye(0 + 0.5·2) + 1 = 2,
    # so rows 1–3 are а, в, д; б (Buchholz 4) is row 5 below г (4.5).
    assert [r[3] for r in rows[3:]] == ["а", "в", "д", "г", "б"]
    # д (No. 5): bye in R1, beat б (No. 2) 5:2, R3 still to play against в (No. 3): no Σ yet
    d = by_name["д"]
    assert d[2] == 5
    assert d[4:10] == ("своб.", 1, "2 В 5:2", 2, "3 …", None)
    assert d[10] == 2


def test_pairings_on_one_sheet_show_byes_and_unplayed_matches():
    ws = export(*swiss_event())["Пары"]
    rows = values(ws)[3:]
    assert len(rows) == 9
    round3 = [r for r in rows if r[0] == 3]
    assert round3[0][1:8] == (1, 3, "в", None, "д", 5, "не сыгран")
    assert round3[2][3:7] == ("б", "5:0", "свободен (бай)", None)


def test_winner_of_a_pairing_is_highlighted():
    ws = export(*swiss_event())["Пары"]
    a_beat_b = ws.cell(4, 4)
    assert a_beat_b.value == "а"
    assert a_beat_b.fill.fgColor.rgb.endswith(WIN_FILL.fgColor.rgb[-6:])
    assert ws.cell(4, 6).fill.fgColor.rgb != a_beat_b.fill.fgColor.rgb


def test_one_pairings_sheet_per_round_on_request():
    wb = export(*swiss_event(), pairings_per_round=True, language="en")
    assert wb.sheetnames == [
        "Standings",
        "Crosstable",
        "Pairings 1",
        "Pairings 2",
        "Pairings 3",
        "Players",
    ]
    ws = wb["Pairings 2"]
    assert ws.cell(1, 1).value == "Открытый турнир — Pairings, round 2"
    assert [r[2] for r in values(ws)[3:]] == [
        "А",
        "Д",
        "Г",
    ]  # Latin spellings (upper-case Cyrillic here)


def test_grid_can_be_forced_for_a_swiss():
    ws = export(*swiss_event(), crosstable=CrosstableKind.GRID)["Турнирная таблица"]
    assert values(ws)[2][:7] == ("№", "Игрок", 1, 2, 3, 4, 5)


def test_sections_share_the_standings_sheet_and_name_the_absolute_champion():
    players = [
        Player(1, "Аня", section="nov", draw_number=1),
        Player(2, "Борис", section="nov", draw_number=2),
        Player(3, "Вера", section="exp", draw_number=1),
        Player(4, "Глеб", section="exp", draw_number=2),
    ]
    matches = [Match(1, 1, 2, 5, 1, winner=1), Match(1, 3, 4, 11, 2, winner=3)]
    sections = {"nov": "Новички", "exp": "Эксперты"}
    wb = export(
        players,
        matches,
        standings=StandingsOptions(tiebreaks=("wins", "difference")),
        sections=sections,
        categories={1: 2, 2: 3, 3: 7, 4: 7},
    )
    rows = values(wb["Турнирное положение"])
    assert rows[2][:5] == ("Место", "Делят места", "Группа", "№", "Игрок")
    assert [(r[0], r[2], r[4]) for r in rows[3:7]] == [
        (1, "Новички", "Аня"),
        (2, "Новички", "Борис"),
        (1, "Эксперты", "Вера"),
        (2, "Эксперты", "Глеб"),
    ]
    assert rows[-3][0] == "Победитель — Эксперты: Вера"  # strongest section first
    assert rows[-2][0] == "Победитель — Новички: Аня"
    assert rows[-1][0] == "Абсолютный чемпион: Вера"
    crosstable_titles = [r[0] for r in values(wb["Турнирная таблица"])]
    assert "Новички" in crosstable_titles and "Эксперты" in crosstable_titles


def test_shared_places_are_written_as_first_number_and_range():
    players = [Player(i + 1, n, draw_number=i + 1) for i, n in enumerate("абв")]
    matches = [
        Match(1, 1, 2, 5, 3, winner=1),
        Match(2, 2, 3, 5, 3, winner=2),
        Match(3, 3, 1, 5, 3, winner=3),
    ]
    wb = export(players, matches, standings=StandingsOptions(tiebreaks=("wins", "h2h")))
    assert [r[:2] for r in values(wb["Турнирное положение"])[3:6]] == [(1, "1–3")] * 3
