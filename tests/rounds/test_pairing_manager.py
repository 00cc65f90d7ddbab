"""The pairing manager: models in, draft rounds out, by the real generators."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from clubs.models import Player
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    ResultFactory,
    SectionFactory,
    TeamFactory,
    TeamMemberFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
)
from tournaments.models import (
    AuditEntry,
    CompetitionSystem,
    Entry,
    EntryStatus,
    Match,
    ResultStatus,
    Round,
    RoundStatus,
    Tournament,
)
from tournaments.pairing.options import SYSTEM_OPTIONS
from tournaments.rounds import pairing_manager as pm
from zarik.management.demo import SWISS_SLUG

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def pairs_of(rnd: Round) -> list[tuple[int, int | None]]:
    return list(rnd.matches.order_by("table").values_list("entry_a_id", "entry_b_id"))


def earlier_pairs(tournament: Tournament, before: int) -> set[frozenset[int]]:
    return {
        frozenset((a, b))
        for a, b in Match.objects.filter(
            round__tournament=tournament, round__number__lt=before, entry_b__isnull=False
        ).values_list("entry_a_id", "entry_b_id")
    }


def make_tournament(slug: str, n: int, system: str, **extra) -> Tournament:
    t = TournamentFactory(
        name=slug, slug=slug, starts_on=dt.date(2026, 1, 10), system=system, bare=True, **extra
    )
    for i in range(1, n + 1):
        EntryFactory(
            tournament=t,
            draw_number=i,
            seed_rating=2000 - i,
            player__last_name=f"Игрок{slug}{i}",
            player__first_name="Т",
            player__short=True,
            player__rating=2000 - i,
        )
    return t


def make_teams(t: Tournament, names: tuple[str, ...]) -> tuple[list[Entry], list]:
    """Split the entries, by draw number, into teams of equal size on boards 1, 2, …"""
    entries = list(t.entries.order_by("draw_number"))
    teams = [TeamFactory(tournament=t, name=n) for n in names]
    boards = len(entries) // len(teams)
    for i, e in enumerate(entries):
        TeamMemberFactory(team=teams[i // boards], entry=e, board=i % boards + 1)
    return entries, teams


@pytest.fixture
def demo(demo_once, db):
    return None


@pytest.fixture
def organiser(db):
    return UserFactory(username="org-pm")


# ---------------------------------------------------------------------------------------------
# Swiss on the demo
# ---------------------------------------------------------------------------------------------


def test_round_four_of_the_demo_swiss_is_paired_by_the_engine(demo, organiser):
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    r3 = swiss.rounds.get(number=3)
    assert r3.status == RoundStatus.PUBLISHED
    # Results of round 3 are open: pairing round 4 is refused with a clear reason.
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(swiss, user=organiser)
    assert refused.value.problems[0].code == "pairing.round_open"
    assert "Тур 3 не закрыт" in refused.value.messages("ru")[0]
    assert "Round 3 is not closed" in refused.value.messages("en")[0]
    assert not swiss.rounds.filter(number=4).exists()

    confirm_round(r3)
    [r4] = pm.generate_next(swiss, user=organiser)
    assert (r4.number, r4.status) == (4, RoundStatus.DRAFT)
    r3.refresh_from_db()
    assert r3.status == RoundStatus.FINISHED  # all results confirmed: the round closed

    active = set(swiss.entries.exclude(status=EntryStatus.WITHDRAWN).values_list("pk", flat=True))
    seated = [e for pair in pairs_of(r4) for e in pair if e is not None]
    assert sorted(seated) == sorted(active)  # everyone exactly once
    played = earlier_pairs(swiss, 4)
    assert all(frozenset(p) not in played for p in pairs_of(r4))  # no rematch
    assert all(m.match_length == 7 for m in r4.matches.all())
    tables = sorted(r4.matches.values_list("table", flat=True))
    assert tables == list(range(1, 13))

    expl = r4.explanation
    assert expl["system"] == "swiss" and expl["status"] == "ok"
    assert len(expl["pairings"]) == 12 and expl["groups"]
    first_group = expl["groups"][0]
    assert first_group["score"] == 3  # after three rounds somebody has won all three
    notes = [n for row in expl["pairings"] for n in row["notes"]]
    # Stored as codes and details (no words): each reader sees their own language.
    assert notes and all(n["code"].startswith("pairing.why.") and "en" not in n for n in notes)
    names = pm.names_of(swiss)
    assert all(pm.message(n, "ru", names) and pm.message(n, "en", names) for n in notes)
    assert AuditEntry.objects.filter(action="round.generate", object_id=str(r4.pk)).exists()


def test_forcing_the_next_round_needs_a_reason_and_records_it(demo, organiser):
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    with pytest.raises(pm.PairingRefused):
        pm.generate_next(swiss, user=organiser, reason="   ")
    [r4] = pm.generate_next(swiss, user=organiser, reason="Хронометраж: тур 3 доигрывается")
    assert r4.explanation["override_reason"] == "Хронометраж: тур 3 доигрывается"
    assert r4.explanation["overridden"][0]["code"] == "pairing.round_open"
    entry = AuditEntry.objects.get(action="round.generate", object_id=str(r4.pk))
    assert entry.reason == "Хронометраж: тур 3 доигрывается"
    # Round 3 is still being played: it is not closed.
    assert swiss.rounds.get(number=3).status == RoundStatus.PUBLISHED
    # A draft blocks the next round, whatever the reason.
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(swiss, user=organiser, reason="ещё раз")
    assert refused.value.problems[0].code == "pairing.draft_exists"


def test_publish_and_delete_draft(demo, organiser):
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    confirm_round(swiss.rounds.get(number=3))
    [r4] = pm.generate_next(swiss, user=organiser)
    pm.delete_draft(r4, user=organiser)
    assert not swiss.rounds.filter(number=4).exists()
    assert AuditEntry.objects.filter(action="round.delete_draft").exists()
    [r4] = pm.generate_next(swiss, user=organiser)
    pm.publish_round(r4, user=organiser)
    r4.refresh_from_db()
    assert r4.status == RoundStatus.PUBLISHED and r4.published_at is not None
    with pytest.raises(pm.PairingRefused) as refused:
        pm.delete_draft(r4, user=organiser)
    assert refused.value.problems[0].code == "pairing.not_draft"


def test_withdrawn_absent_half_bye_and_late_entry(demo, organiser):
    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    confirm_round(swiss.rounds.get(number=3))
    entries = list(swiss.entries.order_by("draw_number"))
    entries[0].status = EntryStatus.WITHDRAWN
    entries[0].save()
    late = EntryFactory(
        tournament=swiss,
        draw_number=None,
        player__last_name="Поздний",
        player__first_name="Игрок",
        player__short=True,
        status=EntryStatus.CHECKED_IN,
    )
    r4 = pm.generate_swiss(swiss, user=organiser, absent=[entries[1].pk], half_bye=[entries[2].pk])
    late.refresh_from_db()
    assert late.draw_number == 25  # the next free number of the open draw
    seated = {e for pair in pairs_of(r4) for e in pair if e is not None}
    assert entries[0].pk not in seated and entries[1].pk not in seated
    assert entries[2].pk not in seated and late.pk in seated
    # 24 - 3 + 1 = 22 players: 11 tables, no pairing bye.
    assert r4.matches.count() == 11
    kinds = {b["kind"] for b in r4.explanation["byes"]}
    assert kinds == {"absent", "requested"}
    assert any(n["code"] == "pairing.why.late_entry_number" for n in r4.explanation["notes"])


def test_sections_are_paired_separately(db, organiser):
    t = make_tournament("sect", 10, CompetitionSystem.SWISS)
    low = SectionFactory(tournament=t, name="Низшая", min_category=1, max_category=3)
    high = SectionFactory(tournament=t, name="Высшая", min_category=7, max_category=9)
    for e in t.entries.all():
        e.section = low if e.draw_number <= 6 else high
        e.save()
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.section_required"
    [r_low] = pm.generate_next(t, low, user=organiser)
    [r_high] = pm.generate_next(t, high, user=organiser)
    low_ids = set(t.entries.filter(section=low).values_list("pk", flat=True))
    assert {e for p in pairs_of(r_low) for e in p} == low_ids
    assert r_low.section == low and r_high.section == high and r_high.number == 1
    # Lengths come from the category table: beginners play to 5, experts (7) to 11.
    assert set(r_low.matches.values_list("match_length", flat=True)) == {5}
    assert set(r_high.matches.values_list("match_length", flat=True)) == {11}


def test_odd_field_gets_a_bye_that_is_not_repeated(db, organiser):
    t = make_tournament("odd", 5, CompetitionSystem.SWISS)
    bye_holders = []
    for number in range(1, 4):
        [rnd] = pm.generate_next(t, user=organiser)
        assert rnd.number == number
        byes = rnd.matches.filter(entry_b__isnull=True)
        assert byes.count() == 1
        bye = byes.get()
        assert bye.table == rnd.matches.count()  # the bye row comes after the real tables
        bye_holders.append(bye.entry_a_id)
        pm.publish_round(rnd, user=organiser)
        confirm_round(rnd)
    assert len(set(bye_holders)) == 3


# ---------------------------------------------------------------------------------------------
# manual changes
# ---------------------------------------------------------------------------------------------


def _swiss_round_two(organiser) -> tuple[Tournament, Round]:
    t = make_tournament("manual", 8, CompetitionSystem.SWISS)
    [r1] = pm.generate_next(t, user=organiser)
    pm.publish_round(r1, user=organiser)
    confirm_round(r1)
    [r2] = pm.generate_next(t, user=organiser)
    return t, r2


def test_swap_refuses_a_rematch_unless_overridden_with_a_reason(db, organiser):
    t, r2 = _swiss_round_two(organiser)
    r1 = t.rounds.get(number=1)
    a1, b1 = pairs_of(r1)[0]  # met in round 1
    m_a = r2.matches.get(entry_a=a1) if r2.matches.filter(entry_a=a1).exists() else None
    m_a = m_a or r2.matches.get(entry_b=a1)
    opponent = m_a.entry_b_id if m_a.entry_a_id == a1 else m_a.entry_a_id
    # Swapping b1 into a1's opponent's place makes a1 meet b1 again.
    before = pairs_of(r2)
    with pytest.raises(pm.PairingRefused) as refused:
        pm.swap_players(r2, opponent, b1, user=organiser)
    assert refused.value.problems[0].code == "pairing.rematch"
    assert "уже встречались" in refused.value.messages("ru")[0]
    assert pairs_of(r2) == before  # nothing changed

    pm.swap_players(
        r2, opponent, b1, user=organiser, reason="Игроки из разных городов, решение ГСК"
    )
    after = pairs_of(r2)
    assert frozenset((a1, b1)) in {frozenset(p) for p in after}
    seated = sorted(e for p in after for e in p)
    assert seated == sorted(e for p in before for e in p)  # still everyone once
    entry = AuditEntry.objects.get(action="round.swap")
    assert entry.reason == "Игроки из разных городов, решение ГСК"
    assert set(entry.after["overridden"]) == {"pairing.rematch"}
    number = dict(t.entries.values_list("pk", "draw_number"))
    rows = [r for r in r2.explanation["pairings"] if r["rematch"]]
    assert {number[a1], number[b1]} in [{r["a"], r["b"]} for r in rows]
    assert all(r["notes"][0]["code"] == "pairing.why.manual_swap" for r in rows)


def test_set_pairing_pairs_the_displaced_players_together(db, organiser):
    t, r2 = _swiss_round_two(organiser)
    met = earlier_pairs(t, 2)
    entries = list(t.entries.values_list("pk", flat=True))
    # Find two players at different tables who have not met and whose partners have not met.
    current = {frozenset(p) for p in pairs_of(r2)}
    for x, y in itertools.combinations(entries, 2):
        if frozenset((x, y)) in current or frozenset((x, y)) in met:
            continue
        mx = next(p for p in pairs_of(r2) if x in p)
        my = next(p for p in pairs_of(r2) if y in p)
        px = mx[1] if mx[0] == x else mx[0]
        py = my[1] if my[0] == y else my[0]
        if frozenset((px, py)) not in met:
            break
    pm.set_pairing(r2, x, y, user=organiser)
    now = {frozenset(p) for p in pairs_of(r2)}
    assert frozenset((x, y)) in now and frozenset((px, py)) in now
    assert AuditEntry.objects.filter(action="round.set_pairing", reason="").exists()


def test_published_round_and_fixed_systems_cannot_be_changed_by_hand(db, organiser):
    t, r2 = _swiss_round_two(organiser)
    pm.publish_round(r2, user=organiser)
    a, b = pairs_of(r2)[0]
    c, _ = pairs_of(r2)[1]
    with pytest.raises(pm.PairingRefused) as refused:
        pm.swap_players(r2, a, c, user=organiser, reason="x")
    assert refused.value.problems[0].code == "pairing.not_draft"
    rr = make_tournament("rr-fixed", 4, CompetitionSystem.ROUND_ROBIN)
    first = pm.generate_next(rr, user=organiser)[0]
    (a, b), (c, d) = pairs_of(first)
    with pytest.raises(pm.PairingRefused) as refused:
        pm.swap_players(first, a, c, user=organiser, reason="x")
    assert refused.value.problems[0].code == "pairing.fixed_schedule"


# ---------------------------------------------------------------------------------------------
# round robin, knockout, Scheveningen
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [5, 6])
def test_round_robin_generates_every_round_at_once(db, organiser, n):
    t = make_tournament(f"rr{n}", n, CompetitionSystem.ROUND_ROBIN, pairing_options={"cycles": 2})
    rounds = pm.generate_next(t, user=organiser)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert [r.number for r in rounds] == list(range(1, 2 * per_cycle + 1))
    assert all(r.status == RoundStatus.DRAFT for r in rounds)
    ids = set(t.entries.values_list("pk", flat=True))
    meetings: dict[frozenset[int], int] = {}
    for r in rounds:
        seated = [e for p in pairs_of(r) for e in p if e is not None]
        assert sorted(seated) == sorted(ids)
        for a, b in pairs_of(r):
            if b is not None:
                meetings[frozenset((a, b))] = meetings.get(frozenset((a, b)), 0) + 1
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {2}
    assert rounds[0].explanation["cycle"] == 1 and rounds[-1].explanation["cycle"] == 2
    with pytest.raises(pm.PairingRefused):
        pm.generate_next(t, user=organiser)


def test_knockout_bracket_then_next_stage_from_confirmed_results(db, organiser):
    t = make_tournament(
        "cup",
        6,
        CompetitionSystem.KNOCKOUT,
        pairing_options={
            "knockout": {"match_lengths": [5, 7], "final_length": 9, "third_place": True}
        },
    )
    by_number = dict(t.entries.values_list("draw_number", "pk"))
    [r1] = pm.generate_next(t, user=organiser)
    assert "bracket" in r1.explanation
    real = r1.matches.filter(entry_b__isnull=False)
    byes = r1.matches.filter(entry_b__isnull=True)
    # 6 players in a bracket of 8: seeds 1 and 2 (best ratings) have byes.
    assert {m.entry_a_id for m in byes} == {by_number[1], by_number[2]}
    assert {frozenset((m.entry_a_id, m.entry_b_id)) for m in real} == {
        frozenset((by_number[4], by_number[5])),
        frozenset((by_number[3], by_number[6])),
    }
    assert set(real.values_list("match_length", flat=True)) == {5}
    pm.publish_round(r1, user=organiser)
    with pytest.raises(pm.PairingRefused):
        pm.generate_next(t, user=organiser)  # results not confirmed yet
    confirm_round(r1, winner_of=lambda m: "b")  # the lower seeds win: 5 and 6 advance
    [r2] = pm.generate_next(t, user=organiser)
    semis = {frozenset(p) for p in pairs_of(r2)}
    assert semis == {
        frozenset((by_number[1], by_number[5])),
        frozenset((by_number[2], by_number[6])),
    }
    assert set(r2.matches.values_list("match_length", flat=True)) == {7}
    pm.publish_round(r2, user=organiser)
    confirm_round(r2, winner_of=lambda m: "a")
    [r3] = pm.generate_next(t, user=organiser)
    final_and_third = {
        frozenset(p): m for p, m in zip(pairs_of(r3), r3.matches.order_by("table"), strict=True)
    }
    assert set(final_and_third) == {
        frozenset((by_number[1], by_number[2])),
        frozenset((by_number[5], by_number[6])),
    }
    final = final_and_third[frozenset((by_number[1], by_number[2]))]
    assert final.match_length == 9
    pm.publish_round(r3, user=organiser)
    confirm_round(r3, winner_of=lambda m: "a")
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.knockout_over"


def test_scheveningen_two_teams_cover_every_cross_pair_once(db, organiser):
    t = make_tournament("schev", 6, CompetitionSystem.SCHEVENINGEN)
    entries, _teams = make_teams(t, ("Москва", "Баку"))
    rounds = pm.generate_next(t, user=organiser)
    assert len(rounds) == 3
    a_ids = {e.pk for e in entries[:3]}
    cross = []
    for r in rounds:
        pairs = pairs_of(r)
        assert len(pairs) == 3 and sorted(e for p in pairs for e in p) == sorted(
            e.pk for e in entries
        )
        for a, b in pairs:
            assert (a in a_ids) != (b in a_ids)
            cross.append(frozenset((a, b)))
    assert len(cross) == len(set(cross)) == 9


def test_scheveningen_refuses_a_wrong_number_of_teams(db, organiser):
    t = make_tournament("schev1", 4, CompetitionSystem.SCHEVENINGEN)
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.scheveningen_teams"


def test_scheveningen_four_teams_play_a_knockout_of_team_matches(db, organiser):
    t = make_tournament("schev4", 8, CompetitionSystem.SCHEVENINGEN)
    entries, teams = make_teams(t, ("Москва", "Баку", "Ереван", "Тбилиси"))
    team_of = {e.pk: teams[i // 2].pk for i, e in enumerate(entries)}
    stage1 = pm.generate_next(t, user=organiser)
    assert [r.number for r in stage1] == [1, 2]  # two boards: two rounds per team match
    met = set()
    for r in stage1:
        assert r.matches.count() == 4  # two team matches, two boards each
        for a, b in pairs_of(r):
            assert team_of[a] != team_of[b]
            met.add(frozenset((team_of[a], team_of[b])))
    assert len(met) == 2  # each team meets exactly one other team in the first stage
    for r in stage1:
        pm.publish_round(r, user=organiser)
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.team_stage_open"
    # Side A wins every board; colours alternate, so each team match ends level.
    for r in stage1:
        confirm_round(r, winner_of=lambda m: "a")
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.team_tie"
    # Now the team created first in each pairing wins all its boards.
    for r in stage1:
        confirm_round(
            r, winner_of=lambda m: "a" if team_of[m.entry_a_id] < team_of[m.entry_b_id] else "b"
        )
    stage2 = pm.generate_next(t, user=organiser)
    assert [r.number for r in stage2] == [3, 4]
    finalists = {team_of[e] for r in stage2 for p in pairs_of(r) for e in p}
    assert finalists == {min(pair) for pair in met}
    for r in stage2:
        pm.publish_round(r, user=organiser)
        confirm_round(
            r, winner_of=lambda m: "a" if team_of[m.entry_a_id] < team_of[m.entry_b_id] else "b"
        )
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.knockout_over"
    assert "Москва" in refused.value.messages("en")[0]


def test_big_field_reports_progress_while_writing(db, organiser):
    t = TournamentFactory(name="Большой", slug="big", starts_on=dt.date(2026, 1, 10), bare=True)
    players = Player.objects.bulk_create(
        PlayerFactory.build(last_name=f"Б{i}", first_name="Б", short=True) for i in range(1, 1202)
    )
    Entry.objects.bulk_create(
        EntryFactory.build(tournament=t, player=p, draw_number=i)
        for i, p in enumerate(players, start=1)
    )
    seen: list[tuple[int, int]] = []
    [rnd] = pm.generate_next(t, user=organiser, progress=lambda d, n: seen.append((d, n)))
    assert rnd.matches.count() == 601  # 600 tables and the bye
    assert seen[-1] == (601, 601) and len(seen) >= 2
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    # Every player has their seat at their own table and side, across the writing's chunks;
    # the bye's player sits alone (the database's one-seat-per-round rows).
    tables = rnd.matches.values_list("id", "entry_a_id", "entry_b_id")
    expected = {(m, "a", a) for m, a, _b in tables} | {(m, "b", b) for m, _a, b in tables if b}
    assert set(rnd.seats.values_list("match_id", "side", "entry_id")) == expected
    assert rnd.seats.count() == 1201


# ---------------------------------------------------------------------------------------------
# drafts with results, explanations in the reader's language, typed options
# ---------------------------------------------------------------------------------------------


def _report(match: Match, *, confirmed: bool = False) -> None:
    """A result entered on a draft's match (a Result row; a confirmed one also on the match)."""
    ResultFactory(match=match, state="confirmed" if confirmed else "reported")
    if confirmed:
        match.score_a, match.score_b, match.winner = 5, 2, "a"
        match.result_status = ResultStatus.CONFIRMED
        match.save()


def test_a_draft_with_results_is_not_deleted_unless_they_are_discarded_with_a_reason(db, organiser):
    t, r2 = _swiss_round_two(organiser)
    first = r2.matches.filter(entry_b__isnull=False).order_by("table").first()
    _report(first)
    with pytest.raises(pm.PairingRefused) as refused:
        pm.delete_draft(r2, user=organiser)
    assert refused.value.problems[0].code == "pairing.has_results"
    assert "Round 2" in refused.value.messages("en")[0]
    with pytest.raises(pm.PairingRefused) as refused:
        pm.delete_draft(r2, user=organiser, discard_results=True, reason="  ")
    assert refused.value.problems[0].code == "pairing.discard_needs_reason"
    assert Round.objects.filter(pk=r2.pk).exists() and first.results.exists()

    pm.delete_draft(r2, user=organiser, discard_results=True, reason="Ошибочный тур")
    assert not Round.objects.filter(pk=r2.pk).exists()
    entry = AuditEntry.objects.get(action="round.delete_draft")
    assert entry.reason == "Ошибочный тур"
    [gone] = entry.before["discarded_results"]
    assert gone["match"]["table"] == first.table
    assert [(r["score_a"], r["score_b"]) for r in gone["results"]] == [(5, 2)]


def test_swapping_a_player_with_a_confirmed_result_needs_an_explicit_discard(db, organiser):
    t, r2 = _swiss_round_two(organiser)
    (a, b), (c, d) = pairs_of(r2)[:2]
    played = r2.matches.get(entry_a=a, entry_b=b)
    _report(played, confirmed=True)
    met = earlier_pairs(t, 2)
    reason = "Перестановка" if {frozenset((c, b)), frozenset((a, d))} & met else ""
    with pytest.raises(pm.PairingRefused) as refused:
        pm.swap_players(r2, a, c, user=organiser, reason=reason)
    assert refused.value.problems[-1].code == "pairing.has_results"
    assert pairs_of(r2)[:2] == [(a, b), (c, d)]  # nothing changed

    pm.swap_players(r2, a, c, user=organiser, reason="Судья перепутал столы", discard_results=True)
    played.refresh_from_db()
    assert (played.entry_a_id, played.entry_b_id) == (c, b)
    # The old pairing's result does not stay on the new pairing.
    assert not played.results.exists()
    assert played.result_status == ResultStatus.PENDING and played.winner == ""
    assert played.score_a is None and played.score_b is None
    entry = AuditEntry.objects.get(action="round.swap")
    assert entry.before["discarded_results"][0]["results"][0]["state"] == "confirmed"


def test_explanation_generated_in_english_reads_in_russian_with_names(db, organiser):
    from django.utils import translation

    t = make_tournament("expl-lang", 5, CompetitionSystem.SWISS)
    with translation.override("en"):
        [r1] = pm.generate_next(t, user=organiser)
    names = pm.names_of(t)
    bye_note = r1.explanation["byes"][0]["notes"][0]
    player = t.entries.get(draw_number=bye_note["details"]["player"]).player
    russian = pm.message(bye_note, "ru", names)
    english = pm.message(bye_note, "en", names)
    assert "свободный тур" in russian and str(player) in russian
    assert "bye" in english and str(player) in english
    # An explanation stored as text by an older version is still shown.
    assert pm.message({"code": "x", "en": "Old", "ru": "Старый"}, "ru", names) == "Старый"


def test_unknown_or_bad_pairing_options_are_refused_not_ignored(db, organiser):
    t = make_tournament("opts", 4, CompetitionSystem.SWISS, pairing_options={"colour": True})
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.options.unknown"
    assert "colour" in refused.value.messages("ru")[0]
    t.pairing_options = {"cycles": "два"}
    t.system = CompetitionSystem.ROUND_ROBIN
    with pytest.raises(pm.PairingRefused) as refused:
        pm.generate_next(t, user=organiser)
    assert refused.value.problems[0].code == "pairing.options.invalid"


def test_every_system_in_the_table_pairs_through_the_one_path(db, organiser):
    # A new system is a row in the manager's table and its options row in the pure core.
    assert set(pm.SYSTEMS) == set(SYSTEM_OPTIONS) == set(CompetitionSystem.values)
    for system in (
        CompetitionSystem.SWISS,
        CompetitionSystem.ROUND_ROBIN,
        CompetitionSystem.KNOCKOUT,
    ):
        t = make_tournament(f"one-{system}", 4, system)
        rounds = pm.generate_next(t, user=organiser)
        assert rounds and all(r.explanation["system"] == system for r in rounds)
        assert AuditEntry.objects.filter(
            object_id=str(rounds[0].pk), action__startswith="round.generate"
        ).exists()


def test_options_form_writes_the_typed_json_and_refuses_bad_values(db):
    from tournaments.rounds.forms import PairingOptionsForm

    form = PairingOptionsForm(
        "knockout",
        {
            "knockout__match_lengths": "5, 7",
            "knockout__third_place": "on",
            "knockout__seed_by": "rating",
        },
        defaults={"match_lengths": [5]},
    )
    assert form.is_valid(), form.errors
    assert form.pairing_options == {"knockout": {"match_lengths": [5, 7], "third_place": True}}
    bad = PairingOptionsForm("round_robin", {"round_robin__cycles": "0"})
    assert not bad.is_valid() and "round_robin__cycles" in bad.errors
    initial = PairingOptionsForm("swiss", stored={"score": "game_points"}).initial
    assert initial["swiss__score"] == "game_points"


def test_model_clean_reports_unknown_options_and_tiebreaks_as_field_errors(db):
    from django.core.exceptions import ValidationError

    t = make_tournament("clean-opts", 2, CompetitionSystem.SWISS)
    t.pairing_options = {"colour": True}
    t.tiebreaks = ["wins", "luck"]
    with pytest.raises(ValidationError) as err:
        t.full_clean()
    assert set(err.value.message_dict) >= {"pairing_options", "tiebreaks"}


def test_admin_shows_pairing_options_as_fields_and_saves_them(client, db):
    from django.urls import reverse

    admin = UserFactory(username="root-opts", admin=True)
    client.force_login(admin)
    t = make_tournament(
        "admin-opts", 2, CompetitionSystem.SWISS, pairing_options={"bye_points": 0.5}
    )
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    page = client.get(url).content.decode()
    assert 'name="swiss__bye_points"' in page and 'name="pairing_options"' not in page
    assert 'name="knockout__match_lengths"' in page


def test_tournament_form_writes_the_chosen_systems_options(db):
    from tournaments.rounds.forms import TournamentOptionsForm

    t = make_tournament("form-opts", 2, CompetitionSystem.SWISS)
    form = TournamentOptionsForm(instance=t)
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None or value is False:
            continue
        data[name] = value.pk if hasattr(value, "pk") else value
    data.update(
        {"swiss__bye_points": "0.5", "swiss__score": "game_points", "tiebreaks": "wins, sb"}
    )
    bound = TournamentOptionsForm(data, instance=t)
    assert bound.is_valid(), bound.errors
    saved = bound.save()
    assert saved.pairing_options == {"score": "game_points", "bye_points": 0.5}
    assert saved.tiebreaks == ["wins", "sonneborn_berger"]
    data["tiebreaks"] = "wins, luck"
    assert "tiebreaks" in TournamentOptionsForm(data, instance=t).errors
