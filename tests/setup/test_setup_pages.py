"""The organiser's setup pages, driven as a browser would (forms read back from the HTML).

A club organiser who is not a superuser creates a tournament from every preset;
strangers cannot; bad combinations come back as field errors in RU and EN with
everything typed kept; officials, sections and settings are changed and audited.
"""

from __future__ import annotations

import lxml.html
import pytest
from django.urls import reverse

from clubs.models import ClubRole, ClubRoleKind
from tests.factories import (
    ClubFactory,
    EntryFactory,
    OfficialFactory,
    PlayerFactory,
    RoundFactory,
    SectionFactory,
    TournamentFactory,
    UserFactory,
    swiss_event,
)
from tournaments import standings as core
from tournaments.models import AuditEntry, Official, OfficialRole, Section, Tournament
from tournaments.setup.presets import PRESETS
from tournaments.setup.tiebreak_preview import sample_field
from tournaments.standings.metrics import get_metric

pytestmark = pytest.mark.django_db
NEW = reverse("organise-new")


@pytest.fixture
def club():
    return ClubFactory(name="Зарик", slug="zarik")


@pytest.fixture
def organiser(club):
    user = UserFactory(username="clubber", email="clubber@example.org")
    ClubRole.objects.create(club=club, user=user, role=ClubRoleKind.ORGANISER)
    return user


def form_values(response, index: int = -1, **changes) -> list[tuple[str, str]]:
    """What a browser would submit from the page's form ``index`` (the last one by default)."""
    assert response.status_code == 200, response.status_code
    form = lxml.html.fromstring(response.content.decode()).forms[index]
    values = [(k, v) for k, v in form.form_values() if k not in changes]
    for name, value in changes.items():
        if value is None:
            continue
        for v in value if isinstance(value, list) else [value]:
            values.append((name, v))
    return values


def post(client, url, values, **extra):
    data: dict[str, list[str]] = {}
    for k, v in values:
        data.setdefault(k, []).append(v)
    return client.post(url, data, **extra)


def doc_of(response):
    return lxml.html.fromstring(response.content.decode())


def errors_of(response) -> list[str]:
    lists = doc_of(response).xpath("//*[contains(concat(' ', @class, ' '), ' errorlist ')]//li")
    return [e.text_content().strip() for e in lists]


def field_errors(doc, field_id: str) -> str:
    """The error list next to one field (the field's own errors, not the page's)."""
    found = doc.xpath(f"//*[@id='{field_id}']/following-sibling::ul[contains(@class, 'errorlist')]//li")
    return " ".join(e.text_content() for e in found)


def by_id(doc, field_id: str):
    return doc.xpath(f"//*[@id='{field_id}']")[0]


# -- who may --------------------------------------------------------------------------------


def test_organise_lists_my_clubs_and_tournaments(client, club, organiser):
    mine = TournamentFactory(club=club, name="Кубок Зарика")
    other = TournamentFactory(name="Чужой турнир")
    client.force_login(organiser)
    page = client.get(reverse("organise")).content.decode()
    assert "Зарик" in page and f"{NEW}?club=zarik" in page
    assert mine.name in page and other.name not in page
    home = client.get(reverse("home")).content.decode()
    assert reverse("organise") in home


def test_strangers_cannot_create_or_manage(client, club, organiser):
    stranger = UserFactory()
    client.force_login(stranger)
    assert client.get(NEW, {"club": "zarik"}).status_code == 403
    assert client.get(NEW, {"club": "zarik", "preset": "club_swiss"}).status_code == 403
    assert client.post(NEW, {"club": "zarik", "preset": "club_swiss", "step": "create"}).status_code == 403
    assert client.get(reverse("organise-club", args=["zarik"])).status_code == 403
    assert client.post(reverse("organise-tiebreak-preview"), {}).status_code == 403
    t = TournamentFactory(club=club, public=False)
    for name in ("manage-settings", "manage-sections", "manage-officials"):
        assert client.get(reverse(name, kwargs={"slug": t.slug})).status_code == 404  # unreleased
    t.public = True
    t.save()
    for name in ("manage-settings", "manage-sections", "manage-officials"):
        assert client.get(reverse(name, kwargs={"slug": t.slug})).status_code == 403
    referee = UserFactory()
    OfficialFactory(tournament=t, user=referee, role=OfficialRole.REFEREE)
    client.force_login(referee)
    assert client.get(reverse("manage-settings", kwargs={"slug": t.slug})).status_code == 403
    client.logout()
    assert client.get(reverse("organise")).status_code == 302  # to the login page
    assert Tournament.objects.count() == 1


# -- the wizard -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_a_club_organiser_creates_a_tournament_from_each_preset(client, club, organiser, preset):
    assert not organiser.is_superuser
    client.force_login(organiser)
    step1 = client.get(NEW, {"club": "zarik"})
    assert preset.name("ru") in step1.content.decode()
    step2 = client.get(NEW, {"club": "zarik", "preset": preset.key})
    values = form_values(step2, name=f"Турнир {preset.key}", step="options")
    step3 = post(client, NEW, values)
    assert step3.status_code == 200 and not errors_of(step3), errors_of(step3)
    done = post(client, NEW, form_values(step3, step="create"))
    assert done.status_code == 302, errors_of(done)
    t = Tournament.objects.get(name=f"Турнир {preset.key}")
    assert done["Location"] == reverse("manage-settings", kwargs={"slug": t.slug})
    assert t.club == club and t.slug  # the slug was made from the name
    for field, value in preset.values.items():
        assert getattr(t, field) == value, field
    t.full_clean()
    assert Official.objects.filter(tournament=t, user=organiser, role=OfficialRole.ORGANISER).exists()
    assert AuditEntry.objects.filter(tournament=t, action="tournament.create", user=organiser).exists()
    sections = list(t.sections.order_by("order").values_list("group", "min_category", "max_category", "rule_category"))
    assert sections == [(s.group, s.min_category, s.max_category, s.rule_category) for s in preset.sections]
    if preset.key == "cup":
        assert t.pairing_options["knockout"]["consolation"] is True
    if preset.key == "round_robin":
        assert t.pairing_options == {"cycles": 2}
    assert client.get(reverse("manage-settings", kwargs={"slug": t.slug})).status_code == 200


def test_options_are_editable_and_pairing_options_of_the_chosen_system_only(client, club, organiser):
    client.force_login(organiser)
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss"})
    html = step2.content.decode()
    assert 'data-system="knockout"' in html and 'class="group system-options"' in html
    assert "Кроуфорд" in html  # help text in the book's words (Russian by default)
    values = form_values(
        step2, name="Круговик", system="round_robin", round_robin__cycles="3", match_length="9",
        registration_categories=["1", "2"], registration_open="on", entry_limit="16",
        step="options",
    )
    step3 = post(client, NEW, values)
    assert "Новичок" in step3.content.decode()  # the summary names the categories
    post(client, NEW, form_values(step3, step="create"))
    t = Tournament.objects.get(name="Круговик")
    assert (t.system, t.match_length, t.pairing_options) == ("round_robin", 9, {"cycles": 3})
    assert (t.registration_categories, t.registration_open, t.entry_limit) == ([1, 2], True, 16)


def test_the_wizard_without_javascript_previews_and_goes_back_keeping_everything(client, club, organiser):
    client.force_login(organiser)
    assert client.get(NEW)["Location"] == f"{NEW}?club=zarik"  # the only club is taken
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss"})
    values = form_values(step2, name="Без скриптов", tb__points="on", tb__points__order="1", step="preview")
    again = post(client, NEW, values)
    doc = doc_of(again)
    assert by_id(doc, "id_name").get("value") == "Без скриптов"
    assert by_id(doc, "id_tb__points").get("checked") is not None
    header = doc.xpath("//table[contains(@class, 'tiebreak-preview')]/thead/tr/th/abbr")
    assert header[0].get("title") == get_metric("points").name("ru")  # the picked order, first
    step3 = post(client, NEW, form_values(again, step="options"))
    back = post(client, NEW, form_values(step3, step="back"))
    assert by_id(doc_of(back), "id_name").get("value") == "Без скриптов"
    assert by_id(doc_of(back), "id_tb__points").get("checked") is not None
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "never used in matches"), ("ru", "в матчах — никогда")],
)
def test_a_bad_combination_is_a_field_error_keeping_what_was_typed(client, club, organiser, language, expected):
    client.cookies["django_language"] = language
    client.force_login(organiser)
    step2 = client.get(NEW, {"club": "zarik", "preset": "club_swiss"})
    values = form_values(step2, name="Мой турнир", venue="Клуб «Зарик»", jacoby="on",
                         raccoon="on", match_length="11", step="options")  # fmt: skip
    response = post(client, NEW, values)
    assert response.status_code == 200
    doc = doc_of(response)
    assert expected in field_errors(doc, "id_jacoby"), errors_of(response)
    assert ("beaver" if language == "en" else "бивер") in field_errors(doc, "id_raccoon").lower()
    assert by_id(doc, "id_name").get("value") == "Мой турнир"
    assert by_id(doc, "id_venue").get("value") == "Клуб «Зарик»"
    assert by_id(doc, "id_match_length").get("value") == "11"
    assert by_id(doc, "id_jacoby").get("checked") is not None
    assert not Tournament.objects.exists()


def test_bad_pairing_option_and_unknown_preset(client, club, organiser):
    client.force_login(organiser)
    step2 = client.get(NEW, {"club": "zarik", "preset": "cup"})
    values = form_values(step2, name="Кубок", knockout__double_elimination="on", step="options")
    response = post(client, NEW, values)
    assert response.status_code == 200 and errors_of(response)
    assert not Tournament.objects.exists()
    unknown = client.get(NEW, {"club": "zarik", "preset": "nope"})
    assert unknown.status_code == 200 and 'role="alert"' in unknown.content.decode()


# -- the tie-break order and its preview ----------------------------------------------------


def _preview_rows(response) -> list[str]:
    rows = doc_of(response).xpath("//table[contains(@class, 'tiebreak-preview')]/tbody/tr")
    return [tr.xpath("./td")[1].text_content() for tr in rows]


def test_tiebreak_preview_ranks_the_sample_in_the_chosen_order(client, organiser):
    client.cookies["django_language"] = "en"
    client.force_login(organiser)
    url = reverse("organise-tiebreak-preview")
    players, matches = sample_field()
    for keys in (("points", "wins"), ("wins", "buchholz")):
        data = {"system": "swiss"}
        for i, key in enumerate(keys, 1):
            data[f"tb__{key}"] = "on"
            data[f"tb__{key}__order"] = str(i)
        response = client.post(url, data)
        expected = core.compute_standings(players, matches, core.StandingsOptions(system=core.System.SWISS, tiebreaks=keys))
        assert _preview_rows(response) == [r.player.name("en") for r in expected.rows]
    by_points = _preview_rows(client.post(url, {"system": "swiss", "tb__points": "on"}))
    by_wins = _preview_rows(client.post(url, {"system": "swiss", "tb__wins": "on"}))
    assert by_points != by_wins  # the order really changes the ranking


def test_tiebreaks_are_saved_in_the_picked_order_and_preview_uses_own_results(client, club, organiser):
    t = swiss_event(8, rounds_done=2, club=club)
    client.force_login(organiser)
    url = reverse("manage-settings", kwargs={"slug": t.slug})
    values = form_values(client.get(url), **{"tb__buchholz": "on", "tb__buchholz__order": "2",
                                            "tb__wins": "on", "tb__wins__order": "1", "step": "save"})  # fmt: skip
    response = post(client, url, values)
    assert response.status_code == 302, errors_of(response)
    t.refresh_from_db()
    assert t.tiebreaks == ["wins", "buchholz"]
    preview = client.post(reverse("manage-tiebreak-preview", kwargs={"slug": t.slug}),
                          {"system": "swiss", "tb__points": "on"})  # fmt: skip
    names = _preview_rows(preview)
    assert len(names) == 8 and all("Игроков" in n for n in names)
    assert "8 players, 3 Swiss rounds" not in preview.content.decode()


def test_ticking_buchholz_alone_saves_the_main_score_first(client, club, organiser):
    """The settings page's picker with Buchholz alone ticked (issue 43): the order saved — and
    the one that ranks — is the Swiss's score, match wins, then Buchholz; the page says so."""
    t = swiss_event(4, rounds_done=1, open_round=False, club=club)
    client.force_login(organiser)
    url = reverse("manage-settings", kwargs={"slug": t.slug})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert "The main score always decides first" in page.content.decode()
    values = form_values(page, **{"tb__buchholz": "on", "tb__buchholz__order": "1", "step": "save"})
    response = post(client, url, values)
    assert response.status_code == 302, errors_of(response)
    t.refresh_from_db()
    assert t.tiebreaks == ["wins", "buchholz"]


# -- settings, sections, officials ----------------------------------------------------------


def test_system_variant_and_format_are_locked_after_round_one(client, club, organiser):
    t = TournamentFactory(club=club)
    client.force_login(organiser)
    url = reverse("manage-settings", kwargs={"slug": t.slug})
    response = post(client, url, form_values(client.get(url), system="round_robin", venue="Зал", step="save"))
    assert response.status_code == 302  # no round yet: anything may change
    t.refresh_from_db()
    assert t.system == "round_robin"
    RoundFactory(tournament=t, number=1)
    client.cookies["django_language"] = "en"
    response = post(client, url, form_values(client.get(url), system="swiss", variant="long_nardy", step="save"))
    assert response.status_code == 200
    doc = doc_of(response)
    assert "cannot change once round 1 exists" in field_errors(doc, "id_system")
    assert field_errors(doc, "id_variant")
    t.refresh_from_db()
    assert (t.system, t.variant) == ("round_robin", "backgammon")
    response = post(client, url, form_values(client.get(url), venue="Новый зал", step="save"))
    assert response.status_code == 302  # other options still change
    assert AuditEntry.objects.filter(tournament=t, action="tournament.settings").count() == 2


def test_sections_added_checked_and_kept_when_in_use(client, club, organiser):
    t = TournamentFactory(club=club)
    client.force_login(organiser)
    url = reverse("manage-sections", kwargs={"slug": t.slug})
    values = form_values(client.get(url), **{"sections-0-name": "Высшая", "sections-0-group": "higher",
                                            "sections-0-min_category": "7", "sections-0-rule_category": "7",
                                            "sections-0-match_length": "9"})  # fmt: skip
    response = post(client, url, values)  # a departure from the table without a reason
    assert response.status_code == 200
    assert field_errors(doc_of(response), "id_sections-0-override_reason")
    assert not Section.objects.exists()
    values = [(k, v) for k, v in values if k != "sections-0-override_reason"] + [
        ("sections-0-override_reason", "мало времени")
    ]
    assert post(client, url, values).status_code == 302
    section = Section.objects.get(tournament=t)
    assert (section.match_length, section.rule(1).overridden) == (9, True)
    EntryFactory(tournament=t, section=section)
    client.cookies["django_language"] = "en"
    response = post(client, url, form_values(client.get(url), **{"sections-0-DELETE": "on"}))
    assert response.status_code == 200 and Section.objects.filter(pk=section.pk).exists()
    assert "has entries or rounds and cannot be deleted" in response.content.decode()
    actions = set(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert "section.add" in actions


def test_duplicate_section_names_are_refused(client, club, organiser):
    t = TournamentFactory(club=club)
    SectionFactory(tournament=t, name="Открытая")
    client.force_login(organiser)
    url = reverse("manage-sections", kwargs={"slug": t.slug})
    response = post(client, url, form_values(client.get(url), **{"sections-1-name": "открытая"}))
    assert response.status_code == 200 and t.sections.count() == 1


def test_officials_appointed_by_username_and_email_and_removed(client, club, organiser):
    t = TournamentFactory(club=club)
    referee = UserFactory(username="ref1")
    UserFactory(username="jury1", email="Jury@Example.org")
    client.force_login(organiser)
    url = reverse("manage-officials", kwargs={"slug": t.slug})
    assert client.post(url, {"user": "REF1", "role": "referee"}).status_code == 302
    assert client.post(url, {"user": "jury@example.org", "role": "jury"}).status_code == 302
    assert set(t.officials.values_list("user__username", "role")) == {("ref1", "referee"), ("jury1", "jury")}
    client.cookies["django_language"] = "en"
    unknown = client.post(url, {"user": "nobody@example.org", "role": "referee"})
    assert unknown.status_code == 200
    assert any("Nobody has the username or email" in e for e in errors_of(unknown))
    assert 'value="nobody@example.org"' in unknown.content.decode()  # kept
    client.cookies["django_language"] = "ru"
    again = client.post(url, {"user": "ref1", "role": "referee"})
    assert any("уже назначен" in e for e in errors_of(again))
    player_user = UserFactory(username="plays")
    EntryFactory(tournament=t, player=PlayerFactory(user=player_user))
    assert errors_of(client.post(url, {"user": "plays", "role": "referee"}))
    official = Official.objects.get(tournament=t, user=referee)
    remove = reverse("manage-official-remove", kwargs={"slug": t.slug, "official_id": official.pk})
    assert client.post(remove).status_code == 302
    assert not Official.objects.filter(pk=official.pk).exists()
    actions = list(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert actions.count("official.appoint") == 2 and actions.count("official.remove") == 1


def test_club_organisers_appoint_and_remove_club_organisers(client, club, organiser):
    other = UserFactory(username="second", email="second@example.org")
    client.force_login(organiser)
    url = reverse("organise-club", args=["zarik"])
    assert client.post(url, {"user": "second@example.org"}).status_code == 302
    assert ClubRole.objects.filter(club=club, user=other).exists()
    client.cookies["django_language"] = "en"
    assert errors_of(client.post(url, {"user": "ghost"}))
    role = ClubRole.objects.get(club=club, user=other)
    assert client.post(reverse("organise-club-remove", args=["zarik", role.pk])).status_code == 302
    assert not ClubRole.objects.filter(pk=role.pk).exists()
    mine = ClubRole.objects.get(club=club, user=organiser)
    client.post(reverse("organise-club-remove", args=["zarik", mine.pk]))
    assert ClubRole.objects.filter(pk=mine.pk).exists()  # the last one stays
    assert AuditEntry.objects.filter(action="club.organiser_add").count() == 1
