"""Demo data: the book's crosstable tournament and a Swiss in progress.

Everything is keyed on natural keys (slugs, names, round and table numbers)
and written with ``update_or_create``, so loading twice leaves the same data.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction

from clubs.life.chouette import services as chouette_service
from clubs.models import Category, ChouetteSession, Club, ClubRole, ClubRoleKind, Membership, Player
from clubs.ratings.pools import POOLS
from scoring.models import Result, ResultState
from scoring.rules import chouette
from tournaments.models import (
    CompetitionSystem,
    Entry,
    EntryStatus,
    Game,
    Match,
    Official,
    OfficialRole,
    ResultStatus,
    Round,
    RoundStatus,
    ScoringSystem,
    Seeding,
    Tournament,
    TournamentStatus,
    Variant,
)
from tournaments.ratings import service as ratings_service
from tournaments.rounds.pairing_manager import generate_swiss, publish_round

BOOK_SLUG = "book-crosstable"
SWISS_SLUG = "demo-swiss"

# Part 9, «Результаты матчей»: players 1–6 in draw order.
BOOK_PLAYERS = [
    ("Иванов", "Ivanov"),
    ("Петров", "Petrov"),
    ("Сидоров", "Sidorov"),
    ("Белов", "Belov"),
    ("Серов", "Serov"),
    ("Чернов", "Chernov"),
]
# The table as printed: BOOK_TABLE[row][col] = "X:Y", X = the COLUMN player's
# points against the ROW player, Y = the row player's points.
BOOK_TABLE = [
    [None, "4:5", "7:4", "3:6", "5:2", "5:4"],
    ["5:4", None, "4:5", "6:4", "4:5", "5:4"],
    ["4:7", "5:4", None, "4:5", "4:6", "3:5"],
    ["6:3", "4:6", "5:4", None, "4:7", "2:6"],
    ["2:5", "5:4", "6:4", "7:4", None, "4:5"],
    ["4:5", "4:5", "5:3", "6:2", "5:4", None],
]
# FIDE Berger table for six players: which pairs (by draw number) meet in each round.
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def book_score(a: int, b: int) -> tuple[int, int]:
    """Points of draw numbers ``a`` and ``b`` in their match, read from the book's table."""
    cell = BOOK_TABLE[b - 1][a - 1]  # row b, column a: left number is a's points against b
    left, right = (int(x) for x in cell.split(":"))
    return left, right


SWISS_PLAYERS = [
    # (last, first, last latin, first latin, category, rating, club index)
    ("Алиев", "Рашид", "Aliev", "Rashid", 9, 1912, 0),
    ("Гусейнов", "Эльдар", "Guseinov", "Eldar", 8, 1874, 1),
    ("Мамедов", "Фарид", "Mamedov", "Farid", 8, 1850, 0),
    ("Арутюнян", "Ашот", "Arutyunyan", "Ashot", 7, 1803, 1),
    ("Кузнецов", "Алексей", "Kuznetsov", "Alexey", 7, 1781, 0),
    ("Смирнова", "Ольга", "Smirnova", "Olga", 7, 1760, 1),
    ("Попов", "Дмитрий", "Popov", "Dmitry", 6, 1722, 0),
    ("Васильев", "Игорь", "Vasiliev", "Igor", 6, 1705, 1),
    ("Соколова", "Мария", "Sokolova", "Maria", 6, 1688, 0),
    ("Михайлов", "Сергей", "Mikhailov", "Sergey", 5, 1660, 1),
    ("Новиков", "Павел", "Novikov", "Pavel", 5, 1641, 0),
    ("Фёдоров", "Артём", "Fedorov", "Artem", 5, 1625, 1),
    ("Морозова", "Анна", "Morozova", "Anna", 4, 1602, 0),
    ("Волков", "Никита", "Volkov", "Nikita", 4, 1580, 1),
    ("Алексеев", "Роман", "Alekseev", "Roman", 4, 1566, 0),
    ("Лебедев", "Олег", "Lebedev", "Oleg", 4, 1549, 1),
    ("Семёнова", "Елена", "Semenova", "Elena", 3, 1530, 0),
    ("Егоров", "Максим", "Egorov", "Maxim", 3, 1512, 1),
    ("Павлов", "Кирилл", "Pavlov", "Kirill", 3, 1498, 0),
    ("Козлов", "Денис", "Kozlov", "Denis", 2, 1480, 1),
    ("Степанова", "Ирина", "Stepanova", "Irina", 2, 1466, 0),
    ("Николаев", "Антон", "Nikolaev", "Anton", 2, 1450, 1),
    ("Орлов", "Георгий", "Orlov", "Georgy", 1, 1432, 0),
    ("Андреев", "Илья", "Andreev", "Ilya", 1, 1410, 1),
]
CLUBS = [
    ("Нарды-Клуб «Зарик»", "zarik-club", "Москва"),
    ("Клуб «Шеш-Беш»", "shesh-besh", "Санкт-Петербург"),
]


@dataclass(frozen=True)
class DemoGame:
    winner: str
    kind: str
    points: int


def simulate_match(rng: random.Random, length: int, strength_a: float) -> list[DemoGame]:
    """A plausible cubeless ledger to ``length`` points (single 1, gammon 2, backgammon 3)."""
    games: list[DemoGame] = []
    a = b = 0
    while a < length and b < length:
        winner = "a" if rng.random() < strength_a else "b"
        roll = rng.random()
        kind, points = ("single", 1) if roll < 0.72 else ("gammon", 2) if roll < 0.96 else ("backgammon", 3)
        games.append(DemoGame(winner, kind, points))
        if winner == "a":
            a += points
        else:
            b += points
    return games


def _user(username: str, *, staff: bool = False, superuser: bool = False, password: str = ""):
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username, defaults={"is_staff": staff, "is_superuser": superuser}
    )
    if created and password:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def _player(last: str, first: str = "", last_latin: str = "", first_latin: str = "", **extra) -> Player:
    player, _ = Player.objects.update_or_create(
        last_name=last, first_name=first,
        defaults={"last_name_latin": last_latin, "first_name_latin": first_latin, **extra},
    )
    return player


def _confirm(match: Match, score_a: int, score_b: int, games: list[DemoGame], referee) -> None:
    """Record a confirmed result and the official ledger, as a referee would."""
    match.score_a, match.score_b = score_a, score_b
    match.winner = "a" if score_a > score_b else "b"
    match.result_status = ResultStatus.CONFIRMED
    match.save()
    ledger = [
        {"winner": g.winner, "kind": g.kind, "cube": 1, "dropped": False, "autodoubles": 0}
        for g in games
    ]
    Result.objects.update_or_create(
        match=match, state=ResultState.CONFIRMED,
        defaults={"score_a": score_a, "score_b": score_b, "games": ledger,
                  "reported_by": referee, "confirmed_by": referee},
    )
    match.games.exclude(number__lte=len(games)).delete()
    for number, g in enumerate(games, start=1):
        Game.objects.update_or_create(
            match=match, number=number,
            defaults={"winner": g.winner, "kind": g.kind, "cube": 1, "dropped": False},
        )


def load_book_crosstable(referee) -> Tournament:
    tournament, _ = Tournament.objects.update_or_create(
        slug=BOOK_SLUG,
        defaults={
            "name": "Пример из книги: «Результаты матчей»",
            "starts_on": dt.date(2011, 5, 14), "ends_on": dt.date(2011, 5, 14),
            "venue": "Клуб «Зарик»", "variant": Variant.BACKGAMMON,
            "scoring": ScoringSystem.BACKGAMMON, "system": CompetitionSystem.ROUND_ROBIN,
            "match_format": "points", "match_length": 5, "cube": False, "crawford": False,
            "status": TournamentStatus.FINISHED, "public": True, "rounds_planned": 5,
            "tiebreaks": ["points", "h2h"],
            # the book prints the players in draw order: numbers as entered, no draw to show
            "seeding": Seeding.REGISTRATION,
        },
    )
    entries = {}
    for number, (last, latin) in enumerate(BOOK_PLAYERS, start=1):
        player = _player(last, "", latin, "", category=Category.PUPIL)
        entry, _ = Entry.objects.update_or_create(
            tournament=tournament, player=player,
            defaults={"draw_number": number, "status": EntryStatus.CHECKED_IN},
        )
        entries[number] = entry
    for round_number, pairs in enumerate(BERGER_6, start=1):
        rnd, _ = Round.objects.update_or_create(
            tournament=tournament, section=None, number=round_number,
            defaults={"status": RoundStatus.FINISHED, "match_length": 5},
        )
        for table, (a, b) in enumerate(pairs, start=1):
            match, _ = Match.objects.update_or_create(
                round=rnd, table=table,
                defaults={"entry_a": entries[a], "entry_b": entries[b], "match_length": 5},
            )
            score_a, score_b = book_score(a, b)
            _confirm(match, score_a, score_b, [], referee)
    return tournament


def _demo_round(tournament: Tournament, number: int, organiser) -> Round:
    """Round ``number`` of the demo Swiss, paired by the real engine when first loaded.

    The pairing manager refuses a round while the previous one has open
    results, so rounds are created in order, each after the last is confirmed.
    """
    existing = tournament.rounds.filter(section=None, number=number).first()
    if existing is not None:
        return existing
    return publish_round(generate_swiss(tournament, user=organiser), user=organiser)


def load_swiss(referee, organiser) -> Tournament:
    clubs = []
    for name, slug, city in CLUBS:
        club, _ = Club.objects.update_or_create(slug=slug, defaults={"name": name, "city": city})
        clubs.append(club)
    tournament, _ = Tournament.objects.update_or_create(
        slug=SWISS_SLUG,
        defaults={
            "name": "Осенний кубок клубов 2026", "club": clubs[0],
            "starts_on": dt.date(2026, 11, 20), "ends_on": dt.date(2026, 11, 22),
            "venue": "Москва, ул. Нардистов, 6", "variant": Variant.BACKGAMMON,
            "scoring": ScoringSystem.BACKGAMMON, "system": CompetitionSystem.SWISS,
            "match_format": "points", "match_length": 7, "cube": False, "crawford": True,
            "status": TournamentStatus.IN_PROGRESS, "public": True, "rounds_planned": 7,
            "time_control": "2 минуты на ход, 12 секунд задержки", "entry_fee": 1500,
            # SWISS_PLAYERS are listed by rating, highest first: the numbers follow that seeding
            "seeding": Seeding.RATING,
        },
    )
    Official.objects.get_or_create(tournament=tournament, user=organiser, role=OfficialRole.ORGANISER)
    Official.objects.get_or_create(tournament=tournament, user=referee, role=OfficialRole.REFEREE)
    # The demo organiser is also an organiser of the host club: new events from /organise/.
    ClubRole.objects.get_or_create(club=clubs[0], user=organiser, role=ClubRoleKind.ORGANISER)
    entries = []
    for number, (last, first, last_l, first_l, cat, rating, club_ix) in enumerate(SWISS_PLAYERS, 1):
        player = _player(last, first, last_l, first_l, category=cat, rating=rating)
        Membership.objects.get_or_create(
            player=player, club=clubs[club_ix], ended_on=None,
            defaults={"started_on": dt.date(2024, 1, 1)},
        )
        entry, _ = Entry.objects.update_or_create(
            tournament=tournament, player=player,
            defaults={"draw_number": number, "seed_rating": rating, "status": EntryStatus.CHECKED_IN},
        )
        entries.append(entry)
    rng = random.Random(2026)
    for round_number in (1, 2, 3):
        finished = round_number < 3
        rnd = _demo_round(tournament, round_number, organiser)
        for match in rnd.matches.select_related("entry_a", "entry_b").order_by("table"):
            if not finished or match.entry_b_id is None:
                continue
            a, b = match.entry_a, match.entry_b
            strength = 1 / (1 + 10 ** ((b.seed_rating - a.seed_rating) / 2000))
            games = simulate_match(rng, 7, strength)
            score_a = sum(g.points for g in games if g.winner == "a")
            score_b = sum(g.points for g in games if g.winner == "b")
            _confirm(match, score_a, score_b, games, referee)
        status = RoundStatus.FINISHED if finished else RoundStatus.PUBLISHED
        Round.objects.filter(pk=rnd.pk).update(status=status)
    return tournament


@transaction.atomic
def load_demo() -> list[Tournament]:
    _user("admin", staff=True, superuser=True, password="zarik-admin")  # the back-office login
    organiser = _user("organiser", password="zarik-organiser")
    referee = _user("referee", password="zarik-referee")
    tournaments = [load_book_crosstable(referee), load_swiss(referee, organiser)]
    load_demo_accounts()
    load_chouette(organiser)
    # The demo's results are written directly, not confirmed one by one: rate them in one go,
    # as `manage.py recompute_ratings` would, so rating lists and profiles have something to show.
    for pool in POOLS:
        ratings_service.recompute(pool)
    return tournaments


def load_chouette(organiser) -> ChouetteSession:
    """A club night's chouette (book ch10–11) with a few games, entered through the core."""
    club = Club.objects.get(slug=CLUBS[0][1])
    session, _ = ChouetteSession.objects.get_or_create(
        club=club, name="Пятничный швец",
        defaults={"played_on": dt.date(2026, 11, 20), "players": ["Семёнов", "Хайкин", "Ахмедов", "Лурье"],
                  "stake": 10},
    )  # fmt: skip
    if not session.games.exists():
        for winner, kind, cubes, passed in (
            ("team", "gammon", {}, ()),
            ("box", "single", {"Лурье": 2}, ("Лурье",)),
            ("box", "single", {"Ахмедов": 2, "Семёнов": 2}, ()),
        ):
            seats = chouette_service.ledger(session).lineup
            members = tuple(
                chouette.Member(p, cubes.get(p, 1), p in passed) for p in seats.team
            )
            game = chouette.Game(seats.box, seats.captain, members, winner, kind)  # type: ignore[arg-type]
            chouette_service.add_game(session, organiser, game)
    return session


# --- demo accounts for the result workflow (issue 7, scoring) ------------------------------
# Every demo-swiss player gets a login "player<draw number>" (player1 … player24) with the
# password DEMO_PLAYER_PASSWORD, so a player can report and confirm a result; "jury" is the
# jury of demo-swiss (password "zarik-jury"). Idempotent: existing accounts are left alone.

DEMO_PLAYER_PASSWORD = "zarik-player"


def load_demo_accounts() -> None:
    tournament = Tournament.objects.get(slug=SWISS_SLUG)
    jury = _user("jury", password="zarik-jury")
    Official.objects.get_or_create(tournament=tournament, user=jury, role=OfficialRole.JURY)
    user_model = get_user_model()
    password = make_password(DEMO_PLAYER_PASSWORD)  # hashed once, shared by the demo logins
    for entry in tournament.entries.select_related("player").exclude(draw_number=None):
        player = entry.player
        if player.user_id:
            continue
        user, _created = user_model.objects.get_or_create(
            username=f"player{entry.draw_number}",
            defaults={"password": password, "first_name": player.first_name_latin,
                      "last_name": player.last_name_latin},
        )
        if not Player.objects.filter(user=user).exists():
            player.user = user
            player.save(update_fields=["user"])
