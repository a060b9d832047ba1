"""The desk audience's addresses, mounted at /organizar/: the organizer's desk (namespace ``desk``), the referee's
screens (``referee``) and the desk's sheets (``printing``). Every view goes through ``permissions.desk_view``."""

from django.urls import include, path

from tournaments.desk import organizer_urls, printing_urls, referee_urls

urlpatterns = [
    path("", include(organizer_urls)),
    path("", include(referee_urls)),
    path("", include(printing_urls)),
]
