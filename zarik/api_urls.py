from rest_framework.routers import DefaultRouter

from scoring.api import MatchWorkflowViewSet
from tournaments.api import TournamentViewSet
from tournaments.api_rounds import RoundViewSet, TournamentRoundActionsViewSet

router = DefaultRouter()
# issue 14, running an event (W3): registered before TournamentViewSet, whose list keeps the root's
# "tournaments" entry; these add only detail actions under /api/tournaments/<slug>/.
router.register("tournaments", TournamentRoundActionsViewSet, basename="api-tournament-rounds")
router.register("rounds", RoundViewSet, basename="api-round")
# end of W3's lines
router.register("tournaments", TournamentViewSet, basename="api-tournament")
router.register("matches", MatchWorkflowViewSet, basename="api-match")

urlpatterns = router.urls
