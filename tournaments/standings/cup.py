"""A cup's places: the main draw decides them; each side bracket ranks only its own players.

The book (Part 9, part9_competition_rules.ru.txt line 9): "По кубковой системе
проигравший сразу же выбывает из борьбы" — in a cup the loser is out at once, so a
player's place is the stage of the main draw where they went out. The book says
nothing of third-place matches or consolation draws (grep: "третье место",
"утешительн" — no hits); for those this module follows the chess knockout's
practice, the FIDE World Cup: its prize list pays by the round a player went out
in ("Round 1 losers: 64 x USD 6,000 … Round 6 losers: 2 x USD 50,000, Runner-up …,
World Cup winner …", FIDE World Cup 2017, en.chessbase.com/tournaments/fide-world-cup-2017),
so players out in one round rank alike; and where a third place matters the
semi-final losers "play an additional match … for the third place" (the World Cup
2011's rules as reported at
philippineblitzchess.blogspot.com/2011/09/2011-world-cup-rules-and-regulations.html).
The convention:

* **Main draw first.** The winner of the final is 1st, its loser 2nd. A
  third-place match between the semi-final losers decides 3rd and 4th; without
  one (or until it is played) they share 3–4. Everybody else out in the same
  main round shares one range — the quarter-final losers 5–8, and so on —
  whatever their score: by default a cup has no tie-breaks, the bracket alone
  places (criteria the organiser lists after the stage split a shared place).
  While a round is being played, a player still in it stands at that round.
* **Double elimination.** The grand final (and its reset) decides 1st and 2nd.
  Everybody else leaves in the losers' bracket, exactly once, and the losers'
  round they went out in places them (out in the same losers' round: shared).
  While the event runs, players unbeaten in the winners' bracket stand above the
  losers' bracket.
* **Side brackets** — consolation, last chance, progressive consolation — never
  change a place of the main draw. Each is a table of its own, ranked among the
  players who played in it by the same rule (the winner of its last match first,
  its loser second, then by the round of that bracket they went out in).
* A match that names no bracket (a cup entered round by round without a drawn
  bracket) is a main-draw match in its round.

Pure: plain :class:`~.types.Match` rows in, groups of player ids out (best first,
players in one group share a place).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from scoring.rules.match.result_kinds import ResultKind
from tournaments.pairing.knockout import (
    CONSOLATION,
    GRAND_FINAL,
    LAST_CHANCE,
    LOSERS,
    MAIN,
    PROGRESSIVE,
    THIRD_PLACE,
)

from .types import Match, System

#: Brackets whose results decide the main table (``""``: a cup without a drawn bracket).
MAIN_DRAW = frozenset({"", MAIN, THIRD_PLACE, LOSERS, GRAND_FINAL})
#: Side brackets, each ranked as its own table, in the order the pages list them.
SIDE_BRACKETS = (CONSOLATION, LAST_CHANCE, PROGRESSIVE)

#: A side bracket's table heading (ru, en), as the bracket page names the bracket.
BRACKET_NAMES: dict[str, tuple[str, str]] = {
    CONSOLATION: ("Утешительный турнир", "Consolation"),
    LAST_CHANCE: ("Турнир последнего шанса", "Last chance"),
    PROGRESSIVE: ("Прогрессивный утешительный турнир", "Progressive consolation"),
}

Key = tuple[int, ...]


def bracket_name(bracket: str, language: str = "ru") -> str:
    """The heading of a side bracket's table in ``language`` (the key itself if unknown)."""
    ru, en = BRACKET_NAMES.get(bracket, (bracket, bracket))
    return en if language.startswith("en") else ru


def in_main_draw(m: Match) -> bool:
    return m.bracket in MAIN_DRAW


def side_brackets(matches: Iterable[Match]) -> list[tuple[str, list[Match]]]:
    """The side brackets that have matches, each with its matches, in :data:`SIDE_BRACKETS` order."""
    by_name: dict[str, list[Match]] = {}
    for m in matches:
        if m.bracket in SIDE_BRACKETS:
            by_name.setdefault(m.bracket, []).append(m)
    return [(name, by_name[name]) for name in SIDE_BRACKETS if name in by_name]


def players_of(matches: Iterable[Match]) -> set[int]:
    """Everybody seated in one of ``matches`` (byes and unplayed matches included)."""
    out: set[int] = set()
    for m in matches:
        out.add(m.player_a)
        if m.player_b is not None:
            out.add(m.player_b)
    return out


def _round(m: Match) -> int:
    return m.bracket_round if m.bracket_round is not None else m.round


def _won(m: Match, pid: int) -> bool:
    """``pid`` went through ``m``: won it, or had the bye (a walkover into the next round)."""
    if m.player_b is None:
        return m.finished and m.player_a == pid
    return m.finished and m.kind != ResultKind.DOUBLE_FORFEIT and m.winner == pid


def _lost(m: Match, pid: int) -> bool:
    return m.player_b is not None and m.finished and not _won(m, pid)


def stages(matches: Iterable[Match]) -> dict[int, int]:
    """How far each player got in one bracket: twice the last round reached, plus one for
    winning it (a round still to be played counts as reached; a void match not at all)."""
    out: dict[int, int] = {}
    for m in matches:
        if m.kind == ResultKind.VOID:
            continue
        for pid in (m.player_a, m.player_b):
            if pid is None:
                continue
            value = 2 * _round(m) + (1 if _won(m, pid) else 0)
            out[pid] = max(out.get(pid, 0), value)
    return out


def main_draw_keys(players: Iterable[int], matches: Sequence[Match]) -> dict[int, Key]:
    """Each player's key in the main draw (greater is better; equal keys share a place).

    (grand-final stage, unbeaten in a double elimination, losers'-bracket stage,
    winners'-bracket stage while not yet in the losers' bracket, third-place match won).
    """
    own = [m for m in matches if in_main_draw(m)]
    main = stages(m for m in own if m.bracket in ("", MAIN))
    losers_side = [m for m in own if m.bracket in (LOSERS, GRAND_FINAL)]
    double = bool(losers_side)
    final = stages(m for m in losers_side if m.bracket == GRAND_FINAL)
    lb = stages(m for m in losers_side if m.bracket == LOSERS)
    beaten = {pid for m in own if m.bracket in ("", MAIN) for pid in (m.player_a, m.player_b)
              if pid is not None and _lost(m, pid)}  # fmt: skip
    third = {m.winner for m in own if m.bracket == THIRD_PLACE and m.player_b is not None
             and m.finished and m.winner is not None}  # fmt: skip
    keys: dict[int, Key] = {}
    for pid in players:
        in_lb = lb.get(pid, 0)
        keys[pid] = (
            final.get(pid, 0),
            1 if double and pid not in beaten else 0,
            in_lb,
            main.get(pid, 0) if in_lb == 0 else 0,
            1 if pid in third else 0,
        )
    return keys


def bracket_keys(players: Iterable[int], matches: Sequence[Match]) -> dict[int, Key]:
    """Each player's key in one side bracket: the stage reached in it."""
    reached = stages(matches)
    return {pid: (reached.get(pid, 0),) for pid in players}


def shown_stage(key: Key) -> int:
    """The "stage reached" a table shows for a key: in a side bracket its own stage; in the
    main draw the furthest bracket's — the grand final's, else the losers' bracket's, else the
    winners' draw's (twice the round, plus one for winning it). A function of the key, so
    players sharing a place show the same stage."""
    if len(key) == 1:
        return key[0]
    final, _unbeaten, losers, main, _third = key
    return final or losers or main


def group_by_key(order: Sequence[int], keys: dict[int, Key]) -> list[list[int]]:
    """``order`` (the display order) sorted by key, best first; equal keys form one group."""
    groups: list[list[int]] = []
    last: Key | None = None
    for pid in sorted(order, key=lambda p: keys[p], reverse=True):
        if groups and keys[pid] == last:
            groups[-1].append(pid)
        else:
            groups.append([pid])
            last = keys[pid]
    return groups


KeyFunction = Callable[[Iterable[int], Sequence[Match]], dict[int, Key]]


# ---------------------------------------------------------------------------------------------
# the stage reached, in words (the tables show it instead of the stage number)
# ---------------------------------------------------------------------------------------------

#: How a table says the stage a player reached (en, ru); ``{n}`` is a round's number.
STAGE_WORDS: dict[str, tuple[str, str]] = {
    "winner": ("Winner", "Победитель"),
    "final": ("Final", "Финал"),
    "semi_final": ("Semi-final", "Полуфинал"),
    "quarter_final": ("Quarter-final", "Четвертьфинал"),
    "round": ("Round {n}", "Круг {n}"),
    "third_place": ("Third place", "Третье место"),
    "grand_final": ("Grand final", "Суперфинал"),
    "losers_round": ("Losers' bracket, round {n}", "Сетка проигравших, круг {n}"),
}


def _words(word: str, language: str, n: int = 0) -> str:
    en, ru = STAGE_WORDS[word]
    return (en if language.startswith("en") else ru).format(n=n)


def main_rounds(matches: Iterable[Match]) -> int:
    """How many rounds the main draw has: log2 of its size, the players seated in its first
    round (byes included, so a bracket of 5 has 3 rounds)."""
    first = [m for m in matches if m.bracket in ("", MAIN) and _round(m) == 1]
    size = len(players_of(first))
    return max(size - 1, 0).bit_length()


def stage_label(key: Key, rounds: int, language: str = "ru") -> str:
    """The stage a key says in words: a side bracket's round; in the main draw the winner, the
    final, semi-final, quarter-final or round reached (a round won and the next not yet drawn
    counts as the next reached), the match for third place won, the grand final, the losers'
    bracket's round. Empty before the first round."""
    if len(key) == 1:
        return _words("round", language, (key[0] + 1) // 2) if key[0] else ""
    final, _unbeaten, losers, main, third = key
    if final:
        return _words("winner" if final % 2 else "grand_final", language)
    if losers:
        return _words("losers_round", language, (losers + 1) // 2)
    if not main:
        return ""
    if main >= 2 * rounds + 1:
        return _words("winner", language)
    if third:
        return _words("third_place", language)
    reached = (main + 1) // 2
    words = {rounds: "final", rounds - 1: "semi_final", rounds - 2: "quarter_final"}
    word = words.get(reached)
    return _words(word, language) if word else _words("round", language, reached)


def stage_labels(players: Sequence[int], matches: Sequence[Match], bracket: str = "",
                 language: str = "ru") -> dict[int, str]:  # fmt: skip
    """Each player's stage in words in one table of a cup: the main draw's (``bracket``
    empty) or a side bracket's — read off the same keys that place them (matches of players
    outside ``players``, another section's, are left out)."""
    seated = set(players)
    matches = [m for m in matches if m.player_a in seated]
    if bracket:
        own = [m for m in matches if m.bracket == bracket]
        keys = bracket_keys(players, own)
        rounds = 0
    else:
        own = [m for m in matches if in_main_draw(m)]
        keys = main_draw_keys(players, own)
        rounds = main_rounds(own)
    return {pid: stage_label(keys[pid], rounds, language) for pid in players}


def table_stages(table, matches: Sequence[Match], language: str = "ru") -> dict[int, str]:
    """The stage in words of each player of ``table`` (a :class:`~.ranking.Standings`) when it
    is a cup's and shows the stage; empty otherwise. The pages, the hall display and the
    workbook show these instead of the stage's number (issue 43); the API keeps the number."""
    options = table.options
    if options.system != System.KNOCKOUT or "stage" not in options.tiebreaks:
        return {}
    return stage_labels(table.order, matches, table.bracket, language)
