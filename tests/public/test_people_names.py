"""People, not accounts (issue 30): every account names itself on /account/, and every place a
person acts — a confirmation, a ruling, the audit log, an email — shows that name and the role,
from one helper (tournaments.account.people), in the reader's alphabet."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import workflow
from tests.factories import OfficialFactory, PlayerFactory, TournamentFactory, UserFactory, enter
from tests.smtp import Inbox, smtp_server
from tournaments.access.private_links import LinkHolder
from tournaments.account.people import person_label, person_name
from tournaments.models import OfficialRole
from tournaments.rounds import pairing_manager as pm

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return " ".join(response.content.decode().split())


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_account_sets_its_own_name_on_its_page(client, lang):
    user = UserFactory(username="ref-login-7")
    client.cookies["django_language"] = lang
    client.force_login(user)
    page = client.get(reverse("account"))
    assert page.status_code == 200 and 'name="last_name"' in page.content.decode()
    refused = client.post(reverse("account"), {"last_name": "", "first_name": "Ольга"})
    assert refused.status_code == 400 and 'value="Ольга"' in refused.content.decode()  # what was typed stays
    word = {"ru": "фамилию", "en": "family name"}[lang]
    assert word in _text(refused)
    assert client.post(reverse("account"), {"last_name": " Орлова ", "first_name": "Ольга"}).status_code == 302
    user.refresh_from_db()
    assert (user.last_name, user.first_name) == ("Орлова", "Ольга")
    assert person_name(user, "ru") == "Орлова Ольга" and person_name(user, "en") == "Olga Orlova"


def test_a_nameless_account_is_its_login_and_a_players_account_is_the_players_name():
    nameless = UserFactory(username="desk-2")
    assert person_name(nameless, "ru") == "desk-2"
    user = UserFactory(username="dima", first_name="Dima", last_name="S")
    PlayerFactory(last_name="Смирнов", first_name="Дмитрий", last_name_latin="Smirnov", first_name_latin="Dmitry",
                  user=user)  # fmt: skip
    assert (person_name(user, "ru"), person_name(user, "en")) == ("Смирнов Дмитрий", "Dmitry Smirnov")


@pytest.fixture
def ruled(db):
    """Round 1: A reports 5:3 through the link, B disputes, the named referee rules (a chief named, a login not)."""
    t = TournamentFactory(name="Кубок имён", slug="names-cup", match_length=5, rounds_planned=None)
    org = UserFactory(username="org-login", last_name="Орлова", first_name="Ольга")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    entries = enter(t, [
        {"last_name": last, "first_name": first, "last_name_latin": latin, "first_name_latin": first_l,
         "email": f"{latin.lower()}@example.org", "language": "en"}
        for last, first, latin, first_l in (("Смирнов", "Дмитрий", "Smirnov", "Dmitry"),
                                            ("Мамедов", "Фарид", "Mamedov", "Farid"))
    ])  # fmt: skip
    [r1] = pm.generate_next(t, user=org)
    pm.publish_round(r1, user=org)
    match = r1.matches.select_related("entry_a__player", "entry_b__player").get()
    result = workflow.submit_result(match.pk, LinkHolder(match.entry_a), version=match.version, final=(5, 3))
    match.refresh_from_db()
    dispute = workflow.dispute_result(match.pk, result.pk, LinkHolder(match.entry_b), version=match.version,
                                      reason="Было 3:5")  # fmt: skip
    match.refresh_from_db()
    workflow.rule_dispute(dispute.pk, org, outcome="replace", ruling="По бланку 3:5", version=match.version,
                          final=(3, 5))  # fmt: skip
    return {"t": t, "org": org, "match": match, "dispute": dispute, "entries": entries}


@pytest.mark.parametrize(("lang", "signed"), [("ru", "Орлова Ольга (организатор)"), ("en", "Olga Orlova (organiser)")])
def test_rulings_and_the_audit_log_show_the_officials_name_and_role_never_the_login(client, ruled, lang, signed):
    client.cookies["django_language"] = lang
    client.force_login(ruled["org"])
    kw = {"slug": "names-cup"}
    for page in (client.get(reverse("dispute-detail", kwargs={**kw, "dispute_id": ruled["dispute"].pk})),
                 client.get(reverse("audit-log", kwargs=kw))):  # fmt: skip
        body = _text(page)
        assert page.status_code == 200 and signed in body and "org-login" not in body.split("</header>", 1)[1]
    assert "(а)" not in _text(client.get(reverse("dispute-detail", kwargs={**kw, "dispute_id": ruled["dispute"].pk})))


def test_the_role_is_read_once_per_event_page(ruled, django_assert_max_num_queries):
    t = ruled["t"]
    person_label(ruled["org"], t)
    with django_assert_max_num_queries(0):
        assert person_label(ruled["org"], t, "en") == "Olga Orlova (organiser)"


def test_english_emails_name_people_in_latin_letters(django_capture_on_commit_callbacks):
    """«Hello, Смирнов Дмитрий!» in an English letter: the player has a Latin name, so Dmitry Smirnov."""
    t = TournamentFactory(name="Кубок писем", slug="letters-cup", match_length=5, rounds_planned=None)
    org = UserFactory(username="org-letters")
    OfficialFactory(tournament=t, user=org, role=OfficialRole.ORGANISER)
    enter(t, [
        {"last_name": last, "first_name": first, "last_name_latin": latin, "first_name_latin": first_l,
         "email": f"{latin.lower()}@example.org", "language": "en"}
        for last, first, latin, first_l in (("Смирнов", "Дмитрий", "Smirnov", "Dmitry"),
                                            ("Мамедов", "Фарид", "Mamedov", "Farid"))
    ])  # fmt: skip
    [r1] = pm.generate_next(t, user=org)
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        pm.publish_round(r1, user=org)
    match = r1.matches.select_related("entry_a__player", "entry_b__player").get()
    a, b = match.entry_a.player, match.entry_b.player
    body = Inbox.body(inbox.to(a.email)[0])
    assert f"Hello, {a.first_name_latin} {a.last_name_latin}!" in body
    assert b.latin_name in body and "Смирнов" not in body and "Мамедов" not in body
    with smtp_server() as inbox, django_capture_on_commit_callbacks(execute=True):
        workflow.submit_result(match.pk, LinkHolder(match.entry_a), version=match.version, final=(5, 0))
    reported = Inbox.body(inbox.to(b.email)[0])
    assert f"{a.latin_name} reported" in reported and f"Hello, {b.latin_name}!" in reported


def test_the_officials_page_names_people_and_keeps_the_login_beside_it(client, ruled):
    client.cookies["django_language"] = "ru"
    client.force_login(ruled["org"])
    body = _text(client.get(reverse("manage-officials", kwargs={"slug": "names-cup"})))
    assert 'Орлова Ольга <span class="meta">org-login</span>' in body


def test_a_players_account_page_says_the_player_records_name_is_shown(client):
    user = UserFactory(username="dima-acc")
    PlayerFactory(last_name="Смирнов", first_name="Дмитрий", last_name_latin="Smirnov", first_name_latin="Dmitry",
                  user=user)  # fmt: skip
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    ru = _text(client.get(reverse("account")))
    assert "Это аккаунт игрока" in ru and "<strong>Смирнов Дмитрий</strong>" in ru and "Dmitry Smirnov" in ru
    client.cookies["django_language"] = "en"
    en = _text(client.get(reverse("account")))
    assert "Your account is a player's" in en and "<strong>Dmitry Smirnov</strong>" in en
