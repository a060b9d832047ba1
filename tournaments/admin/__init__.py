"""The admin: every model editable, and no edit there can leave a tournament the site cannot read back or show.

Each form checks its fields with the importer's rules (``forms.py``); then,
inside the same transaction, the tournament is refreshed, exported and read
back, and its pages are built (``guard.py``). A problem rolls everything back
and the form comes back (200) with the problems on it.
"""

from django.contrib import admin, messages
from django.db import DatabaseError, transaction
from django.http import HttpResponseRedirect
from django.urls import reverse

from ..jogo_keys import jogo_keys_new
from ..models import Draw, Dupla, Group, GroupEntry, Jogo, Mao, Partida, Player, Registration, Stage, Tournament
from . import forms
from .guard import GuardRefused, guard_forget, tournaments_check

REFUSED_ATTR = "_zap_admin_refused"


def _refused_clean(problems: list[str]):
    def clean(self):
        cleaned = super(self.__class__, self).clean()
        for problem in problems:
            self.add_error(None, problem)
        return cleaned
    return clean


class GuardedAdmin(admin.ModelAdmin):
    """A ModelAdmin whose every write is checked against the whole tournament before it is committed."""

    locked_on_change: tuple[str, ...] = ()  # who the object belongs to: fixed once created
    derived_fields: tuple[str, ...] = ()  # computed by the site: shown, never edited

    def tournament_of(self, obj):
        return obj.tournament_id

    def _tournament_id(self, obj) -> int | None:
        try:
            return self.tournament_of(obj)
        except Exception:  # noqa: BLE001 - a half-built object belongs to no tournament yet
            return None

    # --- forms ----------------------------------------------------------------------

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            fields += [f for f in self.derived_fields if f not in fields]
        return fields

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        if obj is not None:
            for name in self.locked_on_change:
                if name in form.base_fields:
                    form.base_fields[name].disabled = True
                    form.base_fields[name].help_text = "Fixo depois de criado."
        problems = getattr(request, REFUSED_ATTR, None)
        if problems:
            form = type(form.__name__, (form,), {"clean": _refused_clean(problems)})
        return form

    # --- writes -------------------------------------------------------------------------

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        tournaments_check(tournament_ids=[self._tournament_id(form.instance)])

    def delete_model(self, request, obj):
        tournament_id = self._tournament_id(obj)
        super().delete_model(request, obj)
        tournaments_check(tournament_ids=[tournament_id], deleting=True)

    def delete_queryset(self, request, queryset):
        tournament_ids = [self._tournament_id(obj) for obj in queryset]
        with transaction.atomic():
            super().delete_queryset(request, queryset)
            tournaments_check(tournament_ids=tournament_ids, deleting=True)

    # --- views: a refused write answers with the problems, never with a 500 -----------------

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if request.method != "POST":
            return super().changeform_view(request, object_id, form_url, extra_context)
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except (GuardRefused, DatabaseError) as exc:
            guard_forget()
            problems = _problems_of(exc)
            if isinstance(exc, GuardRefused) and exc.deleting:  # an action run from the form
                return self._refused_redirect(request, problems, request.get_full_path())
        setattr(request, REFUSED_ATTR, problems)
        return super().changeform_view(request, object_id, form_url, extra_context)  # the form, with the problems

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return super().delete_view(request, object_id, extra_context)
        except (GuardRefused, DatabaseError) as exc:
            guard_forget()
            url = reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[object_id])
            return self._refused_redirect(request, _problems_of(exc), url)

    def changelist_view(self, request, extra_context=None):
        try:
            return super().changelist_view(request, extra_context)
        except (GuardRefused, DatabaseError) as exc:
            guard_forget()
            return self._refused_redirect(request, _problems_of(exc), request.get_full_path())

    def _refused_redirect(self, request, problems: list[str], url: str):
        self.message_user(request, "Nada foi alterado: " + "; ".join(problems), messages.ERROR)
        return HttpResponseRedirect(url)


def _problems_of(exc: Exception) -> list[str]:
    if isinstance(exc, GuardRefused):
        return exc.problems
    return [f"o banco de dados recusou a gravação ({exc.__class__.__name__}); confira os valores informados"]


class GuardedInline:
    """Inline rows belong to their parent: the link to it is never edited by hand."""

    extra = 0


class StageInline(GuardedInline, admin.TabularInline):
    model = Stage
    form = forms.StageForm
    fields = ("order", "key", "name", "kind", "best_of", "best_of_rounds", "qualify_per_group", "qualify_best_others",
              "entrants", "draw_method", "draw_seed")


@admin.register(Tournament)
class TournamentAdmin(GuardedAdmin):
    form = forms.TournamentForm

    def tournament_of(self, obj):
        return obj.pk

    list_display = ("name", "date", "venue", "preset", "slug")
    list_filter = ("preset",)
    search_fields = ("name", "venue", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("results_version", "finished", "created_at", "updated_at")
    inlines = [StageInline]


@admin.register(Player)
class PlayerAdmin(GuardedAdmin):
    form = forms.PlayerForm
    locked_on_change = ("tournament",)
    list_display = ("name", "key", "tournament", "birth_date")
    list_filter = ("tournament",)
    search_fields = ("name", "key", "email")
    list_select_related = ("tournament",)


@admin.register(Registration)
class RegistrationAdmin(GuardedAdmin):
    form = forms.RegistrationForm
    locked_on_change = ("tournament",)
    list_display = ("__str__", "tournament", "order", "status")
    list_filter = ("tournament", "status")
    list_select_related = ("tournament", "player1", "player2")
    raw_id_fields = ("player1", "player2")
    readonly_fields = ("created_at",)


@admin.register(Dupla)
class DuplaAdmin(GuardedAdmin):
    form = forms.DuplaForm
    locked_on_change = ("tournament",)
    list_display = ("display_name", "key", "tournament", "seed", "disqualified")
    list_filter = ("tournament", "disqualified")
    search_fields = ("name", "key", "player1__name", "player2__name")
    list_select_related = ("tournament", "player1", "player2")
    raw_id_fields = ("player1", "player2")


class GroupEntryInline(GuardedInline, admin.TabularInline):
    model = GroupEntry
    form = forms.GroupEntryForm
    raw_id_fields = ("dupla",)


@admin.register(Group)
class GroupAdmin(GuardedAdmin):
    form = forms.GroupForm
    locked_on_change = ("stage",)

    def tournament_of(self, obj):
        return obj.stage.tournament_id

    list_display = ("__str__", "stage")
    list_filter = ("stage__tournament",)
    inlines = [GroupEntryInline]


@admin.register(Stage)
class StageAdmin(GuardedAdmin):
    form = forms.StageForm
    locked_on_change = ("tournament",)
    list_display = ("__str__", "tournament", "kind", "best_of", "order")
    list_filter = ("tournament", "kind")


class PartidaInline(GuardedInline, admin.TabularInline):
    model = Partida
    form = forms.PartidaForm
    formset = forms.PartidaFormSet
    fields = ("number", "mode", "score_a", "score_b", "lost_by", "penalty_reason")


@admin.register(Jogo)
class JogoAdmin(GuardedAdmin):
    form = forms.JogoForm
    locked_on_change = ("tournament", "stage", "group", "dupla_a", "dupla_b")
    derived_fields = ("round", "position", "third_place", "best_of", "status", "entry_order")
    list_display = ("__str__", "tournament", "stage", "group", "round", "mesa", "status")
    list_filter = ("tournament", "status", "stage__kind")
    list_select_related = ("tournament", "stage", "group", "dupla_a__player1", "dupla_a__player2",
                           "dupla_b__player1", "dupla_b__player2")
    raw_id_fields = ("dupla_a", "dupla_b")
    readonly_fields = ("key",)
    inlines = [PartidaInline]

    def save_model(self, request, obj, form, change):
        if not obj.key:  # a jogo added here gets its key as every jogo the site makes
            obj.key = next(jogo_keys_new(taken=Jogo.objects.filter(tournament_id=obj.tournament_id)
                                         .values_list("key", flat=True)))
        super().save_model(request, obj, form, change)


class MaoInline(GuardedInline, admin.TabularInline):
    model = Mao
    form = forms.MaoForm
    formset = forms.MaoFormSet
    fields = ("order", "to", "points", "how", "reason", "scorer")
    raw_id_fields = ("scorer",)


@admin.register(Partida)
class PartidaAdmin(GuardedAdmin):
    form = forms.PartidaForm
    locked_on_change = ("jogo",)

    def tournament_of(self, obj):
        return obj.jogo.tournament_id

    list_display = ("__str__", "mode", "score_a", "score_b")
    list_select_related = ("jogo__dupla_a__player1", "jogo__dupla_a__player2", "jogo__dupla_b__player1",
                           "jogo__dupla_b__player2")
    raw_id_fields = ("jogo",)
    inlines = [MaoInline]


@admin.register(Draw)
class DrawAdmin(GuardedAdmin):
    form = forms.DrawForm
    locked_on_change = ("tournament",)
    list_display = ("__str__", "kind", "stage", "group", "seed", "performed_by", "performed_at")
    list_filter = ("tournament", "kind")
    readonly_fields = ("performed_at",)
