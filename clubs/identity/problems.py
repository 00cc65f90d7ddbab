"""``identity.*``: why a person must be confirmed before a player is created — RU and EN."""

from scoring.rules.errors import Catalogue

IDENTITY = Catalogue(
    "identity",
    {
        "choose": (
            "{who} may already be in the database: {candidates}. Choose that player, "
            "or confirm that this is a new player.",
            "{who}, возможно, уже есть в базе: {candidates}. Выберите этого игрока "
            "или подтвердите, что это новый игрок.",
        ),
        "not_a_candidate": (
            "Player #{player} is not one of the players proposed for {who}.",
            "Игрок №{player} не из тех, кого предложили для «{who}».",
        ),
    },
)
