"""Bilingual sentences for the decisions the Swiss generator records.

Kept apart from the algorithm so the wording can be reviewed (and translated)
without touching the pairing logic; every function returns a :class:`Note`
whose ``details`` hold the ids and scores, so a UI can substitute names.
"""

from __future__ import annotations

from tournaments.pairing.types import Note, PlayerId

REASON_ODD = "odd"
REASON_NO_OPPONENT = "no_opponent"
REASON_UNPAIRABLE = "unpairable"
REASON_REPAIR = "repair"

_REASONS_EN = {
    REASON_ODD: "the group had an odd number of players and this player was the lowest-ranked "
    "one who could move",
    REASON_NO_OPPONENT: "every player left in the group had already met this player",
    REASON_UNPAIRABLE: "the group could not be paired completely without a rematch",
    REASON_REPAIR: "the lower groups could not be completed without a rematch, so they were "
    "re-paired together",
}
_REASONS_RU = {
    REASON_ODD: "в группе было нечётное число игроков, и это самый младший по номеру игрок, "
    "которого можно было перевести",
    REASON_NO_OPPONENT: "все оставшиеся игроки группы уже встречались с этим игроком",
    REASON_UNPAIRABLE: "группу нельзя было полностью разбить на пары без повторной встречи",
    REASON_REPAIR: "нижние группы нельзя было разбить на пары без повторных встреч, поэтому они "
    "составлены заново вместе",
}


def fmt(score: float) -> str:
    """Scores as people write them: 3, 2.5 (never 3.0)."""
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def same_group(score: float, size: int) -> Note:
    return Note(
        "same_group",
        f"Both players are in score group {fmt(score)} ({size} players).",
        f"Оба игрока в очковой группе {fmt(score)} (игроков: {size}).",
        {"score": score, "size": size},
    )


def floated_down(player: PlayerId, from_score: float, to_score: float, reason: str) -> Note:
    return Note(
        "float_down",
        f"Player {player} floated down from score group {fmt(from_score)} to {fmt(to_score)}: "
        f"{_REASONS_EN.get(reason, reason)}.",
        f"Игрок {player} переведён вниз из очковой группы {fmt(from_score)} в {fmt(to_score)}: "
        f"{_REASONS_RU.get(reason, reason)}.",
        {"player": player, "from": from_score, "to": to_score, "reason": reason},
    )


def floated_up(player: PlayerId, from_score: float, to_score: float) -> Note:
    return Note(
        "float_up",
        f"Player {player} meets a player from the higher score group {fmt(to_score)} "
        f"(own group {fmt(from_score)}).",
        f"Игрок {player} играет с игроком из старшей очковой группы {fmt(to_score)} "
        f"(своя группа {fmt(from_score)}).",
        {"player": player, "from": from_score, "to": to_score},
    )


def float_repeat(player: PlayerId, direction: str) -> Note:
    en_dir = "down" if direction == "down" else "up"
    ru_dir = "вниз" if direction == "down" else "вверх"
    return Note(
        "float_repeat",
        f"Player {player} floats {en_dir} for the second round in a row: nobody else in the "
        "group could take the place without breaking a stronger rule.",
        f"Игрок {player} второй тур подряд переводится {ru_dir}: никто другой в группе не мог "
        "занять это место, не нарушив более важное правило.",
        {"player": player, "direction": direction},
    )


def rematch_avoided(player: PlayerId, skipped: list[PlayerId]) -> Note:
    listed = ", ".join(str(s) for s in skipped)
    return Note(
        "rematch_avoided",
        f"Player {player} has already met {listed}, so the next opponent in the bottom half "
        "was taken.",
        f"Игрок {player} уже встречался с {listed}, поэтому взят следующий соперник из нижней "
        "половины группы.",
        {"player": player, "skipped": list(skipped)},
    )


def halves(player: PlayerId) -> Note:
    return Note(
        "top_vs_bottom",
        f"Paired top half against bottom half of the group (player {player} from the top half).",
        f"Верхняя половина группы играет с нижней (игрок {player} из верхней половины).",
        {"player": player},
    )


def first_round(rule: str) -> Note:
    if rule == "adjacent":
        return Note(
            "first_round_adjacent",
            "Round 1: draw numbers 1–2, 3–4, 5–6, … meet (open draw of numbers).",
            "Первый тур: встречаются номера 1 и 2, 3 и 4, 5 и 6 и т. д. (открытая номерная "
            "жеребьёвка).",
            {"rule": rule},
        )
    return Note(
        "first_round_halves",
        "Round 1: the top half by seed meets the bottom half (1 v n/2+1, 2 v n/2+2, …).",
        "Первый тур: верхняя половина по посеву играет с нижней (1 – n/2+1, 2 – n/2+2, …).",
        {"rule": rule},
    )


def colour(white: PlayerId, reason: str) -> Note:
    reasons_en = {
        "balance": "has had fewer games with White",
        "alternate": "had Black in the previous round",
        "seed": "is the higher-ranked player and the colour history gives no preference",
    }
    reasons_ru = {
        "balance": "реже играл белыми",
        "alternate": "в прошлом туре играл чёрными",
        "seed": "выше по номеру, а история цветов не даёт предпочтения",
    }
    return Note(
        "colour",
        f"Player {white} plays White: {reasons_en[reason]}.",
        f"Игрок {white} играет белыми: {reasons_ru[reason]}.",
        {"white": white, "reason": reason},
    )


def rematch_forced(a: PlayerId, b: PlayerId, allowed: bool) -> Note:
    if allowed:
        return Note(
            "rematch_allowed",
            f"Rematch {a}–{b}: no rematch-free pairing exists and the organiser allowed rematches.",
            f"Повторная встреча {a}–{b}: пар без повторных встреч не существует, организатор "
            "разрешил повторные встречи.",
            {"a": a, "b": b},
        )
    return Note(
        "rematch_proposed",
        f"Rematch {a}–{b} is only a proposal: no rematch-free pairing exists; the organiser "
        "must decide.",
        f"Повторная встреча {a}–{b} — лишь предложение: пар без повторных встреч не существует, "
        "решает организатор.",
        {"a": a, "b": b},
    )


def bye_pairing(player: PlayerId, score: float, points: float) -> Note:
    return Note(
        "bye_pairing",
        f"Odd number of players: player {player} (score {fmt(score)}) gets the bye worth "
        f"{fmt(points)} — the lowest-ranked player who has not had a bye and whose absence "
        "leaves the rest pairable without rematches.",
        f"Нечётное число игроков: игрок {player} (очков: {fmt(score)}) получает свободный тур "
        f"стоимостью {fmt(points)} — самый младший игрок без свободного тура, без которого "
        "остальных можно разбить на пары без повторных встреч.",
        {"player": player, "score": score, "points": points},
    )


def bye_requested(player: PlayerId, points: float) -> Note:
    return Note(
        "bye_requested",
        f"Player {player} asked to sit out this round: {fmt(points)} point(s).",
        f"Игрок {player} попросил пропустить этот тур: очков {fmt(points)}.",
        {"player": player, "points": points},
    )


def bye_absent(player: PlayerId) -> Note:
    return Note(
        "bye_absent",
        f"Player {player} is absent this round: not paired, no points.",
        f"Игрок {player} отсутствует в этом туре: без пары, без очков.",
        {"player": player},
    )


def fallback_used(size: int) -> Note:
    return Note(
        "groups_repaired",
        f"The lowest score groups ({size} players) were paired together, because pairing them "
        "group by group would have needed a rematch.",
        f"Младшие очковые группы (игроков: {size}) разбиты на пары вместе, потому что по "
        "группам без повторной встречи это было невозможно.",
        {"size": size},
    )
