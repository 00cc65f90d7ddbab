"""``draw.*``: what the open draw of numbers refuses, in English and Russian."""

from scoring.rules.errors import Catalogue

DRAW = Catalogue(
    "draw",
    {
        "rounds_exist": (
            "Round 1 is already paired: the draw of numbers cannot be held again.",
            "Первый тур уже составлен: номерную жеребьёвку провести заново нельзя.",
        ),
        "not_committed": (
            "Publish the commitment first: the draw uses the seed whose hash was published.",
            "Сначала опубликуйте хеш: жеребьёвка проводится с ключом, хеш которого опубликован.",
        ),
        "no_participants": (
            "Nobody to draw: enter the players first.",
            "Жеребьёвку проводить не для кого: сначала внесите участников.",
        ),
        "commitment_mismatch": (
            "The seed {seed} does not match the published commitment {commitment}.",
            "Ключ {seed} не соответствует опубликованному хешу {commitment}.",
        ),
        "no_commitment": (
            "No commitment was published before this draw.",
            "Хеш ключа перед этой жеребьёвкой не публиковался.",
        ),
        "not_reproduced": (
            "Re-running the draw with seed {seed} does NOT give the published numbers.",
            "Повтор жеребьёвки с ключом {seed} НЕ даёт опубликованных номеров.",
        ),
    },
)
