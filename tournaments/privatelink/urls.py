"""/d/<token>/: a dupla's private page (its jogos and standings), reached by its secret link or QR code."""

app_name = "privatelink"

urlpatterns: list = []
