"""Knockout (cup) brackets with the side brackets backgammon clubs run.

A bracket is a static graph of matches whose sides are *sources* (a seed, the
winner or loser of another match, or "the first loss of whoever came through
that first-round slot"). Results are a plain ``{match id: winner}`` mapping;
``resolve`` derives every match's players and status from it. Keeping the
structure static and the results separate means the whole draw can be printed
on day one, an organiser can correct a result and everything downstream
re-derives, and nothing is ever stored twice.

* Main bracket: next power of two, standard seeding (1 v 16, 8 v 9, …) so the
  top seeds get the byes and meet as late as possible.
* Consolation: every player whose *first played match* was a loss — first-round
  losers, and players who lost right after a bye.
* Last chance: the same rule applied to the consolation bracket.
* Double elimination: a losers' bracket fed by every main-bracket loser, then a
  grand final and, when the losers'-bracket champion wins it, the reset (``GF2``):
  the winners'-bracket finalist must lose twice like everybody else.
* Progressive consolation: the losers of each main round (the final excepted) enter
  a consolation draw at their level — first-round losers play each other, their
  winners meet the second-round losers, and so on — the same feeding pattern as
  the losers' bracket, but without a grand final against the main winner.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scoring.rules.errors import Problem, RuleViolation
from tournaments.pairing.problems import KNOCKOUT, OPTIONS, WHY
from tournaments.pairing.types import PlayerId

SEED = "seed"
WINNER = "winner"
LOSER = "loser"
FIRST_LOSS = "first_loss"
NOBODY = "none"
#: The reset of the grand final: its side "a" is the grand final's a-player (the
#: winners'-bracket champion) only if that player lost the grand final, else nobody;
#: side "b" likewise the grand final's winner. Both nobody → the reset is void.
RESET_A = "reset_a"
RESET_B = "reset_b"

MAIN = "main"
CONSOLATION = "consolation"
LAST_CHANCE = "last_chance"
LOSERS = "losers"
THIRD_PLACE = "third_place"
GRAND_FINAL = "grand_final"
PROGRESSIVE = "progressive"

WAITING = "waiting"
PLAYABLE = "playable"
WALKOVER = "walkover"
DONE = "done"
VOID = "void"


@dataclass(frozen=True, slots=True)
class Source:
    kind: str
    player: PlayerId | None = None
    match: str | None = None


@dataclass(frozen=True, slots=True)
class KnockoutEntrant:
    id: PlayerId
    rating: int = 0
    draw_number: int = 0


SEED_BY = ("rating", "draw_number", "random")


@dataclass(frozen=True, slots=True)
class KnockoutOptions:
    """Choices the organiser makes before the draw."""

    seed_by: str = "rating"  # rating | draw_number | random
    random_seed: int | str = 0
    match_lengths: tuple[int, ...] = (5,)  # per main round; the last value repeats
    final_length: int | None = None
    side_length: int | None = None  # consolation / last chance / losers' bracket
    third_place: bool = False
    consolation: bool = False
    last_chance: bool = False
    double_elimination: bool = False
    single_grand_final: bool = False  # True: no reset (the WB champion may lose once)
    progressive_consolation: bool = False

    def problems(self) -> list[Problem]:
        out = []
        if self.seed_by not in SEED_BY:
            out.append(
                OPTIONS.problem(
                    "invalid", system="knockout", option="seed_by", value=self.seed_by,
                    expected="choice", allowed=list(SEED_BY),
                )
            )
        lengths = [*self.match_lengths, self.final_length or 1, self.side_length or 1]
        if not self.match_lengths or any(n < 1 for n in lengths):
            out.append(
                OPTIONS.problem(
                    "invalid", system="knockout", option="match_lengths",
                    value=list(self.match_lengths), expected="lengths",
                )
            )
        if self.last_chance and not self.consolation:
            out.append(KNOCKOUT.problem("last_chance"))
        if self.double_elimination and self.consolation:
            out.append(KNOCKOUT.problem("double_and_consolation"))
        if self.progressive_consolation and (self.consolation or self.double_elimination):
            out.append(KNOCKOUT.problem("progressive_and_other"))
        for option, other, why in EXCLUSIVE:
            if getattr(self, option) and getattr(self, other):
                out.append(KNOCKOUT.problem("exclusive", option=option, other=other, why=why))
        return out


#: Options that cannot be chosen together, and why (one row a pair; the problem names both).
#: A match for third place is played by the semi-final losers (FIDE World Cup practice, see
#: :mod:`tournaments.standings.cup`); a progressive consolation or a losers' bracket takes the
#: same two players in again, so they would meet twice (issue 43: "3 and 4 meet twice").
EXCLUSIVE: tuple[tuple[str, str, str], ...] = (
    ("third_place", "progressive_consolation", "meet_twice"),
    ("third_place", "double_elimination", "meet_twice"),
)


@dataclass(frozen=True, slots=True)
class Match:
    id: str
    bracket: str
    round: int
    position: int
    length: int
    a: Source
    b: Source
    notes: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class Bracket:
    size: int
    seeds: tuple[PlayerId, ...]  # seed order: seeds[0] is seed 1
    matches: tuple[Match, ...]
    options: KnockoutOptions = field(default_factory=KnockoutOptions)

    def match(self, match_id: str) -> Match:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise KeyError(match_id)


@dataclass(frozen=True, slots=True)
class MatchState:
    match: Match
    a: PlayerId | None
    b: PlayerId | None
    status: str
    winner: PlayerId | None = None
    loser: PlayerId | None = None


def standard_positions(size: int) -> list[int]:
    """Seed numbers in bracket order: 1, 16, 8, 9, 4, 13, … for 16."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def seed_order(entrants: Sequence[KnockoutEntrant], options: KnockoutOptions) -> list[PlayerId]:
    if options.seed_by == "rating":
        ranked = sorted(entrants, key=lambda e: (-e.rating, e.draw_number))
    elif options.seed_by == "draw_number":
        ranked = sorted(entrants, key=lambda e: e.draw_number)
    else:
        ranked = sorted(entrants, key=lambda e: e.draw_number)
        random.Random(f"zarik-knockout:{options.random_seed}").shuffle(ranked)
    return [e.id for e in ranked]


def build_knockout(
    entrants: Sequence[KnockoutEntrant], options: KnockoutOptions, *, drawn: bool = False
) -> Bracket:
    """The whole bracket, side brackets included, before any match is played.

    ``drawn``: the bracket was drawn earlier with these options and is only being read
    again — the rules between options (:meth:`KnockoutOptions.problems`) are not asked
    again, so a rule added since (:data:`EXCLUSIVE`) never breaks an event in play.
    """
    problems = [] if drawn else options.problems()
    ids = [e.id for e in entrants]
    if len(ids) < 2:
        problems.append(KNOCKOUT.problem("too_few", count=len(ids)))
    if len(set(ids)) != len(ids):
        problems.append(KNOCKOUT.problem("duplicate"))
    if problems:
        raise RuleViolation(problems)
    seeds = seed_order(entrants, options)
    size = 1
    while size < len(seeds):
        size *= 2
    rounds = size.bit_length() - 1
    matches: list[Match] = []

    def main_length(rnd: int) -> int:
        if rnd == rounds and options.final_length:
            return options.final_length
        lengths = options.match_lengths
        return lengths[min(rnd, len(lengths)) - 1]

    side_length = options.side_length or options.match_lengths[0]
    positions = standard_positions(size)
    first: list[Source] = []
    for s in positions:
        first.append(Source(SEED, player=seeds[s - 1]) if s <= len(seeds) else Source(NOBODY))
    seed_no = {pid: i + 1 for i, pid in enumerate(seeds)}
    main_rounds = _knockout_rounds("M", MAIN, first, main_length, matches, seed_no)
    if options.third_place and rounds >= 2:
        semis = main_rounds[-2]
        matches.append(
            Match(
                "3P",
                THIRD_PLACE,
                rounds,
                1,
                main_length(rounds),
                Source(LOSER, match=semis[0]),
                Source(LOSER, match=semis[1]),
            )
        )
    if options.consolation and len(main_rounds[0]) >= 2:
        slots = [Source(FIRST_LOSS, match=m) for m in main_rounds[0]]
        cons = _knockout_rounds("C", CONSOLATION, slots, lambda r: side_length, matches, {})
        if options.last_chance and len(cons[0]) >= 2:
            slots = [Source(FIRST_LOSS, match=m) for m in cons[0]]
            _knockout_rounds("LC", LAST_CHANCE, slots, lambda r: side_length, matches, {})
    if options.double_elimination:
        _losers_bracket(main_rounds, side_length, main_length(rounds), matches, options)
    if options.progressive_consolation and len(main_rounds) >= 2:
        _drop_bracket("P", PROGRESSIVE, main_rounds[:-1], side_length, matches)
    return Bracket(size, tuple(seeds), tuple(matches), options)


def _knockout_rounds(
    prefix: str,
    bracket: str,
    slots: list[Source],
    length,
    matches: list[Match],
    seed_no: dict[PlayerId, int],
) -> list[list[str]]:
    """Append a single-elimination tree over ``slots`` (adjacent slots meet); return ids."""
    ids_by_round: list[list[str]] = []
    current = slots
    rnd = 0
    while len(current) > 1:
        rnd += 1
        ids = []
        nxt = []
        for pos in range(len(current) // 2):
            a, b = current[2 * pos], current[2 * pos + 1]
            mid = f"{prefix}{rnd}-{pos + 1}"
            notes: tuple[Problem, ...] = ()
            if a.kind == SEED and b.kind in (SEED, NOBODY):
                notes = (_seed_note(a, b, seed_no),)
            matches.append(Match(mid, bracket, rnd, pos + 1, length(rnd), a, b, notes))
            ids.append(mid)
            nxt.append(Source(WINNER, match=mid))
        ids_by_round.append(ids)
        current = nxt
    return ids_by_round


def _seed_note(a: Source, b: Source, seed_no: dict[PlayerId, int]) -> Problem:
    sa = seed_no[a.player]  # type: ignore[index]
    if b.kind == NOBODY:
        return WHY.problem("seed_bye", seed=sa)
    sb = seed_no[b.player]  # type: ignore[index]
    return WHY.problem("seeding", seed_a=sa, seed_b=sb)


def _drop_bracket(
    prefix: str, bracket: str, main_rounds: list[list[str]], length: int, matches: list[Match]
) -> Source:
    """A bracket fed by the losers of each main round in turn; returns its winner's source.

    Odd rounds pair the survivors among themselves; before each later round the
    losers of the next main round come in, each against one survivor (in reverse
    order every other round, so two players who met in the main bracket do not
    meet again at once). Used by double elimination (prefix ``L``) and by the
    progressive consolation (prefix ``P``).
    """
    drop = [[Source(LOSER, match=m) for m in ids] for ids in main_rounds]
    current = drop[0]
    rnd = 0
    for wb in range(1, len(main_rounds) + 1):
        if wb > 1:
            incoming = drop[wb - 1]
            if wb % 2 == 0:
                incoming = list(reversed(incoming))
            rnd += 1
            current = _lb_round(prefix, bracket, rnd, current, incoming, length, matches)
        if len(current) > 1:
            rnd += 1
            current = _lb_round(prefix, bracket, rnd, current[0::2], current[1::2], length, matches)
    return current[0]


def _losers_bracket(
    main_rounds: list[list[str]],
    length: int,
    final_length: int,
    matches: list[Match],
    options: KnockoutOptions,
) -> None:
    """Losers' bracket, the grand final and (by default) its reset."""
    if len(main_rounds) == 1:
        champion_lb = Source(LOSER, match=main_rounds[0][0])
    else:
        champion_lb = _drop_bracket("L", LOSERS, main_rounds, length, matches)
    final = main_rounds[-1][0]
    rnd = len(main_rounds) + 1
    matches.append(
        Match("GF", GRAND_FINAL, rnd, 1, final_length, Source(WINNER, match=final), champion_lb)
    )
    if not options.single_grand_final:
        matches.append(
            Match(
                "GF2",
                GRAND_FINAL,
                rnd + 1,
                1,
                final_length,
                Source(RESET_A, match="GF"),
                Source(RESET_B, match="GF"),
            )
        )


def _lb_round(
    prefix: str,
    bracket: str,
    rnd: int,
    left: list[Source],
    right: list[Source],
    length: int,
    matches: list[Match],
) -> list[Source]:
    out = []
    for pos, (a, b) in enumerate(zip(left, right, strict=True)):
        mid = f"{prefix}{rnd}-{pos + 1}"
        matches.append(Match(mid, bracket, rnd, pos + 1, length, a, b))
        out.append(Source(WINNER, match=mid))
    return out


# ---------------------------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------------------------

_UNKNOWN = object()


def resolve(bracket: Bracket, results: Mapping[str, PlayerId]) -> dict[str, MatchState]:
    """Every match's players and status, given the winners recorded so far."""
    states: dict[str, MatchState] = {}
    next_of: dict[str, str] = {}
    for m in bracket.matches:
        for src in (m.a, m.b):
            if src.kind == WINNER and src.match is not None:
                next_of[src.match] = m.id
    for m in bracket.matches:
        a = _side(m.a, states, next_of)
        b = _side(m.b, states, next_of)
        if a is _UNKNOWN or b is _UNKNOWN:
            states[m.id] = MatchState(m, None if a is _UNKNOWN else a, None if b is _UNKNOWN else b,
                                      WAITING)  # fmt: skip
        elif a is None and b is None:
            states[m.id] = MatchState(m, None, None, VOID)
        elif a is None or b is None:
            states[m.id] = MatchState(m, a, b, WALKOVER, winner=a if b is None else b)  # type: ignore[arg-type]
        else:
            w = results.get(m.id)
            if w in (a, b):
                loser = b if w == a else a
                states[m.id] = MatchState(m, a, b, DONE, w, loser)  # type: ignore[arg-type]
            else:
                states[m.id] = MatchState(m, a, b, PLAYABLE)  # type: ignore[arg-type]
    return states


def _side(src: Source, states: dict[str, MatchState], next_of: dict[str, str]):
    if src.kind == SEED:
        return src.player
    if src.kind == NOBODY:
        return None
    st = states[src.match]  # type: ignore[index]
    if src.kind == WINNER:
        return st.winner if st.status in (DONE, WALKOVER, VOID) else _UNKNOWN
    if src.kind == LOSER:
        return st.loser if st.status in (DONE, WALKOVER, VOID) else _UNKNOWN
    if src.kind in (RESET_A, RESET_B):
        if st.status in (WAITING, PLAYABLE):
            return _UNKNOWN
        if st.status == DONE and st.winner == st.b:  # the losers'-bracket champion won
            return st.a if src.kind == RESET_A else st.b
        return None
    # FIRST_LOSS: follow the slot's player through walkovers to their first real match.
    if st.status == VOID:
        return None
    if st.status == DONE:
        return st.loser
    if st.status != WALKOVER:
        return _UNKNOWN
    player = st.winner
    mid = next_of.get(st.match.id)
    while mid is not None:
        nxt = states.get(mid)
        if nxt is None or nxt.status in (WAITING, PLAYABLE):
            return _UNKNOWN
        if nxt.status == DONE:
            return player if nxt.loser == player else None
        mid = next_of.get(mid)
    return None


def unreachable(bracket: Bracket) -> frozenset[tuple[str, str]]:
    """The slots no player can ever fill, as ``(match id, "a" | "b")``, whatever the results.

    A bye's slot; the loser of a match with such a slot (a walkover has no loser); the winner
    (or first loss) of a match whose two slots are both unreachable. The bracket page draws
    none of them (issue 43: a progressive consolation or a match for third place showed "loser
    of M1-1" where M1-1 was a bye). Matches come after the matches they are fed from, so one
    pass in order decides them all.
    """
    dead: set[tuple[str, str]] = set()
    void: set[str] = set()
    one_sided: set[str] = set()
    for m in bracket.matches:
        for side, src in (("a", m.a), ("b", m.b)):
            if (
                src.kind == NOBODY
                or (src.kind in (WINNER, FIRST_LOSS, RESET_A, RESET_B) and src.match in void)
                or (src.kind == LOSER and src.match in one_sided)
            ):
                dead.add((m.id, side))
        sides = {(m.id, "a"), (m.id, "b")} & dead
        if len(sides) == 2:
            void.add(m.id)
        if sides:
            one_sided.add(m.id)
    return frozenset(dead)


def playable(bracket: Bracket, results: Mapping[str, PlayerId]) -> list[MatchState]:
    """Matches whose two players are known and whose result is not in yet."""
    return [s for s in resolve(bracket, results).values() if s.status == PLAYABLE]


def advance(
    bracket: Bracket, results: Mapping[str, PlayerId], match_id: str, winner: PlayerId
) -> dict[str, PlayerId]:
    """Record a winner; refuse matches that cannot be played yet and strangers as winners."""
    states = resolve(bracket, results)
    st = states.get(match_id)
    if st is None:
        raise RuleViolation(KNOCKOUT.problem("unknown_match", match=match_id))
    if st.status != PLAYABLE and not (st.status == DONE and winner in (st.a, st.b)):
        raise RuleViolation(KNOCKOUT.problem("not_playable", match=match_id, state=st.status))
    if winner not in (st.a, st.b):
        raise RuleViolation(
            KNOCKOUT.problem("wrong_winner", player=winner, match=match_id, a=st.a, b=st.b)
        )
    out = dict(results)
    out[match_id] = winner
    # A corrected result invalidates results recorded downstream with other players.
    states = resolve(bracket, out)
    return {k: v for k, v in out.items() if states[k].status == DONE}


def champion(bracket: Bracket, results: Mapping[str, PlayerId]) -> PlayerId | None:
    """The winner of the whole event: the main final, else the grand final (or its reset)."""
    states = resolve(bracket, results)
    if "GF2" in states and states["GF2"].status != VOID:
        final_id = "GF2"
    elif "GF" in states:
        final_id = "GF"
    else:
        final_id = max((m for m in bracket.matches if m.bracket == MAIN), key=lambda m: m.round).id
    st = states[final_id]
    return st.winner if st.status in (DONE, WALKOVER) else None


def side_champion(bracket: Bracket, results: Mapping[str, PlayerId], name: str) -> PlayerId | None:
    """The winner of a side bracket (consolation, last chance, progressive), once decided."""
    own = [m for m in bracket.matches if m.bracket == name]
    if not own:
        return None
    last = max(own, key=lambda m: (m.round, -m.position))
    st = resolve(bracket, results)[last.id]
    return st.winner if st.status in (DONE, WALKOVER) else None
