"""The site's addresses: one include per audience (public, desk, dupla, api), the accounts, the admin."""

from django.contrib import admin
from django.urls import include, path

from config.language import language_set
from tournaments import converters  # noqa: F401 (registers jogokey)

urlpatterns = [
    # the online table of a tournament jogo (online play's audience, beside the jogo's public súmula)
    path("torneios/<slug:slug>/jogos/<jogokey:key>/mesa/", include("tournaments.play.tournament_urls")),
    path("", include("tournaments.public.urls")),
    path("organizar/", include("tournaments.desk.urls")),
    path("jogar/", include("tournaments.play.urls")),
    path("d/", include("tournaments.dupla.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("", include("tournaments.accounts.urls")),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("idioma/<str:code>/", language_set, name="language"),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
