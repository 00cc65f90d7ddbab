"""The organiser's prize page and the desk's fee button (Part 9: fees form the prize fund).

Both call :mod:`tournaments.prizes.services` (checks through the prize core, audit).
Bad input stays on the page with the reason in the reader's language.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.rules.errors import RuleViolation
from tournaments.access.permissions import tournament_view
from tournaments.entries.status import EntryRefused
from tournaments.models import Entry, Prize, PrizeSplitRule, Tournament
from tournaments.standings_service import load_event, prize_awards
from zarik.i18n import current_language

from . import services as prizes

EDIT = "tournament.edit"


class FundForm(forms.Form):
    sponsors = forms.DecimalField(
        label=gettext_lazy("Sponsors' money"), required=False, min_value=0, max_digits=12, decimal_places=2,
    )
    overheads = forms.DecimalField(
        label=gettext_lazy("Overheads"), required=False, min_value=0, max_digits=12, decimal_places=2,
        help_text=gettext_lazy("hall, boards, referees: taken before the prize fund"),
    )
    fund = forms.DecimalField(
        label=gettext_lazy("Announced prize fund"), required=False, min_value=0, max_digits=12,
        decimal_places=2,
        help_text=gettext_lazy("the prize table may not exceed it; empty: no limit is checked"),
    )
    split = forms.ChoiceField(label=gettext_lazy("Tied places share prizes"), choices=PrizeSplitRule.choices)


class PrizeForm(forms.Form):
    section = forms.ModelChoiceField(
        label=gettext_lazy("Section"), queryset=None, required=False,
        empty_label=gettext_lazy("the whole tournament"),
    )
    place = forms.IntegerField(label=gettext_lazy("Place"), min_value=1, max_value=999)
    amount = forms.DecimalField(label=gettext_lazy("Amount"), min_value=0, max_digits=12, decimal_places=2)

    def __init__(self, tournament: Tournament, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["section"].queryset = tournament.sections.order_by("order", "name")
        if not tournament.sections.exists():
            self.fields["section"].widget = forms.HiddenInput()


def _page(request, tournament: Tournament, *, fund_form=None, prize_form=None, status=200):
    event = load_event(tournament)
    awards = prize_awards(event)
    lang = current_language()
    winners = sorted(
        (
            {"name": event.entries[eid].name(lang), "place": event.places().get(eid, ""), "amount": amount}
            for eid, amount in awards.amounts.items()
            if eid in event.entries
        ),
        key=lambda w: (w["place"].split("–")[0].zfill(4), w["name"]),
    )
    check = prizes.fund_check(tournament)
    initial = {
        "fund": tournament.prize_fund, "split": tournament.prize_split,
        "sponsors": tournament.sponsor_money, "overheads": tournament.overheads,
    }  # fmt: skip
    context = {
        "tournament": tournament,
        "fees": check.fees,
        "check": check,
        "fund_problems": [p.message(lang) for p in check.problems],
        "fund_form": fund_form or FundForm(initial=initial),
        "prize_form": prize_form or PrizeForm(tournament),
        "table": Prize.objects.filter(tournament=tournament).select_related("section"),
        "awards": awards,
        "problems": [p.message(lang) for p in awards.problems],
        "winners": winners,
    }
    return render(request, "prizes/prizes.html", context, status=status)


@login_required
@tournament_view(EDIT)
def prize_table(request, tournament: Tournament):
    """GET: the fund, the table and who would get what; POST: change the fund or one prize."""
    if request.method != "POST":
        return _page(request, tournament)
    if request.POST.get("form") == "fund":
        form = FundForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                prizes.set_fund(
                    tournament, request.user, fund=data["fund"], split=data["split"],
                    sponsors=data["sponsors"], overheads=data["overheads"],
                )  # fmt: skip
            except RuleViolation as err:
                for p in err.problems:
                    form.add_error("fund", p.message(current_language()))
            else:
                messages.success(request, _("Prize fund saved."))
                return redirect(reverse("manage-prizes", kwargs={"slug": tournament.slug}))
        return _page(request, tournament, fund_form=form, status=400)
    form = PrizeForm(tournament, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            prizes.set_prize(
                tournament, request.user, section=data["section"], place=data["place"], amount=data["amount"]
            )
        except RuleViolation as err:
            for p in err.problems:
                form.add_error("amount", p.message(current_language()))
        else:
            messages.success(request, _("Prize saved."))
            return redirect(reverse("manage-prizes", kwargs={"slug": tournament.slug}))
    return _page(request, tournament, prize_form=form, status=400)


@login_required
@tournament_view(EDIT)
@require_POST
def prize_remove(request, tournament: Tournament, prize_id: int):
    prize = get_object_or_404(Prize, pk=prize_id, tournament=tournament)
    prizes.remove_prize(prize, request.user)
    messages.success(request, _("Prize removed."))
    return redirect(reverse("manage-prizes", kwargs={"slug": tournament.slug}))


@login_required
@tournament_view(EDIT)
@require_POST
def entry_fee(request, tournament: Tournament, entry_id: int):
    """The desk's fee cell: amount and "paid" for one player (audited ``entry.fee``)."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, tournament=tournament)
    try:
        prizes.record_fee(
            entry, request.user, amount=request.POST.get("fee_amount", ""),
            paid=request.POST.get("fee_paid") == "on",
        )
    except EntryRefused as exc:
        messages.error(request, f"{entry.player.full_name}: {exc.message}")
    else:
        messages.success(request, _("Fee recorded: %(name)s.") % {"name": entry.player.full_name})
    url = reverse("manage-entries", kwargs={"slug": tournament.slug})
    order = request.POST.get("order", "")
    return redirect(f"{url}?order={order}#entry-{entry.pk}" if order else f"{url}#entry-{entry.pk}")
