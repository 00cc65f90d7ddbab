"""Replaying a record move by move on the rules core, and the result it comes to.

:func:`replay` walks a :class:`~scoring.rules.records.events.Record`'s events with
:func:`scoring.rules.board.play_check.check_play` and :mod:`scoring.rules.match.cube`, and reports
every problem with its move number, side, printed text and a specific reason. After a
misprint the replay continues with the play as printed when the checkers it names exist
(the intent is clear even if the dice or a rule are wrong), and a checkpoint that
disagrees with the board is reported point by point and then *becomes* the board, so one
misprint does not bury the rest of the record under follow-on errors. The rules are
never relaxed to make a record pass.

Both readers feed this one replayer: the book's text (:mod:`scoring.rules.records.reader`)
and the .mat files (:mod:`scoring.rules.records.matfile`, a game at a time with its own cube
rules). It is the measured hot path of record validation (``bench/records.py``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scoring.rules.board.legal import has_legal_move, legal_plays
from scoring.rules.board.play_check import check_play
from scoring.rules.board.position import (
    SIDE_NAMES,
    Position,
    game_result,
    index_to_label,
    is_game_over,
    label_to_index,
)
from scoring.rules.board.steps import Step
from scoring.rules.board.unchecked import play_unchecked
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.match.cube import CubeState
from scoring.rules.records.checkpoint import compare_checkpoint
from scoring.rules.records.events import (
    CheckpointEvent,
    ClaimEvent,
    CubeEvent,
    Event,
    PlayEvent,
    Record,
    other_side,
    side_index,
)
from scoring.rules.records.notation import BAR, OFF, CubeAction, Ply, try_parse_ply
from scoring.rules.records.report import (
    CheckpointReport,
    RecordResult,
    ReplayReport,
    locate,
    record_problem,
)
from scoring.rules.variants import get_variant

#: ``{(numbering, side, geometry): {label: index}}``, filled as labels are converted: a
#: record names the same few dozen points again and again, and the conversion (string
#: checks, ``int``, the opposite-side table) costs more than the rest of a step. Only short
#: labels are kept, so the tables stay bounded whatever text is fed in.
_LABEL_INDEX: dict[tuple[str, str, str], dict[str, int]] = {}

#: Legal readings of a misprinted play tried against the following plays: those within
#: this many checkers of the nearest, at most this many (bounded work per misprint).
_NEAR_SLACK = 4
_NEAR_MAX = 24
#: How many following plays are tried, and further for readings still tied; the budget of
#: plays checked ahead in one game.
_AHEAD = 12
_AHEAD_FAR = 80
_AHEAD_BUDGET = 4000
#: Illegal plays after which a game is not followed further: each is reported at its move,
#: but a record this broken has no reading left to follow (and no more to say), and a
#: file of nothing but garbage must not cost more to check than a clean one.
MAX_ILLEGAL = 12

_ALL_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


class Replayer:
    """The replay state machine; :func:`replay` drives it over a :class:`Record`.

    Kept public so the .mat reader can feed it a game at a time with its own cube rules.
    """

    def __init__(self, record: Record, *, keep_positions: bool = False):
        self.record = record
        self.rules = get_variant(record.variant)
        self.numbering = record.numbering
        self.position = Position.start(record.variant, side_index(record.first))
        self.cube = CubeState.start(record.cube_rules)
        self.errors: list[Problem] = list(record.problems)
        #: Findings that do not make the record wrong: an illegal printed alternative.
        self.notes: list[Problem] = []
        self.checkpoints: list[CheckpointReport] = []
        self.turn = record.first
        self.expected_move = 1
        self.last: tuple[int, str] | None = None
        self.ended = False
        self.plays = 0
        self.moves_done = {"white": 0, "black": 0}
        self.claim: ClaimEvent | None = None
        self.keep_positions = keep_positions
        self.positions: list[Position] = []
        self._ahead_budget = _AHEAD_BUDGET
        #: Illegal plays met in this game; at :data:`MAX_ILLEGAL` the replay stops the game.
        self.illegal = 0
        self.game = record.game
        #: What happened, in order, with the side resolved: ``(side, kind, payload)`` where
        #: kind is "play" (payload: the event), or a cube kind (payload: the value).
        self.trace: list[tuple[str, str, Any]] = []

    # -- helpers ----------------------------------------------------------------------

    def error(self, code: str, **kw: Any) -> None:
        self.errors.append(record_problem(code, game=self.game, **kw))

    def _index(self, label: str, side: str, numbering: str) -> int:
        if label == BAR:
            return 25
        if label == OFF:
            return 0
        if numbering == "own":
            value = int(label)
            if not 0 <= value <= 25:
                raise ValueError(label)
            return value
        return label_to_index(label, side_index(side), numbering, self.rules.geometry)

    def _cached_index(self, label: str, side: str, numbering: str) -> int:
        """:meth:`_index` through the :data:`_LABEL_INDEX` memo."""
        table = _LABEL_INDEX.setdefault((numbering, side, self.rules.geometry), {})
        index = table.get(label)
        if index is None:
            index = self._index(label, side, numbering)
            if len(label) <= 3:
                table[label] = index
        return index

    def _steps(self, ply: Ply, side: str, numbering: str) -> list[Step]:
        table = _LABEL_INDEX.setdefault((numbering, side, self.rules.geometry), {})
        steps: list[Step] = []
        for chain in ply.chains:
            indices = []
            for label in chain.path:
                index = table.get(label)
                if index is None:
                    index = self._index(label, side, numbering)
                    if len(label) <= 3:
                        table[label] = index
                indices.append(index)
            hits = chain.hits
            one = [
                Step(indices[i - 1], indices[i], True if hits[i] else None, 0)
                for i in range(1, len(indices))
            ]
            steps.extend(one * chain.repeat)  # steps are immutable, so sharing them is safe
        return steps

    def _advance(self, side: str, move: int) -> None:
        self.last = (move, side)
        self.turn = other_side(side)
        self.moves_done[side] += 1
        self.expected_move = move + 1 if self.turn == self.record.first else move

    def _finished(self) -> bool:
        return self.ended or self.cube.is_over or is_game_over(self.position)

    # -- events -----------------------------------------------------------------------

    def opening(self) -> None:
        for _ in range(self.record.autodoubles):
            try:
                self.cube = self.cube.autodouble()
            except RuleViolation as exc:
                for p in exc.problems:
                    self.errors.append(replace(p, game=self.game))

    def play(self, event: PlayEvent) -> None:
        where = {"move": event.move, "side": event.side, "text": event.text}
        if self.illegal >= MAX_ILLEGAL:
            # Stopped: the board stays the last one that could exist; said once (below).
            self._advance(event.side, event.move)
            return
        if self._finished():
            self.error("moves_after_game_end", after_end_cube=False, **where)
            self._advance(event.side, event.move)
            return
        if event.problem is not None:
            self.errors.append(replace(event.problem, game=self.game))
        if self.cube.pending is not None:
            self._settle_offer(event)
        self.trace.append((event.side, "play", event))
        if event.side != self.turn:
            missing = self.turn
            self.error("out_of_turn", missing=missing, **where)
            self.turn = event.side
        elif event.move != self.expected_move and event.numbering != "own":
            self.error(
                "move_number_mismatch", printed=event.move, expected=self.expected_move, **where
            )
        ply = event.ply
        position = self.position
        if position.turn != (turn := side_index(event.side)):
            position = position.with_turn(turn)
        if ply is None:
            self.position = position.passed()
            self._advance(event.side, event.move)
            return
        if self.plays == 0 and self.record.opening and ply.dice is not None:
            last_roll = self.record.opening[-1]
            if sorted(ply.dice) != sorted(last_roll) and last_roll[0] != last_roll[1]:
                self.error(
                    "opening_roll_mismatch",
                    opening=f"{last_roll[0]}–{last_roll[1]}",
                    dice=f"{ply.dice[0]}–{ply.dice[1]}",
                    **where,
                )
        numbering = event.numbering or self.numbering
        try:
            steps = self._steps(ply, event.side, numbering)
        except ValueError:
            bad = next(
                (label for label in ply.labels if not self._label_ok(label, event.side, numbering)),
                "?",
            )
            self.error("bad_point", label=bad, scope="numbering", numbering=numbering, **where)
            self.position = position.passed()
            self._advance(event.side, event.move)
            return
        self.plays += 1
        if event.alternatives:
            self._check_alternatives(position, event, ply, numbering)
        if ply.no_roll:
            self._no_roll(position, event, where)
        elif ply.dice is None:
            self.error("missing_dice", **where)
            self._apply_unchecked(position, steps, event)
        elif not all([1 <= d <= 6 for d in ply.dice]):
            self.error("bad_dice", dice=f"{ply.dice[0]}–{ply.dice[1]}", **where)
            self._apply_unchecked(position, steps, event)
        else:
            if (
                check := check_play(position, ply.dice, steps, numbering=_msg_numbering(numbering))
            ).ok:
                self.position = check.position  # type: ignore[assignment]
            else:
                misprinted_roll = self._printed(position, steps)[1] and self._legal_with_another_roll(
                    position, steps, ply.dice
                )
                inferred = self._apply_unchecked(position, steps, event, trust_printed=misprinted_roll)
                self.illegal += 1
                beside = self._other_numbering(position, steps, event.side, numbering)
                for n, problem in enumerate(check.problems):
                    located = replace(locate(problem, **where), game=self.game)
                    if beside:
                        located = replace(located, details={**located.details, "through_play": beside})
                    if n == 0 and inferred is not None:
                        play = self._describe(position, inferred, event.side, dice=ply.dice)
                        located = replace(located, details={**located.details, "inferred": play})
                        if beside:  # the nearest play in the same numbering as the printed one beside it
                            through = self._describe(
                                position, inferred, event.side, self._through_label(event.side), dice=ply.dice
                            )
                            located = replace(located, details={**located.details, "through_inferred": through})
                    self.errors.append(located)
                if self.illegal >= MAX_ILLEGAL:
                    self.error("gave_up", count=self.illegal, **where)
        if self.keep_positions:
            self.positions.append(self.position)
        self._advance(event.side, event.move)

    def _check_alternatives(
        self, position: Position, event: PlayEvent, ply: Ply, numbering: str
    ) -> None:
        """Check each printed alternative against the position before the move (a note if not legal).

        An alternative is not played, so it never changes the board or the verdict; it
        takes the move's roll unless it prints its own.
        """
        for text in event.alternatives:
            alternative, problem = try_parse_ply(text, strict=False)
            if problem is None and alternative is not None:
                dice = alternative.dice or ply.dice
                if dice is None or not all(1 <= d <= 6 for d in dice):
                    continue  # the move itself is reported; nothing to check against
                try:
                    steps = self._steps(alternative, event.side, numbering)
                except ValueError:
                    bad = next(
                        (lb for lb in alternative.labels if not self._label_ok(lb, event.side, numbering)),
                        "?",
                    )
                    problem = record_problem("bad_point", label=bad, scope="numbering", numbering=numbering)
                else:
                    check = check_play(position, dice, steps, numbering=_msg_numbering(numbering))
                    problem = None if check.ok else check.problems[0]
            if problem is not None:
                self.notes.append(
                    record_problem(
                        "alternative_illegal",
                        move=event.move,
                        side=event.side,
                        text=event.text,
                        game=self.game,
                        alternative=text,
                        inner_code=problem.code,
                        inner_details=dict(problem.details),
                    )
                )

    def _label_ok(self, label: str, side: str, numbering: str) -> bool:
        try:
            self._index(label, side, numbering)
        except ValueError:
            return False
        return True

    def _no_roll(self, position: Position, event: PlayEvent, where: dict[str, Any]) -> None:
        possible = [roll for roll in _ALL_ROLLS if has_legal_move(position, roll)]
        if possible:
            roll = possible[0]
            self.error(
                "pass_while_move_exists",
                no_roll=True,
                roll=f"{roll[0]}–{roll[1]}",
                more=len(possible) - 1,
                **where,
            )
        self.position = position.passed()

    def _legal_with_another_roll(self, position: Position, steps: list[Step], dice: tuple[int, int]) -> bool:
        """Whether the printed play is legal with some other roll: the misprint is in the dice."""
        return any(
            check_play(position, roll, steps).ok for roll in _ALL_ROLLS if sorted(roll) != sorted(dice)
        )

    def _apply_unchecked(
        self, position: Position, steps: list[Step], event: PlayEvent, *, trust_printed: bool = True
    ) -> Position | None:
        """Follow the printed play past a misprint; returns the play the replay inferred.

        An illegal play is never drawn as printed unless the misprint is clearly in the
        roll (``trust_printed``: the play is legal with another roll, or the dice are
        missing) and every printed step is physically possible. Otherwise the replay goes
        on with the legal play whose result is nearest to what was printed (the first of
        equally near ones), so the problem is reported once, at its move, and the later
        moves are read against a board that can exist; with no legal play at all, with the
        physically possible steps only. Never a board with both colours on one point.
        """
        printed, plausible = self._printed(position, steps)
        inferred = None
        dice = event.ply.dice if event.ply else None
        if dice is not None and all(1 <= d <= 6 for d in dice):
            target = printed.board(position.turn)
            near: dict[Position, int] = {}
            for play in legal_plays(position, dice):
                board = play.position.board(position.turn)
                near.setdefault(play.position, sum(abs(a - b) for a, b in zip(board, target, strict=True)))
            # The reading the record goes on from: of the printed board (when the misprint
            # is only in the roll) and the legal plays near what was printed, the one the
            # game's following plays replay cleanly from, then the nearest — so a misprint
            # is reported once, at its move, not again at every later move.
            keep_printed = plausible and trust_printed
            ranked = sorted(near.items(), key=lambda item: item[1])
            if ranked:
                ranked = [item for item in ranked if item[1] <= ranked[0][1] + _NEAR_SLACK][:_NEAR_MAX]
            candidates = ([(printed, 0)] if keep_printed else []) + ranked
            if candidates:
                score = {id(c[0]): self._clean_ahead(event, c[0], _AHEAD) for c in candidates}
                best = max(score.values())
                tied = [c for c in candidates if score[id(c[0])] == best]
                if best == _AHEAD and len(tied) > 1:  # several read on: look further for those
                    score.update({id(c[0]): self._clean_ahead(event, c[0], _AHEAD_FAR) for c in tied})
                chosen = min(candidates, key=lambda c: (-score[id(c[0])], c[1]))[0]
                inferred = None if keep_printed and chosen is printed else chosen
        if inferred is None and not plausible:
            printed = play_unchecked(position, steps, skip_impossible=True).position
        self.position = inferred or printed
        return inferred

    def _through_label(self, side: str):
        turn = side_index(side)
        return lambda index: {25: "bar", 0: "off"}.get(index) or index_to_label(index, turn, "through", "short")

    def _other_numbering(self, position: Position, steps: list[Step], side: str, numbering: str) -> str:
        """The play in the through numbering when it was printed in a side's own (.mat, Black):
        quoted beside the printed one, since the two read differently."""
        if numbering != "own" or side != "black" or self.rules.geometry != "short":
            return ""
        label = self._through_label(side)
        return " ".join(f"{label(s.src)}/{label(s.dst)}{'*' if s.hit else ''}" for s in steps)

    def _clean_ahead(self, event: PlayEvent, position: Position, horizon: int) -> int:
        """How many of the game's next plays (up to ``horizon``) replay legally from ``position``.

        Bounded per game by :data:`_AHEAD_BUDGET` plays checked, so a file of nothing but
        misprints costs no more than a few clean games.
        """
        events = self.record.events
        try:
            start = next(i for i, e in enumerate(events) if e is event) + 1
        except StopIteration:
            return 0
        clean = 0
        for later in events[start:]:
            if clean >= horizon or self._ahead_budget <= 0:
                break
            if not isinstance(later, PlayEvent):
                continue
            ply = later.ply
            if ply is None or ply.dice is None or ply.no_roll or not all(1 <= d <= 6 for d in ply.dice):
                break
            turn = side_index(later.side)
            if position.turn != turn:
                position = position.with_turn(turn)
            try:
                steps = self._steps(ply, later.side, later.numbering or self.numbering)
            except ValueError:
                break
            self._ahead_budget -= 1
            check = check_play(position, ply.dice, steps)
            if not check.ok or check.position is None:
                break
            position = check.position
            clean += 1
        return clean

    def _printed(self, position: Position, steps: list[Step]) -> tuple[Position, bool]:
        """The board after the printed steps (impossible ones skipped) and whether all were
        physically possible."""
        done = play_unchecked(position, steps)
        return done.position, done.plausible

    def _describe(self, before: Position, after: Position, side: str, label=None, dice=None) -> str:
        """A play as ``from/to`` labels for messages, every hit marked ``*`` as the book marks
        it (ch7, a hit in passing too) — in the record's numbering, or ``label``'s.

        With the roll, the steps of the legal play that leads to ``after``; without it (or
        when none does), read off the board difference, where only a hit on arrival shows.
        """
        label = label or (lambda index: self._label(index, side))
        if dice is not None:
            for play in legal_plays(before, dice):
                if (play.position.white, play.position.black) == (after.white, after.black) and play.steps:
                    joint = " " if self.numbering == "own" else ", "  # gnubg's spaces, the book's commas
                    return joint.join(f"{label(st.src)}/{label(st.dst)}{'*' if st.hit else ''}" for st in play.steps)
        s = side_index(side)
        old, new = before.board(s), after.board(s)
        left = [i for i in range(25, -1, -1) for _ in range(max(old[i] - new[i], 0))]
        arrived = [i for i in range(25, -1, -1) for _ in range(max(new[i] - old[i], 0))]
        hit: set[int] = set()
        if self.rules.geometry == "short":  # a blot is hit only in the short game
            theirs_old, theirs_new = before.board(1 - s), after.board(1 - s)
            hit = {b for b in arrived if 1 <= b <= 24 and theirs_old[25 - b] > theirs_new[25 - b]}
        pairs = [f"{label(a)}/{label(b)}{'*' if b in hit else ''}" for a, b in zip(left, arrived, strict=False)]
        return ", ".join(pairs) or "Ø"

    def _settle_offer(self, event: PlayEvent) -> None:
        """A play after an offer means it was accepted (the book omits the take)."""
        pending = self.cube.pending
        if pending is None:
            return
        answerer = "white" if pending.by == "black" else "black"
        try:
            self.cube = self.cube.take(answerer)
            self.trace.append((answerer, "take", pending.value))
        except RuleViolation as exc:
            for p in exc.problems:
                self.errors.append(locate(p, move=event.move, side=event.side, text=event.text))

    def cube_event(self, event: CubeEvent) -> None:
        actions = list(event.actions)
        move = event.move
        for i, action in enumerate(actions):
            if (
                action.kind == "take"
                and i + 1 < len(actions)
                and actions[i + 1].kind in ("beaver", "raccoon")
            ):
                continue  # "D16. B32": the beaver includes the take.
            if self._finished():
                self.error(
                    "moves_after_game_end",
                    after_end_cube=True,
                    action=action.kind,
                    move=move,
                    side=event.side,
                    text=event.text,
                )
                return
            self._cube_action(action, event)

    def _cube_action(self, action: CubeAction, event: CubeEvent) -> None:
        pending = self.cube.pending
        if action.kind in ("offer", "auto"):
            actor = event.side or self.turn
        elif pending is not None:
            actor = event.side or ("white" if pending.by == "black" else "black")
        else:
            actor = event.side or self.turn
        move = self.expected_move  # a cube action belongs to the roll that follows it
        where = {"move": move, "side": actor, "text": event.text}
        try:
            if action.kind == "offer":
                if actor != self.turn:
                    self.error("double_out_of_turn", actor=actor, turn=self.turn, **where)
                    return
                expected = self.cube.rules.next_value(self.cube.value)
                self._value_check(action, expected, where)
                self.cube = self.cube.offer(actor, moves_each=min(self.moves_done.values()))
            elif action.kind == "take":
                if pending is not None:
                    self._value_check(action, pending.value, where)
                self.cube = self.cube.take(actor)
            elif action.kind == "beaver":
                if pending is not None:
                    self._value_check(action, self.cube.rules.next_value(pending.value), where)
                self.cube = self.cube.beaver(actor)
            elif action.kind == "raccoon":
                if pending is not None:
                    self._value_check(action, self.cube.rules.next_value(pending.value), where)
                self.cube = self.cube.raccoon(actor)
            elif action.kind == "drop":
                self.cube = self.cube.drop(actor)
            elif action.kind == "auto":
                self._value_check(action, self.cube.rules.next_value(self.cube.value), where)
                self.cube = self.cube.autodouble()
        except RuleViolation as exc:
            for p in exc.problems:
                self.errors.append(replace(locate(p, **where), game=self.game))
            return
        self.trace.append((actor, action.kind, action.value))

    def _value_check(self, action: CubeAction, expected: int, where: dict[str, Any]) -> None:
        if action.value is not None and action.value != expected:
            self.error("cube_wrong_value", value=action.value, expected=expected, **where)

    def checkpoint(self, event: CheckpointEvent) -> None:
        """Compare a printed position with the board; on a mismatch it becomes the board."""
        move, side = self.last if self.last else (None, None)
        numbering = self.numbering
        found = compare_checkpoint(
            event,
            self.position,
            lambda label, side_name: self._cached_index(label, side_name, numbering),
            self._label,
            self.rules.checkers,
        )
        for side_name, bad_label in found.bad_labels:
            self.error(
                "bad_point",
                label=bad_label,
                scope="checkpoint",
                move=move,
                side=side_name,
                text=event.text,
            )
        diff = found.diff
        ok = not diff
        self.checkpoints.append(CheckpointReport(move, side, ok, diff, event.text, event.line))
        if not ok:
            self.error(
                "checkpoint_mismatch",
                move=move,
                side=side,
                text=event.text,
                diff=diff,
            )
            white, black = found.boards
            self.position = Position(white, black, self.position.turn, self.record.variant)

    def _label(self, index: int, side: str) -> str:
        if self.numbering == "own":
            return {25: "bar", 0: "off"}.get(index, str(index))
        return index_to_label(index, side_index(side), self.numbering, self.rules.geometry)

    def run(self, events: list[Event]) -> None:
        self.opening()
        for event in events:
            if isinstance(event, PlayEvent):
                self.play(event)
            elif isinstance(event, CubeEvent):
                self.cube_event(event)
            elif isinstance(event, CheckpointEvent):
                self.checkpoint(event)
            elif isinstance(event, ClaimEvent):
                self.claim = event

    def result(self) -> RecordResult | None:
        table = self.rules.table
        if self.cube.is_over and self.cube.winner_by_pass is not None:
            return RecordResult(
                self.cube.winner_by_pass, table.kinds[0][0], self.cube.value, self.cube.value, True
            )
        finished = game_result(self.position)
        if finished is None:
            return None
        if self._jacoby_single(finished.value):
            return RecordResult(SIDE_NAMES[finished.winner], table.kinds[0][0], self.cube.value, self.cube.value)
        return RecordResult(
            SIDE_NAMES[finished.winner],
            finished.kind,
            self.cube.value,
            finished.value * self.cube.value,
        )

    def _jacoby_single(self, value: int) -> bool:
        """Whether the Jacoby rule scores this gammon or backgammon as a single game."""
        return value > 1 and self.cube.rules.jacoby and self.cube.owner is None

    def report(self) -> ReplayReport:
        result = self.result()
        finished = game_result(self.position)
        face = None  # the board's value times the cube, what gnubg's "Wins" line prints
        if result is not None and finished is not None and self._jacoby_single(finished.value):
            face = finished.value * self.cube.value
            self.notes.append(
                record_problem(
                    "jacoby_single",
                    player=result.winner,
                    result=finished.kind,
                    points=result.points,
                    cube=self.cube.value,
                    side=result.winner,
                    game=self.game,
                )
            )
        if self.claim is not None:
            claim = self.claim
            pending = self.cube.pending
            if result is None and pending is not None and pending.kind != "double" and self.cube.rules.gnubg_beavers:
                # gnubg's beaver is taken at once: a resignation after it is at its stake.
                self.cube = self.cube.take("white" if pending.by == "black" else "black")
            if result is None:
                # A resignation: the stated points stand, as a multiple of the cube.
                kinds = dict(self.rules.table.kinds)
                per_cube = claim.points // max(self.cube.value, 1)
                kind = next((k for k, v in kinds.items() if v == per_cube), None)
                # What the loser still risks: the board scored as if the winner had borne
                # off everything now.
                winner_index = side_index(claim.side)
                boards = [self.position.white, self.position.black]
                boards[winner_index] = (self.rules.checkers,) + (0,) * 25
                at_most = game_result(Position(boards[0], boards[1], 0, self.record.variant))
                limit = at_most.value if at_most is not None else 0
                claimed = {
                    "player": claim.side,
                    "points": claim.points,
                    "cube": self.cube.value,
                    "limit": limit * self.cube.value,
                    "side": claim.side,
                    "text": claim.text,
                }
                if kind is not None and per_cube * self.cube.value == claim.points and per_cube > limit:
                    # More than the position risks, yet a value of the game: a resignation
                    # the opponent accepted (gnubg lets a player resign a backgammon that
                    # cannot happen). It stands; the note says so.
                    self.notes.append(record_problem("resigned_above_risk", game=self.game, **claimed))
                elif kind is None or per_cube * self.cube.value != claim.points:
                    self.error("result_mismatch", **claimed)
                result = RecordResult(claim.side, kind or "resign", self.cube.value, claim.points)
            elif claim.side != result.winner or claim.points not in (result.points, face):
                self.error(
                    "result_mismatch",
                    player=claim.side,
                    points=claim.points,
                    winner=result.winner,
                    replay_points=result.points,
                    result=result.kind,
                    cube=result.cube,
                    side=claim.side,
                    text=claim.text,
                )
        return ReplayReport(
            variant=self.record.variant,
            numbering=self.numbering,
            errors=self.errors,
            checkpoints=self.checkpoints,
            result=result,
            position=self.position,
            plays=self.plays,
            positions=self.positions,
            notes=self.notes,
        )


def _msg_numbering(numbering: str) -> str:
    """Messages name points in the record's own numbering: a move is quoted as printed."""
    return numbering


def replay(record: Record, *, keep_positions: bool = False) -> ReplayReport:
    """Replay a parsed record and report every problem (see the module docstring)."""
    replayer = Replayer(record, keep_positions=keep_positions)
    replayer.run(record.events)
    return replayer.report()
