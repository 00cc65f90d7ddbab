"""Every message of the pairing namespace (``pairing.*``), in English and Russian.

One table a kind of message, so the words live here and nowhere else:

- ``pairing.why.*`` — the decisions a generator records for the director (why a
  pairing came out as it did); they are stored with a round as data
  (:meth:`~scoring.rules.errors.Problem.to_data`) and rendered when read;
- ``pairing.swiss.*``, ``pairing.knockout.*``, ``pairing.round_robin.*``,
  ``pairing.scheveningen.*``, ``pairing.trf.*`` — wrong input to a generator;
- ``pairing.options.*`` — the tournament's pairing options and tie-breaks;
- ``pairing.*`` — what the round manager refuses, and the absolute rules a
  hand-made table must keep.

Players appear in ``details`` by their id (a draw number in the generators, an
entry id in hand checks). They are rendered as the caller's ``names`` say
(``{"5": "№5 Иванов"}``), else from a ``<key>_name`` detail, else as ``№5``.
Pure Python: only the rules core's error types are imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.errors import Catalogue, is_english

#: Detail keys that hold one player (or team) id.
PLAYER_KEYS = ("player", "a", "b", "white", "entry", "champion", "bye")
#: Detail keys that hold a list of player ids.
PLAYER_LIST_KEYS = ("skipped", "players", "met", "forbidden")
#: Detail keys that hold a list of pairs of player ids (shown "№1–№2, №3–№4").
PAIR_LIST_KEYS = ("rematches", "book", "blocked", "made")
#: Detail keys that hold a score (written 3, 2.5 — never 3.0).
SCORE_KEYS = ("score", "from", "to", "points", "each")

#: Words for coded detail values: (key, value) → (English, Russian); shown as ``{key_word}``.
WORDS: dict[tuple[str, Any], tuple[str, str]] = {
    # why a player floated
    ("reason", "odd"): (
        "the group had an odd number of players and this player was the lowest-ranked one who "
        "could move",
        "в группе было нечётное число игроков, и это самый младший по номеру игрок, которого "
        "можно было перевести",
    ),
    ("reason", "no_opponent"): (
        "every player left in the group had already met this player",
        "все оставшиеся игроки группы уже встречались с этим игроком",
    ),
    ("reason", "unpairable"): (
        "the group could not be paired completely without a rematch",
        "группу нельзя было полностью разбить на пары без повторной встречи",
    ),
    ("reason", "optimal"): (
        "no pairing of the round floats fewer players out of the groups from the top down to "
        "this one (see why below)",
        "ни одна расстановка тура не переводит меньше игроков из групп сверху вниз до этой "
        "(причина ниже)",
    ),
    # why the exact pairing floats a player (pairing.why.float_forced)
    ("cause", "odd"): (
        "the groups down to this one hold an odd number of players, so one must float, and "
        "floating this player lets every other player be paired best",
        "в группах до этой включительно нечётное число игроков, поэтому один должен уйти, и "
        "перевод именно этого игрока позволяет лучше всего разбить на пары остальных",
    ),
    ("cause", "blocked"): (
        "every pairing that kept more players in the groups from the top down to this one "
        "would need a rematch or a forbidden pair",
        "любая расстановка, оставляющая в группах сверху вниз до этой больше игроков, "
        "потребовала бы повторной встречи или запрещённой пары",
    ),
    ("reason", "repair"): (
        "the lower groups could not be completed without a rematch, so they were re-paired "
        "together",
        "нижние группы нельзя было разбить на пары без повторных встреч, поэтому они "
        "составлены заново вместе",
    ),
    # why a player has White
    ("reason", "balance"): ("has had fewer games with White", "реже играл белыми"),
    ("reason", "alternate"): ("had Black in the previous round", "в прошлом туре играл чёрными"),
    ("reason", "seed"): (
        "is the higher-ranked player and the colour history gives no preference",
        "выше по номеру, а история цветов не даёт предпочтения",
    ),
    # the round-1 order a forbidden pair changed (pairing.why.first_round_changed)
    ("rule", "adjacent"): (
        "The book's order of round 1 (1–2, 3–4, 5–6, …)",
        "По порядку первого тура из книги (1–2, 3–4, 5–6, …)",
    ),
    ("rule", "top_vs_bottom"): (
        "The round-1 order top half v bottom half (1 v n/2+1, …)",
        "По порядку первого тура «верхняя половина против нижней» (1 – n/2+1, …)",
    ),
    ("direction", "down"): ("down", "вниз"),
    ("direction", "up"): ("up", "вверх"),
    ("swapped", True): (" (sides swapped)", " (стороны поменяны)"),
    ("swapped", False): ("", ""),
    ("status", "draft"): ("a draft", "черновик"),
    ("status", "published"): ("published", "опубликован"),
    ("status", "finished"): ("finished", "завершён"),
    # TRF columns
    ("field", "start"): ("start number (columns 5-8)", "стартовый номер (колонки 5-8)"),
    ("field", "rating"): ("rating (columns 49-52)", "рейтинг (колонки 49-52)"),
    ("field", "points"): ("points (columns 81-84)", "число очков (колонки 81-84)"),
    ("field", "rank"): ("rank (columns 86-89)", "место (колонки 86-89)"),
    ("field", "rounds"): ("number of rounds (XXR)", "число туров (XXR)"),
    ("field", "bye_points"): ("bye points (BBU)", "очки за свободный тур (BBU)"),
    # what an option expects
    ("expected", "choice"): ("one of: {allowed}", "одно из значений: {allowed}"),
    ("expected", "number"): ("a non-negative number", "неотрицательное число"),
    ("expected", "integer"): ("a whole number of at least {minimum}", "целое число не меньше {minimum}"),
    ("expected", "boolean"): ("yes or no (true/false)", "да или нет (true/false)"),
    ("expected", "lengths"): (
        "a list of match lengths, each at least 1 point",
        "список длин матчей, каждая не меньше 1 очка",
    ),
    ("expected", "text"): ("text", "текст"),
    ("expected", "keys"): ("a list of metric keys", "список ключей показателей"),
    ("expected", "table"): ("a table of options (a JSON object)", "таблица параметров (JSON-объект)"),
}


def fmt(score: float) -> str:
    """Scores as people write them: 3, 2.5 (never 3.0)."""
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def _who(value: Any, explicit: Any, names: Mapping[str, str]) -> str:
    if explicit:
        return str(explicit)
    if isinstance(value, int) and not isinstance(value, bool):
        return names.get(str(value)) or f"№{value}"
    return str(value)


def _pair(a: Any, b: Any, names: Mapping[str, str]) -> str:
    """"№1–№2" as the book writes pairs; "№1 Иванов И. – №2 Петров П." once names are shown."""
    one, other = _who(a, None, names), _who(b, None, names)
    bare = one == f"№{a}" and other == f"№{b}"
    return f"{one}–{other}" if bare else f"{one} – {other}"


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""


def pairing_fields(
    details: Mapping[str, Any], language: str, names: Mapping[str, str]
) -> Mapping[str, Any]:
    """Template fields: players as names, scores as written, coded values as words."""
    english = is_english(language)
    out = _Blank(details)
    for key in PLAYER_KEYS:
        if key in details:
            out[key] = _who(details[key], details.get(f"{key}_name"), names)
    for key in PLAYER_LIST_KEYS:
        if key in details:
            out[key] = ", ".join(_who(v, None, names) for v in details[key])
    for key in SCORE_KEYS:
        value = details.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[key] = fmt(value)
    for key in PAIR_LIST_KEYS:
        if isinstance(details.get(key), list):
            out[key] = ", ".join(_pair(a, b, names) for a, b in details[key])
    if "rounds" in details and isinstance(details["rounds"], list):
        out["rounds"] = ", ".join(str(r) for r in details["rounds"])
    if "allowed" in details and isinstance(details["allowed"], list):
        out["allowed"] = ", ".join(str(v) for v in details["allowed"])
    for (key, value), (en, ru) in WORDS.items():
        given = details.get(key, _MISSING)
        if given == value and isinstance(given, bool) == isinstance(value, bool):
            out[f"{key}_word"] = (en if english else ru).format_map(out)
    section = details.get("section")
    if section:
        out["in_section"] = f" in section {section!r}" if english else f" в категории {section!r}"
    if details.get("met"):
        out["met_text"] = (
            f" In this group {out['player']} has already met {out['met']}."
            if english
            else f" В этой группе {out['player']} уже встречался с: {out['met']}."
        )
    if details.get("forbidden"):
        out["forbidden_text"] = (
            f" The director forbade {out['player']} to meet {out['forbidden']}."
            if english
            else f" Судья запретил {out['player']} встречаться с: {out['forbidden']}."
        )
    if "bye" in details:
        out["bye_text"] = (
            f" The bye went to {out['bye']} of this group, which changed its size."
            if english
            else f" Свободный тур получил {out['bye']} из этой группы, что изменило её размер."
        )
    comment = details.get("comment")
    if comment:
        out["comment_text"] = f" Reason: {comment}" if english else f" Причина: {comment}"
    return out


_MISSING = object()

# ---------------------------------------------------------------------------------------------
# why a pairing came out as it did (recorded by the generators for the director)
# ---------------------------------------------------------------------------------------------

WHY = Catalogue(
    "pairing.why",
    {
        "same_group": (
            "Both players are in score group {score} ({size} players).",
            "Оба игрока в очковой группе {score} (игроков: {size}).",
        ),
        "float_down": (
            "{player} floated down from score group {from} to {to}: {reason_word}.",
            "{player} переведён вниз из очковой группы {from} в {to}: {reason_word}.",
        ),
        "float_up": (
            "{player} meets a player from the higher score group {to} (own group {from}).",
            "{player} играет с игроком из старшей очковой группы {to} (своя группа {from}).",
        ),
        "float_repeat": (
            "{player} floats {direction_word} for the second round in a row: nobody else in the "
            "group could take the place without breaking a stronger rule.",
            "{player} второй тур подряд переводится {direction_word}: никто другой в группе не "
            "мог занять это место, не нарушив более важное правило.",
        ),
        "rematch_avoided": (
            "{player} has already met {skipped}, so the next opponent in the bottom half was "
            "taken.",
            "{player} уже встречался с {skipped}, поэтому взят следующий соперник из нижней "
            "половины группы.",
        ),
        "top_vs_bottom": (
            "Paired top half against bottom half of the group ({player} from the top half).",
            "Верхняя половина группы играет с нижней ({player} из верхней половины).",
        ),
        # How the numbers were given is said once, by its own note (seeded_numbers, or the draw's
        # record): this one says only who meets whom (issue 49: it said "open draw" after a note
        # that the numbers came by rating).
        "first_round_adjacent": (
            "Round 1: draw numbers 1–2, 3–4, 5–6, … meet (book Part 9).",
            "Первый тур: встречаются номера 1 и 2, 3 и 4, 5 и 6 и т. д. (книга, часть 9).",
        ),
        "first_round_halves": (
            "Round 1: the top half by seed meets the bottom half (1 v n/2+1, 2 v n/2+2, …).",
            "Первый тур: верхняя половина по посеву играет с нижней (1 – n/2+1, 2 – n/2+2, …).",
        ),
        "first_round_changed": (
            "{rule_word} would pair {book}, but {blocked} may not meet; to change as few "
            "tables as possible, the nearest pairs exchanged partners: {made}. Every other "
            "table keeps that order.",
            "{rule_word} встречались бы {book}, но {blocked} не могут играть друг с другом; "
            "чтобы изменить как можно меньше пар, ближайшие пары обменялись соперниками: "
            "{made}. Остальные пары — в том же порядке.",
        ),
        "colour": (
            "{white} plays White: {reason_word}.",
            "{white} играет белыми: {reason_word}.",
        ),
        "rematch_allowed": (
            "Rematch {a}–{b}: no rematch-free pairing exists and the organiser allowed rematches.",
            "Повторная встреча {a}–{b}: пар без повторных встреч не существует, организатор "
            "разрешил повторные встречи.",
        ),
        "rematch_proposed": (
            "Rematch {a}–{b} is only a proposal: no rematch-free pairing exists; the organiser "
            "must decide.",
            "Повторная встреча {a}–{b} — лишь предложение: пар без повторных встреч не "
            "существует, решает организатор.",
        ),
        "bye_pairing": (
            "Odd number of players: {player} (score {score}) gets the bye worth {points} — the "
            "lowest-ranked player who has not had a bye and whose absence leaves the rest "
            "pairable without rematches.",
            "Нечётное число игроков: {player} (очков: {score}) получает свободный тур стоимостью "
            "{points} — самый младший игрок без свободного тура, без которого остальных можно "
            "разбить на пары без повторных встреч.",
        ),
        "bye_requested": (
            "{player} asked to sit out this round: {points} point(s).",
            "{player} попросил пропустить этот тур: очков {points}.",
        ),
        "bye_absent": (
            "{player} is absent this round: not paired, no points.",
            "{player} отсутствует в этом туре: без пары, без очков.",
        ),
        "groups_repaired": (
            "The lowest score groups ({size} players) were paired together, because pairing "
            "them group by group would have needed a rematch.",
            "Младшие очковые группы (игроков: {size}) разбиты на пары вместе, потому что по "
            "группам без повторной встречи это было невозможно.",
        ),
        "exact_window": (
            "Score groups {from} to {to} ({size} players) were paired as a whole by the exact "
            "matcher: fewest floaters out of each group from the top down, then the smallest "
            "score differences.",
            "Очковые группы с {from} по {to} (игроков: {size}) разбиты на пары целиком точным "
            "алгоритмом: меньше всего переводов из каждой группы сверху вниз, затем наименьшие "
            "разницы в очках.",
        ),
        "float_forced": (
            "{player} leaves score group {score}: {cause_word}.{met_text}{forbidden_text}"
            "{bye_text}",
            "{player} уходит из очковой группы {score}: {cause_word}.{met_text}{forbidden_text}"
            "{bye_text}",
        ),
        "forbidden_proposed": (
            "Pair {a}–{b} is forbidden by the director and is only a proposal: no pairing "
            "without it exists; the organiser must decide.",
            "Пара {a}–{b} запрещена судьёй и лишь предложена: расстановки без неё не "
            "существует, решает организатор.",
        ),
        "seed_bye": (
            "Seed {seed} has a bye: the bracket is filled to a power of two and byes go to the "
            "top seeds.",
            "Посев {seed} проходит без игры: сетка дополнена до степени двойки, свободные места "
            "достаются сильнейшим посевам.",
        ),
        "seeding": (
            "Seed {seed_a} v seed {seed_b} (standard seeding: the top seeds meet as late as "
            "possible).",
            "Посев {seed_a} против посева {seed_b} (стандартный посев: сильнейшие встречаются "
            "как можно позже).",
        ),
        "berger": (
            "Berger table, cycle {cycle}: numbers {number_a} and {number_b}{swapped_word}.",
            "Таблица Бергера, круг {cycle}: номера {number_a} и {number_b}{swapped_word}.",
        ),
        "board": (
            "Board {board}: team A player {board} meets team B player {opponent_board}.",
            "Доска {board}: игрок {board} команды A играет с игроком {opponent_board} "
            "команды B.",
        ),
        "seeded_numbers": (
            "Draw numbers 1–{count} given {seeding_word} (no open draw).",
            "Номера 1–{count} присвоены {seeding_word} (без открытой жеребьёвки).",
        ),
        "late_entry_number": (
            "Late entry {player}: given draw number {number}.",
            "Поздняя заявка {player}: присвоен номер жеребьёвки {number}.",
        ),
        "manual_swap": (
            "Changed by hand: players swapped between tables {table_a} and {table_b}."
            "{comment_text}",
            "Изменено вручную: игроки столов {table_a} и {table_b} поменяны местами."
            "{comment_text}",
        ),
        "manual_fix": (
            "Set by hand (tables {table_a} and {table_b}).{comment_text}",
            "Пара назначена вручную (столы {table_a} и {table_b}).{comment_text}",
        ),
        "forbidden_pair": (
            "{a} and {b} would have met in this round, but the director forbade this pairing: "
            "both were paired with other players.{comment_text}",
            "{a} и {b} встретились бы в этом туре, но главный судья запретил эту пару: оба "
            "сыграют с другими соперниками.{comment_text}",
        ),
        "club_apart": (
            "{a} and {b} would have met in this round, but players of the same club are kept "
            "apart in rounds 1–{until}: both were paired with other players.",
            "{a} и {b} встретились бы в этом туре, но игроки одного клуба не встречаются в "
            "турах 1–{until}: оба сыграют с другими соперниками.",
        ),
        "bye_request": (
            "{player} asked in advance to sit out this round: {points} point(s) by the "
            "tournament's rule.",
            "{player}: пропуск этого тура заявлен заранее, {points} очк. по правилу "
            "турнира.",
        ),
        "late_entry_points": (
            "Late entry {player} missed {missed} round(s): {points} point(s) credited by the "
            "tournament's rule ({each} a round).",
            "Поздняя заявка {player} пропустила туров: {missed}; по правилу турнира начислено "
            "{points} очк. ({each} за тур).",
        ),
    },
    fields=pairing_fields,
)

# ---------------------------------------------------------------------------------------------
# wrong input to a generator
# ---------------------------------------------------------------------------------------------

SWISS = Catalogue(
    "pairing.swiss",
    {
        "round_invalid": (
            "Round number {round} is not valid: rounds start at 1.",
            "Номер тура {round} неверен: туры нумеруются с 1.",
        ),
        "duplicate_player": ("{player} is listed twice.", "{player} указан дважды."),
        "duplicate_draw_number": (
            "Draw number {draw_number} is used twice{in_section}.",
            "Номер жеребьёвки {draw_number} повторяется{in_section}.",
        ),
        "status_invalid": (
            "{player} has unknown status {status!r}.",
            "У игрока {player} неизвестный статус {status!r}.",
        ),
        "forbidden_invalid": (
            "Forbidden pair {players} must name exactly two players of this tournament.",
            "Запрещённая пара {players} должна состоять ровно из двух игроков этого турнира.",
        ),
        "self_opponent": (
            "{player} is listed as their own former opponent.",
            "{player} указан как собственный прошлый соперник.",
        ),
        "no_rematch_free": (
            "No rematch-free pairing exists for round {round}{in_section}; proposed rematches: "
            "{rematches}. The organiser must approve them or change the field.",
            "Для тура {round}{in_section} нет разбивки на пары без повторных встреч; предложены "
            "повторные встречи: {rematches}. Организатор должен их утвердить или изменить "
            "состав.",
        ),
        "no_bye_candidate": (
            "Every player has already had a bye; a second bye is proposed for the lowest-ranked "
            "player. The organiser must decide.",
            "Все игроки уже получали свободный тур; второй свободный тур предложен самому "
            "младшему игроку. Решает организатор.",
        ),
    },
    fields=pairing_fields,
)

KNOCKOUT = Catalogue(
    "pairing.knockout",
    {
        "too_few": (
            "A knockout needs at least 2 players, got {count}.",
            "Для кубковой системы нужно не меньше 2 игроков, указано {count}.",
        ),
        "duplicate": ("A player is entered twice.", "Игрок заявлен дважды."),
        "last_chance": (
            "A last-chance bracket needs the consolation bracket it is fed from.",
            "Турнир последнего шанса требует утешительного турнира, из которого он формируется.",
        ),
        "double_and_consolation": (
            "Double elimination already gives every loser a second life; choose it or the "
            "consolation bracket, not both.",
            "Система с выбыванием после двух поражений уже даёт второй шанс; выберите её или "
            "утешительный турнир, но не оба.",
        ),
        "exclusive": (
            "The options “{option_word}” and “{other_word}” cannot be chosen together: {why_word}.",
            "Параметры «{option_word}» и «{other_word}» нельзя выбрать вместе: {why_word}.",
        ),
        "progressive_and_other": (
            "The progressive consolation already takes the losers of every round; it cannot be "
            "combined with the consolation bracket or double elimination.",
            "Прогрессивный утешительный турнир уже принимает проигравших каждого круга; его "
            "нельзя совмещать с утешительным турниром или выбыванием после двух поражений.",
        ),
        "unknown_match": (
            "There is no match {match!r} in this bracket.",
            "В сетке нет матча {match!r}.",
        ),
        "not_playable": (
            "Match {match} cannot take a result now (status: {state}).",
            "В матч {match} сейчас нельзя внести результат (статус: {state}).",
        ),
        "wrong_winner": (
            "{player} does not play in match {match} ({a} v {b}).",
            "{player} не участвует в матче {match} ({a} – {b}).",
        ),
    },
    fields=pairing_fields,
)

ROUND_ROBIN = Catalogue(
    "pairing.round_robin",
    {
        "too_few": (
            "A round robin needs at least 2 players, got {count}.",
            "Для круговой системы нужно не меньше 2 игроков, указано {count}.",
        ),
        "duplicate": (
            "A player appears twice in the round robin list.",
            "Игрок указан в списке круговой системы дважды.",
        ),
    },
    fields=pairing_fields,
)

SCHEVENINGEN = Catalogue(
    "pairing.scheveningen",
    {
        "team_sizes": (
            "Both teams need the same, non-zero number of players (got {size_a} and {size_b}).",
            "В обеих командах должно быть одинаковое ненулевое число игроков (указано {size_a} "
            "и {size_b}).",
        ),
        "duplicate": (
            "A player is listed twice (in one team or in both).",
            "Игрок указан дважды (в одной команде или в обеих).",
        ),
        "uneven_teams": (
            "The teams must have the same number of players: {sizes}. Every player of one team "
            "plays every player of the other, one match a round, so uneven teams cannot be "
            "paired: add players to the smaller team or take players off the larger one.",
            "В командах должно быть одинаковое число игроков: {sizes}. Каждый участник одной "
            "команды играет с каждым участником другой, по одному матчу в тур, поэтому неравные "
            "команды составить в пары нельзя: добавьте игроков в меньшую команду или уберите "
            "лишних из большей.",
        ),
        "withdrawn_member": (
            "Team «{team}»: {player} (board {board}) has withdrawn from the event, so the team "
            "would be one board short and the teams uneven: put another player on board {board} "
            "or take {player} off the team.",
            "Команда «{team}»: {player} (доска {board}) снялся с соревнований, и в команде не "
            "хватит игрока — команды будут неравными: поставьте на доску {board} другого игрока "
            "или уберите {player} из команды.",
        ),
        "empty_team": (
            "Team «{team}» has no players: put its players on boards 1, 2, … or delete the team.",
            "В команде «{team}» нет игроков: расставьте игроков по доскам 1, 2, … или удалите "
            "команду.",
        ),
        "team_count": (
            "A Scheveningen team event needs an even number of teams, got {count}.",
            "Для командного турнира по шевенингенской системе нужно чётное число команд, "
            "указано {count}.",
        ),
    },
    fields=pairing_fields,
)

TRF = Catalogue(
    "pairing.trf",
    {
        "not_whole_number": (
            "TRF line {line}: {field_word} must be a whole number, found {found!r}.",
            "TRF, строка {line}: {field_word} должен быть целым числом, найдено {found!r}.",
        ),
        "not_number": (
            "TRF line {line}: {field_word} must be a number, found {found!r}.",
            "TRF, строка {line}: {field_word} должно быть числом, найдено {found!r}.",
        ),
        "short_line": (
            "TRF line {line}: player line is {length} characters long; at least 84 are needed "
            "(through the points column 81-84).",
            "TRF, строка {line}: строка игрока длиной {length} символов; нужно не меньше 84 "
            "(до колонки очков 81-84).",
        ),
        "no_start_number": (
            "TRF line {line}: start number (columns 5-8) is missing.",
            "TRF, строка {line}: нет стартового номера (колонки 5-8).",
        ),
        "bad_opponent": (
            "TRF line {line}: round {round} (column {column}): opponent must be a start number "
            "or 0000, found {found!r}.",
            "TRF, строка {line}: тур {round} (колонка {column}): соперник должен быть "
            "стартовым номером или 0000, найдено {found!r}.",
        ),
        "bad_code": (
            "TRF line {line}: round {round} (column {column}): colour {colour!r} or result "
            "{result!r} is not a TRF code (colour w/b/-, result 1 0 = W L D + - H F U Z).",
            "TRF, строка {line}: тур {round} (колонка {column}): цвет {colour!r} или результат "
            "{result!r} — не код TRF (цвет w/b/-, результат 1 0 = W L D + - H F U Z).",
        ),
        "bye_result": (
            "TRF line {line}: round {round}: no opponent (0000) but result {result!r}; a round "
            "without an opponent must be H, F, U, Z or -.",
            "TRF, строка {line}: тур {round}: соперника нет (0000), но результат {result!r}; "
            "тур без соперника должен быть H, F, U, Z или -.",
        ),
        "start_reused": (
            "TRF line {line}: start number {start} was already used on line {first_line}.",
            "TRF, строка {line}: стартовый номер {start} уже встречался в строке {first_line}.",
        ),
        "unknown_code": (
            "TRF line {line}: unknown line code {code!r}; TRF lines start with a three-character "
            "code such as 001 or 012.",
            "TRF, строка {line}: неизвестный код строки {code!r}; строки TRF начинаются с "
            "трёхсимвольного кода, например 001 или 012.",
        ),
        "no_player_line": (
            "TRF line {line}: round {round}: opponent {opponent} has no player line.",
            "TRF, строка {line}: тур {round}: у соперника {opponent} нет строки игрока.",
        ),
        "no_players": (
            "The TRF file has no player lines (001): it is empty, blank or only a header "
            "({lines} non-blank lines), so there is nobody to pair.",
            "В файле TRF нет строк игроков (001): он пустой, из пустых строк или только с "
            "заголовком (непустых строк: {lines}), поэтому разбивать на пары некого.",
        ),
        "asymmetric": (
            "TRF line {line}: round {round}: player {start} meets {opponent}, but player "
            "{opponent}'s line (line {other_line}) does not say so.",
            "TRF, строка {line}: тур {round}: игрок {start} играет с {opponent}, но в строке "
            "игрока {opponent} (строка {other_line}) этого нет.",
        ),
    },
    fields=pairing_fields,
)

# ---------------------------------------------------------------------------------------------
# the tournament's options
# ---------------------------------------------------------------------------------------------

OPTIONS = Catalogue(
    "pairing.options",
    {
        "unknown": (
            "Unknown {system_word} option {option!r}; known options: {allowed}.",
            "Неизвестный параметр «{option}» ({system_word}); допустимы: {allowed}.",
        ),
        "invalid": (
            "{system_word} option {option}={value!r} is not valid: expected {expected_word}.",
            "Параметр «{option}» ({system_word}) = {value!r} неверен: ожидается {expected_word}.",
        ),
        "not_a_table": (
            "The pairing options must be a table of options (a JSON object), not {value!r}.",
            "Параметры жеребьёвки должны быть таблицей (JSON-объектом), а не {value!r}.",
        ),
    },
    fields=pairing_fields,
)

# ---------------------------------------------------------------------------------------------
# the round manager's refusals and the rules of a hand-made table
# ---------------------------------------------------------------------------------------------

PAIRING = Catalogue(
    "pairing",
    {
        "rematch": (
            "{a} and {b} have already played each other in this tournament; a rematch needs "
            "the organiser's reason.",
            "{a} и {b} уже встречались в этом турнире; повторная встреча — только с указанием "
            "причины организатором.",
        ),
        "second_bye": (
            "{entry} has already had a bye; a second bye needs a reason.",
            "{entry} уже получал свободный тур; второй свободный тур — только с указанием "
            "причины.",
        ),
        "round_open": (
            "Round {round} is not closed: {open} result(s) are not confirmed yet. The next round "
            "is paired when all results are confirmed — or give a reason to pair it now.",
            "Тур {round} не закрыт: не подтверждено результатов: {open}. Следующий тур "
            "составляется, когда подтверждены все результаты, — или укажите причину, чтобы "
            "составить его сейчас.",
        ),
        "close_open": (
            "Round {round} cannot close: tables {tables} have no confirmed result yet.",
            "Тур {round} нельзя завершить: за столами {tables} ещё нет подтверждённого результата.",
        ),
        "close_already_closed": (
            "Round {round} was already finished (someone else closed it a moment ago); nothing changed.",
            "Тур {round} уже завершён (его только что закрыл кто-то другой); ничего не изменилось.",
        ),
        "close_not_published": (
            "Round {round} cannot close: it is a draft; publish it and confirm its results first.",
            "Тур {round} нельзя завершить: это черновик; сначала опубликуйте его и подтвердите результаты.",
        ),
        "rounds_planned": (
            "All {planned} planned rounds are paired; give a reason to add round {next}.",
            "Все запланированные туры ({planned}) уже составлены; укажите причину, чтобы "
            "добавить тур {next}.",
        ),
        "draft_exists": (
            "Round {round} is still a draft: publish it or delete it before pairing another "
            "round.",
            "Тур {round} ещё черновик: опубликуйте или удалите его, прежде чем составлять "
            "следующий.",
        ),
        "draw_required": (
            "Round 1 cannot be paired yet: {count} player(s) have no draw number. Hold the open "
            "draw of numbers (the Draw page), or choose another seeding (by rating, by category "
            "or in order of registration).",
            "Первый тур пока нельзя составить: у игроков ({count}) нет номера жеребьёвки. "
            "Проведите открытую номерную жеребьёвку (страница «Жеребьёвка») или выберите другой "
            "порядок номеров (по рейтингу, по категории или по порядку заявки).",
        ),
        "section_required": (
            "This tournament plays in sections: choose the section to pair.",
            "Турнир играется по категориям: выберите категорию для жеребьёвки.",
        ),
        "section_empty": (
            "Section {section} has nobody to pair: no player entered it, or every one has "
            "withdrawn. An empty section is not played and does not keep the event from finishing.",
            "В категории «{section}» некого разбивать на пары: в неё никто не записан или все "
            "снялись. Пустая категория не играется и не мешает завершению турнира.",
        ),
        "no_players": (
            "Nobody to pair: no player is entered in this tournament, or every one has withdrawn.",
            "Некого разбивать на пары: в турнире нет участников или все они снялись.",
        ),
        "checked_in_since": (
            "Checked in since this page was opened, and ticked absent on it: {names}. They are no "
            "longer ticked absent below; check the list and pair again (nothing else you typed "
            "has changed).",
            "После того как страница была открыта, отметились о прибытии игроки, отмеченные на "
            "ней отсутствующими: {names}. Отметка «отсутствует» с них снята; проверьте список и "
            "составьте тур снова (остальное, что вы ввели, сохранено).",
        ),
        "rematch_needs_reason": (
            "To accept the proposed rematches, give a reason; it is recorded.",
            "Чтобы принять предложенные повторные встречи, укажите причину; она записывается.",
        ),
        "schedule_exists": (
            "The {system_word} schedule already exists; delete its draft rounds to draw it "
            "again.",
            "Расписание ({system_word}) уже составлено; удалите черновики туров, чтобы составить "
            "его заново.",
        ),
        "knockout_over": (
            "The knockout is over: {champion} has won it.",
            "Кубковый турнир окончен: победитель — {champion}.",
        ),
        "knockout_waiting": (
            "No match can be played yet: the results that decide the next matches are not "
            "confirmed.",
            "Ни один матч пока нельзя сыграть: результаты, от которых зависят следующие матчи, "
            "не подтверждены.",
        ),
        "scheveningen_teams": (
            "The Scheveningen system needs an even number of teams (2, 4, 6, …); this "
            "tournament has {teams}.",
            "Для шевенингенской системы нужно чётное число команд (2, 4, 6, …); в турнире их "
            "{teams}.",
        ),
        "team_stage_open": (
            "The team matches are not finished: rounds {rounds} have results that are not "
            "confirmed.",
            "Командные матчи не окончены: в турах {rounds} есть неподтверждённые результаты.",
        ),
        "team_tie": (
            "Team match {team_a} – {team_b} is level on wins and points; the organiser must "
            "arrange a play-off before the next stage.",
            "Командный матч {team_a} – {team_b} закончился вничью по победам и очкам; до "
            "следующей стадии организатор назначает дополнительный матч.",
        ),
        "fixed_schedule": (
            "Only Swiss pairings are changed by hand: in a round robin, knockout or Scheveningen "
            "event the schedule or the bracket decides who meets whom.",
            "Вручную меняются только пары швейцарской системы: в круговом, кубковом и "
            "шевенингенском турнирах соперников определяет расписание или сетка.",
        ),
        "not_draft": (
            "Round {round} is {status_word}: only a draft round can be changed.",
            "Тур {round} уже {status_word}: менять можно только черновик.",
        ),
        "not_in_round": (
            "{entry} is not paired in round {round}.",
            "{entry} не участвует в туре {round}.",
        ),
        "same_player": (
            "Choose two different players.",
            "Выберите двух разных игроков.",
        ),
        "same_table": (
            "These players already meet at table {table}: nothing to change.",
            "Эти игроки и так встречаются за столом {table}: менять нечего.",
        ),
        "two_byes": (
            "Both players have byes; there is nobody to pair.",
            "У обоих игроков свободный тур; составлять пару не из кого.",
        ),
        "publish_order": (
            "Publish round {round} before round {next}.",
            "Сначала опубликуйте тур {round}, затем тур {next}.",
        ),
        "publish_withdrawn": (
            "Round {round} seats {players}, who withdrew after it was paired. The draft was not "
            "paired again by itself: it has results or changes made by hand, or pairing it again "
            "needs your decision. Delete the draft and pair the round again (or change those "
            "pairings by hand), then publish it.",
            "В туре {round} посажены игроки, снявшиеся после составления пар: {players}. Черновик "
            "не составлен заново сам: в нём есть результаты или изменения, сделанные вручную, или "
            "новое составление требует вашего решения. Удалите черновик и составьте тур заново "
            "(или измените эти пары вручную), затем опубликуйте его.",
        ),
        "delete_order": (
            "Round {round} cannot be deleted: a later round is already published.",
            "Тур {round} нельзя удалить: более поздний тур уже опубликован.",
        ),
        "has_results": (
            "Round {round} already has results on {count} match(es) (tables {tables}); to "
            "delete or re-pair it, discard those results explicitly and give a reason.",
            "В туре {round} уже есть результаты матчей: {count} (столы {tables}); чтобы удалить "
            "тур или изменить пары, явно отмените эти результаты и укажите причину.",
        ),
        "unpublish_not_published": (
            "Round {round} is {status_word}: only a published round can be withdrawn.",
            "Тур {round} — {status_word}: отозвать можно только опубликованный тур.",
        ),
        "unpublish_needs_reason": (
            "Say why the publication of round {round} is withdrawn; it is recorded in the audit "
            "log.",
            "Укажите, почему публикация тура {round} отзывается; причина записывается в журнал.",
        ),
        "unpublish_order": (
            "Round {round} cannot be withdrawn: round {next} is already published.",
            "Публикацию тура {round} нельзя отозвать: тур {next} уже опубликован.",
        ),
        "unpublish_results": (
            "Round {round} cannot be withdrawn: {count} match(es) already have results (tables "
            "{tables}). Correct the pairing through the results and rulings instead.",
            "Публикацию тура {round} нельзя отозвать: у матчей уже есть результаты: {count} "
            "(столы {tables}). Исправляйте через результаты и решения судьи.",
        ),
        "discard_needs_reason": (
            "Discarding entered results needs a reason; it is recorded in the audit log.",
            "Чтобы отменить внесённые результаты, укажите причину; она записывается в журнал.",
        ),
        "forbid_same": (
            "A forbidden pair needs two different players.",
            "Для запрещённой пары нужны два разных игрока.",
        ),
        "forbid_exists": (
            "{a} and {b} are already a forbidden pair.",
            "{a} и {b} уже составляют запрещённую пару.",
        ),
        "forbid_not_swiss": (
            "Forbidden pairs and requested byes apply to Swiss pairing only; this tournament is "
            "played as {system_word}.",
            "Запрещённые пары и заявленные пропуски туров действуют только в швейцарской "
            "системе; этот турнир играется как {system_word}.",
        ),
        "bye_request_past": (
            "Round {round} is already paired: a bye can be asked for round {next} or later.",
            "Тур {round} уже сформирован: пропуск можно заявить на тур {next} или позже.",
        ),
        "bye_request_beyond": (
            "The tournament has {planned} rounds: there is no round {round}.",
            "В турнире {planned} туров: тура {round} нет.",
        ),
        "bye_request_exists": (
            "{player} has already asked to sit out round {round}.",
            "{player}: пропуск тура {round} уже заявлен.",
        ),
        "qualify_unfinished": (
            "The Swiss is not over: {played} of {planned} rounds are finished. Qualify when its "
            "last round is closed, or give a reason to qualify now (it is recorded).",
            "Швейцарка ещё не закончена: завершено туров — {played} из {planned}. Отбирайте в "
            "кубок после завершения последнего тура или укажите причину, чтобы отобрать сейчас "
            "(она будет записана).",
        ),
        "qualify_tie_at_cut": (
            "Place {place} is shared across the cut by {players}: the tie-breaks do not separate "
            "them, and {spots} of them can go through. Decide how (it is recorded in the audit "
            "log): a play-off match among them, a lot, or a criterion you state{resize_word}.",
            "Место {place} на границе отбора делят {players}: дополнительные показатели их не "
            "разделяют, а пройти могут {spots}. Решите, как выбрать (решение записывается в "
            "журнал): дополнительный отборочный матч между ними, жребий или названный вами "
            "критерий{resize_word}.",
        ),
        "qualify_tie_chosen": (
            "A criterion decides place {place}: state it and choose exactly {spots} of the tied "
            "players ({players}) who go through.",
            "Место {place} решает критерий: назовите его и выберите ровно {spots} из игроков, "
            "делящих место ({players}), которые проходят дальше.",
        ),
        "qualify_playoff_open": (
            "The play-off for place {place} ({slug!r}) is not over yet: play it to the end, then "
            "qualify again choosing the play-off — its winners take the places.",
            "Дополнительный отборочный тур за место {place} ({slug!r}) ещё не окончен: доиграйте "
            "его и снова проведите отбор, выбрав дополнительный тур, — места займут его "
            "победители.",
        ),
        "qualify_playoff_players": (
            "The play-off {slug!r} was drawn among other players than those now tied for place "
            "{place} ({players}): the standings have changed. Delete it or choose another "
            "address for the cup.",
            "Дополнительный тур {slug!r} составлен из других игроков, чем те, кто теперь делит "
            "место {place} ({players}): таблица изменилась. Удалите его или выберите для кубка "
            "другой адрес.",
        ),
        "qualify_playoff_tie": (
            "The play-off for place {place} ({slug!r}) leaves its own place {playoff_place} "
            "shared by {players}: decide between them by a lot or a stated criterion.",
            "Дополнительный тур за место {place} ({slug!r}) сам оставил место {playoff_place} "
            "общим для {players}: решите между ними жребием или названным критерием.",
        ),
        "qualify_count": (
            "A cup needs 2 to {ranked} qualifiers from these standings, not {top}.",
            "Для кубка нужно от 2 до {ranked} участников из этой таблицы, а не {top}.",
        ),
        "qualify_slug": (
            "The address {slug!r} is already taken by another tournament.",
            "Адрес {slug!r} уже занят другим турниром.",
        ),
        "bye_request_withdrawn": (
            "{player} is withdrawn from the tournament: there is nothing to sit out.",
            "{player}: игрок снят с турнира, пропускать нечего.",
        ),
    },
    fields=pairing_fields,
)

#: System names inside sentences (``{system_word}``), keyed by the system's stored value.
for _key, _en, _ru in (
    ("swiss", "Swiss", "швейцарская система"),
    ("round_robin", "round robin", "круговая система"),
    ("knockout", "knockout", "кубковая система"),
    ("scheveningen", "Scheveningen", "шевенингенская система"),
):
    WORDS[("system", _key)] = (_en, _ru)

#: Knockout options inside sentences (``{option_word}``, ``{other_word}``), keyed by the option's name.
for _key, _en, _ru in (
    ("third_place", "match for third place", "матч за третье место"),
    ("progressive_consolation", "progressive consolation", "прогрессивный утешительный турнир"),
    ("double_elimination", "double elimination", "выбывание после двух поражений"),
):
    WORDS[("option", _key)] = (_en, _ru)
    WORDS[("other", _key)] = (_en, _ru)
#: Why two knockout options exclude each other (``{why_word}``).
WORDS[("why", "meet_twice")] = (
    "the semi-final losers would meet twice, in the match for third place and again in the "
    "other bracket",
    "проигравшие в полуфиналах встретились бы дважды: в матче за третье место и ещё раз в "
    "другой сетке",
)

#: The other way out of a tie at the cut (``{resize_word}``): a cup needs two players, so
#: "take fewer" is offered only when fewer is at least two.
WORDS[("resize", "both")] = (" — or take {fewer} or {more} players", " — или возьмите {fewer} или {more} участников")
WORDS[("resize", "more")] = (" — or take {more} players", " — или возьмите {more} участников")

#: Seedings other than the open draw (``{seeding_word}``), keyed by ``Tournament.seeding``.
for _key, _en, _ru in (
    ("rating", "by rating, highest first", "по рейтингу, начиная с высшего"),
    ("category", "by category, then rating", "по категории, затем по рейтингу"),
    ("registration", "in order of registration", "по порядку заявки"),
):
    WORDS[("seeding", _key)] = (_en, _ru)
