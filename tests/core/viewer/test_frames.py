"""The record viewer's core: frames are the validator's positions, IDs decode back, any text is safe."""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.board.posid import decode_match_id, position_from_id
from scoring.rules.board.position import BLACK, WHITE, Position
from scoring.rules.records.matfile import game_record, parse_mat, validate_mat_text
from scoring.rules.records.play_notation import format_play
from scoring.rules.records.reader import parse_record
from scoring.rules.records.replay import replay
from scoring.viewer.frames import moves_in_numberings, view_text
from scoring.viewer.svg import board_svg, column_points
from tests.core.rules.conftest import random_game_positions

DATA = Path(__file__).resolve().parents[2] / "data" / "records"
MATS = sorted(DATA.glob("*.mat"))


def test_a_mat_file_gives_a_frame_per_action_and_the_validators_result():
    for path in MATS:
        text = path.read_text()
        view = view_text(text)
        mat = parse_mat(text)
        actions = sum(len(g.actions) for g in mat.games)
        assert len(view.frames) == len(mat.games) + actions
        assert not view.problems and validate_mat_text(text).ok
        won = validate_mat_text(text).winner()
        if mat.length:  # a money session (length 0) has no match winner
            assert won is not None and max(view.final_score) == won[1]
        else:
            assert won is None and view.final_score == validate_mat_text(text).final_score()
        assert [g.number for g in view.games] == [g.number for g in mat.games]


def test_play_frames_are_exactly_the_replayed_positions():
    text = (DATA / "gnubg_match7_seed5.mat").read_text()
    view = view_text(text)
    mat = parse_mat(text)
    for game_view, game in zip(view.games, mat.games, strict=True):
        report = replay(game_record(mat, game), keep_positions=True)
        frames = view.frames[game_view.first + 1 : game_view.last + 1]
        assert [f.position for f in frames if f.kind == "play"] == report.positions


def test_position_and_match_ids_decode_to_the_frame():
    view = view_text((DATA / "gnubg_match5_seed23.mat").read_text())
    for frame in view.frames[::7]:
        turn = frame.position.turn
        decoded = position_from_id(frame.position_id, turn)
        assert decoded.white[1:] == frame.position.white[1:]
        assert decoded.black[1:] == frame.position.black[1:]
        key = decode_match_id(frame.match_id)
        assert key.cube == frame.cube and key.match_length == view.length
        assert tuple(key.score) == frame.score and key.turn == turn


def test_the_book_game_shows_its_cube_and_both_numberings():
    view = view_text((DATA / "book_game1_backgammon.txt").read_text())
    assert view.numbering == "through"
    first = view.frames[1]
    assert first.moves == {"traditional": "6–2 012/7, 012/11", "through": "6–2 13/7, 13/11", "own": "6–2 13/7, 13/11"}
    assert view.frames[0].cube == 4  # two automatic doubles before the first move
    last = view.frames[-1]
    assert last.kind == "cube" and last.side == "black" and last.cube == 32
    assert view.games[0].winner == "white" and view.games[0].points == 32


def test_problems_sit_on_the_frame_of_their_move_and_side():
    view = view_text("№ хода\tБелые:\tЧёрные:\n1.\t6–2 13/7, 13/11\t4–1 12/16/17\n2.\t9–9 13/4\t4–2 17/21, 19/21\n")
    assert view.problems
    for problem, index in zip(view.problems, view.problem_frames, strict=True):
        frame = view.frames[index]
        assert (frame.move, frame.side) == (problem.move, problem.side)
        assert view.problems.index(problem) in frame.problems


def test_a_text_without_moves_says_so():
    view = view_text("just some prose, no moves at all")
    assert [p.code for p in view.problems] == ["matchfile.no_moves"]
    assert len(view.frames) == 1 and view.problem_frames == [0]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_a_view_with_located_problems(text):
    view = view_text(text)
    assert view.frames and view.games
    for index in view.problem_frames:
        assert index is None or 0 <= index < len(view.frames)
    for problem in view.problems:
        assert problem.message("ru") and problem.message("en")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_damaged_mat_file_never_breaks_the_viewer(data):
    lines = (DATA / "gnubg_match3_seed7.mat").read_text().splitlines()
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    for _ in range(data.draw(st.integers(1, 6))):
        i = rng.randrange(len(lines))
        choice = rng.random()
        if choice < 0.4:
            del lines[i]
        elif choice < 0.8:
            lines[i] = re.sub(r"\d", lambda m: str(rng.randint(0, 9)), lines[i])
        else:
            lines[i] = lines[i][::-1]
    view = view_text("\n".join(lines))
    assert view.frames
    for index in view.problem_frames:
        assert index is None or 0 <= index < len(view.frames)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["backgammon", "long_nardy"]))
def test_a_legal_play_reads_the_same_in_either_numbering(seed, variant):
    """Written in one numbering and converted to the other, a play lands on the same points."""
    for position, roll in random_game_positions(1, seed, variant)[:25]:
        plays = position.legal_plays(roll)
        if not plays:
            continue
        play = plays[random.Random(seed).randrange(len(plays))]
        side = "white" if position.turn == WHITE else "black"
        text = format_play(position, play, numbering="traditional")
        record = parse_record(f"1.\t{roll[0]}–{roll[1]} {text}\t" if side == "white" else f"1.\t...\t{roll[0]}–{roll[1]} {text}")
        plies = [e.ply for e in record.plays if e.ply is not None]
        if not plies:
            continue
        moves = moves_in_numberings(plies[0], side, "traditional", "long" if variant == "long_nardy" else "short")
        assert moves["traditional"].split(" ", 1)[1].replace("(", "").count("/") == text.replace("(", "").count("/")
        through = parse_record(
            (f"1.\t{moves['through']}\t" if side == "white" else f"1.\t...\t{moves['through']}"),
            numbering="through", variant=variant,
        )
        back = [e.ply for e in through.plays if e.ply is not None]
        again = moves_in_numberings(back[0], side, "through", "long" if variant == "long_nardy" else "short")
        assert again["traditional"] == moves["traditional"]


def test_the_board_is_drawn_in_the_books_orientation():
    top, bottom = column_points("short")
    assert bottom[:6] == [1, 2, 3, 4, 5, 6] and top[0] == 24  # White's home bottom left, 01 top left
    top, bottom = column_points("long")
    assert top[-1] == 24 and bottom[-1] == 1 and bottom[0] == 12  # White's head 012 top right
    svg = board_svg(Position.start("backgammon"), dice=(6, 5), dice_side="white", cube=1)
    assert svg.count("<circle") == 30  # 2-5-3-5 stacks of each side, one circle per checker
    assert ">012<" in svg and ">13<" in svg and ">64<" in svg
    long_svg = board_svg(Position.start("long_nardy", BLACK))
    assert long_svg.count('font-size="13" font-weight="bold"') == 2  # each head: five shown, counted on the last
