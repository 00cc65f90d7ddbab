"""Every ``match.*`` problem: its English and Russian text, and the words the texts share.

One place for the wording of the match ledger, the final score, the cube state machine
and the category table (:mod:`scoring.rules.match.check`, :mod:`scoring.rules.match.cube`,
:mod:`scoring.rules.match.categories`). Call sites pass data only (numbers, side keys
``"a"``/``"b"`` or ``"white"``/``"black"``, result kinds); :func:`match_fields` turns the
data into words here, so a code's text is never assembled anywhere else.

The place (``Game 4: ``) is never in a template: :meth:`Problem.message` adds it once.
Sides become the players' names when the shell passes ``names``; without names they read
"player A" / «игрок А» — never a bare Latin letter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from scoring.rules.errors import Catalogue, is_english
from scoring.rules.variants import SCORING_TABLES

#: Game result kinds in Russian, as the book names them (оюн, марс, кокс…).
KIND_NAMES_RU: Mapping[str, str] = {
    "single": "одинарная игра (гейм)",
    "gammon": "гэммон (марс)",
    "backgammon": "бэкгэммон (кокс)",
    "oyun": "оюн",
    "mars": "марс",
    "home_mars": "домашний марс",
    "koks": "кокс",
    "draw": "ничья",
}

#: Result kinds of a match (issue 15) in English and Russian: what the pages and problems say.
RESULT_KIND_NAMES: Mapping[str, tuple[str, str]] = {
    "played": ("played", "сыгран"),
    "forfeit": ("win by forfeit", "победа за неявку"),
    "double_forfeit": ("double forfeit", "обоюдная неявка"),
    "time_forfeit": ("time forfeit", "поражение по времени"),
    "void": ("void", "матч аннулирован"),
}

#: A side key in English and in Russian (nominative, genitive, dative); a name is not declined.
_SIDES: dict[str, tuple[str, tuple[str, str, str]]] = {
    "a": ("player A", ("игрок А", "игрока А", "игроку А")),
    "b": ("player B", ("игрок Б", "игрока Б", "игроку Б")),
    "white": ("White", ("белые", "белых", "белым")),
    "black": ("Black", ("чёрные", "чёрных", "чёрным")),
}

#: Cube offers: a plain double, a beaver (басэ), a raccoon.
_OFFERS: dict[str, tuple[str, str]] = {
    "double": ("double", "давэ"),
    "beaver": ("beaver", "бивер"),
    "raccoon": ("raccoon", "ракун"),
}

#: How a game shows that the cube was used (``usage`` detail → ``{what}``).
_USAGE: dict[str, tuple[str, str]] = {
    "offer": ("a double", "давэ"),
    "autodouble": ("an automatic double", "автодубль"),
    "stake": ("a stake of {value}", "ставка {value}"),
    "dropped": ("a passed double", "пас при давэ"),
}

_LOWER_CATEGORY: tuple[str, str] = (
    " (category {category}: categories 1–3 never use the cube)",
    " (категория «{category_ru}»: в категориях 1–3 дубль-куб не применяется)",
)
_WITH_CUBE: dict[bool, tuple[str, str]] = {
    True: ("with the cube", "с дубль-кубом"),
    False: ("without the cube", "без дубль-куба"),
}
_TO_LENGTH: tuple[str, str] = ("to {n}", "до {n}")
_TO_LENGTHS: tuple[str, str] = ("to {a}, {b}, …", "до {a}, {b}, …")
_GAMES: tuple[str, str] = ("{n} games", "{n} партий")
_RULE: tuple[str, str] = ("to {n}, {cube}", "до {n}, {cube}")
_NOBODY: tuple[str, str] = ("nobody", "никого")
_AND: tuple[str, str] = (" and ", " и ")
_LEADER: tuple[str, str] = (
    "{leader} is one point from winning the match",
    "{leader_dat} осталось одно очко до победы в матче",
)
_SOMEONE_LEADS: tuple[str, str] = (
    "a player is one point from winning the match",
    "одному из игроков до победы в матче осталось одно очко",
)
_UNFINISHED: dict[str, tuple[str, str]] = {
    "ledger": (
        "after {games} game(s) the score is {score} and nobody has reached {length}.",
        "после {games} партий счёт {score}, и никто не набрал {length}.",
    ),
    "final": ("{score} — nobody has reached {length}.", "{score} — никто не набрал {length}."),
    "games": ("only {games} of {fixed} games were played.", "сыграно только {games} партий из {fixed}."),
}
_TOTAL_WHY: tuple[str, str] = (
    "each game gives one player one of {values} points{draw_clause} (at most {most} in all).",
    "каждая партия даёт одному игроку одно из значений {values}{draw_clause} (всего не больше {most}).",
)
_DRAW_CLAUSE: tuple[str, str] = (" or both {draw} for a draw", " или обоим по {draw} при ничьей")
_SCORE_KINDS: dict[bool, tuple[str, str]] = {
    False: ("non-negative whole numbers", "неотрицательных целых числа"),
    True: ("non-negative halves", "неотрицательных числа, кратных 0,5"),
}
_MAX_CUBE_ALLOWED: dict[bool, tuple[str, str]] = {
    False: ("a power of two from 2 to 64", "степенью двойки от 2 до 64"),
    True: ("2…6 for the davé ladder", "от 2 до 6 в системе давэ"),
}

#: What a field of untrusted match input should have been (``bad_input``'s ``expected``).
_INPUT_EXPECTED: dict[str, tuple[str, str]] = {
    "object": ("expected a JSON object", "ожидается JSON-объект"),
    "game_object": ("expected an object", "нужен объект"),
    "known_option": ("unknown option (known: {known})", "неизвестный параметр (допустимы: {known})"),
    "known_field": ("unknown field (known: {known})", "неизвестное поле (допустимы: {known})"),
    "int_or_null": ("expected a whole number or null", "нужно целое число или null"),
    "limit": ("expected a whole number (null: no limit)", "нужно целое число (null — без ограничения)"),
    "scoring": ("expected a scoring system name", "нужно название системы подсчёта"),
    "side": ('expected "a" or "b"', "нужно «a» или «b»"),
    "bool": ("expected true or false", "нужно true или false"),
    "bool_or_null": ("expected true, false or null", "нужно true, false или null"),
    "category": ("expected a category number or name", "нужен номер или название категории"),
    "draw": ("expected 1, 0.5 or null", "нужно 1, 0.5 или null"),
    "games": ("expected a list of games", "нужен список партий"),
    "final": ("expected [points_a, points_b]", "нужно [очки_a, очки_b]"),
    "present": ("missing", "не указано"),
    "winner": ('expected "a", "b" or null', "нужно «a», «b» или null"),
    "text": ("expected a text", "нужен текст"),
    "int": ("expected a whole number", "нужно целое число"),
}
_GOT: tuple[str, str] = (", got {got}", ", а не {got}")


class _Fields(dict[str, Any]):
    """Template fields: optional ones blank, ``*_ru`` falls back to the plain field."""

    def __missing__(self, key: str) -> Any:
        if key.endswith("_ru") and key[:-3] in self:
            return self[key[:-3]]
        return ""


def _pick(pair: tuple[str, str], en: bool) -> str:
    return pair[0] if en else pair[1]


def _side(side: str, en: bool, names: Mapping[str, str], case: int) -> str:
    if side in names:
        return names[side]
    words = _SIDES.get(side)
    if words is None:
        return side
    return words[0] if en else words[1][case]


def score_text(value: Any, en: bool) -> str:
    """A score as the player typed it, "5:2.5" ("5:2,5" in Russian), never a Python list of
    decimals (issue 44: a player read "not [Decimal('5'), Decimal('2.5')]")."""
    if not isinstance(value, (list, tuple)):
        return repr(value)
    parts = []
    for v in value:
        try:
            number = Fraction(str(v))
        except (ValueError, ZeroDivisionError):
            parts.append(str(v))
            continue
        text = str(number.numerator) if number.denominator == 1 else f"{float(number):g}"
        parts.append(text if en else text.replace(".", ","))
    return ":".join(parts)


def match_fields(details: Mapping[str, Any], language: str, names: Mapping[str, str]) -> Mapping[str, Any]:
    """Turn a ``match.*`` problem's data into the words of its template."""
    en = is_english(language)
    f = _Fields(details)
    for key in ("by", "owner", "winner"):
        value = details.get(key)
        if isinstance(value, str):
            f[f"{key}_name"] = _side(value, en, names, 0)
            f[f"{key}_gen"] = _side(value, en, names, 1)
    if "winner" in details and details["winner"] is None:
        f["winner_name"] = f["winner_gen"] = _pick(_NOBODY, en)
    if "leaders" in details:
        leaders: Sequence[str] = details["leaders"] or ()
        if leaders:
            joined = _pick(_AND, en).join(_side(s, en, names, 0) for s in leaders)
            joined_dat = _pick(_AND, en).join(_side(s, en, names, 2) for s in leaders)
            f["leader"] = _pick(_LEADER, en).format(leader=joined, leader_dat=joined_dat)
        else:
            f["leader"] = _pick(_SOMEONE_LEADS, en)
    if "result_kind" in details:
        f["kind_label"] = _pick(RESULT_KIND_NAMES.get(details["result_kind"], ("?", "?")), en)
    if "kind" in details and details["kind"] in _OFFERS:
        f["kind_name"] = _pick(_OFFERS[details["kind"]], en)
    if "usage" in details:
        f["what"] = _pick(_USAGE.get(details["usage"], _USAGE["offer"]), en).format_map(f)
    if details.get("lower_category"):
        f["where"] = _pick(_LOWER_CATEGORY, en).format_map(f)
    if "single" in details:
        single = details["single"]
        f["single_name"] = single if en else KIND_NAMES_RU.get(single, single)
    if "system" in details:
        table = SCORING_TABLES.get(details["system"])
        f["system_name"] = details["system"] if table is None else (table.name_en if en else table.name_ru)
    if "cube_expected" in details:
        f["expected"] = _pick(_WITH_CUBE[bool(details["cube_expected"])], en)
    if "expected_lengths" in details:
        lengths = details["expected_lengths"]
        if len(lengths) == 1:
            f["expected"] = _pick(_TO_LENGTH, en).format(n=lengths[0])
        else:
            f["expected"] = _pick(_TO_LENGTHS, en).format(a=lengths[0], b=lengths[1])
        if details.get("actual_length") is not None:
            f["actual"] = _pick(_TO_LENGTH, en).format(n=details["actual_length"])
        else:
            f["actual"] = _pick(_GAMES, en).format(n=details.get("actual_games"))
    for key in ("table", "chosen"):
        if isinstance(details.get(key), Mapping):
            rule = details[key]
            cube = _pick(_WITH_CUBE[bool(rule["cube"])], en)
            f[f"{key}_rule"] = _pick(_RULE, en).format(n=rule["length"], cube=cube)
    if "unfinished" in details:
        f["why"] = _pick(_UNFINISHED[details["unfinished"]], en).format_map(f)
    if "values" in details and "most" in details:
        draw = details.get("draw")
        f["draw_clause"] = _pick(_DRAW_CLAUSE, en).format(draw=draw) if draw is not None else ""
        f["why"] = _pick(_TOTAL_WHY, en).format_map(f)
    if "halves" in details:
        f["number_kind"] = _pick(_SCORE_KINDS[bool(details["halves"])], en)
        f["score_text"] = score_text(details.get("value"), en)
    if "dave" in details:
        f["allowed"] = _pick(_MAX_CUBE_ALLOWED[bool(details["dave"])], en)
    if "allowed_values" in details:
        values = details["allowed_values"]
        f["allowed"] = f" ({', '.join(str(v) for v in values)})" if values else ""
    if "expected_input" in details:
        what = _pick(_INPUT_EXPECTED[details["expected_input"]], en).format_map(f)
        if "got" in details:
            what += _pick(_GOT, en).format(got=details["got"])
        f["what"] = what
    return f


MATCH = Catalogue(
    "match",
    {
        # -- the options themselves ---------------------------------------------
        "nothing_to_check": (
            "Give the games of the match, its final score, or both.",
            "Укажите партии матча, итоговый счёт или и то и другое.",
        ),
        "bad_format": (
            "A match is either to N points or a fixed number of games: set exactly one of "
            "length and fixed_games.",
            "Матч играется либо до N очков, либо из определённого числа партий: укажите что-то "
            "одно — длину матча или число партий.",
        ),
        "bad_length": (
            "The match length must be a whole number of points from 1, not {value!r}.",
            "Длина матча должна быть целым числом очков от 1, а не {value!r}.",
        ),
        "bad_fixed_games": (
            "The number of games must be a whole number from 1, not {value!r}.",
            "Число партий матча должно быть целым числом от 1, а не {value!r}.",
        ),
        "bad_scoring": (
            "Unknown scoring system {value!r}; use one of {known}.",
            "Неизвестная система подсчёта {value!r}; допустимы: {known}.",
        ),
        "jacoby_in_match": (
            "The Jacoby rule belongs to money play only and is never used in matches.",
            "Правило Якоби применяется только в игре на ставку, в матчах — никогда.",
        ),
        "holland_needs_crawford": (
            "The Holland rule restricts doubles in post-Crawford games, so it needs a match to "
            "N points played with the cube and the Crawford rule.",
            "Правило Холланда ограничивает давэ в пост-кроуфордских партиях, поэтому оно "
            "возможно только в матче до N очков с дубль-кубом и правилом Кроуфорда.",
        ),
        "bad_draw_value": (
            "A draw is scored 1 or 1/2 point to each player, not {value!r}.",
            "За ничью даётся 1 очко или пол-очка каждому, а не {value!r}.",
        ),
        "draw_needs_fixed_games": (
            "Draws (equal-moves rule) are scored only in matches of a fixed number of games; "
            "in a match to N points both players could reach N at once.",
            "Ничьи (правило равноходовости) засчитываются только в матчах из определённого "
            "числа партий: в матче до N очков оба игрока могли бы набрать N одновременно.",
        ),
        "bad_input": ("{field}: {what}", "{field}: {what}"),
        # -- the category table -------------------------------------------------
        "category_cube": (
            "Category {category} plays {expected}; this match says the opposite "
            "(an organiser's override must be recorded).",
            "Категория «{category_ru}» играет {expected}; у этого матча указано иначе "
            "(изменение организатором нужно оформить).",
        ),
        "category_length": (
            "Category {category} plays {expected} in this round, not {actual} "
            "(an organiser's override must be recorded).",
            "Категория «{category_ru}» в этом туре играет {expected}, а не {actual} "
            "(изменение организатором нужно оформить).",
        ),
        "unknown_category": (
            "There is no category {value!r}: use 1–9 or one of {keys}.",
            "Категории {value!r} нет: укажите номер 1–9 или одно из {keys}.",
        ),
        "bad_round": (
            "The round number must be a whole number from 1, not {value!r}.",
            "Номер тура (круга) должен быть целым числом от 1, а не {value!r}.",
        ),
        "bad_override_length": (
            "An overriding match length must be a whole number of points from 1, not {value!r}.",
            "Длина матча, назначенная организатором, должна быть целым числом очков от 1, "
            "а не {value!r}.",
        ),
        "override_needs_reason": (
            "The organiser changed the {category} rules for round {round} "
            "(table: {table_rule}; set: {chosen_rule}) but gave no reason; a reason is required.",
            "Организатор изменил условия категории «{category_ru}» в туре {round} "
            "(по таблице: {table_rule}; назначено: {chosen_rule}), но не указал причину; "
            "причина обязательна.",
        ),
        # -- one game of a ledger -----------------------------------------------
        "bad_winner": (
            'The winner must be "a" or "b" (or none for a draw), not {value!r}.',
            "Победитель — «a» или «b» (при ничьей — никто), а не {value!r}.",
        ),
        "bad_kind": (
            "{value!r} is not a result in the {system_name} system; possible: {known}.",
            "{value!r} — не результат системы «{system_name}»; допустимы: {known}.",
        ),
        "draw_not_allowed": (
            "A draw is recorded, but this match does not score draws "
            "(the equal-moves rule was not agreed).",
            "Записана ничья, но в этом матче ничьи не засчитываются "
            "(правило равноходовости не оговорено).",
        ),
        "cube_not_legal": (
            "{value!r} is not a value the cube can show ({legal}).",
            "{value!r} — такой ставки быть не может (возможны: {legal}).",
        ),
        "bad_autodoubles": (
            "The number of automatic doubles must be a whole number from 0, not {value!r}.",
            "Число автодублей должно быть целым числом от 0, а не {value!r}.",
        ),
        "autodoubles_cube_mismatch": (
            "After {count} automatic double(s) the cube is already at {floor} and "
            "can only go up, so it cannot end at {value}.",
            "После {count} автодубл(я/ей) куб уже показывает {floor} и может "
            "только расти, поэтому ставка {value} невозможна.",
        ),
        "drop_at_max": (
            "A pass at a stake of {value} is impossible — the cube is at its "
            "maximum and nobody can double any more.",
            "Пас при ставке {value} невозможен — куб на максимуме, удваивать больше нельзя.",
        ),
        "dropped_kind": (
            "A passed double ends the game at once as a single game ({single_name}), "
            "not {value!r}.",
            "После паса партия заканчивается одинарным выигрышем ({single_name}), "
            "а не {value!r}.",
        ),
        "bad_dropped": (
            "'dropped' must be true or false, not {value!r}.",
            "Признак паса должен быть «да» или «нет», а не {value!r}.",
        ),
        # -- the cube (a ledger line and the cube state machine say the same) ---
        "cube_off": (
            "This match is played without the doubling cube{where}, yet the record shows {what}.",
            "Этот матч играется без дубль-куба{where}, а в записи указано: {what}.",
        ),
        "cube_in_crawford": (
            "This is the Crawford game ({leader}), so the cube is not used in it, "
            "yet the record shows {what}.",
            "Это кроуфордская партия ({leader}): дубль-куб в ней не применяется, "
            "а в записи указано: {what}.",
        ),
        "cube_above_max": (
            "A stake of {value} is above the agreed maximum {max}.",
            "Ставка {value} выше оговорённого максимума {max}.",
        ),
        "autodoubles_exceeded": (
            "{count} automatic double(s) in one game, but only {limit} per game were agreed.",
            "{count}-й автодубль в партии, а оговорено не более {limit}.",
        ),
        "autodoubles_without_cube": (
            "Automatic doubles need the cube: without the cube they are ignored (ch10).",
            "Автодубль возможен только с дубль-кубом: без куба автодублем пренебрегают (гл. 10).",
        ),
        "autodouble_in_dave": (
            "The eastern davé ladder has no automatic doubles (traditional games never had them).",
            "В восточной системе давэ автодублей нет (в традиционных играх автодубля не было).",
        ),
        "cube_not_owner": (
            "{by_name} cannot double: the cube is held by {owner_name}; only the holder "
            "(or either player while the cube is in the middle) may double.",
            "У {by_gen} нет права предложить давэ: дубль-куб у {owner_gen}; удваивать может "
            "только держатель куба (или любой игрок, пока куб посередине).",
        ),
        "offer_pending": (
            "A {kind_name} to {value} is still waiting for an answer (take or pass).",
            "Предложение ({kind_name}, {value}) ещё ждёт ответа: принять или пас.",
        ),
        "no_offer": (
            "Nothing was offered, so there is nothing to take, pass or redouble.",
            "Давэ не предлагалось: принимать, пасовать или переудваивать нечего.",
        ),
        "wrong_responder": (
            "{by_name} made the offer and cannot answer it; the opponent takes or passes.",
            "Давэ предложено со стороны {by_gen}, и отвечать на него может только противник: "
            "принять или пасовать.",
        ),
        "beaver_not_agreed": (
            "Beaver (immediate redouble) was not agreed for this match.",
            "Бивер (басэ, встречное удвоение) не был оговорён для этого матча.",
        ),
        "raccoon_not_agreed": (
            "Raccoon (redoubling a beaver) was not agreed for this match.",
            "Ракун (удвоение бивера) не был оговорён для этого матча.",
        ),
        "beaver_not_after_double": (
            "A beaver answers a plain double only, not a {kind_name}.",
            "Бивер возможен только в ответ на обычное давэ, а не на {kind_name}.",
        ),
        "raccoon_not_after_beaver": (
            "A raccoon answers a beaver only, not a {kind_name}.",
            "Ракун возможен только в ответ на бивер, а не на {kind_name}.",
        ),
        "holland_too_early": (
            "Holland rule: in a post-Crawford game the trailing player ({by_name}) may double "
            "only after both players have made two moves (each has made {moves}).",
            "Правило Холланда: в пост-кроуфордской партии отстающий ({by_name}) может удваивать "
            "только после того, как оба игрока сделали по два хода (сделано по {moves}).",
        ),
        "game_over": (
            "The game already ended with a pass; the cube can no longer change.",
            "Партия уже окончена пасом: ставка больше не меняется.",
        ),
        "autodouble_after_offer": (
            "Automatic doubles happen only at the opening roll, before anyone doubles.",
            "Автодубль бывает только при розыгрыше первого хода, до любого давэ.",
        ),
        "bad_max_cube": (
            "The maximum cube must be {allowed}; {value} is not.",
            "Максимальная ставка должна быть {allowed}; {value} не подходит.",
        ),
        "raccoon_needs_beaver": (
            "Raccoon is a redouble of a beaver, so it needs the beaver rule as well.",
            "Ракун — это удвоение бивера, поэтому без правила бивера он невозможен.",
        ),
        "bad_autodouble_limit": (
            "The automatic-double limit must be a whole number of 0 or more, not {value}.",
            "Ограничение автодублей должно быть целым числом не меньше 0, а не {value}.",
        ),
        # -- the match as a whole -----------------------------------------------
        "game_after_end": (
            "This game was recorded after the match was already decided "
            "({score} to {winner_name} after game {last}).",
            "Партия записана после того, как матч уже был решён "
            "(счёт {score} в пользу {winner_gen} после партии {last}).",
        ),
        "too_many_games": (
            "The match is {fixed} games long, so there is no such game.",
            "Матч состоит из {fixed} партий, такой партии быть не может.",
        ),
        "match_unfinished": ("The match is not finished: {why}", "Матч не окончен: {why}"),
        "final_mismatch": (
            "The stated final score {stated} does not match the games, which add up to {ledger}.",
            "Указанный итоговый счёт {stated} не совпадает с партиями: по ним выходит {ledger}.",
        ),
        "bad_score": (
            "The final score must be two {number_kind}, not {score_text}.",
            "Итоговый счёт — это два {number_kind}, а не {score_text}.",
        ),
        "final_both_reached": (
            "Both players have {length} or more points ({score}); the match ends as soon as "
            "one of them reaches {length}.",
            "У обоих игроков {length} очков или больше ({score}); матч заканчивается, как только "
            "один из них набирает {length}.",
        ),
        "final_jump_impossible": (
            "{score} is impossible in a match to {length}: {winner_name} would have needed to "
            "start the last game with fewer than {length} points and win at least {need} in it, "
            "but one game can be worth at most {max} under these options{allowed}.",
            "Счёт {score} невозможен в матче до {length}: {winner_name} должен был начать "
            "последнюю партию, имея меньше {length} очков, и выиграть в ней не меньше {need}, "
            "а одна партия при этих условиях стоит не больше {max}{allowed}.",
        ),
        "final_total_impossible": (
            "{score} cannot be the result of exactly {fixed} games: {why}",
            "Счёт {score} не может получиться ровно за {fixed} партий: {why}",
        ),
        # -- result kinds, lateness and the clock (issue 15) -------------------------
        "bad_result_kind": (
            "{value!r} is not a result kind (known: {known}).",
            "{value!r} — не вид результата (допустимы: {known}).",
        ),
        "forfeit_needs_winner": (
            "A {kind_label} needs the player who wins it.",
            "Для результата «{kind_label}» нужно указать, кто выигрывает.",
        ),
        "forfeit_no_winner": (
            "A {kind_label} has no winner; leave the winner empty.",
            "У результата «{kind_label}» нет победителя; оставьте поле победителя пустым.",
        ),
        "forfeit_played_decided": (
            "The score already played ({score}) decides the match; enter it as a played result.",
            "Уже сыгранный счёт ({score}) решает матч; введите его как сыгранный результат.",
        ),
        "knockout_level": (
            "A knockout match cannot end level ({score}): the loser leaves the cup, so play a "
            "deciding game (the book settles a tie by more play, Part 9) and enter the result "
            "with it.",
            "Матч на выбывание не может закончиться вничью ({score}): проигравший выбывает из "
            "кубка, поэтому сыграйте решающую партию (по книге ничья решается дополнительной "
            "игрой, часть 9) и внесите результат вместе с ней.",
        ),
        "knockout_no_winner": (
            "A knockout match cannot be settled as a {kind_label}: its winner takes the next "
            "slot of the bracket, so the cup could not go on. Record a forfeit naming the player "
            "who goes through.",
            "Матч на выбывание нельзя завершить как «{kind_label}»: его победитель занимает "
            "следующее место в сетке, иначе кубок не сможет продолжиться. Внесите неявку, "
            "указав, кто проходит дальше.",
        ),
        # -- a stored ledger read back (a restored archive): its winner must be the score's --
        "winner_contradicts": (
            "The result names {owner_name} as the winner, but its score gives the match to "
            "{winner_name}.",
            "В результате победителем назван {owner_name}, но по счёту матч выиграл {winner_name}.",
        ),
        "winner_undecided": (
            "The result names {owner_name} as the winner, but its score decides no winner.",
            "В результате победителем назван {owner_name}, но счёт победителя не определяет.",
        ),
        "winner_missing": (
            "The score gives the match to {winner_name}, but the result names no winner.",
            "По счёту матч выиграл {winner_name}, но победитель в результате не указан.",
        ),
        "below_start": (
            "The score {score} is below the score the match started from ({start}: lateness "
            "penalty points).",
            "Счёт {score} меньше счёта, с которого начался матч ({start}: штрафные очки за "
            "опоздание).",
        ),
        "bad_late_rule": (
            "The lateness rule needs whole numbers of minutes of 1 or more (one penalty point "
            "per {every} minutes, a forfeit after {forfeit} minutes), and the forfeit must not "
            "come before the first penalty point.",
            "Правило опозданий задаётся целыми числами минут не меньше 1 (штрафное очко за "
            "каждые {every} мин, поражение после {forfeit} мин), и поражение не может наступать "
            "раньше первого штрафного очка.",
        ),
        "bad_minutes_late": (
            "Minutes late must be a whole number of 0 or more, not {value!r}.",
            "Опоздание указывается целым числом минут не меньше 0, а не {value!r}.",
        ),
        "no_late_rule": (
            "This tournament has no lateness rule; the organiser sets it on the settings page.",
            "В этом турнире нет правила опозданий; организатор задаёт его на странице настроек.",
        ),
        "move_limit_range": (
            "The limit per move must be 1 to 45 seconds (the book, Part 9: usually 30, 35, 40 "
            "or 45 seconds a move, no more), not {value}.",
            "Ограничение на ход — от 1 до 45 секунд (книга, ч. 9: обычно 30, 35, 40 или 45 "
            "секунд на ход, не более), а не {value}.",
        ),
        "bad_clock": (
            "Clock settings must be whole numbers of 0 or more ({field}: {value!r}).",
            "Настройки часов — целые числа не меньше 0 ({field}: {value!r}).",
        ),
        "delay_and_increment": (
            "A clock runs with a delay or with an increment, not both.",
            "Часы работают либо с задержкой, либо с добавлением времени, но не с обоими сразу.",
        ),
        "clock_bonus_without_clock": (
            "A delay or an increment needs the clock's minutes per point.",
            "Для задержки или добавления времени нужно задать минуты на очко матча.",
        ),
        # The match file itself (manage.py validate_match FILE.json).
        "file_unreadable": (
            "cannot read {path}: {reason}",
            "не удалось прочитать {path}: {reason}",
        ),
        "file_not_utf8": ("{path} is not UTF-8 text", "{path} — не текст в кодировке UTF-8"),
        "file_not_json": (
            "{path} is not valid JSON: {reason} at line {line}, column {column}",
            "{path} — некорректный JSON: {reason}, строка {line}, позиция {column}",
        ),
    },
    fields=match_fields,
)
