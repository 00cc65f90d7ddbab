"""Every ``record.*`` problem: what a game record (book notation or .mat) can get wrong.

One table for the notation reader (:mod:`scoring.rules.records.notation`), the legality check of
one play (:func:`scoring.rules.board.play_check.check_play`), the record replayer
(:mod:`scoring.rules.records.replay`) and the .mat reader (:mod:`scoring.rules.records.matfile`). Call
sites pass data (point labels as printed, dice, counts, side keys); :func:`record_fields`
words it here, in English and in the book's Russian.

The place (``Game 2, move 12, White: ``) is never in a template: :meth:`Problem.message`
adds it once. Cube problems met while replaying a record are ``match.*`` (one cube rule
book for records and ledgers, :mod:`scoring.rules.problems.match`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.errors import Catalogue, Problem, is_english

#: A colour in English and in Russian (nominative, genitive, dative).
_COLOURS: dict[str, tuple[str, tuple[str, str, str]]] = {
    "white": ("White", ("белые", "белых", "белым")),
    "black": ("Black", ("чёрные", "чёрных", "чёрным")),
}
#: Detail keys that hold a colour; each gives ``{key_name}``, ``{key_gen}``, ``{key_dat}``
#: and ``{key_Name}`` (capitalised, to open a Russian sentence).
_SIDE_KEYS = ("mover", "missing", "actor", "turn", "player", "winner")

_AT: tuple[str, str] = (" (at character {at_char} of “{cell}”)", " (символ {at_char} в «{cell}»)")
_UNPARSABLE: dict[str, tuple[str, str]] = {
    "expected_point": ("expected a point (a number, Bar or off)", "ожидался пункт (число, бар или off)"),
    "point_after_slash": ("expected a point after “/”", "после «/» ожидался пункт"),
    "from_to": ("a move needs “from/to”", "ход записывается как «откуда/куда»"),
    "repeat": ("a move cannot be repeated {repeat} times (at most 4)", "ход нельзя повторить {repeat} раз (не больше 4)"),
    "after_pass": ("nothing may follow the pass sign Ø", "после знака паса Ø ход не записывается"),
    "unexpected": ("unexpected “{snippet}”", "непонятная запись «{snippet}»"),
    "mat_line": ("line {line} of the .mat file cannot be read: “{snippet}”", "строку {line} файла .mat прочитать нельзя: «{snippet}»"),
    "mat_entry": (
        "line {line}: “{snippet}” is not a roll, a move or a cube action",
        "строка {line}: «{snippet}» — не бросок, не ход и не действие с кубом",
    ),
}
_BAD_POINT: dict[str, tuple[str, str]] = {
    "half": (": the opponent's half is 01…012", ": половина соперника — 01…012"),
    "range": (": points are 1…24", ": пункты — 1…24"),
    "numbering": (" in {numbering_name} numbering", " в {numbering_name} нумерации"),
    "checkpoint": (" (named in the checkpoint)", " (указан в проверочной позиции)"),
}
_NUMBERINGS: dict[str, tuple[str, str]] = {
    "through": ("through", "сквозной"),
    "traditional": ("traditional", "традиционной"),
    "own": ("own", "собственной"),
}
#: Cube actions and game results as the book names them (ch10, ch8 r28–r31, ch14).
_CUBE_ACTIONS: dict[str, tuple[str, str]] = {
    "offer": ("offer", "предложение давэ"),
    "take": ("take", "принятие давэ"),
    "drop": ("drop", "пас"),
    "beaver": ("beaver", "бивер"),
    "raccoon": ("raccoon", "ракун"),
    "auto": ("automatic double", "автодубль"),
}
def result_kind_name(kind: str, language: str = "ru") -> str:
    """A kind of win in words (``single`` → «гейм»), for summaries."""
    return _pick(_RESULTS.get(kind, (kind, kind)), is_english(language))


_RESULTS: dict[str, tuple[str, str]] = {
    "single": ("single", "гейм"),
    "gammon": ("gammon", "гэммон"),
    "backgammon": ("backgammon", "бэкгэммон"),
    "oyun": ("oyun", "оюн"),
    "mars": ("mars", "марс"),
    "home_mars": ("home mars", "домашний марс"),
    "koks": ("koks", "кокс"),
    "resign": ("resignation", "сдача"),
}
_AFTER_END: dict[bool, tuple[str, str]] = {
    False: ("a move", "ход"),
    True: ("a cube action ({action_name})", "действие с кубом ({action_name})"),
}
_BACKWARD: dict[bool, tuple[str, str]] = {
    True: ("the checker would move backwards, from {src_label} to {dst_label}", "ход назад — с пункта {src_label} на {dst_label}"),
    False: ("the checker would stay on {src_label}", "шашка осталась бы на пункте {src_label}"),
}
_LONG_CLOSES: tuple[str, str] = (
    " (a single checker closes a point in long nardy)",
    " (в длинных нардах пункт закрывает и одна шашка)",
)
_EXACT_POINT: dict[bool, tuple[str, str]] = {
    True: (" from point {point_label}", " с пункта {point_label}"),
    False: (" from the point its die shows", " с пункта, который показал зар"),
}
_PRIME_RULE: dict[str, tuple[str, str]] = {
    "karzar": ("r6", "п. 6"),
    "jang": ("r5/r6", "пп. 5–6"),
}
_INFERRED: tuple[str, str] = (
    " The replay goes on with the nearest legal play: {inferred}.",
    " Дальше партия проверяется с ближайшим ходом по правилам: {inferred}.",
)
_HEAD_RULE: dict[bool, tuple[str, str]] = {
    False: (
        "{step}: only one checker may leave the head per turn (two only on a first-turn double "
        "one checker cannot play, ch9 r4).",
        "{step}: с головы за ход можно снять только одну шашку (две — только при дубле "
        "первого хода, который не сыграть одной шашкой, гл. 9 п. 4).",
    ),
    True: (
        "On the first turn a {roll} is played with one head checker as far as it goes, a second "
        "one only for the rest (ch9 r4): {example}.",
        "Первым ходом дубль {roll} играется одной шашкой с головы, пока она может идти, вторая "
        "снимается только для остатка (гл. 9, п. 4): {example}.",
    ),
}
_PASS: dict[bool, tuple[str, str]] = {
    False: (
        "{mover_name} passed with {roll}, but a legal move existed (e.g. {example}).",
        "{mover_Name} пропустили ход при броске {roll}, хотя ход был возможен (например, {example}).",
    ),
    True: (
        "“— ∅” says no roll could be played, but {roll} (and {more} more rolls) would give a "
        "legal move.",
        "«— ∅» означает, что ни один бросок сыграть нельзя, но при {roll} (и ещё {more} бросках) "
        "ход возможен.",
    ),
}
_CLAIM: dict[bool, tuple[str, str]] = {
    False: (
        "{player_name} is said to win {points} points, which no result gives with the cube on "
        "{cube} in this position (at most {limit}).",
        "указан выигрыш {player_gen} {points} оч., но при кубе {cube} в этой позиции такого "
        "результата не бывает (не больше {limit}).",
    ),
    True: (
        "the record says {player_name} wins {points} points, but the replay gives "
        "{winner_name} {replay_points} ({result_name}, cube {cube}).",
        "в записи выигрыш {player_gen} {points} оч., а по ходам — {winner_gen} {replay_points} "
        "оч. ({result_name}, куб {cube}).",
    ),
}
_DIFF_POINT: tuple[str, str] = ("{label}: printed {expected}, board {actual}", "{label}: в записи {expected}, на доске {actual}")


_NO_DIE: tuple[str, str] = (
    "; {mover_name}'s checkers only move forward, towards their home",
    "; шашки {mover_gen} ходят только вперёд, в сторону своего дома",
)
_NO_DIE_LEFT: tuple[str, str] = (
    "a move of {distance} pips matches no unused die of {roll} (left: {left})",
    "ход на {distance} п. не соответствует ни одному неиспользованному зару броска {roll} "
    "(осталось: {left})",
)
_NONE_LEFT: tuple[str, str] = ("none", "нет")


class _Fields(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""


def _pick(pair: tuple[str, str], en: bool) -> str:
    return pair[0] if en else pair[1]


def _colour(side: str, en: bool, names: Mapping[str, str], case: int) -> str:
    if side in names:
        return names[side]
    words = _COLOURS.get(side)
    if words is None:
        return side
    return words[0] if en else words[1][case]


def record_fields(details: Mapping[str, Any], language: str, names: Mapping[str, str]) -> Mapping[str, Any]:
    """Turn a ``record.*`` problem's data into the words of its template."""
    en = is_english(language)
    f = _Fields(details)
    for key in _SIDE_KEYS:
        value = details.get(key)
        if isinstance(value, str):
            f[f"{key}_name"] = _colour(value, en, names, 0)
            f[f"{key}_gen"] = _colour(value, en, names, 1)
            f[f"{key}_dat"] = _colour(value, en, names, 2)
            f[f"{key}_Name"] = f[f"{key}_name"][:1].upper() + f[f"{key}_name"][1:]
            f[f"{key}_Dat"] = f[f"{key}_dat"][:1].upper() + f[f"{key}_dat"][1:]
    if "numbering" in details:
        f["numbering_name"] = _pick(_NUMBERINGS.get(details["numbering"], (details["numbering"],) * 2), en)
    if "pos" in details and "cell" in details:
        f["at_char"] = details["pos"] + 1
        f["at"] = _pick(_AT, en).format_map(f)
    if "reason" in details:
        f["why"] = _pick(_UNPARSABLE[details["reason"]], en).format_map(f)
    if "scope" in details:
        f["why"] = _pick(_BAD_POINT[details["scope"]], en).format_map(f)
    if "action" in details:
        f["action_name"] = _pick(_CUBE_ACTIONS.get(details["action"], (details["action"],) * 2), en)
    if "after_end_cube" in details:
        f["what"] = _pick(_AFTER_END[bool(details["after_end_cube"])], en).format_map(f)
    if "distance" in details:
        if details.get("backward"):
            f["why"] = _pick(_BACKWARD[details["distance"] != 0], en).format_map(f)
            f["no_die"] = _pick(_NO_DIE, en).format_map(f)
        else:
            f["left"] = details.get("left") or _pick(_NONE_LEFT, en)
            f["why"] = _pick(_NO_DIE_LEFT, en).format_map(f)
    if "first_turn" in details:
        f["why"] = _pick(_HEAD_RULE[bool(details["first_turn"])], en).format_map(f)
    if details.get("long"):
        f["long_note"] = _pick(_LONG_CLOSES, en)
    if "point" in details:
        f["at_point"] = _pick(_EXACT_POINT[bool(details["point"])], en).format_map(f)
    if "variant_en" in details:
        f["variant_name"] = details["variant_en"] if en else details.get("variant_ru", "")
    if "prime" in details:
        f["rule"] = _pick(_PRIME_RULE[details["prime"]], en)
    if "inferred" in details:
        f["then"] = _pick(_INFERRED, en).format_map(f)
    if "no_roll" in details:
        f["why"] = _pick(_PASS[bool(details["no_roll"])], en).format_map(f)
    if "result" in details:
        f["result_name"] = _pick(_RESULTS.get(details["result"], (details["result"],) * 2), en)
    if "replay_points" in details or "limit" in details:
        f["why"] = _pick(_CLAIM["replay_points" in details], en).format_map(f)
    if "inner_code" in details:
        inner = Problem(details["inner_code"], details=details.get("inner_details") or {})
        f["reason_text"] = inner.message(language, names).rstrip(".")
    if "diff" in details:
        f["diff_text"] = "; ".join(
            f"{_colour(side, en, names, 0)} "
            + ", ".join(_pick(_DIFF_POINT, en).format(label=label, **v) for label, v in points.items())
            for side, points in details["diff"].items()
        )
    return f


RECORD = Catalogue(
    "record",
    {
        # -- reading the notation ------------------------------------------------
        "unparsable": ("{why}{at}.", "{why}{at}."),
        "bad_point": ("Point “{label}” does not exist{why}{at}.", "Пункта «{label}» нет{why}{at}."),
        "bad_dice": (
            "The roll {dice} is impossible: a die shows 1 to 6{at}.",
            "Бросок {dice} невозможен: на заре бывает от 1 до 6{at}.",
        ),
        "missing_dice": (
            "The play is printed without its roll, so it cannot be checked.",
            "Ход записан без броска заров, проверить его нельзя.",
        ),
        # -- the record as a whole -----------------------------------------------
        "opening_roll_mismatch": (
            "The opening roll was {opening}, but the first play uses {dice}.",
            "При розыгрыше выпало {opening}, а первый ход сделан броском {dice}.",
        ),
        "out_of_turn": (
            "It is {missing_name}'s turn; {missing_name}'s move is missing before this one.",
            "Очередь {missing_gen}: их ход перед этим пропущен.",
        ),
        "move_number_mismatch": (
            "Printed as move {printed}, but this is move {expected}.",
            "Записан как ход {printed}, но это ход {expected}.",
        ),
        "gave_up": (
            "After {count} illegal plays this game is not checked further: the rest of its "
            "plays are not applied (the record is too far from any legal game to say more).",
            "После {count} неправильных ходов эта партия дальше не проверяется: остальные её "
            "ходы не применяются (запись слишком далека от возможной партии).",
        ),
        "moves_after_game_end": (
            "The game has already ended, yet {what} is printed.",
            "Партия уже окончена, а {what} всё ещё записано.",
        ),
        "checkpoint_mismatch": (
            "The checkpoint differs from the replayed board ({diff_text}); the replay continues "
            "from the printed checkpoint.",
            "Проверочная позиция не совпадает с доской ({diff_text}); дальше партия проверяется "
            "от напечатанной позиции.",
        ),
        "cube_wrong_value": (
            "The cube mark says {value}, but the cube can only go to {expected} now.",
            "В записи куб {value}, а сейчас ставка может стать только {expected}.",
        ),
        "double_out_of_turn": (
            "{actor_name} doubles, but it is {turn_name}'s turn to roll; a player may double only "
            "before their own roll.",
            "{actor_Name} предлагают давэ, но сейчас очередь {turn_gen} бросать зары; удваивать "
            "можно только перед своим броском.",
        ),
        "result_mismatch": ("{why}", "{why}"),
        "score_mismatch": (
            "The score line says {printed}, but the games before give {running}.",
            "В строке счёта {printed}, а по предыдущим партиям выходит {running}.",
        ),
        # -- one play against the rules (check_play) -------------------------------
        "game_over": (
            "The game is already over; {mover_name} cannot play {roll}.",
            "Партия уже окончена; ход {mover_gen} {roll} невозможен.",
        ),
        "too_many_borne_off": (
            "{step}: all {checkers} of {mover_name}'s checkers are already borne off.{then}",
            "{step}: все {checkers} шашек {mover_gen} уже выведены во двор.{then}",
        ),
        "no_checker": (
            "{step}: {mover_name} has no checker on {src_label}.{then}",
            "{step}: у {mover_gen} нет шашки на пункте {src_label}.{then}",
        ),
        "bar_first": (
            "{step}: {mover_name} has {count} checker(s) on the bar, which must enter first.{then}",
            "{step}: у {mover_gen} на баре шашек: {count} — сначала их нужно ввести в игру.{then}",
        ),
        "hit_forbidden": (
            "{step}: checkers are never hit in long nardy.{then}",
            "{step}: в длинных нардах шашки не бьются.{then}",
        ),
        "wrong_distance": (
            "{step}: {why}{no_die}.{then}",
            "{step}: {why}{no_die}.{then}",
        ),
        "point_closed": (
            "{step}: point {dst_label} is held by the opponent{long_note}.{then}",
            "{step}: пункт {dst_label} закрыт соперником{long_note}.{then}",
        ),
        "bear_off_not_all_home": (
            "{step}: {mover_name} may bear off only when all checkers are home.{then}",
            "{step}: {mover_dat} можно выводить шашки во двор, только когда все их шашки в доме.{then}",
        ),
        "bear_off_higher_point": (
            "{step}: with a {die} the checker on {high_label} must move first; bearing off from a "
            "lower point is allowed only when no checker stands higher.{then}",
            "{step}: при заре {die} сначала нужно ходить шашкой с пункта {high_label}; снимать с "
            "младшего пункта можно, только если на старших нет шашек.{then}",
        ),
        "head_rule": ("{why}{then}", "{why}{then}"),
        "caucasian_hide": (
            "{step}: a checker that hit at home may not go on to an own point in the same turn "
            "(Caucasian rule).{then}",
            "{step}: бьющая шашка в своём доме не может в тот же ход уйти на свой пункт (правило "
            "кавказских нард).{then}",
        ),
        "nothing_to_hit": (
            "{step}: a hit is marked but there is no lone opposing checker on {dst_label}.{then}",
            "{step}: отмечено взятие, но на пункте {dst_label} нет одиночной шашки соперника.{then}",
        ),
        "pass_while_move_exists": ("{why}{then}", "{why}{then}"),
        "not_all_dice_played": (
            "{mover_name} played {played} of the {required} dice of {roll} that could be played; "
            "more moves were possible (e.g. {example}).{then}",
            "{mover_Name} сыграли {played} из {required} возможных ходов броска {roll}; ход не "
            "доигран (например, {example}).{then}",
        ),
        "exact_bear_off_required": (
            "{play}: with {roll} a checker must be borne off{at_point}. In {variant_name} a die that "
            "matches an occupied home point bears off from that point and may not first be spent "
            "moving inside home (ch8 r22, r26: with 6-1 and one checker on the 6 point, 6/5/off is "
            "not allowed).{then}",
            "{play}: при броске {roll} шашку нужно снять во двор{at_point}. В игре «{variant_name}» "
            "зар, совпадающий с занятым пунктом дома, снимает шашку именно с этого пункта, и "
            "тратить его на ход внутри дома нельзя (гл. 8, пп. 22, 26: при 6–1 и одной шашке на "
            "пункте 6 ход 6/5/off не разрешён).{then}",
        ),
        "larger_die_not_played": (
            "Only one die of {roll} can be played, so it must be the larger ({larger}).{then}",
            "Из броска {roll} можно сыграть только один зар — значит, старший ({larger}).{then}",
        ),
        "prime_rule": (
            "The play builds a six-prime {from_label}…{to_label} with no opposing checker ahead of "
            "it and none in its home ({rule}).{then}",
            "Ход строит щещдар {from_label}…{to_label}, но впереди него нет ни одной шашки "
            "соперника и ни одна не вошла в свой дом (гл. 9, {rule}).{then}",
        ),
        "ambiguous_step": (
            "{step} can be read two ways: {src_label}/{via_a}*/{dst_label} or "
            "{src_label}/{via_b}*/{dst_label} (a different checker is hit); the hit must be "
            "marked on the point passed through (ch7: a hit is marked with “*”).{then}",
            "{step} читается двояко: {src_label}/{via_a}*/{dst_label} или "
            "{src_label}/{via_b}*/{dst_label} (бьётся разная шашка); взятие нужно отметить на "
            "промежуточном пункте (гл. 7: взятие обозначается значком «*»).{then}",
        ),
        # -- annotations: notes, never errors --------------------------------------
        "alternative_illegal": (
            "Note: the alternative “{alternative}” printed with this move is not a legal play "
            "here ({reason_text}).",
            "Замечание: вариант «{alternative}», напечатанный при этом ходе, здесь невозможен "
            "({reason_text}).",
        ),
        "resigned_above_risk": (
            "Note: {player_name} wins {points} points by a resignation, more than this position "
            "risks with the cube on {cube} (at most {limit}); the resignation was accepted, so "
            "the points stand.",
            "Замечание: выигрыш {player_gen} по сдаче — {points} оч., больше, чем возможно в этой "
            "позиции при кубе {cube} (не больше {limit}); сдача принята, поэтому очки остаются.",
        ),
        "jacoby_single": (
            "Note: {player_name} wins a {result_name} with the cube in the middle; under the "
            "Jacoby rule (money play) it counts as a single game: {points} point(s) with the cube on {cube}.",
            "Замечание: выигрыш {player_gen} — {result_name} при кубе в центре; по правилу Якоби "
            "(игра на деньги) он считается одинарным геймом: {points} оч. при кубе {cube}.",
        ),
        "jacoby_from_scores": (
            "Note: the file does not name the Jacoby rule (GNU Backgammon never writes it), but "
            "its next score line counts this {result_name} as a single game, so the session is "
            "read as played under the rule.",
            "Замечание: в файле правило Якоби не названо (GNU Backgammon его не записывает), но "
            "следующая строка счёта засчитывает этот {result_name} как одинарный гейм, поэтому "
            "сессия читается как сыгранная по этому правилу.",
        ),
        "illegal_play": (
            "{mover_name}'s play {play} with {roll} is not legal.{then}",
            "Ход {mover_gen} {play} при броске {roll} не по правилам.{then}",
        ),
    },
    fields=record_fields,
)
