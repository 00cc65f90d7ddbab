"""Every record the app exports reads back to the same positions, cube and score.

Matches are generated: random legal plays, doubles, takes and passes, beavers, automatic
doubles at the opening, the Crawford game, resignations, several games. Each is stored as a
.mat (what GNU Backgammon writes) and then exported the ways the app offers: the multi-game
``.txt`` in the book's notation (Russian and English) and, for one game in the book's
notation, the ``.mat`` download. Whatever format cannot carry something says so in a
comment line (``.mat`` and automatic doubles) and still reads back the same.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.records.match_files import as_book_text, as_mat
from scoring.rules.board.legal import legal_plays
from scoring.rules.board.position import OFF, Position, game_result
from scoring.rules.records.matfile import MatAction, MatGame, MatMatch, export_mat, parse_mat
from scoring.rules.records.notation import BAR, Chain
from scoring.rules.records.notation import OFF as OFF_LABEL
from scoring.viewer.frames import RecordView, view_text

MAX_CUBE = 64


def _label(index: int) -> str:
    return BAR if index == 25 else OFF_LABEL if index == OFF else str(index)


def make_match(seed: int, length: int, *, beavers: bool, autodoubles: bool, games: int) -> MatMatch:
    """A legal match of up to ``games`` games (stops when someone reaches ``length``)."""
    rng = random.Random(seed)
    match = MatMatch(length=length, players=("Petrov", "Orlov"))
    score = [0, 0]
    crawford_played = False
    for number in range(1, games + 1):
        if length and max(score) >= length:
            break
        crawford = length > 1 and not crawford_played and length - 1 in score
        crawford_played = crawford_played or crawford
        cube_on = length != 1 and not crawford
        auto = rng.choice([0, 0, 1, 2]) if autodoubles and cube_on else 0
        game = MatGame(number, (score[0], score[1]), autodoubles=auto)
        first = rng.randint(0, 1)
        pos = Position.start("backgammon", first)
        value, owner = 2**auto, None
        actions: list[MatAction] = []
        sides = ("white", "black")
        winner = points = None
        for _ply in range(300):
            turn = pos.turn
            me, you = sides[turn], sides[1 - turn]
            if actions and cube_on and owner in (None, turn) and value * 2 <= MAX_CUBE and rng.random() < 0.05:
                actions.append(MatAction(0, me, "double", "", value=value * 2))
                answer = rng.random()
                if answer < 0.3:
                    actions.append(MatAction(0, you, "drop", ""))
                    winner, points = me, value
                    break
                if beavers and answer < 0.5 and value * 4 <= MAX_CUBE:
                    actions.append(MatAction(0, you, "beaver", "", value=value * 4))
                    if rng.random() < 0.3:
                        actions.append(MatAction(0, me, "drop", ""))
                        winner, points = you, value * 2
                        break
                    actions.append(MatAction(0, me, "take", ""))
                    value, owner = value * 4, 1 - turn
                else:
                    actions.append(MatAction(0, you, "take", ""))
                    value, owner = value * 2, 1 - turn
            if actions and rng.random() < 0.008:  # the side on roll resigns a single game
                winner, points = you, value
                break
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = rng.choice(legal_plays(pos, dice))
            chains = tuple(Chain((_label(s.src), _label(s.dst)), (False, bool(s.hit)), 1) for s in play.steps)
            actions.append(MatAction(0, me, "play", "", dice=dice, chains=chains))
            pos = play.position
            result = game_result(pos)
            if result is not None:
                winner, points = sides[result.winner], result.value * value
                break
        # Rows as GNU Backgammon lays them out: White left, Black right.
        row, taken = 0, {"white", "black"}
        for action in actions:
            if action.side in taken or (action.side == "white" and "black" in taken):
                row, taken = row + 1, set()
            taken.add(action.side)
            game.actions.append(MatAction(row, action.side, action.kind, action.text, action.dice,
                                          action.chains, action.value))
        game.winner, game.points = winner, points
        if winner is not None and points is not None:
            score[sides.index(winner)] += points
        match.games.append(game)
    return match


def _summary(view: RecordView) -> list[tuple]:
    """What must survive an export: per game its plays' positions with the cube, and the result."""
    out = []
    for game in view.games:
        frames = view.frames[game.first : game.last + 1]
        plays = [(f.position, f.cube, f.cube_owner, f.dice) for f in frames if f.kind == "play"]
        out.append((game.number, game.score, game.autodoubles, plays, game.winner, game.points, game.cube))
    return out


matches = st.builds(
    make_match,
    seed=st.integers(0, 10**9),
    length=st.sampled_from([0, 1, 3, 5, 7]),
    beavers=st.booleans(),
    autodoubles=st.booleans(),
    games=st.integers(1, 4),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_a_match_reads_back_from_every_export(match):
    stored = export_mat(match)
    original = view_text(stored)
    assert original.problems == [], [p.code for p in original.problems]
    assert parse_mat(stored).key() == match.key()
    assert [g.autodoubles for g in original.games] == [g.autodoubles for g in match.games]
    if any(g.autodoubles for g in match.games):
        assert "; [Automatic doubles" in stored  # said in a comment, never as a false double
    for english in (True, False):
        text = as_book_text(original, players=match.players, english=english)
        back = view_text(text)
        assert back.problems == [], (english, [p.code for p in back.problems])
        assert _summary(back) == _summary(original)
        assert back.final_score == original.final_score and back.length == original.length
        assert tuple(back.players) == match.players


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches.filter(lambda m: len(m.games) >= 1))
def test_one_game_in_the_books_notation_reads_back_from_its_mat(match):
    first = MatMatch(match.length, match.players, [], [match.games[0]])
    book = as_book_text(view_text(export_mat(first)), players=match.players, english=False)
    # One game only: the match line and heading are the book's header, not a match.
    single = "\n".join(line for line in book.splitlines() if " — " not in line)
    original = view_text(single)
    assert original.kind == "text" and original.problems == []
    mat = as_mat(single, variant="backgammon", length=match.length, players=match.players)
    back = view_text(mat)
    assert back.problems == [], [p.code for p in back.problems]
    assert _summary(back)[0][1:] == _summary(original)[0][1:]
