"""Standings core: rank players by the organiser's criteria, build crosstables.

Pure Python (no Django): the shell converts its models to :mod:`.types` and
calls :func:`compute_standings`, :func:`build_crosstable`,
:func:`build_round_crosstable`, :func:`section_standings` or
:func:`champion_of` (the title: :func:`absolute_champion` across sections).
"""

from .crosstable import (
    CrossCell,
    Crosstable,
    CrosstableLayout,
    RoundCell,
    RoundCrosstable,
    RoundRow,
    build_crosstable,
    build_round_crosstable,
    format_score,
)
from .cup import bracket_name, stage_labels, table_stages
from .metrics import DEFAULT_TIEBREAKS, Metric, all_metrics, default_tiebreaks, get_metric
from .ranking import StandingRow, Standings, check_matches, compute_standings, resolve_options
from .sections import (
    TITLE_BY_TABLE,
    ChampionDecision,
    absolute_champion,
    champion_of,
    section_keys,
    section_standings,
    section_strength,
)
from .types import Adjustment, ByeValue, Match, MatchStatus, Player, Score, StandingsOptions, System

__all__ = [
    "Adjustment",
    "DEFAULT_TIEBREAKS",
    "ByeValue",
    "ChampionDecision",
    "CrossCell",
    "Crosstable",
    "CrosstableLayout",
    "Match",
    "MatchStatus",
    "Metric",
    "Player",
    "RoundCell",
    "RoundCrosstable",
    "RoundRow",
    "Score",
    "StandingRow",
    "Standings",
    "StandingsOptions",
    "System",
    "TITLE_BY_TABLE",
    "absolute_champion",
    "champion_of",
    "all_metrics",
    "build_crosstable",
    "bracket_name",
    "build_round_crosstable",
    "check_matches",
    "compute_standings",
    "default_tiebreaks",
    "format_score",
    "stage_labels",
    "table_stages",
    "get_metric",
    "resolve_options",
    "section_keys",
    "section_standings",
    "section_strength",
]
