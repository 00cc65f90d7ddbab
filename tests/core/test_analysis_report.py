"""The analysis report core (pure): PR from gnubg's statistics, worst decisions, gnubg's text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.analysis import report

errors = st.floats(min_value=0, max_value=50, allow_nan=False)
counts = st.integers(min_value=0, max_value=400)


@given(move_error=errors, missed=errors, wrong_take=errors, unforced=counts, close=counts)
def test_pr_is_half_of_gnubgs_overall_error_rate(move_error, missed, wrong_take, unforced, close):
    """gnubg's overall rate: 1000 × (chequer + cube buckets) / (unforced + close); PR is half."""
    stats = {
        "moves": {"unforced-moves": unforced, "total-moves": unforced, "error-skill": move_error},
        # gnubg's own cube "error-skill" is per decision: it must not be taken as the total.
        "cube": {"close-cube": close, "total-cube": close, "error-skill": 123.0,
                 "err-missed-double-below-cp-skill": missed, "err-wrong-take-skill": wrong_take},
    }
    got = report.player_stats(stats)
    decisions = unforced + close
    assert got["decisions"] == decisions
    if decisions == 0:
        assert got["pr"] is None
    else:
        rate = 1000 * (move_error + missed + wrong_take) / decisions
        assert abs(got["pr"] * 2 - rate) <= 0.02
        assert got["pr"] >= 0


@given(st.lists(st.tuples(st.sampled_from(["X", "O"]), st.integers(1, 6), st.integers(1, 6), st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=6), st.integers(0, 5)), max_size=40))
def test_worst_decisions_are_the_largest_errors_of_each_player(actions):
    game = []
    for player, d1, d2, scores, chosen in actions:
        moves = [{"move": [[24, 23]], "score": s} for s in sorted(scores, reverse=True)]
        game.append({"action": "move", "player": player, "dice": [d1, d2], "move": [[13, 11]], "board": "4HPwATDgc/ABMA",
                     "analysis": {"moves": moves, "imove": min(chosen, len(moves) - 1)}})
    built = report.build({"match-info": {"match-length": 5}, "games": [{"info": {}, "game": game}], "stats": {}})
    for side, player in (("first", "X"), ("second", "O")):
        expected = sorted(
            (a["analysis"]["moves"][0]["score"] - a["analysis"]["moves"][a["analysis"]["imove"]]["score"]
             for a in game if a["player"] == player and len(a["analysis"]["moves"]) > 1),
            reverse=True,
        )
        expected = [round(e, 5) for e in expected if round(e, 5) > 0][: report.WORST]
        got = [d["error"] for d in built["worst"][side]]
        assert got == expected
        assert all(d["ply"] is None for d in built["worst"][side])  # no viewer replay given


def test_gnubgs_statistics_text_is_read():
    text = """
Overall statistics

Error total EMG (MWC)                         -2.079 ( -0.514%)       -1.167 ( -0.208%)
Error rate mEMG (MWC)                        -65.0   ( -1.606%)      -28.5   ( -0.509%)
"""
    assert report.engine_error_rates(text) == {"first": 65.0, "second": 28.5}
    assert report.engine_error_rates("nothing") is None
