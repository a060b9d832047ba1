"""The site's addresses: one include per audience (public, desk, dupla, api), the accounts, the admin."""

from django.contrib import admin
from django.urls import include, path

from config.language import language_set

urlpatterns = [
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
