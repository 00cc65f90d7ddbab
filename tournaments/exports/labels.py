"""Every heading the workbook shows, in Russian and English — the sheet names too.

A workbook is written in one language (the export job's ``language``), and all
of it follows: a Russian file has Russian sheet names, headers and legends, an
English file English ones (issue 27: a Russian file with English tabs read as
half-translated). Scripts find a sheet by :func:`sheet_name` or by position
(Standings, Crosstable, Pairings, Players, in that order). The Russian names
are the web pages' own ("Турнирное положение", "Турнирная таблица", "Пары"),
and "турнирная таблица" is the book's word for the crosstable (Part 9,
part9_competition_rules.ru.txt line 9: players "регистрируются в турнирной
таблице" under their draw numbers).
"""

from __future__ import annotations

_SHEETS: dict[str, tuple[str, str]] = {
    # key: (ru, en); Excel allows 31 characters and none of []:*?/\ in a sheet name
    "standings": ("Турнирное положение", "Standings"),
    "crosstable": ("Турнирная таблица", "Crosstable"),
    "pairings": ("Пары", "Pairings"),
    "players": ("Участники", "Players"),
    "brackets": ("Утешительные сетки", "Side brackets"),
    "team_match": ("Командный матч", "Team match"),
}

_LABELS: dict[str, tuple[str, str]] = {
    # key: (ru, en)
    "standings": ("Турнирное положение", "Standings"),
    "side_brackets": ("Утешительные турниры (места только среди своих участников)", "Side brackets (places among their own players only)"),
    "crosstable": ("Результаты матчей", "Crosstable"),
    "crosstable_rounds": ("Таблица по турам", "Crosstable by rounds"),
    "pairings": ("Пары", "Pairings"),
    "players": ("Участники", "Players"),
    "place": ("Место", "Place"),
    # The Scheveningen team match (book Part 9: «основной командный матч»), issue 35
    "team_match": ("Командный матч", "Team match"),
    "match_wins": ("Победы в матчах", "Match wins"),
    "points": ("Очки", "Points"),
    "board": ("Доска", "Board"),
    "team": ("Команда", "Team"),
    "team_won": ("Командный матч выиграла команда", "The team match was won by"),
    "team_drawn": ("Командный матч закончился вничью", "The team match is drawn"),
    "team_pending": ("Личных матчей ещё не сыграно", "Individual matches still to play"),
    "team_by_rounds": ("Счёт по турам", "Score by rounds"),
    "team_boards": (
        "По доскам: игроки команды «{a}» по строкам, команды «{b}» по столбцам; слева очки игрока "
        "команды «{a}», в скобках тур",
        "Board by board: {a} down, {b} across; the left number is {a}'s player's score, the round "
        "in brackets",
    ),
    "team_rule": (
        "Командный матч — основной результат, личное первенство — на листе «Турнирное положение». "
        "Команде идут победы её игроков в личных матчах (равный матч — по ½ каждой команде), при "
        "равенстве побед — сумма очков. Неявка засчитывается как поражение отсутствовавшего "
        "(«+» / «−»), обоюдная неявка не приносит очков ни одной команде.",
        "The team match is the main result; the individual championship is on the Standings "
        "sheet. A team scores its players' individual match wins (a level match ½ to each team), "
        "then the points scored break a tie. A forfeit counts as a loss for the absent player "
        "(“+” / “−”); a double forfeit counts for neither team.",
    ),
    "number": ("№", "No."),
    "player": ("Игрок", "Player"),
    "name_ru": ("Имя (рус.)", "Name (Russian)"),
    "name_latin": ("Имя (лат.)", "Name (Latin)"),
    # A section is a "category group" (группа категорий, tournaments.models.Section); "Категория"
    # is the player's own category of the book's table (Part 9, "Категории игроков").
    "section": ("Группа", "Section"),
    "category": ("Категория", "Category"),
    "place_shared": ("Делят места", "Shared places"),
    "club": ("Клуб", "Club"),
    "prize": ("Приз", "Prize"),
    "adjustments": ("Штрафы (* — очки сняты решением директора или жюри)", "Penalties (* — points taken by a ruling of the director or the jury)"),
    "rating": ("Рейтинг", "Rating"),
    "status": ("Статус", "Status"),
    # Neutral: players have no gender field (issue 49: "выбыл" beside a woman's name). The same
    # words as the pages' («withdrawn», «disqualified», «removed» in locale/ru django.po).
    "withdrawn": ("выбыл(а)", "withdrawn"),
    "disqualified": ("дисквалифицирован(а)", "disqualified"),
    "removed": ("удалён(а) с соревнований", "removed"),
    "not_counted": (
        "Не учитываются (выбыли, сыграв меньше половины встреч; правило ФИДЕ): встречи остаются в "
        "таблице, «Итого» и места их не учитывают",
        "Not counted (withdrew before playing half of the games; FIDE rule): the games stay in the "
        "table, the totals and places leave them out",
    ),
    "total": ("Итого:", "Total:"),
    "round": ("Тур", "Round"),
    "table": ("Стол", "Table"),
    "score": ("Счёт", "Score"),
    "result": ("Результат", "Result"),
    "bye": ("свободен (бай)", "bye"),
    "pending": ("не сыгран", "not played"),
    "finished": ("сыгран", "played"),
    "draw": ("ничья", "draw"),
    "wins_of": ("победа", "win"),
    "champion": ("Абсолютный чемпион", "Absolute champion"),
    "title": ("Чемпион", "Champion"),
    "section_winner": ("Победитель", "Winner"),
    "playoff": (
        "Нужен дополнительный матч за звание чемпиона",
        "A play-off for the title is needed",
    ),
    "running": ("Сумма", "Running"),
    "player_a": ("Игрок 1", "Player 1"),
    "player_b": ("Игрок 2", "Player 2"),
    # results not played out (issue 15): the pairings' status column and the crosstable legend
    "forfeit": ("победа за неявку", "win by forfeit"),
    "double_forfeit": ("обоюдная неявка", "double forfeit"),
    "time_forfeit": ("поражение по времени", "time forfeit"),
    "void": ("матч аннулирован", "void"),
    "legend": (
        "«+» победа за неявку, «−» поражение за неявку (у обоих «−»: обоюдная неявка), "
        "«⏱» поражение по времени, «×» матч аннулирован; неявки считаются победой/поражением "
        "в матче, не идут в рейтинг и для Бухгольца считаются несыгранными (виртуальный "
        "соперник ФИДЕ).",
        "“+” won by forfeit, “−” lost by forfeit (both “−”: a double forfeit), “⏱” lost on "
        "time, “×” void; forfeits count as match wins and losses, are not rated, and count as "
        "unplayed for Buchholz (FIDE’s virtual opponent).",
    ),
}


def label(key: str, language: str) -> str:
    ru, en = _LABELS[key]
    return en if language.startswith("en") else ru


def sheet_name(key: str, language: str) -> str:
    """The name of the sheet ``key`` ("standings", "crosstable", "pairings", "players") in ``language``."""
    ru, en = _SHEETS[key]
    return en if language.startswith("en") else ru
