"""/torneios/<slug>/inscricao/: the public sign-up form (mounted by ``tournaments.urls``)."""

urlpatterns: list = []
