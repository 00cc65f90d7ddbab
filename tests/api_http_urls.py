"""The site's URLs plus one writable endpoint no helper wrote, to prove the API's conventions are global."""

import time

from django.urls import include, path
from rest_framework import permissions, routers, serializers, viewsets

from clubs.models import Club


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city"]


class ClubViewSet(viewsets.ModelViewSet):
    queryset = Club.objects.order_by("id")
    serializer_class = ClubSerializer
    permission_classes = [permissions.IsAuthenticated]


class SlowClubViewSet(ClubViewSet):
    """Creates slowly, so two requests at once overlap (the idempotency race test)."""

    def perform_create(self, serializer):
        time.sleep(0.5)
        super().perform_create(serializer)


router = routers.SimpleRouter()
router.register("api/test-clubs", ClubViewSet, basename="test-club")
router.register("api/slow-clubs", SlowClubViewSet, basename="slow-club")

urlpatterns = [*router.urls, path("", include("zarik.urls"))]
