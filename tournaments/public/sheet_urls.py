"""The public sheets, beside the pages they print (mounted in ``tournaments.public.event_urls``)."""

from django.urls import path

from tournaments import converters  # noqa: F401 (registers jogokey, maoid, …)
from tournaments.public import sheets as views
from tournaments.public import spreadsheets

urlpatterns = [
    path("<slug:slug>/chave.pdf", views.bracket_sheet, name="bracket_pdf"),
    path("<slug:slug>/classificacao.pdf", views.standings_sheet, name="standings_pdf"),
    path("<slug:slug>/classificacao.xlsx", spreadsheets.standings_xlsx, name="standings_xlsx"),
    path("<slug:slug>/jogos/<jogokey:key>/sumula.pdf", views.sumula_sheet, name="sumula_pdf"),
]
