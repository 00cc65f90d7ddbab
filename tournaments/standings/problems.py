"""Every message of the standings namespace (``standings.*``), in English and Russian.

The words live in the one :data:`STANDINGS` catalogue; the small functions
below build the coded problems the standings core and its shell report about
options and input data (details only — the reader's language is chosen when
the problem is shown).
"""

from __future__ import annotations

from scoring.rules.errors import Catalogue, Problem

STANDINGS = Catalogue(
    "standings",
    {
        "unknown_metric": (
            "Unknown tie-break {key!r}; choose from: {known}.",
            "Неизвестный дополнительный показатель {key!r}; допустимы: {known}.",
        ),
        "repeated_metric": (
            "Tie-break {key!r} is listed twice; each criterion can decide only once.",
            "Показатель {key!r} указан дважды; каждый критерий применяется один раз.",
        ),
        "bad_score_basis": (
            "Buchholz and Sonneborn-Berger can add up match wins ('wins') or game points "
            "('points'), not {key!r}.",
            "Коэффициенты Бухгольца и Зоннеборна-Бергера считаются по победам ('wins') или по "
            "очкам ('points'), а не по {key!r}.",
        ),
        "unknown_player": (
            "Round {round}: a match names player #{player}, who is not entered in this "
            "tournament.",
            "Тур {round}: в матче указан игрок №{player}, не заявленный в турнире.",
        ),
        "plays_self": (
            "Round {round}: player #{player} is paired against themselves.",
            "Тур {round}: игрок №{player} поставлен в пару сам с собой.",
        ),
        "bad_winner": (
            "Round {round}: the winner #{player} did not play in this match.",
            "Тур {round}: победитель №{player} не играл в этом матче.",
        ),
        "bad_round": (
            "Round number {round} is not valid; rounds are numbered from 1.",
            "Номер тура {round} недопустим; туры нумеруются с 1.",
        ),
        "tiebreaks_not_a_list": (
            "The tournament's tie-breaks must be a list of metric keys, not {value}; the "
            "system's default order is used.",
            "Дополнительные показатели турнира должны быть списком ключей, а не {value}; "
            "применяется порядок по умолчанию для системы.",
        ),
        "prize_place": (
            "Prize places are numbered from 1, not {place}.",
            "Призовые места нумеруются с 1, а не {place}.",
        ),
        "prize_negative": (
            "The prize for place {place} cannot be negative.",
            "Приз за {place}-е место не может быть отрицательным.",
        ),
        "prize_over_fund": (
            "The prizes add up to {total}, more than the prize fund of {fund}.",
            "Сумма призов {total} больше призового фонда {fund}.",
        ),
        "prizes_over_formed_fund": (
            "The prizes add up to {total}, {over} more than the prize fund formed from the "
            "entry fees and the sponsors' money less the overheads ({fund}): collect more fees, "
            "find a sponsor or lower the prizes.",
            "Сумма призов {total} на {over} больше призового фонда, сформированного из "
            "вступительных взносов и спонсорских вложений за вычетом накладных расходов "
            "({fund}): соберите взносы, найдите спонсора или уменьшите призы.",
        ),
        "announced_over_formed_fund": (
            "The announced prize fund of {announced} is {over} more than the fees and the "
            "sponsors' money less the overheads provide ({fund}).",
            "Объявленный призовой фонд {announced} на {over} больше, чем дают вступительные "
            "взносы и спонсорские вложения за вычетом накладных расходов ({fund}).",
        ),
        "overheads_over_income": (
            "The overheads ({overheads}) are more than the entry fees and the sponsors' money "
            "together ({income}): nothing is left for prizes.",
            "Накладные расходы ({overheads}) больше, чем вступительные взносы и спонсорские "
            "вложения вместе ({income}): на призы ничего не остаётся.",
        ),
    },
)


def prize_place(place: int) -> Problem:
    return STANDINGS.problem("prize_place", place=place)


def prize_negative(place: int) -> Problem:
    return STANDINGS.problem("prize_negative", place=place)


def prize_over_fund(total: int, fund: int) -> Problem:
    """``total`` and ``fund`` in minor units; the message shows them in whole units."""
    return STANDINGS.problem("prize_over_fund", total=_money(total), fund=_money(fund))


def prizes_over_formed_fund(total: int, fund: int) -> Problem:
    return STANDINGS.problem(
        "prizes_over_formed_fund", total=_money(total), fund=_money(fund), over=_money(total - fund)
    )


def announced_over_formed_fund(announced: int, fund: int) -> Problem:
    return STANDINGS.problem(
        "announced_over_formed_fund", announced=_money(announced), fund=_money(fund),
        over=_money(announced - fund),
    )


def overheads_over_income(overheads: int, income: int) -> Problem:
    return STANDINGS.problem("overheads_over_income", overheads=_money(overheads), income=_money(income))


def _money(minor: int) -> str:
    whole, cents = divmod(minor, 100)
    return f"{whole}.{cents:02d}" if cents else str(whole)


def unknown_metric(key: str, known: list[str]) -> Problem:
    return STANDINGS.problem("unknown_metric", text=key, key=key, known=", ".join(known))


def repeated_metric(key: str) -> Problem:
    return STANDINGS.problem("repeated_metric", text=key, key=key)


def bad_score_basis(key: str) -> Problem:
    return STANDINGS.problem("bad_score_basis", text=key, key=key)


def unknown_player(match_round: int, player_id: int) -> Problem:
    return STANDINGS.problem("unknown_player", round=match_round, player=player_id)


def plays_self(match_round: int, player_id: int) -> Problem:
    return STANDINGS.problem("plays_self", round=match_round, player=player_id)


def bad_winner(match_round: int, winner: int) -> Problem:
    return STANDINGS.problem("bad_winner", round=match_round, player=winner)


def bad_round(match_round: int) -> Problem:
    return STANDINGS.problem("bad_round", round=match_round)


def tiebreaks_not_a_list(raw: object) -> Problem:
    return STANDINGS.problem("tiebreaks_not_a_list", text=str(raw), value=repr(raw))
