from rest_framework.routers import DefaultRouter

from scoring.api import MatchWorkflowViewSet
from tournaments.api import TournamentViewSet

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="api-tournament")
router.register("matches", MatchWorkflowViewSet, basename="api-match")

urlpatterns = router.urls
