"""Bilingual problems the standings core reports about options and input data."""

from __future__ import annotations

from scoring.rules.errors import Problem


def unknown_metric(key: str, known: list[str]) -> Problem:
    names = ", ".join(known)
    return Problem(
        code="standings.unknown_metric",
        en=f"Unknown tie-break {key!r}; choose from: {names}.",
        ru=f"Неизвестный дополнительный показатель {key!r}; допустимы: {names}.",
        text=key,
    )


def repeated_metric(key: str) -> Problem:
    return Problem(
        code="standings.repeated_metric",
        en=f"Tie-break {key!r} is listed twice; each criterion can decide only once.",
        ru=f"Показатель {key!r} указан дважды; каждый критерий применяется один раз.",
        text=key,
    )


def bad_score_basis(key: str) -> Problem:
    return Problem(
        code="standings.bad_score_basis",
        en=f"Buchholz and Sonneborn-Berger can add up match wins ('wins') or game points "
        f"('points'), not {key!r}.",
        ru=f"Коэффициенты Бухгольца и Зоннеборна-Бергера считаются по победам ('wins') "
        f"или по очкам ('points'), а не по {key!r}.",
        text=key,
    )


def unknown_player(match_round: int, player_id: int) -> Problem:
    return Problem(
        code="standings.unknown_player",
        en=f"Round {match_round}: a match names player #{player_id}, who is not entered "
        "in this tournament.",
        ru=f"Тур {match_round}: в матче указан игрок №{player_id}, не заявленный в турнире.",
        details={"round": match_round, "player": player_id},
    )


def plays_self(match_round: int, player_id: int) -> Problem:
    return Problem(
        code="standings.plays_self",
        en=f"Round {match_round}: player #{player_id} is paired against themselves.",
        ru=f"Тур {match_round}: игрок №{player_id} поставлен в пару сам с собой.",
        details={"round": match_round, "player": player_id},
    )


def bad_winner(match_round: int, winner: int) -> Problem:
    return Problem(
        code="standings.bad_winner",
        en=f"Round {match_round}: the winner #{winner} did not play in this match.",
        ru=f"Тур {match_round}: победитель №{winner} не играл в этом матче.",
        details={"round": match_round, "player": winner},
    )


def bad_round(match_round: int) -> Problem:
    return Problem(
        code="standings.bad_round",
        en=f"Round number {match_round} is not valid; rounds are numbered from 1.",
        ru=f"Номер тура {match_round} недопустим; туры нумеруются с 1.",
        details={"round": match_round},
    )
