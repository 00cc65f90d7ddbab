"""Pure pairing generators for every competition system of the book's Part 9.

Plain data in, plain pairings out, every decision recorded as a coded
:class:`~scoring.rules.errors.Problem` of the ``pairing.why`` catalogue
(:mod:`tournaments.pairing.problems`). Nothing here imports Django; the tournament manager reads the
models, builds the input (see :func:`build_players`), runs a generator and
stores the draft.
"""

from tournaments.pairing.checks import check_pairings
from tournaments.pairing.history import Entrant, TableResult, build_players
from tournaments.pairing.knockout import (
    Bracket,
    KnockoutEntrant,
    KnockoutOptions,
    MatchState,
    advance,
    build_knockout,
    champion,
    playable,
    resolve,
)
from tournaments.pairing.round_robin import RoundRobinRound, berger_table, round_robin
from tournaments.pairing.scheveningen import (
    ScheveningenRound,
    lineup_problems,
    scheveningen,
    team_knockout,
)
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.swiss_input import (
    PairingInput,
    ScoreGroupReport,
    SwissOptions,
    SwissPlayer,
    SwissResult,
)
from tournaments.pairing.trf import (
    TrfTournament,
    dump_trf,
    from_results,
    parse_trf,
    to_pairing_input,
)
from tournaments.pairing.types import Bye, Pairing, PlayerId

__all__ = [
    "Bracket",
    "check_pairings",
    "Bye",
    "Entrant",
    "KnockoutEntrant",
    "KnockoutOptions",
    "MatchState",
    "Pairing",
    "PairingInput",
    "PlayerId",
    "RoundRobinRound",
    "ScheveningenRound",
    "ScoreGroupReport",
    "SwissOptions",
    "SwissPlayer",
    "SwissResult",
    "TableResult",
    "TrfTournament",
    "advance",
    "berger_table",
    "build_knockout",
    "build_players",
    "champion",
    "dump_trf",
    "from_results",
    "lineup_problems",
    "pair_swiss",
    "parse_trf",
    "playable",
    "resolve",
    "round_robin",
    "scheveningen",
    "team_knockout",
    "to_pairing_input",
]
