from rest_framework.routers import DefaultRouter

from tournaments.api import MatchViewSet, TournamentViewSet

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="api-tournament")
router.register("matches", MatchViewSet, basename="api-match")

urlpatterns = router.urls
