"""The API's routes: flat collections (filterable by ``?tournament=<slug>``) and the same under a tournament."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from scoring.api import MatchWorkflowViewSet
from tournaments.api import (
    EntryViewSet,
    OfficialViewSet,
    RoundViewSet,
    SectionViewSet,
    TournamentViewSet,
)
from tournaments.api.setup import TournamentEntriesViewSet

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="api-tournament")
router.register("entries", EntryViewSet, basename="api-entry")
router.register("rounds", RoundViewSet, basename="api-round")
router.register("matches", MatchWorkflowViewSet, basename="api-match")

#: /api/tournaments/<slug>/<collection>/: one table, one row per nested collection.
nested = SimpleRouter()
nested.register("entries", TournamentEntriesViewSet, basename="api-tournament-entry")
nested.register("rounds", RoundViewSet, basename="api-tournament-round")
nested.register("matches", MatchWorkflowViewSet, basename="api-tournament-match")
nested.register("sections", SectionViewSet, basename="api-tournament-section")
nested.register("officials", OfficialViewSet, basename="api-tournament-official")

urlpatterns = [
    path("tournaments/<slug:tournament_slug>/", include(nested.urls)),
    *router.urls,
]
