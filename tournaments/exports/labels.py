"""Every heading the workbook shows, in Russian and English.

Sheet names stay in English (Standings, Crosstable, Pairings, Players) so that
scripts and the shell can find them whatever the language; what people read
inside the sheets follows ``language``.
"""

from __future__ import annotations

SHEET_STANDINGS = "Standings"
SHEET_CROSSTABLE = "Crosstable"
SHEET_PAIRINGS = "Pairings"
SHEET_PLAYERS = "Players"
SHEET_BRACKETS = "Side brackets"

_LABELS: dict[str, tuple[str, str]] = {
    # key: (ru, en)
    "standings": ("Турнирное положение", "Standings"),
    "side_brackets": ("Утешительные турниры (места только среди своих участников)", "Side brackets (places among their own players only)"),
    "crosstable": ("Результаты матчей", "Crosstable"),
    "crosstable_rounds": ("Таблица по турам", "Crosstable by rounds"),
    "pairings": ("Пары", "Pairings"),
    "players": ("Участники", "Players"),
    "place": ("Место", "Place"),
    "number": ("№", "No."),
    "player": ("Игрок", "Player"),
    "name_ru": ("Имя (рус.)", "Name (Russian)"),
    "name_latin": ("Имя (лат.)", "Name (Latin)"),
    "section": ("Категория", "Section"),
    "club": ("Клуб", "Club"),
    "prize": ("Приз", "Prize"),
    "adjustments": ("Штрафы (* — очки сняты решением директора или жюри)", "Penalties (* — points taken by a ruling of the director or the jury)"),
    "rating": ("Рейтинг", "Rating"),
    "status": ("Статус", "Status"),
    "withdrawn": ("выбыл", "withdrawn"),
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
