"""A player's public pages across every tournament: profile, head-to-head, rating history.

They live in ``tournaments`` (not ``clubs``) because they read entries, matches
and rating changes, and ``clubs`` may not import ``tournaments``. Public: no login;
only released tournaments and published rounds show (:mod:`tournaments.player_history`).
Each page costs a fixed number of queries whatever the player's history.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format, number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from clubs.life.categories.views import may_manage_player
from clubs.models import Category, Player, PlayerRating
from clubs.ratings.pools import POOLS
from scoring.analysis import services as analysis
from tournaments import player_history as profiles
from tournaments.models import Variant
from zarik.i18n import current_language

from .rating_graph import GraphPoint, GraphWords, rating_svg


def _names(player: Player, lang: str) -> tuple[str, str]:
    """The name in the reader's alphabet, and the other alphabet's form when it differs."""
    main = player.display_name(lang)
    other = player.full_name if main != player.full_name else player.latin_name
    return main, other if other != main else ""


def _pool_name(key: str, lang: str) -> str:
    pool = POOLS.get(key)
    return pool.name(lang) if pool else key


@require_safe
def profile(request, player_id: int) -> HttpResponse:
    lang = current_language()
    player = get_object_or_404(Player, pk=player_id)
    name, other_name = _names(player, lang)
    memberships = list(
        player.memberships.select_related("club").order_by("-started_on", "club__name")
    )
    ratings = [
        {"pool": r.pool, "pool_name": _pool_name(r.pool, lang), "r": r}
        for r in PlayerRating.objects.filter(player=player)
        .annotate(shown_last_played=profiles.last_public_played())
        .order_by("pool")
    ]
    events = [
        {
            "entry": entry,
            "tournament": entry.tournament,
            "placing": placing,
            "metric": placing.metric_abbr(lang) if placing and placing.metric else "",
        }
        for entry, placing in profiles.events_of(player)
    ]
    variant = _variant(request)
    page, lines = profiles.matches_page(player, request.GET.get("page"), variant)
    records = profiles.head_to_head(player, variant)
    changes = [
        {
            "c": c,
            "from": Category(c.category_from).label if c.category_from else "",
            "to": Category(c.category_to).label,
        }
        for c in player.category_changes.all()
    ]
    return render(
        request,
        "clubs/profiles/profile.html",
        {
            "player": player,
            "name": name,
            "other_name": other_name,
            "category": Category(player.category).label,
            "memberships": memberships,
            "ratings": ratings,
            "hidden_rated": profiles.hidden_rated_matches(player, request.user) if ratings else 0,
            "events": events,
            "page": page,
            "lines": [_line(line, lang) for line in lines],
            "records": [{"rec": r, "name": r.name(lang)} for r in records],
            "variant": variant or "",
            "variants": Variant.choices,
            "category_changes": changes,
            "can_change_category": request.user.is_authenticated
            and may_manage_player(request.user, player),
            **_pr_history(request, player),
        },
    )


def _pr_history(request, player: Player) -> dict:
    """The player's PR per event (those the reader may see), with a graph like the rating's."""
    history = analysis.player_history(player, request.user)
    points = [GraphPoint(h["tournament"].name, h["pr"]) for h in history if h["pr"] is not None]
    words = GraphWords(_("PR history"), _("PR per event, lower is better"), _("events"), "PR")
    own = request.user.is_authenticated and player.user_id == request.user.pk
    return {
        "pr_history": history,
        "pr_svg": mark_safe(rating_svg(points, words, "pr-graph"))
        if len(points) > 1
        else "",  # escaped there
        "own_profile": own,
        "pr_public": own and analysis.choices_for([player.pk]).get(player.pk, False),
    }


def _variant(request) -> str | None:
    """The variant chosen in ``?variant=`` (matches and head-to-head of that game only); an
    unknown value is ignored (every variant), never an error page."""
    chosen = request.GET.get("variant", "")
    return chosen if chosen in Variant.values else None


def _line(line: profiles.MatchLine, lang: str) -> dict:
    return {
        "line": line,
        "opponent_name": line.opponent.display_name(lang) if line.opponent else "",
    }


@require_safe
def head_to_head(request, player_id: int, other_id: int) -> HttpResponse:
    lang = current_language()
    if player_id == other_id:
        raise Http404("a player has no head-to-head with themselves")
    players = Player.objects.in_bulk([player_id, other_id])
    if len(players) != 2:
        raise Http404("no such player")
    player, other = players[player_id], players[other_id]
    variant = _variant(request)
    lines = profiles.matches_between(player, other, variant)
    record = profiles.record_of(lines, other)
    return render(
        request,
        "clubs/profiles/h2h.html",
        {
            "player": player,
            "other": other,
            "name": player.display_name(lang),
            "other_name": other.display_name(lang),
            "record": record,
            "lines": [_line(line, lang) for line in lines],
            "variant": variant or "",
            "variants": Variant.choices,
        },
    )


def length_text(length: int, games: bool) -> str:
    """A match length as said: "5" (points, the column's unit) or "4 games" (a fixed-games match)."""
    return ngettext("%(n)s game", "%(n)s games", length) % {"n": length} if games else str(length)


def signed(delta: float) -> str:
    """A rating change as a reader writes it: +3,21 / −3,21 (a real minus sign, local decimals)."""
    text = number_format(abs(delta), 2)
    return f"+{text}" if delta > 0 else f"\u2212{text}" if delta < 0 else text


@require_safe
def rating_history(request, player_id: int, pool: str) -> HttpResponse:
    lang = current_language()
    if pool not in POOLS:
        raise Http404("no such rating pool")
    player = get_object_or_404(Player, pk=player_id)
    current = PlayerRating.objects.filter(player=player, pool=pool).first()
    changes = profiles.rating_history(player, pool, request.user)
    name = player.display_name(lang)
    pool_name = _pool_name(pool, lang)
    rows = []
    points = []
    if changes:
        points.append(GraphPoint(_("start"), changes[0].rating_before))
    for line in changes:
        c = line.change
        if c is None:  # an event the reader may not see: the numbers only (profiles.PRIVACY_RULE)
            rows.append({"hidden": True, "delta": line.delta, "signed": signed(line.delta),
                         "rating_after": line.rating_after})  # fmt: skip
            points.append(GraphPoint(_("a match in an event not shown"), line.rating_after))
            continue
        opponent = c.opponent.display_name(lang)
        rows.append(
            {
                "c": c,
                "tournament": c.match.round.tournament,
                "opponent": opponent,
                "delta": line.delta,
                "signed": signed(line.delta),
                "length": length_text(c.length, c.match.round.tournament.match_format == "games"),
                "rating_after": line.rating_after,
            }
        )
        points.append(
            GraphPoint(
                f"{date_format(c.played_on, 'SHORT_DATE_FORMAT')} · {opponent}", c.rating_after
            )
        )
    svg = ""
    if points:
        words = GraphWords(
            title=_("Rating of %(name)s: %(pool)s") % {"name": name, "pool": pool_name},
            desc=ngettext(
                "%(count)s rated match: from %(first)s to %(last)s (highest %(high)s, lowest %(low)s).",
                "%(count)s rated matches: from %(first)s to %(last)s (highest %(high)s, lowest %(low)s).",
                len(changes),
            )
            % {
                "count": len(changes),
                "first": number_format(points[0].rating, 2),
                "last": number_format(points[-1].rating, 2),
                "high": number_format(max(p.rating for p in points), 2),
                "low": number_format(min(p.rating for p in points), 2),
            },
            x_axis=_("Rated matches, in order"),
            y_axis=_("Rating"),
        )
        svg = mark_safe(rating_svg(points, words))  # every text escaped by rating_svg
    rows.reverse()  # the table reads newest first; the graph left to right
    return render(
        request,
        "clubs/profiles/rating_history.html",
        {
            "player": player,
            "name": name,
            "pool": pool,
            "pool_name": pool_name,
            "current": current,
            "rows": rows,
            "svg": svg,
            "pools": [{"key": k, "name": p.name(lang)} for k, p in POOLS.items()],
        },
    )
