"""The desk audience's addresses, mounted at /organizar/: the organizer's desk (namespace ``desk``), the referee's
screens (``referee``), the desk's sheets (``printing``) and the event's online tables (``referee_online``).
Every view goes through ``permissions.desk_view``."""

from django.urls import include, path

from tournaments.desk import online_urls, organizer_urls, printing_urls, referee_urls

urlpatterns = [
    path("", include(organizer_urls)),
    path("", include(referee_urls)),
    path("", include(printing_urls)),
    path("", include(online_urls)),
]
