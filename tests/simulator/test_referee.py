"""The referee model's own arithmetic, on hand-made events (no database: the model reads plain dicts).

Each expected number is worked out by hand in the test's docstring or comment, from the rule the
model cites, so the model is checked against the book, not against the product.
"""

from __future__ import annotations

import ast
from decimal import Decimal
from fractions import Fraction as F
from pathlib import Path

from tests.simulator import referee
from tests.simulator.referee import Raw, judge
from tournaments.standings.book_example import BOOK_GRID  # the book's table as text: data only

#: Product modules that compute tables: the model must reach none of them.
COMPUTING = ("tournaments.standings", "tournaments.standings_service", "tournaments.api", "tournaments.prizes",
             "tournaments.team_match", "tournaments.pairing", "scoring")  # fmt: skip


def _entry(eid, section=None, status="registered", removal="", joined=None):
    return {"id": eid, "name": f"P{eid}", "draw_number": eid, "section": section, "status": status,
            "removal": removal, "joined_round": joined}  # fmt: skip


def _match(a, b, sa=None, sb=None, winner=None, kind="played", status="confirmed"):
    if winner is None and sa is not None and sb is not None and sa != sb:
        winner = "a" if sa > sb else "b"
    return {"entry_a": a, "entry_b": b, "score_a": sa, "score_b": sb, "winner": winner or "",
            "result_kind": kind, "result_status": status}  # fmt: skip


def _raw(system, entries, rounds, **kw) -> Raw:
    """``rounds``: {number: [match, …]} (one section, all published)."""
    section = entries[0]["section"]
    return Raw(system=system, keys=referee.DEFAULTS[system], entries={e["id"]: e for e in entries},
               rounds=[{"number": n, "section": section, "status": "published", "matches": ms}
                       for n, ms in sorted(rounds.items())], **kw)  # fmt: skip


def _table(verdict):
    return [(r.entry, r.place) for r in next(iter(verdict.tables.values()))]


def _book_event() -> Raw:
    """The book's «Результаты матчей» (Part 9): in a column the left number is the column
    player's points against the row player; one match per pair, rounds by the circle."""
    lines = [line.split("\t") for line in BOOK_GRID.splitlines()[1:7]]
    matches = []
    for r in range(6):
        for c in range(r + 1, 6):
            col, row = (int(x) for x in lines[r][c + 1].split(":"))
            matches.append(_match(c + 1, r + 1, col, row))
    rounds = {i + 1: matches[i * 3:(i + 1) * 3] for i in range(5)}
    return _raw("round_robin", [_entry(i) for i in range(1, 7)], rounds)


def test_the_books_crosstable_totals_and_places():
    """The book's «Итого» row: 21, 22, 27, 26, 22, 19; Петров (2) and Серов (5) level on 22 are
    split by their own match, which Петров won 5:4 (book l.71: «сравниваются их личные матчи»)."""
    verdict = judge(_book_event())
    assert {p: int(t) for p, t in verdict.totals.items()} == {1: 21, 2: 22, 3: 27, 4: 26, 5: 22, 6: 19}
    assert _table(verdict) == [(3, "1"), (4, "2"), (2, "3"), (5, "4"), (1, "5"), (6, "6")]


def test_a_forfeit_is_valued_by_the_virtual_opponent_and_an_unplayed_round_adds_nothing():
    """Swiss, 4 players. Round 1: 1 beats 2, 3 wins by forfeit against 4. Round 2: 1 beats 3,
    2 beats 4. Round 3 published, no result yet. n = 2 completed rounds.
    Player 3: round 1 unplayed, won: Svon = 0 + (1 − 1) + ½ × (2 − 1) = ½; round 2 against 1 (2
    wins): Buchholz 2½, Sonneborn-Berger ½ × 1 + 2 × 0 = ½. Player 4: forfeit lost, Svon =
    0 + 1 + ½ = 1½; against 2 (1 win): 2½."""
    entries = [_entry(i) for i in range(1, 5)]
    rounds = {1: [_match(1, 2, 3, 1), _match(3, 4, 3, 0, winner="a", kind="forfeit")],
              2: [_match(1, 3, 3, 2), _match(2, 4, 3, 0)],
              3: [_match(1, 2, status="pending"), _match(3, None, status="confirmed")]}  # fmt: skip
    verdict = judge(_raw("swiss", entries, rounds))
    rows = {r.entry: r.values for r in next(iter(verdict.tables.values()))}
    assert rows[3]["wins"] == 2  # the forfeit and the round-3 bye (a pairing bye is a win)
    assert (rows[3]["buchholz"], rows[3]["sonneborn_berger"]) == (F(5, 2), F(1, 2))  # the bye adds nothing
    assert rows[4]["buchholz"] == F(5, 2)
    # 1 and 3 level on 2 wins; 1's opponents are worth 1 + 1 (3's bye of round 3 does not count
    # until round 3 is played), 3's 2½: 3 is first.
    assert rows[1]["buchholz"] == 2
    assert _table(verdict) == [(3, "1"), (1, "2"), (2, "3"), (4, "4")]


def test_a_round_whose_only_game_was_a_bye_still_counts_among_the_completed_rounds():
    """Swiss, 3 players (a soak found the model counting the rounds with results instead of
    taking the last one). Round 1: 2 beats 1, 3 has the bye; round 2: 3 beats 2, 1 has the bye;
    round 3: 3 has the only game, a bye; round 4: 1 beats 3, 2 has the bye. FIDE C.07: n is the
    number of completed rounds — round 4 has results, so n = 4, though round 3 had no pairing."""
    entries = [_entry(i) for i in range(1, 4)]
    rounds = {1: [_match(2, 1, 3, 1), _match(3, None)],
              2: [_match(3, 2, 3, 1), _match(1, None)],
              3: [_match(3, None)],
              4: [_match(1, 3, 3, 1), _match(2, None)]}  # fmt: skip
    raw = _raw("swiss", entries, rounds)
    assert referee.completed_rounds(raw, None) == 4
    rows = {r.entry: r.values for r in next(iter(judge(raw).tables.values()))}
    # 3's opponents: round 1 bye Svon = 0 + 0 + ½ × 3 = 1½; round 2 player 2 (2 wins: round 1,
    # round 4 bye); round 3 bye Svon 2½; round 4 player 1 (2 wins: round 2 bye, round 4).
    assert rows[3]["buchholz"] == F(3, 2) + 2 + F(5, 2) + 2


def test_a_player_out_before_half_his_games_is_not_counted_for_anybody():
    """FIDE C.06 5.4.1: a round robin of 4 (3 games each); player 4 met 1 (lost to 1) and
    withdrew; his other games were forfeits. Nobody keeps points from him: player 1's 3 points
    from that match are gone, his row has no place, and the totals agree with the standings."""
    entries = [_entry(1), _entry(2), _entry(3), _entry(4, status="withdrawn")]
    rounds = {1: [_match(1, 4, 3, 1), _match(2, 3, 3, 2)],
              2: [_match(1, 3, 3, 0), _match(4, 2, 0, 3, winner="b", kind="forfeit")],
              3: [_match(1, 2, 1, 3), _match(3, 4, 3, 0, winner="a", kind="forfeit")]}  # fmt: skip
    verdict = judge(_raw("round_robin", entries, rounds))
    assert _table(verdict) == [(2, "1"), (1, "2"), (3, "3"), (4, "—")]
    assert verdict.totals == {1: 4, 2: 6, 3: 2}


def test_a_disqualified_player_has_no_place_and_no_prize_and_a_withdrawn_one_no_prize():
    """Issue 43: the disqualified player (2) is out of the places; the withdrawn one (3) keeps
    his place but no prize. The prizes go down the table to the players still in the event, as
    if the others were not in it (manual, organiser/prizes, "Who may win a prize"): 1 takes the first prize, 5 the second, 4
    the third."""
    entries = [_entry(1), _entry(2, status="withdrawn", removal="disqualified"), _entry(3, status="withdrawn"),
               _entry(4), _entry(5)]  # fmt: skip
    rounds = {1: [_match(1, 2, 3, 0), _match(3, 4, 3, 1), _match(5, None)],
              2: [_match(1, 4, 3, 2), _match(3, 5, 3, 0), _match(2, None)]}  # fmt: skip
    prizes = {1: Decimal(3000), 2: Decimal(2000), 3: Decimal(1000)}
    verdict = judge(_raw("swiss", entries, rounds, prizes=prizes, fund=Decimal(6000)))
    # wins 1: 2, 3: 2, 5: 1 (the bye), 4: 0; 1 and 3 level on every tie-break (Buchholz 1, SB 1, 6 points)
    assert _table(verdict) == [(1, "1–2"), (3, "1–2"), (5, "3"), (4, "4"), (2, "—")]
    assert verdict.prizes == {1: Decimal(3000), 5: Decimal(2000), 4: Decimal(1000)}


def test_a_pool_that_does_not_divide_gives_the_first_one_kopeck_more():
    """The manual (organiser/prizes, "The prize fund and the prizes"): kopecks; 1000 among
    three is 333.34, 333.33, 333.33."""
    rows = [referee.Row(i, "1–3", {"wins": F(2)}) for i in (7, 8, 9)]
    assert referee.prizes(rows, {1: Decimal(1000)}, "equal", "wins") == {
        7: Decimal("333.34"), 8: Decimal("333.33"), 9: Decimal("333.33")}


def test_the_tiebreak_split_pools_only_a_shared_place():
    """Tie-break split: level on wins but placed 1 and 2 by Buchholz, each takes his own prize."""
    rows = [referee.Row(1, "1", {"wins": F(2)}), referee.Row(2, "2", {"wins": F(2)})]
    table = {1: Decimal(3000), 2: Decimal(2000)}
    assert referee.prizes(rows, table, "tiebreak", "wins") == {1: Decimal(3000), 2: Decimal(2000)}
    assert referee.prizes(rows, table, "equal", "wins") == {1: Decimal(2500), 2: Decimal(2500)}


def test_a_category_championship_with_an_empty_section_names_its_champion():
    """Book l.73: winners in each category, the champion only the strongest; the empty
    section (categories 7–9) holds nothing up, so the winner of 1–4 … is champion of the
    strongest section that has players."""
    entries = [_entry(i, section="Любители") for i in (1, 2, 3)]
    rounds = {1: [_match(1, 2, 3, 0), _match(3, None)], 2: [_match(1, 3, 3, 1), _match(2, None)],
              3: [_match(2, 3, 3, 2), _match(1, None)]}  # fmt: skip
    raw = _raw("round_robin", entries, rounds, strength={"Любители": 6, "Мастера": 9})
    verdict = judge(raw)
    assert verdict.finished and verdict.winners == {"Любители": [1]} and verdict.champion == 1


def test_a_section_whose_only_player_withdrew_before_a_round_holds_nothing_up():
    """The same event with one player entered in the Masters, who withdrew before any round was
    drawn there (a soak found the model waiting for that section): nobody is left to pair in it
    and no round was drawn, so it is as empty as a section nobody entered."""
    entries = [_entry(i, section="Любители") for i in (1, 2, 3)] + [_entry(4, "Мастера", "withdrawn")]
    rounds = {1: [_match(1, 2, 3, 0), _match(3, None)], 2: [_match(1, 3, 3, 1), _match(2, None)],
              3: [_match(2, 3, 3, 2), _match(1, None)]}  # fmt: skip
    raw = _raw("round_robin", entries, rounds, strength={"Любители": 6, "Мастера": 9})
    verdict = judge(raw)
    assert verdict.finished and verdict.champion == 1
    raw.entries[4]["status"] = "registered"  # still to be paired: the event is not over
    assert not judge(raw).finished


def test_the_referee_imports_no_product_computation():
    """The model is a second implementation: it must not reach the code it checks."""
    tree = ast.parse(Path(referee.__file__).read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    assert not [n for n in names if n.startswith(COMPUTING)], names


def test_head_to_head_decides_only_when_every_tied_player_met_every_other():
    """FIDE C.07 direct encounter: three players level on 3 points; 1 beat 2, 3 met neither —
    the mini-table is not fair, so they share 1–3; once 3 has lost to both, 1 and 2 are split
    by their own match."""
    entries = [_entry(i) for i in (1, 2, 3, 4)]
    rounds = {1: [_match(1, 2, 3, 0), _match(3, 4, 3, 0)], 2: [_match(2, 4, 3, 0), _match(1, 3, status="pending")]}
    assert _table(judge(_raw("round_robin", entries, rounds))) == [(1, "1–3"), (2, "1–3"), (3, "1–3"), (4, "4")]
    rounds[2][1] = _match(1, 3, 0, 3)
    rounds[3] = [_match(2, 3, 3, 0), _match(1, 4, 0, 3)]
    # points: 1: 3, 2: 6, 3: 6, 4: 3 — 2 beat 3 (round 3), 4 beat 1 (round 3)
    assert _table(judge(_raw("round_robin", entries, rounds))) == [(2, "1"), (3, "2"), (4, "3"), (1, "4")]
