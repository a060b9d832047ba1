from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from config.language import language_set
from tournaments.views import read_only

urlpatterns = [
    path("", read_only(RedirectView.as_view(pattern_name="tournaments:list", permanent=False))),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("idioma/<str:code>/", language_set, name="language"),
    path("torneios/", include("tournaments.urls")),
    path("organizar/", include("tournaments.desk.urls")),
    path("organizar/", include("tournaments.sumula.referee_urls")),
    path("organizar/", include("tournaments.printing.desk_urls")),
    path("", include("tournaments.accounts.urls")),
    path("d/", include("tournaments.privatelink.urls")),
    path("api/v1/", include("tournaments.sumula.api_urls")),
    path("ajuda/", include("tournaments.help.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
