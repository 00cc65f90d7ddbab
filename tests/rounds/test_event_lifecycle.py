"""The event's lifecycle as a chief arbiter meets it (issue 43): empty category sections, the
round robin's champion, a check-in made while the rounds page was open, a withdrawal while a
draft waits. Through the real services, pages and API, on the real database."""

from __future__ import annotations

import datetime as dt
import io
import re

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import workflow
from tests.factories import (
    EntryFactory,
    OfficialFactory,
    SectionFactory,
    TournamentFactory,
    UserFactory,
    confirm_round,
)
from tournaments.access import private_links
from tournaments.entries import roster
from tournaments.entries import status as entry_status
from tournaments.exports import write_workbook
from tournaments.models import (
    CompetitionSystem,
    EntryStatus,
    OfficialRole,
    Round,
    RoundStatus,
    TournamentStatus,
)
from tournaments.rounds import pairing_manager as pm
from tournaments.rounds.flow import close_round
from tournaments.setup import services as setup
from tournaments.standings_service import load_event

pytestmark = pytest.mark.django_db


def _organiser(t):
    user = UserFactory()
    OfficialFactory(tournament=t, user=user, role=OfficialRole.ORGANISER)
    return user


def _api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _play_out(t, section, director, *, winner_of=None) -> list[Round]:
    """Draw the section's schedule, publish and confirm every round, close it."""
    rounds = pm.generate_next(t, section, user=director)
    for rnd in rounds:
        pm.publish_round(rnd, user=director)
        confirm_round(rnd, winner_of=winner_of)
        close_round(rnd, director)
    return rounds


# ---------------------------------------------------------------------------------------------
# 1. a category championship with an empty section
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def categories():
    """A round robin by the book's category table with one row nobody entered (Amateur 4)."""
    t = TournamentFactory(
        slug="cats-43", system=CompetitionSystem.ROUND_ROBIN, starts_on=dt.date(2026, 5, 1),
        rounds_planned=None,
    )
    director = _organiser(t)
    low = SectionFactory(tournament=t, name="Низшая", min_category=1, max_category=3)
    empty = SectionFactory(tournament=t, name="Любители", min_category=4, max_category=4)
    high = SectionFactory(tournament=t, name="Высшая", min_category=7, max_category=9)
    number = 0
    for section, category, names in ((low, 2, "Низов"), (high, 8, "Верхов")):
        for i in range(1, 4):
            number += 1
            EntryFactory(
                tournament=t, section=section, category=category, draw_number=number,
                player__last_name=f"{names}{i}",
            )
    return {"t": t, "director": director, "low": low, "empty": empty, "high": high}


def test_a_category_championship_with_an_empty_section_finishes_and_names_its_champion(categories):
    t, director = categories["t"], categories["director"]
    _play_out(t, categories["low"], director)
    assert t.status == TournamentStatus.IN_PROGRESS
    _play_out(t, categories["high"], director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    body = _api(director).get(f"/api/tournaments/{t.slug}/standings/").json()
    champion = body["champion"]
    assert champion["finished"] is True
    assert [w["name"] for w in champion["winners"]] == ["Высшая", "Низшая"]
    high_winner = champion["winners"][0]["entries"]
    assert len(high_winner) == 1 and champion["champion"] == high_winner[0]


def test_generating_an_empty_section_is_refused_with_a_coded_reason_on_the_api_and_the_page(
    categories, client
):
    t, director, empty = categories["t"], categories["director"], categories["empty"]
    api = _api(director)
    answer = api.post(
        f"/api/tournaments/{t.slug}/generate/", {"section": empty.pk}, format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 409, answer.content
    problem = answer.json()
    assert problem["code"] == "pairing.section_empty"
    assert "Любители" in problem["problems"][0]["message"]
    assert "nobody to pair" in problem["problems"][0]["message"]
    assert not Round.objects.filter(tournament=t).exists()
    client.force_login(director)
    client.cookies["django_language"] = "ru"
    page = client.post(reverse("manage-generate", kwargs={"slug": t.slug}), {"section": empty.pk})
    assert page.status_code == 200
    assert "В категории «Любители» некого разбивать на пары" in page.content.decode()
    assert not Round.objects.filter(tournament=t).exists()


def test_the_status_follows_when_an_empty_section_gets_a_player_or_loses_him(categories):
    """Sections changing (a player entered into the empty one, withdrawn from it or moved out of
    it, a section added or deleted) recompute the status at once: nobody has to close a round
    to see it move."""
    t, director, empty = categories["t"], categories["director"], categories["empty"]
    _play_out(t, categories["low"], director)
    _play_out(t, categories["high"], director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    late = roster.add_new_player(
        t, EntryFactory.build(tournament=t).player, director, section=empty
    )
    t.refresh_from_db()
    assert late.section == empty and t.status == TournamentStatus.IN_PROGRESS
    entry_status.withdraw(late, director, "left before the Amateur section was drawn")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    another = roster.add_new_player(
        t, EntryFactory.build(tournament=t).player, director, section=empty
    )
    t.refresh_from_db()
    assert t.status == TournamentStatus.IN_PROGRESS
    roster.change_entry(another, director, category=8, section=categories["high"], reason="moved up")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED  # the Amateur section is empty again
    extra = setup.save_section(
        SectionFactory.build(name="Средняя", min_category=5, max_category=6), t, director
    )
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED  # a new section nobody entered holds nothing open
    setup.delete_section(extra, director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


# ---------------------------------------------------------------------------------------------
# 2. the round robin's champion
# ---------------------------------------------------------------------------------------------


def _round_robin(slug: str, n: int):
    t = TournamentFactory(
        slug=slug, system=CompetitionSystem.ROUND_ROBIN, starts_on=dt.date(2026, 5, 1),
        rounds_planned=None,
    )
    director = _organiser(t)
    entries = [
        EntryFactory(tournament=t, draw_number=i, player__last_name=f"Круговой{i}") for i in range(1, n + 1)
    ]
    return t, director, entries


def test_a_finished_round_robin_names_its_champion_on_the_api_the_page_and_the_workbook(client):
    """«Чемпионство Сидорова (№3) неоспоримо!» (Part 9): the first place of a finished round
    robin is its champion — before, ``champion`` was null for every one-section event."""
    t, director, entries = _round_robin("rr-champion-43", 4)
    sidorov = entries[2]
    standings = f"/api/tournaments/{t.slug}/standings/"
    rounds = pm.generate_next(t, user=director)
    pm.publish_round(rounds[0], user=director)
    assert _api(director).get(standings).json()["champion"] == {
        "finished": False, "winners": [], "champion": None, "playoff_between": [],
    }  # a lead is not a title

    def sidorov_wins(m):
        if sidorov.pk in (m.entry_a_id, m.entry_b_id):
            return "a" if m.entry_a_id == sidorov.pk else "b"
        return "a" if m.table % 2 else "b"

    for rnd in rounds:
        if rnd.status == RoundStatus.DRAFT:
            pm.publish_round(rnd, user=director)
        confirm_round(rnd, winner_of=sidorov_wins)
        close_round(rnd, director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    champion = _api(director).get(standings).json()["champion"]
    assert champion["finished"] is True and champion["champion"] == sidorov.pk
    assert champion["winners"] == [{"section": "", "name": "", "entries": [sidorov.pk]}]
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("public-standings", kwargs={"slug": t.slug})).content.decode()
    assert "Чемпион: <strong>" in page and "Круговой3" in page.split("Чемпион: <strong>")[1][:80]
    event = load_event(t)
    buffer = io.BytesIO()
    write_workbook(buffer, event.export_info(), event.players, event.matches, event.export_options("ru"))
    cells = [
        str(c.value) for ws in openpyxl.load_workbook(buffer).worksheets
        for row in ws.iter_rows() for c in row if c.value
    ]
    assert any(c.startswith("Чемпион: ") and "Круговой3" in c for c in cells), cells[-5:]


def test_a_round_robin_whose_first_place_stays_shared_names_a_play_off_not_a_champion():
    """Three players who beat each other in a circle, 5:1 every time: level on wins, points and
    head-to-head, so no tie-break separates them. The book then holds «дополнительный
    чемпионский отборочный тур» (Part 9): nobody is champion, the play-off is between the three."""
    t, director, entries = _round_robin("rr-shared-43", 3)
    rounds = pm.generate_next(t, user=director)
    beats = {entries[0].pk: entries[1].pk, entries[1].pk: entries[2].pk, entries[2].pk: entries[0].pk}
    for rnd in rounds:
        pm.publish_round(rnd, user=director)
        confirm_round(rnd, winner_of=lambda m: "a" if beats[m.entry_a_id] == m.entry_b_id else "b")
        close_round(rnd, director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    champion = _api(director).get(f"/api/tournaments/{t.slug}/standings/").json()["champion"]
    assert champion["champion"] is None
    assert sorted(champion["playoff_between"]) == sorted(e.pk for e in entries)


# ---------------------------------------------------------------------------------------------
# 3. a check-in made while the rounds page stood open
# ---------------------------------------------------------------------------------------------


def test_a_phone_check_in_after_the_rounds_page_opened_is_not_lost_when_the_organiser_pairs(client):
    t = TournamentFactory(slug="checkin-43", check_in_required=True, rounds_planned=3)
    director = _organiser(t)
    entries = [
        EntryFactory(tournament=t, draw_number=i, player__last_name=f"Отметка{i}") for i in range(1, 5)
    ]
    for e in entries[:3]:
        entry_status.check_in(e, director)
    late = entries[3]
    client.force_login(director)
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("manage-rounds", kwargs={"slug": t.slug})).content.decode()
    assert f'id="absent-{late.pk}" checked' in page  # pre-ticked: not checked in yet
    unchecked = re.search(r'name="unchecked" value="([^"]*)"', page).group(1)
    assert unchecked.split() == [str(late.pk)]
    # He taps "I'm here" on his phone while the organiser's page stands open.
    phone = Client()
    phone.post(reverse("private-check-in", kwargs={"token": private_links.token_for(late)}))
    late.refresh_from_db()
    assert late.status == EntryStatus.CHECKED_IN
    url = reverse("manage-generate", kwargs={"slug": t.slug})
    refused = client.post(url, {"absent": [late.pk], "unchecked": unchecked, "reason": "мой текст"})
    body = refused.content.decode()
    assert refused.status_code == 200 and not Round.objects.filter(tournament=t).exists()
    assert "отметились о прибытии игроки, отмеченные на ней отсутствующими: №4 " in body
    assert "Отметка4" in body.split("отсутствующими:")[1][:80]
    assert f'id="absent-{late.pk}" checked' not in body and "мой текст" in body
    assert not re.search(r'name="unchecked" value="', body)  # drawn again: nobody left unchecked
    unchecked = ""
    paired = client.post(url, {"unchecked": unchecked, "reason": ""})
    assert paired.status_code == 302
    [rnd] = Round.objects.filter(tournament=t)
    seated = {pk for pair in rnd.matches.values_list("entry_a_id", "entry_b_id") for pk in pair}
    assert late.pk in seated  # paired, not "absent this round"


# ---------------------------------------------------------------------------------------------
# 4. a withdrawal while a draft waits
# ---------------------------------------------------------------------------------------------


def _swiss_with_draft(slug: str):
    """Six players; round 1 played and closed; round 2 drafted with №6 ticked absent."""
    t = TournamentFactory(slug=slug, rounds_planned=3)
    director = _organiser(t)
    entries = [
        EntryFactory(tournament=t, draw_number=i, player__last_name=f"Швейцарец{i}") for i in range(1, 7)
    ]
    [r1] = pm.generate_next(t, user=director)
    pm.publish_round(r1, user=director)
    confirm_round(r1)
    close_round(r1, director)
    [draft] = pm.generate_next(t, user=director, absent=[entries[5].pk])
    return t, director, entries, draft


def _seated(rnd) -> set[int]:
    return {pk for pair in rnd.matches.values_list("entry_a_id", "entry_b_id") for pk in pair if pk}


def test_a_withdrawal_while_a_swiss_draft_waits_pairs_it_again_so_it_publishes_without_him():
    """The README said so (now the manual, organiser/rounds, "Leaving the event") and the
    product did not: the draft kept him and publishing it was
    refused. Now the withdrawal pairs the draft again without him, with the choices it was made
    with (№6 stays absent), and the organiser publishes it."""
    t, director, entries, draft = _swiss_with_draft("swiss-draft-43")
    gone = entries[0]
    assert gone.pk in _seated(draft)
    answer = _api(director).post(
        f"/api/tournaments/{t.slug}/entries/{gone.pk}/withdraw/", {"reason": "ill"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert not Round.objects.filter(pk=draft.pk).exists()
    [again] = Round.objects.filter(tournament=t, number=2)
    assert again.status == RoundStatus.DRAFT
    assert gone.pk not in _seated(again) and entries[5].pk not in _seated(again)
    assert {b["kind"] for b in again.explanation["byes"]} == {"absent"}  # №6 still absent
    assert len(_seated(again)) == 4
    pm.publish_round(again, user=director)
    again.refresh_from_db()
    assert again.status == RoundStatus.PUBLISHED


def test_a_swiss_draft_changed_by_hand_is_kept_and_its_publication_says_what_to_do():
    """Pairing again would throw away the organiser's swap: the draft stays, and publishing it
    is refused with the steps to take, in both languages."""
    t, director, entries, draft = _swiss_with_draft("swiss-hand-43")
    a, b = draft.matches.exclude(entry_b=None).order_by("table").values_list("entry_a_id", "entry_b_id")[0]
    other = draft.matches.exclude(entry_b=None).order_by("table").values_list("entry_a_id", flat=True)[1]
    pm.swap_players(draft, b, other, user=director, reason="brothers apart")
    entry_status.withdraw(entries[[e.pk for e in entries].index(a)], director, "ill")
    draft.refresh_from_db()
    assert draft.status == RoundStatus.DRAFT and a in _seated(draft)
    with pytest.raises(pm.PairingRefused) as refused:
        pm.publish_round(draft, user=director)
    [problem] = refused.value.problems
    assert problem.code == "pairing.publish_withdrawn"
    assert "changes made by hand" in problem.message("en") and "pair the round again" in problem.message("en")
    assert "изменения, сделанные вручную" in problem.message("ru")


def _cup_of_four(slug: str, name: str):
    """A cup of four with its organiser, the semi-finals drawn (not published)."""
    t = TournamentFactory(slug=slug, system=CompetitionSystem.KNOCKOUT, rounds_planned=None,
                          starts_on=dt.date(2026, 5, 1))  # fmt: skip
    director = _organiser(t)
    for i in range(1, 5):
        EntryFactory(tournament=t, draw_number=i, player__last_name=f"{name}{i}")
    [semis] = pm.generate_next(t, user=director)
    return t, director, semis


def _semis_played(slug: str, name: str):
    """The cup of four with its semi-finals published, confirmed and closed."""
    t, director, semis = _cup_of_four(slug, name)
    pm.publish_round(semis, user=director)
    confirm_round(semis)
    close_round(semis, director)
    return t, director, semis


def test_a_cup_finalist_who_withdraws_while_the_final_is_a_draft_gives_his_opponent_the_title():
    """A cup's bracket fixes who meets whom: the final cannot be paired again without him. His
    final is settled as the director chose (here a forfeit): the opponent goes through, the
    final publishes, and the cup is over with its champion."""
    t, director, semis = _semis_played("cup-final-43", "Кубковый")
    [final] = pm.generate_next(t, user=director)
    match = final.matches.get()
    gone, stays = match.entry_a, match.entry_b
    entry_status.withdraw(gone, director, "flight home", settle="forfeit")
    match.refresh_from_db()
    assert match.result_kind == "forfeit" and match.winner == "b"
    pm.publish_round(final, user=director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    with pytest.raises(pm.PairingRefused) as over:
        pm.generate_next(t, user=director)
    assert over.value.problems[0].code == "pairing.knockout_over"
    assert over.value.problems[0].details["champion"] == stays.draw_number


def test_a_cup_player_who_withdraws_between_stages_is_settled_as_the_next_stage_is_drawn():
    """No draft when he leaves: the bracket still brings him to the final, which is settled as
    it is written (a forfeit to his opponent, as the director chose), so the stage publishes
    instead of being refused for ever."""
    t, director, semis = _semis_played("cup-between-43", "Кубок")
    finalist = semis.matches.order_by("table").first().entry_a  # A wins at odd tables
    entry_status.withdraw(finalist, director, "injured", settle="forfeit")
    [final] = pm.generate_next(t, user=director)
    match = final.matches.get()
    assert finalist.pk in (match.entry_a_id, match.entry_b_id)
    assert match.result_kind == "forfeit" and match.result_status == "confirmed"
    pm.publish_round(final, user=director)
    final.refresh_from_db()
    assert final.status == RoundStatus.FINISHED


def test_withdrawing_on_the_entries_page_says_the_draft_was_paired_again(client):
    t, director, entries, draft = _swiss_with_draft("swiss-page-43")
    gone = entries[1]
    client.force_login(director)
    client.cookies["django_language"] = "ru"
    page = client.post(
        reverse("manage-entry", kwargs={"slug": t.slug, "entry_id": gone.pk}),
        {"action": "withdraw", "reason": "ушёл", "settle": "forfeit"}, follow=True,
    ).content.decode()
    assert "Черновик тура 2 составлен заново без игрока" in page
    [again] = Round.objects.filter(tournament=t, number=2)
    assert gone.pk not in _seated(again)


def test_a_disqualification_while_a_swiss_draft_waits_pairs_it_again_without_him():
    t, director, entries, draft = _swiss_with_draft("swiss-dq-43")
    gone = entries[2]
    workflow.remove_entry(gone, director, how="disqualified", reason="abuse of the arbiter")
    [again] = Round.objects.filter(tournament=t, number=2)
    assert again.pk != draft.pk and gone.pk not in _seated(again)
    pm.publish_round(again, user=director)


def test_a_cup_match_is_never_settled_for_nobody_so_the_bracket_goes_on():
    """A void or a double forfeit in a knockout would leave the next slot of the bracket empty
    and the next stage could never be paired: the desk's void and double forfeit are refused
    with the reason, and a withdrawal the director asked to settle as void gives the match to
    his opponent (the cup's loser leaves, its winner takes the next slot: book, Part 9)."""
    t, director, semis = _cup_of_four("cup-void-43", "Пустой")
    pm.publish_round(semis, user=director)
    first, second = semis.matches.order_by("table")
    for kind in ("void", "double_forfeit"):
        with pytest.raises(workflow.InvalidResult) as refused:
            workflow.record_kind_result(first.pk, director, version=first.version, kind=kind, reason="no-show")
        [problem] = refused.value.problems
        assert problem.code == "match.knockout_no_winner"
        assert "goes through" in problem.message("en") and "проходит дальше" in problem.message("ru")
    first.refresh_from_db()
    assert first.result_status == "pending"
    gone = second.entry_a
    entry_status.withdraw(gone, director, "flight home", settle="void")
    second.refresh_from_db()
    assert second.result_kind == "forfeit" and second.winner == "b"
    workflow.submit_result(first.pk, director, version=first.version, final=(t.match_length, 0), confirm=True)
    close_round(semis, director)
    [final] = pm.generate_next(t, user=director)
    assert {final.matches.get().entry_a_id, final.matches.get().entry_b_id} == {first.entry_a_id, second.entry_b_id}
