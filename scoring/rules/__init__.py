"""The pure rules core of Zarik: positions, legal plays, records and match rules.

Nothing here imports Django; every result and record in the project is checked against
these functions.

Rooms, one concern each (dependencies go one way, down this list)
    :mod:`scoring.rules.records` (the book's notation and ``.mat`` files: the one record
    reader, replay, report), :mod:`scoring.rules.board` (positions, legal plays, why a
    play is illegal, GNU Backgammon IDs), :mod:`scoring.rules.match` (match options, the
    cube, checking a reported result), :mod:`scoring.rules.chouette` (the chouette's
    ledger), :mod:`scoring.rules.problems` (the ``record.*`` and ``match.*`` catalogues),
    :mod:`scoring.rules.variants` (the games as data) and :mod:`scoring.rules.errors`
    (the bilingual problem type).

Positions and variants
    :class:`Position` (immutable; per-colour 26-slot boards from each side's own point of
    view, the side on roll, the variant key), :data:`VARIANTS` keyed ``"backgammon"``,
    ``"short_nardy"``, ``"nackgammon"``, ``"hypergammon"``, ``"caucasian"``,
    ``"long_nardy"``, ``"karzar"``; point labels in traditional and through numbering
    (:func:`label_to_index`, :func:`index_to_label`); :func:`pip_count`,
    :func:`all_home`, :func:`is_game_over`, :func:`game_result`.

Legal plays
    ``position.legal_plays(dice)`` / :func:`legal_plays` (one :class:`Play` per distinct resulting position),
    :func:`legal_end_positions` (just those positions, the fast path),
    :func:`check_play` (why a printed play is illegal, as ``Problem`` objects; codes in
    :data:`PROBLEM_CODES`), :func:`apply_steps_unchecked` and :func:`play_unchecked`
    (move checkers as printed, for replaying past a misprint).

One play in the book's notation
    :func:`parse_play` (text → the legal :class:`Play`, or ``RuleViolation``) and
    :func:`format_play` (a play → text), in traditional or through numbering.

Problems
    every finding is a :class:`Problem` whose words live in one catalogue a namespace:
    ``record.*`` in :mod:`scoring.rules.problems.record`, ``match.*`` in
    :mod:`scoring.rules.problems.match`.

GNU Backgammon IDs
    :func:`position_id`, :func:`position_from_id`, :func:`encode_match_id`,
    :func:`decode_match_id`, and :func:`legal_positions`.

Each name below is imported from the module that defines it, so following an import
lands on the code; outside this package, import a name from its defining module too.
"""

from __future__ import annotations

from scoring.rules.board.legal import legal_end_positions, legal_plays, max_dice_playable
from scoring.rules.board.play_check import PROBLEM_CODES, PlayCheck, check_play
from scoring.rules.board.posid import (
    START_POSITION_ID,
    MatchKey,
    decode_boards,
    decode_match_id,
    encode_boards,
    encode_match_id,
    position_from_id,
    position_id,
)
from scoring.rules.board.position import (
    BAR,
    BLACK,
    OFF,
    WHITE,
    GameResult,
    Position,
    all_home,
    game_result,
    index_to_label,
    is_game_over,
    label_to_index,
    pip_count,
    start_position,
    winner,
)
from scoring.rules.board.steps import Play, Step
from scoring.rules.board.unchecked import UncheckedPlay, apply_steps_unchecked, play_unchecked
from scoring.rules.errors import Problem, RuleViolation
from scoring.rules.records.play_notation import format_play, parse_play
from scoring.rules.variants import SCORING_TABLES, VARIANTS, ScoringTable, Variant, get_variant


def legal_positions(position_id: str, dice: tuple[int, int]) -> set[str]:
    """Position IDs of all distinct positions reachable by a legal play (backgammon rules).

    Each result is encoded from the same player's point of view as the input — the player
    who just moved is still "on roll" in the ID (the turn is not passed). As in GNU
    Backgammon's move generator, a roll with no legal move (a dance) gives the empty set,
    and so does a finished game. Raises ``ValueError`` for a malformed ID or dice.
    """
    pos = position_from_id(position_id, WHITE, "backgammon")
    # Our WHITE is the player on roll in the ID, so the results' white board is theirs.
    after = legal_end_positions(pos, (int(dice[0]), int(dice[1])))
    return {encode_boards(p.white, p.black) for p in after}


__all__ = [
    "BAR",
    "BLACK",
    "OFF",
    "PROBLEM_CODES",
    "SCORING_TABLES",
    "START_POSITION_ID",
    "VARIANTS",
    "WHITE",
    "GameResult",
    "MatchKey",
    "Play",
    "PlayCheck",
    "Position",
    "Problem",
    "RuleViolation",
    "ScoringTable",
    "Step",
    "UncheckedPlay",
    "Variant",
    "all_home",
    "apply_steps_unchecked",
    "check_play",
    "decode_boards",
    "decode_match_id",
    "encode_boards",
    "encode_match_id",
    "format_play",
    "game_result",
    "get_variant",
    "index_to_label",
    "is_game_over",
    "label_to_index",
    "legal_end_positions",
    "legal_plays",
    "legal_positions",
    "max_dice_playable",
    "parse_play",
    "pip_count",
    "play_unchecked",
    "position_from_id",
    "position_id",
    "start_position",
    "winner",
]

# --- re-exports appended by the record / match engineers below this line ---
# match rules (issue 4): cube state machine, match validation, categories
from scoring.rules.match.categories import CATEGORIES, Category, RoundRule, get_category, round_rule  # noqa: E402
from scoring.rules.match.check import validate_match, validate_match_data  # noqa: E402
from scoring.rules.match.cube import CubeRules, CubeState  # noqa: E402
from scoring.rules.match.spec import GameEntry, MatchSpec, MatchValidation  # noqa: E402

__all__ += [
    "CATEGORIES",
    "Category",
    "CubeRules",
    "CubeState",
    "GameEntry",
    "MatchSpec",
    "MatchValidation",
    "RoundRule",
    "get_category",
    "round_rule",
    "validate_match",
    "validate_match_data",
]
# Records (book notation, whole games, .mat files) — appended by the record engineer.
from scoring.rules.records.events import Record as Record  # noqa: E402
from scoring.rules.records.matfile import MatchReport as MatchReport  # noqa: E402
from scoring.rules.records.matfile import MatMatch as MatMatch  # noqa: E402
from scoring.rules.records.matfile import export_mat as export_mat  # noqa: E402
from scoring.rules.records.matfile import parse_mat as parse_mat  # noqa: E402
from scoring.rules.records.matfile import validate_match as validate_mat_match  # noqa: E402
from scoring.rules.records.notation import Ply as Ply  # noqa: E402
from scoring.rules.records.notation import format_ply as format_ply  # noqa: E402
from scoring.rules.records.notation import parse_ply as parse_ply  # noqa: E402
from scoring.rules.records.reader import parse_record as parse_record  # noqa: E402
from scoring.rules.records.replay import replay as replay  # noqa: E402
from scoring.rules.records.report import ReplayReport as ReplayReport  # noqa: E402
from scoring.rules.records.validate import validate_text as validate_record_text  # noqa: E402

__all__ += [  # noqa: PLE0605
    "MatMatch",
    "MatchReport",
    "Ply",
    "Record",
    "ReplayReport",
    "export_mat",
    "format_ply",
    "parse_mat",
    "parse_ply",
    "parse_record",
    "replay",
    "validate_mat_match",
    "validate_record_text",
]
