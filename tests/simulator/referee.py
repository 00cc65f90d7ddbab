"""The referee model: what a chief arbiter computes by hand from the raw results (issue 43).

A second, plain implementation of the tables, written from the rules and not from the product:
it reads the raw results as the API shows them (entries, rounds and their matches, the bye
requests) plus the organiser's stored settings (tie-breaks, prizes, fund, sections' categories,
penalties), and computes each player's score, tie-breaks, place, prize and the champion. The
simulator's guarantee :func:`tests.simulator.invariants.the_tables_agree_with_the_referee` holds the
product's answers against these.

It imports no product module that computes a table (``tests/simulator/test_referee.py`` says so):
when the product's rule is wrong, this file still gives the right answer. Each rule names its
source: the book (``/work/shared/book/part9_competition_rules.ru.txt``, line L), a FIDE Handbook
article, or a convention the manual states (where the book leaves the choice to the organiser).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction as F

#: The tie-breaks each system uses when the organiser chose none (manual,
#: organiser/index, "Presets"; the organiser's picker). The first of each is the system's main score.
DEFAULTS = {
    "round_robin": ("points", "h2h"),
    "swiss": ("wins", "buchholz", "median_buchholz", "sonneborn_berger", "points"),
    "scheveningen": ("wins", "points", "difference"),
}
#: Book, Part 9 line 71: «По другой схеме победитель определяется по максимуму набранных очков» — a
#: round robin is won on game points; a Swiss on match wins (manual, organiser/systems, "Swiss pairing").
MAIN = {"round_robin": "points", "swiss": "wins", "scheveningen": "wins"}
#: A forfeit and a double forfeit were not met over the board (manual, referee, "Forfeits …": they are
#: *unplayed* for the opponent-based tie-breaks); a time forfeit was played.
UNPLAYED = {"forfeit", "double_forfeit"}
HALF = F(1, 2)


@dataclass(frozen=True)
class Game:
    """One finished match (or credited bye) from one player's side."""

    round: int
    opponent: int | None  # None: a bye, a requested bye, a late entry's missed round
    result: F  # 1 won, ½ level, 0 lost
    points: F  # game points scored
    against: F = F(0)
    unplayed: bool = False


@dataclass
class Row:
    entry: int
    place: str  # "1", "3–4", "—" (no place: not counted, or disqualified)
    values: dict[str, F]
    counted: bool = True
    eligible: bool = True  # may hold a prize


@dataclass
class Verdict:
    """What the referee says of one event."""

    tables: dict[str, list[Row]] = field(default_factory=dict)  # section name → rows, in order
    totals: dict[int, F] = field(default_factory=dict)  # crosstable total of each counted player
    prizes: dict[int, Decimal] | None = None  # None: the event has no prize table to judge
    finished: bool = False
    winners: dict[str, list[int]] = field(default_factory=dict)
    champion: int | None = None
    playoff: list[int] = field(default_factory=list)


# ------------------------------------------------------------------------------------------ reading


def _rows(answer) -> list[dict]:
    return answer["results"] if isinstance(answer, dict) else answer


@dataclass
class Raw:
    """The event as the arbiter receives it: who plays, who left, every public round's results."""

    system: str
    keys: tuple[str, ...]
    entries: dict[int, dict]  # id → the API's entry
    rounds: list[dict]  # public rounds (published or finished) with their matches
    bye_requests: list[dict] = field(default_factory=list)
    options: dict = field(default_factory=dict)  # the stored pairing options
    penalties: dict[int, F] = field(default_factory=dict)  # entry → points off the main score
    prizes: dict[int, Decimal] = field(default_factory=dict)  # place → amount (whole event)
    fund: Decimal | None = None
    split: str = "equal"
    strength: dict[str, int] = field(default_factory=dict)  # section → its highest category
    rounds_planned: int | None = None
    drafts: set = field(default_factory=set)  # sections with a round still in draft


def read(client, tournament) -> Raw:
    """The raw results through the API (``client``: an official's), the settings from the event."""
    base = f"/api/tournaments/{tournament.slug}/"
    info = client.get(base).json()
    entries = {e["id"]: e for e in _rows(client.get(f"{base}entries/?page_size=500").json())}
    every = _rows(client.get(f"/api/rounds/?tournament={tournament.slug}&page_size=500").json())
    rounds = [{**r, "matches": []} for r in every if r["status"] in ("published", "finished")]
    by_id = {r["id"]: r for r in rounds}
    for m in _rows(client.get(f"/api/matches/?tournament={tournament.slug}&page_size=500").json()):
        by_id[m["round_id"]]["matches"].append(m)
    byes = _rows(client.get(f"{base}bye-requests/").json()) if info["system"] == "swiss" else []
    penalties: dict[int, F] = {}
    for adj in tournament.adjustments.all():
        penalties[adj.entry_id] = penalties.get(adj.entry_id, F(0)) + F(str(adj.points))
    strength = {s.name: s.max_category for s in tournament.sections.all()}
    return Raw(
        system=info["system"], keys=tuple(info["tiebreaks"] or DEFAULTS.get(info["system"], ())),
        entries=entries, rounds=rounds, bye_requests=byes, options=dict(tournament.pairing_options or {}),
        penalties=penalties, prizes={p.place: p.amount for p in tournament.prizes.filter(section__isnull=True)},
        fund=tournament.prize_fund, split=tournament.prize_split, strength=strength,
        rounds_planned=info["rounds_planned"], drafts={r["section"] for r in every if r["status"] == "draft"},
    )  # fmt: skip


# ------------------------------------------------------------------------------------------ games


def _result(m: dict, side: str) -> F:
    """A won match 1, lost 0, level ½ (a fixed number of games can end level: book line 69); a
    double forfeit is lost by both (manual, referee, "Forfeits …")."""
    if m["result_kind"] == "double_forfeit":
        return F(0)
    if not m["winner"]:
        return HALF
    return F(1) if m["winner"] == side else F(0)


def stands(m: dict) -> bool:
    """A result counts once confirmed, and stays while a player disputes it (marked disputed)
    until a ruling changes it; a disputed report was never confirmed (FIDE C.06 VII.4: the
    result stands until the appeal is decided; the disputes' convention, ``Match.result_stands``)."""
    both = m["score_a"] is not None and m["score_b"] is not None
    return m["result_status"] == "confirmed" or (m["result_status"] == "disputed" and both)


def games_of(raw: Raw) -> dict[int, list[Game]]:
    """Each player's finished games, byes and credits, by round."""
    games: dict[int, list[Game]] = {e: [] for e in raw.entries}
    rr = raw.system == "round_robin"
    for rnd in raw.rounds:
        for m in rnd["matches"]:
            if not stands(m) or m["result_kind"] == "void":
                continue  # a void match counts for nobody (manual, referee, "Forfeits …")
            a, b = m["entry_a"], m["entry_b"]
            sa, sb = F(str(m["score_a"] or 0)), F(str(m["score_b"] or 0))
            if b is None:
                if not rr:  # a round robin's free round is no game (manual, organiser/systems, "The free round is no game")
                    games[a].append(Game(rnd["number"], None, F(1), sa, sb, True))  # a pairing bye: a win
                continue
            off = m["result_kind"] in UNPLAYED
            games[a].append(Game(rnd["number"], b, _result(m, "a"), sa, sb, off))
            games[b].append(Game(rnd["number"], a, _result(m, "b"), sb, sa, off))
    if raw.system == "swiss":
        _credits(raw, games)
    return games


def _credits(raw: Raw, games: dict[int, list[Game]]) -> None:
    """Swiss byes with no match row: a requested bye scores ``half_bye_points`` (manual, organiser/systems,
    "Requested byes"), a late entry each missed round ``late_entry_points`` (FIDE C.04.2; manual, organiser/systems, "Late
    entries"), for rounds already public in the player's section."""
    public, seated = {}, {}
    for rnd in raw.rounds:
        public.setdefault(rnd["section"], set()).add(rnd["number"])
        seated.setdefault((rnd["section"], rnd["number"]), set()).update(
            p for m in rnd["matches"] for p in (m["entry_a"], m["entry_b"]) if p
        )
    half = F(str(raw.options.get("half_bye_points", 0)))
    for req in raw.bye_requests:
        entry = raw.entries.get(req["entry"])
        if entry and req["round"] in public.get(entry["section"], ()):
            if req["entry"] not in seated.get((entry["section"], req["round"]), ()):
                games[req["entry"]].append(Game(req["round"], None, half, F(0), F(0), True))
    late = F(str(raw.options.get("late_entry_points", 0)))
    for eid, entry in raw.entries.items():
        for number in range(1, (entry.get("joined_round") or 1)):
            if number in public.get(entry["section"], ()):
                games[eid].append(Game(number, None, late, F(0), F(0), True))


# ------------------------------------------------------------------------------------------ tie-breaks


def score(games: list[Game], basis: str) -> F:
    return sum((g.result if basis == "wins" else g.points for g in games), F(0))


def completed_rounds(raw: Raw, section) -> int:
    """FIDE C.07's n, the number of completed rounds: the last round with a result of a pairing.
    A published round with no result yet (even with a bye) is not completed (issue 43); a round
    whose only game in this section was a bye is, once a later round has results (rounds are
    played in order)."""
    return max(
        (r["number"] for r in raw.rounds
         if r["section"] == section and any(m["entry_b"] and stands(m) for m in r["matches"])),
        default=0,
    )  # fmt: skip


def virtual_opponent(games: list[Game], g: Game, n: int, basis: str) -> F:
    """FIDE Handbook C.07 (tie-break regulations, unplayed games): Svon = SPR + (1 − SfPR) +
    ½ × (n − R) — the player's score before the round, the round's result reversed, a draw in
    every later completed round (manual, referee, "Forfeits …")."""
    before = score([x for x in games if x.round < g.round], basis)
    return before + (1 - g.result) + HALF * (n - g.round)


def opponent_scores(raw: Raw, section, games: dict[int, list[Game]], basis: str) -> dict[int, list[tuple[F, F]]]:
    """For each player, each game's (opponent's score, own result). A Swiss values an unplayed
    game by the virtual opponent; a round robin by the scheduled opponent (FIDE C.07; manual,
    organiser/systems, "Sonneborn-Berger counts an unplayed game against the real opponent")."""
    n = completed_rounds(raw, section)
    # An opponent's bye of a round nobody has played yet does not make him stronger yet (issue
    # 43; manual, referee, "a round counts as played once a pairing of it has a result").
    total = {p: score([g for g in gs if g.round <= n or g.opponent is not None], basis) for p, gs in games.items()}
    out = {}
    for p, gs in games.items():
        rows = []
        for g in gs:
            if g.round > n and raw.system == "swiss":
                continue  # a round without results adds nothing (issue 43)
            if raw.system == "swiss" and (g.unplayed or g.opponent is None):
                rows.append((virtual_opponent(gs, g, n, basis), g.result))
            elif g.opponent is not None:
                rows.append((total.get(g.opponent, F(0)), g.result))
        out[p] = rows
    return out


def median(values: list[F]) -> F:
    """Median Buchholz: Buchholz less the best and the worst opponent (FIDE C.07, Buchholz Cut)."""
    return sum(sorted(values)[1:-1], F(0))


def head_to_head(group: list[int], games: dict[int, list[Game]]) -> list[list[int]]:
    """Book, Part 9 line 71: «сравниваются их личные матчи» — among the tied players, match wins,
    then the points they scored in those matches (manual, organiser/systems, "Head-to-head"); only when every tied
    player has met every other (FIDE C.07, direct encounter), and again inside any smaller group
    still level (its own matches only). Returns the group split, best first."""
    inside = set(group)
    met = {frozenset((p, g.opponent)) for p in group for g in games[p] if g.opponent in inside}
    if len(group) < 2 or len(met) < len(group) * (len(group) - 1) // 2:
        return [group]
    mini = {p: (sum((g.result for g in games[p] if g.opponent in inside), F(0)),
                sum((g.points for g in games[p] if g.opponent in inside), F(0))) for p in group}  # fmt: skip
    levels = sorted(set(mini.values()), reverse=True)
    if len(levels) == 1:
        return [group]
    return [part for level in levels for part in head_to_head([p for p in group if mini[p] == level], games)]


# ------------------------------------------------------------------------------------------ tables


def _out_of_the_standings(raw: Raw, eid: int, games: list[Game], schedule: int) -> bool:
    """FIDE Handbook C.06 article 5.4.1 (manual, organiser/systems, "Fewer than half of the games played"): a round
    robin's player who withdrew having met fewer than half of his scheduled games over the board
    is not counted (nor are his opponents' results against him)."""
    entry = raw.entries[eid]
    if raw.system != "round_robin" or entry["status"] != "withdrawn" or entry.get("removal"):
        return False
    met = sum(1 for g in games if g.opponent is not None and not g.unplayed)
    return 2 * met < schedule


def judge(raw: Raw) -> Verdict:
    verdict = Verdict()
    sections: dict = {}
    for eid, e in raw.entries.items():
        sections.setdefault(e["section"], []).append(eid)
    everyone = games_of(raw)
    main = MAIN.get(raw.system)
    if main is None:
        return verdict  # a cup is placed by its bracket (manual, organiser/systems, "A cup's places"): not modelled
    keys = (main,) + tuple(k for k in raw.keys if k != main)  # the main score first (book line 71)
    basis = main
    cycles = int(raw.options.get("cycles", 1) or 1)
    for section, ids in sections.items():
        paired = {p for r in raw.rounds if r["section"] == section for m in r["matches"]
                  for p in (m["entry_a"], m["entry_b"]) if p}  # fmt: skip
        schedule = (len(paired) - 1) * cycles
        dropped = {p for p in ids if _out_of_the_standings(raw, p, everyone[p], schedule)}
        games = {p: [g for g in everyone[p] if g.opponent not in dropped] for p in ids if p not in dropped}
        values = _values(raw, section, games, keys, basis)
        for p in games:
            # The crosstable's total is the book's «Итого»: game points scored (Part 9 l.71, table
            # «Результаты матчей»), less a penalty when points are the main score.
            verdict.totals[p] = values[p]["points"]
        disqualified = {p for p in games if raw.entries[p].get("removal")}
        ranked = [p for p in games if p not in disqualified]
        rows = _place(ranked, values, keys, games, {p: _listed(raw.entries[p]) for p in ranked})
        for p in sorted(disqualified, key=lambda p: raw.entries[p]["draw_number"] or 0):
            rows.append(Row(p, "—", values[p], eligible=False))
        for p in sorted(dropped, key=lambda p: raw.entries[p]["draw_number"] or 0):
            rows.append(Row(p, "—", {}, counted=False, eligible=False))
        for row in rows:
            row.eligible = row.eligible and raw.entries[row.entry]["status"] != "withdrawn"
        verdict.tables[section or ""] = rows
    _champion(raw, verdict, sections)
    if raw.prizes and len(sections) == 1:
        table = next(iter(verdict.tables.values()))
        verdict.prizes = prizes(table, raw.prizes, raw.split, main)
    return verdict


def _values(raw: Raw, section, games: dict[int, list[Game]], keys, basis) -> dict[int, dict[str, F]]:
    opp = opponent_scores(raw, section, games, basis)
    values = {}
    for p, gs in games.items():
        v = {
            "wins": score(gs, "wins"),
            "points": score(gs, "points"),
            "against": sum((g.against for g in gs), F(0)),
            "buchholz": sum((s for s, _ in opp[p]), F(0)),
            "median_buchholz": median([s for s, _ in opp[p]]),
            "sonneborn_berger": sum((s * r for s, r in opp[p]), F(0)),
        }
        v["difference"] = v["points"] - v["against"]
        # Penalties "from tournament points" come off the main score (manual, referee, "Forfeits …"; Part 9
        # line 39: the director's sanctions); they count in the crosstable total too (issue 43).
        v[basis] += raw.penalties.get(p, F(0))
        values[p] = v
    return values


def _listed(entry: dict) -> tuple:
    """Where a player stands among those sharing his place: by draw number (book Part 9 l.73: each
    is entered in the table under his draw number), those without one last, then by name — which
    also decides who of a pool's takers gets the odd kopeck (the first in table order)."""
    return (entry["draw_number"] is None, entry["draw_number"] or 0, entry.get("name") or "", entry["id"])


def _place(ranked: list[int], values, keys, games, draws: dict[int, tuple]) -> list[Row]:
    """Order by the keys, higher first (fewer points against is better); players level on every
    key share the places they cover, written "3–4" (manual, organiser/printables, "The Excel workbook"), listed by draw
    number (book Part 9 l.73: each is entered in the table under his draw number)."""

    def key(p):
        return tuple(-values[p][k] if k != "against" else values[p][k] for k in keys if k != "h2h")

    by_draw = sorted(ranked, key=lambda p: draws[p])  # no number yet: last (:func:`_listed`)
    order = sorted(by_draw, key=key)  # a shared place lists its players by draw number
    groups: list[list[int]] = []
    for p in order:
        if groups and key(groups[-1][0]) == key(p):
            groups[-1].append(p)
        else:
            groups.append([p])
    if "h2h" in keys:
        groups = [part for group in groups for part in head_to_head(group, games)]
    rows, place = [], 1
    for group in groups:
        label = str(place) if len(group) == 1 else f"{place}–{place + len(group) - 1}"
        rows += [Row(p, label, values[p]) for p in group]
        place += len(group)
    return rows


# ------------------------------------------------------------------------------------------ prizes


def prizes(rows: list[Row], table: dict[int, Decimal], split: str, main: str) -> dict[int, Decimal]:
    """Prize money by place (manual, organiser/systems, "A cup's places", and organiser/prizes,
    "The prize fund and the prizes"; the book, Part 9 line 45, leaves the split to the
    organiser). ``equal``: players level on the main score pool the prizes of the places they
    cover; ``tiebreak``: only players sharing a place pool. Only a
    player who may hold a prize counts (withdrawn and disqualified players and those not counted
    may not: issue 43): the prizes go down the table as if the others were not in it (manual,
    organiser/prizes, "Who may win a prize"). A pool is shared in kopecks, the first in table order one kopeck more; the sum
    never exceeds the pool."""
    ranked = [r for r in rows if r.place != "—" and r.eligible]
    groups: list[list[Row]] = []
    def level(r: Row, other: Row) -> bool:
        return r.values[main] == other.values[main] if split == "equal" else r.place == other.place

    for r in ranked:
        if groups and level(r, groups[-1][0]):
            groups[-1].append(r)
        else:
            groups.append([r])
    paid: dict[int, Decimal] = {}
    first = 1
    for group in groups:
        pool = sum((table.get(place, Decimal(0)) for place in range(first, first + len(group))), Decimal(0))
        first += len(group)
        takers = [r.entry for r in group]
        if not pool:
            continue
        kopecks = int(pool * 100)
        share, extra = divmod(kopecks, len(takers))
        for i, entry in enumerate(takers):
            paid[entry] = (Decimal(share + (1 if i < extra else 0)) / 100).quantize(Decimal("0.01"), ROUND_DOWN)
    return paid


# ------------------------------------------------------------------------------------------ champion


def _champion(raw: Raw, verdict: Verdict, sections: dict) -> None:
    """Book, Part 9 line 73: «Победители выявляются в каждой категории. А вот чемпионом соревнований
    может быть только сильнейший» — each section's first place wins it; the absolute champion is
    the winner of the strongest section (the highest category); a shared first place there is a
    play-off (book line 71: «дополнительный чемпионский отборочный тур»). Named once every section
    with players has played all its rounds (an empty section does not hold the event up)."""
    if len(raw.strength) < 2:
        return
    # An entry without a section (approved before his category placed him) cannot be paired in a
    # category championship: he waits for the organiser, and the sections finish without him.
    verdict.finished = all(_section_done(raw, s) for s, ids in sections.items() if s and _in_play(raw, s, ids))
    if not verdict.finished:
        return
    for s, rows in verdict.tables.items():
        if any(r["section"] == s for r in raw.rounds):  # a winner is found by play (line 73)
            verdict.winners[s] = [r.entry for r in rows if r.place.split("–")[0] == "1"]
    strongest = max((s for s in verdict.winners if verdict.winners[s]), key=lambda s: raw.strength.get(s, 0),
                    default=None)  # fmt: skip
    if strongest is None:
        return
    top = verdict.winners[strongest]
    level = [s for s in verdict.winners if verdict.winners[s] and raw.strength.get(s) == raw.strength[strongest]]
    if len(top) == 1 and len(level) == 1:
        verdict.champion = top[0]
    else:
        verdict.playoff = sorted(p for s in level for p in verdict.winners[s])


def _in_play(raw: Raw, section, ids: list[int]) -> bool:
    """A section holds the event up once it has somebody to pair (an entry not withdrawn) or a
    round drawn; one whose every entry left before a round was drawn is as empty as one nobody
    entered (manual, organiser/categories, "Winners and the absolute champion": an empty
    section is left out of "finished")."""
    return (any(raw.entries[p]["status"] != "withdrawn" for p in ids)
            or any(r["section"] == section for r in raw.rounds) or section in raw.drafts)  # fmt: skip


def _section_done(raw: Raw, section) -> bool:
    rounds = [r for r in raw.rounds if r["section"] == section]
    if any(m["entry_b"] and not stands(m) and m["result_kind"] != "void" for r in rounds for m in r["matches"]):
        return False
    if raw.system == "swiss":
        return len({r["number"] for r in rounds}) >= (raw.rounds_planned or 0)
    return bool(rounds) and section not in raw.drafts
