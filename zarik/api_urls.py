"""The API's routes: flat collections (filterable by ``?tournament=<slug>``) and the same under a tournament."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from scoring.analysis.api import MatchAnalysisViewSet, TournamentPrViewSet
from scoring.entry.api import DisputeViewSet, MatchWorkflowViewSet, TournamentSanctionViewSet
from scoring.entry.api_bulk import RoundResultsViewSet
from scoring.entry.api_state import MyMatchesViewSet
from tournaments.api import (
    EntryViewSet,
    OfficialViewSet,
    SectionViewSet,
    TournamentViewSet,
)
from tournaments.api import RoundViewSet as TournamentRoundsViewSet
from tournaments.api.entry_desk import EntryDeskViewSet
from tournaments.api.entry_keys import EntryKeyViewSet
from tournaments.api.exports import ExportViewSet
from tournaments.api.registrations import RegistrationViewSet
from tournaments.api.rounds import RoundViewSet, TournamentRoundActionsViewSet
from tournaments.api.search import ClubSearchViewSet, PlayerSearchViewSet
from tournaments.api.swiss import ByeRequestViewSet, ForbiddenPairViewSet, QualifyViewSet
from tournaments.api.tables import PlayerRatingsViewSet, RatingListViewSet, TournamentReadsViewSet
from tournaments.api.team_match import TeamMatchViewSet
from tournaments.api.teams import TeamViewSet
from tournaments.api.tokens_api import TokenViewSet
from tournaments.api.webhook_events import WebhookEventTypeViewSet
from tournaments.api.webhooks import WebhookViewSet


class NumericIds:
    """Routes whose lookup is a primary key match digits only: ``/api/matches/null/…`` is a 404, not a 500."""

    def get_lookup_regex(self, viewset, lookup_prefix=""):
        if not hasattr(viewset, "lookup_value_regex") and getattr(viewset, "lookup_field", "pk") == "pk":
            kwarg = getattr(viewset, "lookup_url_kwarg", None) or "pk"
            return f"(?P<{lookup_prefix}{kwarg}>[0-9]{{1,12}})"
        return super().get_lookup_regex(viewset, lookup_prefix)


class Router(NumericIds, DefaultRouter):
    pass


class NestedRouter(NumericIds, SimpleRouter):
    pass


router = Router()
# issue 14, running an event (W3). The two "tournaments" viewsets go before TournamentViewSet,
# whose list keeps the root's "tournaments" entry; they add only /api/tournaments/<slug>/<action>/.
router.register("tournaments", TournamentRoundActionsViewSet, basename="api-tournament-rounds")
router.register("tournaments", TournamentReadsViewSet, basename="api-tournament-reads")
router.register("tournaments", TeamMatchViewSet, basename="api-tournament-team-match")  # issue 35
router.register(r"tournaments/(?P<slug>[^/.]+)/exports", ExportViewSet, basename="api-export")
router.register("rounds", RoundViewSet, basename="api-round")
router.register("rounds", RoundResultsViewSet, basename="api-round-results")  # issue 47: the grid's API twin
router.register("disputes", DisputeViewSet, basename="api-dispute")
router.register("ratings", RatingListViewSet, basename="api-rating")
router.register("players", PlayerRatingsViewSet, basename="api-player")
# end of W3's lines
router.register("tournaments", TournamentPrViewSet, basename="api-tournament-pr")  # issue 33
router.register("tournaments", TournamentViewSet, basename="api-tournament")
router.register("entries", EntryViewSet, basename="api-entry")
router.register("matches", MatchAnalysisViewSet, basename="api-match-analysis")  # issue 33
router.register("matches", MatchWorkflowViewSet, basename="api-match")
router.register("me/matches", MyMatchesViewSet, basename="api-me-match")  # issue 28: a player's current match
router.register("tokens", TokenViewSet, basename="api-token")  # issue 28: tokens without the web pages
router.register("entry-tokens", EntryKeyViewSet, basename="api-entry-token")  # issue 47: a private link's key
router.register("players", PlayerSearchViewSet, basename="api-player-search")  # issue 28: search
router.register("clubs", ClubSearchViewSet, basename="api-club-search")
router.register("webhook-events", WebhookEventTypeViewSet, basename="api-webhook-event")  # issue 28

#: /api/tournaments/<slug>/<collection>/: one table, one row per nested collection.
nested = NestedRouter()
nested.register("entries", EntryDeskViewSet, basename="api-tournament-entry")
nested.register("rounds", TournamentRoundsViewSet, basename="api-tournament-round")
nested.register("matches", MatchWorkflowViewSet, basename="api-tournament-match")
nested.register("sections", SectionViewSet, basename="api-tournament-section")
nested.register("officials", OfficialViewSet, basename="api-tournament-official")
nested.register("teams", TeamViewSet, basename="api-tournament-team")
nested.register("webhooks", WebhookViewSet, basename="api-tournament-webhook")
nested.register("sanctions", TournamentSanctionViewSet, basename="api-tournament-sanction")
nested.register("forbidden-pairs", ForbiddenPairViewSet, basename="api-tournament-forbidden-pair")
nested.register("bye-requests", ByeRequestViewSet, basename="api-tournament-bye-request")
nested.register("registrations", RegistrationViewSet, basename="api-tournament-registration")
nested.register("qualify", QualifyViewSet, basename="api-tournament-qualify")

#: /api/clubs/<slug>/<collection>/
club_nested = NestedRouter()
club_nested.register("webhooks", WebhookViewSet, basename="api-club-webhook")

urlpatterns = [
    path("tournaments/<slug:tournament_slug>/", include(nested.urls)),
    path("clubs/<slug:club_slug>/", include(club_nested.urls)),
    *router.urls,
]
