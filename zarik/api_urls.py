"""The API's routes: flat collections (filterable by ``?tournament=<slug>``) and the same under a tournament."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from scoring.api import DisputeViewSet, MatchWorkflowViewSet
from tournaments.api import (
    EntryViewSet,
    OfficialViewSet,
    SectionViewSet,
    TournamentViewSet,
)
from tournaments.api import RoundViewSet as TournamentRoundsViewSet
from tournaments.api.setup import TournamentEntriesViewSet
from tournaments.api.swiss import ByeRequestViewSet, ForbiddenPairViewSet, QualifyViewSet
from tournaments.api_exports import ExportViewSet
from tournaments.api_reads import PlayerRatingsViewSet, RatingListViewSet, TournamentReadsViewSet
from tournaments.api_rounds import RoundViewSet, TournamentRoundActionsViewSet

router = DefaultRouter()
# issue 14, running an event (W3). The two "tournaments" viewsets go before TournamentViewSet,
# whose list keeps the root's "tournaments" entry; they add only /api/tournaments/<slug>/<action>/.
router.register("tournaments", TournamentRoundActionsViewSet, basename="api-tournament-rounds")
router.register("tournaments", TournamentReadsViewSet, basename="api-tournament-reads")
router.register(r"tournaments/(?P<slug>[^/.]+)/exports", ExportViewSet, basename="api-export")
router.register("rounds", RoundViewSet, basename="api-round")
router.register("disputes", DisputeViewSet, basename="api-dispute")
router.register("ratings", RatingListViewSet, basename="api-rating")
router.register("players", PlayerRatingsViewSet, basename="api-player")
# end of W3's lines
router.register("tournaments", TournamentViewSet, basename="api-tournament")
router.register("entries", EntryViewSet, basename="api-entry")
router.register("matches", MatchWorkflowViewSet, basename="api-match")

#: /api/tournaments/<slug>/<collection>/: one table, one row per nested collection.
nested = SimpleRouter()
nested.register("entries", TournamentEntriesViewSet, basename="api-tournament-entry")
nested.register("rounds", TournamentRoundsViewSet, basename="api-tournament-round")
nested.register("matches", MatchWorkflowViewSet, basename="api-tournament-match")
nested.register("sections", SectionViewSet, basename="api-tournament-section")
nested.register("officials", OfficialViewSet, basename="api-tournament-official")
nested.register("forbidden-pairs", ForbiddenPairViewSet, basename="api-tournament-forbidden-pair")
nested.register("bye-requests", ByeRequestViewSet, basename="api-tournament-bye-request")
nested.register("qualify", QualifyViewSet, basename="api-tournament-qualify")

urlpatterns = [
    path("tournaments/<slug:tournament_slug>/", include(nested.urls)),
    *router.urls,
]
