"""The organiser's setup pages: clubs, the creation wizard, settings, sections, officials.

Who may: ``tournament.create`` / ``club.manage`` on a club (its club organisers),
``tournament.edit`` on a tournament (its organisers) — the permissions table,
checked on the server for every request. Every change is audited. Bad input is
shown next to the field, in the reader's language, with everything typed kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club, ClubRole, ClubRoleKind
from tournaments import audit
from tournaments.access.permissions import (
    CLUB_ORGANISER,
    ORGANISER,
    organised_clubs,
    require,
    tournament_view,
)
from tournaments.account.people import person_name
from tournaments.models import Official, Section, Tournament
from tournaments.registration import services as registration
from tournaments.standings.metrics import get_metric
from zarik.i18n import current_language

from . import services as setup
from .forms import (
    FIELDSETS,
    ClubOrganiserForm,
    EssentialsForm,
    OfficialForm,
    SetupOptionsForm,
    TiebreakPreviewForm,
    inapplicable,
    section_formset,
)
from .presets import PRESETS, get_preset
from .problems import SETUP
from .tiebreak_preview import preview

EDIT = "tournament.edit"


def _view(action: str):
    def decorator(view):
        return login_required(tournament_view(action)(view))

    return decorator


def organised_tournaments(user):
    """Tournaments ``user`` organises: as their organiser, or as organiser of their club."""
    qs = Tournament.objects.select_related("club")
    if user.is_superuser:
        return qs
    return qs.filter(
        Q(officials__user=user, officials__role=ORGANISER)
        | Q(club__roles__user=user, club__roles__role=CLUB_ORGANISER)
    ).distinct()


# ---------------------------------------------------------------------------------------------
# /organise/: my clubs and tournaments; a club's organisers
# ---------------------------------------------------------------------------------------------


@login_required
def organise(request):
    return render(
        request,
        "setup/organise.html",
        {
            "clubs": organised_clubs(request.user).order_by("name"),
            "tournaments": organised_tournaments(request.user).order_by("-starts_on", "name"),
        },
    )


@login_required
def club(request, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    require(request.user, "club.manage", club)
    form = ClubOrganiserForm(club, request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            role = ClubRole.objects.create(
                club=club, user=form.cleaned_data["user"], role=ClubRoleKind.ORGANISER
            )
            audit.record(request.user, None, "club.organiser_add", role, None, role)
        messages.success(request, _("%(user)s is now an organiser of the club.") % {"user": person_name(role.user)})
        return redirect("organise-club", club_slug=club.slug)
    roles = club.roles.filter(role=ClubRoleKind.ORGANISER).select_related("user__player").order_by("user__username")
    return render(
        request, "setup/club.html",
        {"club": club, "roles": roles, "form": form,
         "tournaments": club.tournaments.order_by("-starts_on", "name")},
    )  # fmt: skip


@login_required
@require_POST
def club_remove(request, club_slug: str, role_id: int):
    club = get_object_or_404(Club, slug=club_slug)
    require(request.user, "club.manage", club)
    role = get_object_or_404(ClubRole, pk=role_id, club=club)
    if club.roles.filter(role=ClubRoleKind.ORGANISER).count() <= 1:
        messages.error(request, SETUP.problem("last_organiser").message(current_language()))
    else:
        with transaction.atomic():
            audit.record(request.user, None, "club.organiser_remove", role, role, None)
            role.delete()
        messages.success(request, _("%(user)s is no longer an organiser of the club.") % {"user": role.user})
    return redirect("organise-club", club_slug=club.slug)


# ---------------------------------------------------------------------------------------------
# the creation wizard: 1 preset, 2 options, 3 sections and confirm
# ---------------------------------------------------------------------------------------------


def _draft(preset, club) -> Tournament:
    """An unsaved tournament with the preset's values (the wizard's starting point)."""
    return setup.draft_from_preset(preset, club)


def _preset_sections(preset) -> list[dict]:
    return preset.section_values(current_language())


#: Options the confirmation step shows even when off: no cube, a hidden event, no self-registration.
SHOWN_OFF = ("cube", "public", "registration_open")


def _summary(form: SetupOptionsForm) -> list[dict]:
    """What will be created, group by group (key, legend, rows of (label, value as shown)),
    for the summary step; each group has its "Change" button back to the options."""
    groups = []
    skip = inapplicable(form.cleaned_data)
    for key, legend, names in FIELDSETS:
        rows = []
        for name in names:
            field = form.fields.get(name)
            value = form.cleaned_data.get(name)
            if value is False:
                if name not in SHOWN_OFF:
                    continue  # what is off is left out, except what matters when off (SHOWN_OFF)
            elif field is None or name in skip or value in (None, "", [], 0):
                continue  # and what does not apply, or is nothing
            if field is None:
                continue
            choices = dict(getattr(field, "choices", None) or ())
            if isinstance(value, bool):
                shown = _("yes") if value else _("no")
            elif isinstance(value, list):
                shown = ", ".join(str(choices.get(v, v)) for v in value)
            elif choices:
                shown = str(choices.get(value, value))
            else:
                shown = str(value)
            rows.append((str(field.label), shown))
        if key == "pairing":
            order = ", ".join(
                get_metric(k).name(current_language()) for k in form.instance.tiebreaks or ()
            )
            rows.append((str(_("Tie-break order")), order or str(_("the system's default"))))
        if rows:
            groups.append({"key": key, "legend": legend, "rows": rows})
    return groups


def _preview_context(result, picker=None) -> dict:
    return {
        "preview_tables": result.display(current_language()) if result is not None else None,
        "preview_sample": result.sample if result is not None else True,
        "picker": picker,
    }


def _wizard_context(club, preset, form) -> dict:
    return {
        "club": club, "preset": preset, "preset_name": preset.name(current_language()),
        "form": form, "preview_url": reverse("organise-tiebreak-preview"),
        **_preview_context(_preview_for(form, None)),
    }  # fmt: skip


def _preview_for(form, tournament):
    """The preview for the picked order in ``form`` (bound or not), or the saved order."""
    data = form.data if form.is_bound else None
    system = (data.get("system") if data else None) or (
        tournament.system if tournament else form.initial.get("system", "swiss")
    )
    if data is not None:
        picker = TiebreakPreviewForm(data)
        keys = picker.keys if picker.is_valid() else None
        if keys is None:
            keys = []
    else:
        keys = list(tournament.tiebreaks) if tournament else []
    try:
        return preview(tuple(keys), system, tournament)
    except (ValueError, KeyError):
        return preview((), "swiss", tournament)


def _options_form(data, draft, club, open_groups=frozenset()) -> SetupOptionsForm:
    """The wizard's options step: every group closed but ``open_groups`` (and any with an error)."""
    form = SetupOptionsForm(data, instance=draft, club=club)
    form.open_groups = frozenset(open_groups)
    return form


def _essentials_page(request, club, form: EssentialsForm, error: str = ""):
    lang = current_language()
    return render(
        request, "setup/new_preset.html",
        {"club": club, "form": form, "error": error,
         "presets": {p.key: (p.name(lang), p.description(lang)) for p in PRESETS}},
    )  # fmt: skip


@login_required
def new(request):
    """The wizard: 1 what every event needs (a preset, the name, dates, game, system, length),
    2 the options in closed groups, 3 the summary (with the sections) and create."""
    source = request.POST if request.method == "POST" else request.GET
    if not source.get("club"):  # one club: no need to ask; several: choose on /organise/
        clubs = list(organised_clubs(request.user)[:2])
        if len(clubs) != 1:
            return redirect("organise")
        return redirect(f"{reverse('organise-new')}?club={clubs[0].slug}")
    club = get_object_or_404(Club, slug=source.get("club", ""))
    require(request.user, "tournament.create", club)
    preset = get_preset(source.get("preset"))
    if request.method == "GET" and source.get(
        "first"
    ):  # "Back to the first step", with what it had
        initial = {
            k: source.get(k)
            for k in ("preset", "name", "starts_on", "ends_on", "variant", "system", "match_length")
        }
        return _essentials_page(request, club, EssentialsForm(PRESETS, initial=initial))
    essentials = request.method == "GET" and "name" in source  # the first step was sent
    if preset is None or essentials:
        form = EssentialsForm(PRESETS, source if essentials or source.get("preset") else None,
                              initial={"preset": PRESETS[0].key, "starts_on": timezone.localdate()})  # fmt: skip
        unknown = bool(source.get("preset")) and preset is None
        if preset is None or not form.is_valid():
            error = SETUP.problem("unknown_preset").message(current_language()) if unknown else ""
            return _essentials_page(request, club, form, error)
        draft = form.apply(_draft(preset, club))
        return render(
            request,
            "setup/new_options.html",
            _wizard_context(club, preset, _options_form(None, draft, club)),
        )
    if (
        request.method == "GET"
    ):  # a preset's link without the first step (the API's docs, old links)
        form = _options_form(None, _draft(preset, club), club, {"event"})
        return render(request, "setup/new_options.html", _wizard_context(club, preset, form))
    step = (
        "back" if request.POST.get("edit") else request.POST.get("step", "options")
    )  # a summary group's "Change"
    form = _options_form(request.POST, _draft(preset, club), club, {request.POST.get("edit", "")})
    options_ok = form.is_valid()
    if not options_ok or step in ("back", "preview"):
        return render(request, "setup/new_options.html", _wizard_context(club, preset, form))
    formset = section_formset(
        len(preset.sections), request.POST if step == "create" else None,
        initial=_preset_sections(preset), queryset=Section.objects.none(), prefix="sections",
    ) if preset.sections else None  # fmt: skip
    if step != "create" or (formset is not None and not formset.is_valid()):
        return render(
            request, "setup/new_confirm.html",
            {"club": club, "preset": preset, "preset_name": preset.name(current_language()),
             "form": form, "formset": formset, "summary": _summary(form)},
        )  # fmt: skip
    sections = (
        []
        if formset is None
        else [
            f.save(commit=False)
            for f in formset.forms
            if f not in formset.deleted_forms and f.cleaned_data
        ]
    )
    tournament = setup.create_tournament(
        club, request.user, form.save(commit=False), sections, preset.key
    )
    messages.success(request, _("Tournament “%(name)s” created.") % {"name": tournament.name})
    return redirect("manage-settings", slug=tournament.slug)


@login_required
@require_POST
def new_preview(request):
    """The wizard's live tie-break preview (sample data: the tournament does not exist yet)."""
    if not organised_clubs(request.user).exists():
        raise PermissionDenied
    picker = TiebreakPreviewForm(request.POST)
    keys = picker.keys if picker.is_valid() and picker.keys is not None else None
    result = preview(tuple(keys or ()), picker.cleaned_data.get("system") or "swiss") if keys is not None else None
    return render(request, "setup/_tiebreak_preview.html", _preview_context(result, picker))


# ---------------------------------------------------------------------------------------------
# an existing tournament: settings, tie-break preview, sections, officials
# ---------------------------------------------------------------------------------------------


@_view(EDIT)
def settings(request, tournament: Tournament):
    before = audit.snapshot(tournament)
    was_rated = tournament.rated  # the form writes the new value into the instance as it validates
    form = SetupOptionsForm(request.POST or None, instance=tournament)
    if request.method == "POST" and request.POST.get("step") != "preview" and form.is_valid():
        setup.save_settings(form, request.user, before, was_rated)
        messages.success(request, _("Settings saved."))
        if warning := registration.limit_warning(tournament):  # the same warning as the registrations page
            messages.warning(request, warning.message(current_language()))
        return redirect("manage-settings", slug=tournament.slug)
    return render(
        request, "setup/settings.html",
        {"tournament": tournament, "form": form,
         "preview_url": reverse("manage-tiebreak-preview", kwargs={"slug": tournament.slug}),
         **_preview_context(_preview_for(form, tournament))},
    )  # fmt: skip


@_view(EDIT)
@require_POST
def settings_preview(request, tournament: Tournament):
    picker = TiebreakPreviewForm(request.POST)
    result = None
    if picker.is_valid() and picker.keys is not None:
        result = preview(tuple(picker.keys), picker.cleaned_data.get("system") or tournament.system, tournament)
    return render(request, "setup/_tiebreak_preview.html", _preview_context(result, picker))


@_view(EDIT)
def sections(request, tournament: Tournament):
    qs = tournament.sections.all()
    formset = section_formset(0, request.POST or None, queryset=qs, prefix="sections")
    if request.method == "POST" and formset.is_valid():
        with transaction.atomic():  # the same services as the API, so the same audit
            saved = formset.save(commit=False)
            for section in formset.deleted_objects:
                setup.delete_section(section, request.user)
            for section in saved:
                setup.save_section(section, tournament, request.user)
        messages.success(request, _("Sections saved."))
        return redirect("manage-sections", slug=tournament.slug)
    return render(request, "setup/sections.html", {"tournament": tournament, "formset": formset})


@_view(EDIT)
def officials(request, tournament: Tournament):
    form = OfficialForm(tournament, request.POST or None)
    if request.method == "POST" and form.is_valid():
        official = setup.appoint_official(
            tournament, request.user, form.cleaned_data["user"], form.cleaned_data["role"]
        )
        messages.success(
            request, _("%(user)s appointed: %(role)s.") % {"user": person_name(official.user), "role": official.get_role_display()}
        )
        return redirect("manage-officials", slug=tournament.slug)
    rows = tournament.officials.select_related("user__player").order_by("role", "user__username")
    return render(request, "setup/officials.html", {"tournament": tournament, "form": form, "officials": rows})


@_view(EDIT)
@require_POST
def official_remove(request, tournament: Tournament, official_id: int):
    official = get_object_or_404(Official, pk=official_id, tournament=tournament)
    try:
        setup.remove_official(official, request.user)
    except setup.SetupRefused as exc:
        messages.error(request, exc.problem.message(current_language()))
    else:
        messages.success(request, _("%(user)s removed: %(role)s.") % {"user": official.user, "role": official.get_role_display()})
    return redirect("manage-officials", slug=tournament.slug)
