from django.contrib import admin
from django.db import transaction

from .models import Draw, Dupla, Group, GroupEntry, Jogo, Mao, Partida, Player, Registration, Stage, Tournament
from .services import tournament_refresh


class RefreshesTournament:
    """Admin edits bypass the services: refresh the tournament after each one (brackets, cached views)."""

    def tournament_of(self, obj) -> Tournament:
        return obj.tournament

    def _refresh(self, obj) -> None:
        self._refresh_later([self.tournament_of(obj)])

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        self._refresh(form.instance)

    def delete_model(self, request, obj):
        tournament = self.tournament_of(obj)
        super().delete_model(request, obj)
        self._refresh_later([tournament])

    def delete_queryset(self, request, queryset):
        tournaments = {self.tournament_of(obj).pk: self.tournament_of(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        self._refresh_later(tournaments.values())

    def _refresh_later(self, tournaments) -> None:
        for tournament in tournaments:
            if not isinstance(tournament, Tournament) or tournament.pk is None:
                continue  # the tournament itself was deleted
            transaction.on_commit(lambda t=tournament: tournament_refresh(tournament=t))


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    fields = ("order", "key", "name", "kind", "best_of", "qualify_per_group", "qualify_best_others", "draw_method")


@admin.register(Tournament)
class TournamentAdmin(RefreshesTournament, admin.ModelAdmin):
    def tournament_of(self, obj):
        return obj

    list_display = ("name", "date", "venue", "preset", "slug")
    list_filter = ("preset",)
    search_fields = ("name", "venue", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [StageInline]


@admin.register(Player)
class PlayerAdmin(RefreshesTournament, admin.ModelAdmin):
    list_display = ("name", "key", "tournament", "birth_date")
    list_filter = ("tournament",)
    search_fields = ("name", "key", "email")
    list_select_related = ("tournament",)


@admin.register(Registration)
class RegistrationAdmin(RefreshesTournament, admin.ModelAdmin):
    list_display = ("__str__", "tournament", "order", "status")
    list_filter = ("tournament", "status")
    list_select_related = ("tournament", "player1", "player2")
    raw_id_fields = ("player1", "player2")


@admin.register(Dupla)
class DuplaAdmin(RefreshesTournament, admin.ModelAdmin):
    list_display = ("display_name", "key", "tournament", "seed", "disqualified")
    list_filter = ("tournament", "disqualified")
    search_fields = ("name", "key", "player1__name", "player2__name")
    list_select_related = ("tournament", "player1", "player2")
    raw_id_fields = ("player1", "player2")


class GroupEntryInline(admin.TabularInline):
    model = GroupEntry
    extra = 0
    raw_id_fields = ("dupla",)


@admin.register(Group)
class GroupAdmin(RefreshesTournament, admin.ModelAdmin):
    def tournament_of(self, obj):
        return obj.stage.tournament

    list_display = ("__str__", "stage")
    list_filter = ("stage__tournament",)
    inlines = [GroupEntryInline]


@admin.register(Stage)
class StageAdmin(RefreshesTournament, admin.ModelAdmin):
    list_display = ("__str__", "tournament", "kind", "best_of", "order")
    list_filter = ("tournament", "kind")


class PartidaInline(admin.TabularInline):
    model = Partida
    extra = 0
    fields = ("number", "mode", "score_a", "score_b", "lost_by", "penalty_reason")


@admin.register(Jogo)
class JogoAdmin(RefreshesTournament, admin.ModelAdmin):
    list_display = ("__str__", "tournament", "stage", "group", "round", "mesa", "status")
    list_filter = ("tournament", "status", "stage__kind")
    list_select_related = ("tournament", "stage", "group", "dupla_a__player1", "dupla_a__player2",
                           "dupla_b__player1", "dupla_b__player2")
    raw_id_fields = ("dupla_a", "dupla_b")
    inlines = [PartidaInline]


class MaoInline(admin.TabularInline):
    model = Mao
    extra = 0
    fields = ("order", "to", "points", "how", "reason", "scorer")
    raw_id_fields = ("scorer",)


@admin.register(Partida)
class PartidaAdmin(RefreshesTournament, admin.ModelAdmin):
    def tournament_of(self, obj):
        return obj.jogo.tournament

    list_display = ("__str__", "mode", "score_a", "score_b")
    list_select_related = ("jogo__dupla_a__player1", "jogo__dupla_a__player2", "jogo__dupla_b__player1",
                           "jogo__dupla_b__player2")
    raw_id_fields = ("jogo",)
    inlines = [MaoInline]


@admin.register(Draw)
class DrawAdmin(RefreshesTournament, admin.ModelAdmin):
    list_display = ("__str__", "kind", "stage", "group", "seed", "performed_by", "performed_at")
    list_filter = ("tournament", "kind")
    readonly_fields = ("performed_at",)
