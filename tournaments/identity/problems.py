"""``merge.*``: why two players cannot be merged (yet) — RU and EN."""

from scoring.rules.errors import Catalogue

MERGE = Catalogue(
    "merge",
    {
        "same_player": (
            "A player cannot be merged with themselves.",
            "Игрока нельзя объединить с самим собой.",
        ),
        "reason": (
            "Say why these two players are one person (for example: the same year of birth and club).",
            "Укажите, почему это один человек (например: тот же год рождения и клуб).",
        ),
        "both_entered": (
            "{keep} and {gone} are both entered in {events}: one person cannot play twice in one "
            "tournament. Withdraw or remove one of the entries first.",
            "{keep} и {gone} оба заявлены в турнирах: {events}. Один человек не может играть в "
            "турнире дважды: сначала снимите или удалите одну из заявок.",
        ),
        "two_accounts": (
            "{keep} and {gone} each have a user account: unlink one of them first (a person logs in "
            "with one account).",
            "У {keep} и у {gone} по своей учётной записи: сначала отвяжите одну из них (человек "
            "входит под одной учётной записью).",
        ),
    },
)
