"""Trust: gnubg analyses a committed match and our PR and counts agree with its own report."""

from __future__ import annotations

import re

import pytest

from scoring.analysis import engine, report, services
from scoring.viewer.frames import view_mat

from .conftest import DATA, ENGINE_NOISE, NOISY3, needs_gnubg

pytestmark = needs_gnubg


@pytest.fixture(scope="module")
def analysed():
    out = engine.analyse(NOISY3, plies=0, timeout=120, program=services.program())
    return out, report.build(out.match, out.statistics_text, view_mat(NOISY3))


def test_pr_is_half_of_gnubgs_own_error_rate(analysed):
    """PR = 500 × error / decisions; gnubg prints 1000 × error / decisions ("Error rate mEMG")."""
    _out, rep = analysed
    rates = rep["engine_error_rate"]
    assert rates is not None, "gnubg's statistics text was read"
    for side in ("first", "second"):
        assert rep["players"][side]["pr"] * 2 == pytest.approx(rates[side], abs=0.06)
    # The committed sample: the noisier first player plays clearly worse (65.0 vs 28.5 mEMG at 0-ply).
    assert rates == {"first": 65.0, "second": 28.5}
    assert rep["players"]["first"]["pr"] == pytest.approx(32.49, abs=ENGINE_NOISE)
    assert rep["players"]["second"]["pr"] == pytest.approx(14.23, abs=ENGINE_NOISE)


def test_counts_are_gnubgs(analysed):
    out, rep = analysed
    first, second = rep["players"]["first"], rep["players"]["second"]
    stats = out.statistics_text
    # gnubg's own table: "Unforced moves  30  35", "Close or actual cube decisions  2  6"
    assert _row(stats, "Unforced moves") == [first["unforced_moves"], second["unforced_moves"]] == [30, 35]
    assert _row(stats, "Close or actual cube decisions") == [first["close_cube_decisions"], second["close_cube_decisions"]] == [2, 6]
    assert first["decisions"] == 32 and second["decisions"] == 41
    assert _row(stats, "Moves marked very bad") == [6, 2] and first["blunders"] == 6
    assert len(rep["games"]) == 2
    # The games' figures add up to the match's.
    assert sum(g["players"]["first"]["unforced_moves"] for g in rep["games"]) == 30


def test_worst_decisions_point_at_the_viewer_frame(analysed):
    _out, rep = analysed
    view = view_mat(NOISY3)
    worst = rep["worst"]["first"]
    assert 1 <= len(worst) <= report.WORST
    errors = [d["error"] for d in worst]
    assert errors == sorted(errors, reverse=True)
    for d in worst:
        frame = view.frames[d["ply"]]
        before = view.frames[d["ply"] - 1]
        assert frame.side == "white" and frame.game == d["game"]
        assert d["position_id"] == before.position_id
        assert d["match_id"]
        if d["kind"] == "move":
            assert tuple(d["dice"]) == frame.dice
            assert d["played"] != d["best"]


def test_a_record_gnubg_cannot_read_is_a_clear_reason():
    with pytest.raises(engine.EngineError) as err:
        engine.analyse("this is not a match\n", plies=0, timeout=60, program=services.program())
    assert err.value.code == "import_failed"


def _row(text: str, label: str) -> list[int]:
    for line in text.splitlines():
        if line.startswith(label):
            return [int(x) for x in line[len(label):].split()[:2]]
    raise AssertionError(f"{label!r} not in gnubg's statistics")


def test_each_decisions_error_adds_up_to_gnubgs_totals(analysed):
    """Chequer and cube errors per decision (the worst list's numbers) sum to gnubg's statistics;
    the 11-point sample has cube errors on both sides (match winning chances converted to EMG)."""
    eleven = (DATA / "noisy11.mat").read_text()
    out = engine.analyse(eleven, plies=0, timeout=300, program=services.program())
    for rep in (analysed[1], report.build(out.match, out.statistics_text, view_mat(eleven))):
        for side in ("first", "second"):
            stats, summed = rep["players"][side], rep["decision_errors"][side]
            assert summed["move"] == pytest.approx(stats["move_error"], abs=0.001)
            assert summed["cube"] == pytest.approx(stats["cube_error"], abs=0.001)
    assert rep["players"]["first"]["cube_error"] > 0.1 and rep["players"]["second"]["cube_error"] > 0.01


def test_the_luck_rate_is_gnubgs_per_move(analysed):
    """gnubg's "Luck rate (mEMG/move)" divides by the moves, not the marked rolls (issue 46:
    −3.806 / 90 = −42.3 was shown where gnubg says −43.2 over 88 moves)."""
    out, rep = analysed
    for line in out.statistics_text.split("Overall statistics", 1)[0].splitlines():
        if line.strip().startswith("Luck rate"):
            theirs = [float(x) for x in re.findall(r"([-+]?\d+\.\d+)\s*\(", line)][:2]
            break
    else:
        raise AssertionError("no luck rate in gnubg's statistics")
    ours = [rep["players"][side]["luck_rate"] for side in ("first", "second")]
    assert ours == pytest.approx(theirs, abs=0.06)
