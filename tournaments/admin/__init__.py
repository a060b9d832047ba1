"""The admin: no edit there can leave a tournament the site cannot read back or show, and results are read-only.

Each form checks its fields with the importer's rules (``forms.py``); then,
inside the same transaction, the tournament is refreshed, exported and read
back, and its pages are built (``guard.py``). A problem rolls everything back
and the form comes back (200) with the problems on it.

Results are not edited here: partidas and mãos have no add, change or delete
permission, a jogo's result fields (WO, perda do jogo, the súmula's status,
via, confirmations, signature) are read-only, and the súmula's earlier vias
and log are shown only. A result changes through the súmula (the referee
screen ``/organizar/<slug>/arbitragem/<key>/`` and the API), which checks the
rules, logs every write and keeps the earlier vias; the admin says so.
"""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.db import DatabaseError, transaction
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from ..atletas.services import atletas_link
from ..jogo_keys import jogo_keys_new
from ..limits import ColumnBoundsForm
from ..models import (
    Appeal,
    Draw,
    Dupla,
    Group,
    GroupEntry,
    Jogo,
    Mao,
    Partida,
    Player,
    Registration,
    Stage,
    SumulaEvent,
    SumulaVia,
    Tournament,
)
from ..writes import PRIVATE, tournament_write, tournaments_lock
from . import forms
from .guard import DeletionRefused, GuardRefused, guard_forget, tournaments_check

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

    form = ColumnBoundsForm  # each model's own (forms.py) is one too: every number within its column
    locked_on_change: tuple[str, ...] = ()  # who the object belongs to: fixed once created
    derived_fields: tuple[str, ...] = ()  # computed by the site: shown, never edited

    def tournament_of(self, obj):
        return obj.tournament_id

    def _tournament_id(self, obj) -> int | None:
        try:
            return self.tournament_of(obj)
        except Exception:
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

    def _written(self, request, view, *args, object_id=None):
        """An admin view that may write, through the one write path (the guard recomputes each tournament).

        The tournaments the request names (the object's, the selected objects', the one chosen on an add form)
        are locked first, in one order, as every other write locks its tournament before its rows: the admin
        never holds a jogo's row while waiting for its tournament, which a súmula write holds while waiting for
        that jogo (a deadlock)."""
        if request.method != "POST":
            return view(request, *args)
        with tournament_write(tournament=None, action=f"admin.{self.opts.model_name}", user=request.user, kind=PRIVATE):
            ids = sorted(i for i in self._tournaments_named(request, object_id) if i is not None)
            if ids:
                tournaments_lock(ids=ids)
            return view(request, *args)

    def _tournaments_named(self, request, object_id) -> set[int | None]:
        """The tournaments a POST to this admin will change, as far as the request says before it runs."""
        if object_id is not None:
            obj = self.get_object(request, unquote(str(object_id)))
            return {self._tournament_id(obj)} if obj is not None else set()
        selected = [pk for pk in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME) if pk.isdigit()]
        if selected:
            return {self._tournament_id(obj) for obj in self.get_queryset(request).filter(pk__in=selected[:1000])}
        chosen = request.POST.get("tournament", "")  # an add form of a model that names its tournament
        return {int(chosen)} if chosen.isdigit() else set()

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if request.method != "POST":
            return super().changeform_view(request, object_id, form_url, extra_context)
        try:
            return self._written(
                request, super().changeform_view, object_id, form_url, extra_context, object_id=object_id
            )
        except (GuardRefused, DatabaseError) as exc:
            guard_forget()
            problems = _problems_of(exc)
            if isinstance(exc, DeletionRefused):  # an action run from the form
                return self._refused_redirect(request, problems, request.get_full_path())
        setattr(request, REFUSED_ATTR, problems)
        return super().changeform_view(request, object_id, form_url, extra_context)  # the form, with the problems

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return self._written(request, super().delete_view, object_id, extra_context, object_id=object_id)
        except (GuardRefused, DatabaseError) as exc:
            guard_forget()
            url = reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[object_id])
            return self._refused_redirect(request, _problems_of(exc), url)

    def changelist_view(self, request, extra_context=None):
        try:
            return self._written(request, super().changelist_view, extra_context)
        except (GuardRefused, DatabaseError) as exc:
            guard_forget()
            return self._refused_redirect(request, _problems_of(exc), request.get_full_path())

    def _refused_redirect(self, request, problems: list[str], url: str):
        self.message_user(request, "Nada foi alterado: " + "; ".join(problems), messages.ERROR)
        return HttpResponseRedirect(url)


def _problems_of(exc: Exception) -> list[str]:
    if isinstance(exc, GuardRefused):
        return exc.messages
    return [f"o banco de dados recusou a gravação ({exc.__class__.__name__}); confira os valores informados"]


class GuardedInline:
    """Inline rows belong to their parent: the link to it is never edited by hand."""

    extra = 0


# --- results: read-only -----------------------------------------------------------------------------

RESULT_MODELS = (Partida, Mao, SumulaVia, SumulaEvent, Appeal)
# a jogo's result as the súmula keeps it: shown in the admin, changed only through the súmula
JOGO_RESULT_FIELDS = (
    "status",
    "walkover",
    "lost_by",
    "penalty_reason",
    "via",
    "via_reason",
    "counted_via",
    "confirmations",
    "signed_by",
    "signed_at",
    "signed_reason",
    "version",
)


def referee_url(jogo: Jogo) -> str:
    return f"/organizar/{jogo.tournament.slug}/arbitragem/{jogo.key}/"


def sumula_note(jogo: Jogo | None):
    """The admin's pointer to where a result is changed (the referee screen of this jogo, when there is one)."""
    text = (
        "Os resultados (mãos, partidas, WO, penalidades, confirmações, homologação) não se alteram pelo admin. "
        "Para anotar ou corrigir, use a tela de arbitragem"
    )
    if jogo is None or not jogo.pk or not jogo.key:
        return format_html(
            "{}: /organizar/&lt;torneio&gt;/arbitragem/&lt;jogo&gt;/ (a correção cria uma nova via "
            "da súmula e fica registrada).",
            text,
        )
    url = referee_url(jogo)
    return format_html(
        '{}: <a href="{}">{}</a> (a correção cria uma nova via da súmula e fica registrada).', text, url, url
    )


class ReadOnlyAdminMixin:
    """View only: no add, change or delete for anyone, superusers included."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def _without_result_perms(perms_needed: set) -> set:
    """Deleting a whole tournament takes its results along: no permission on them is needed for that."""
    names = {str(m._meta.verbose_name) for m in RESULT_MODELS} | {str(Jogo._meta.verbose_name)}
    return {p for p in perms_needed if str(p) not in names}


class StageInline(GuardedInline, admin.TabularInline):
    model = Stage
    form = forms.StageForm
    fields = (
        "order",
        "key",
        "name",
        "kind",
        "best_of",
        "best_of_rounds",
        "qualify_per_group",
        "qualify_best_others",
        "entrants",
        "draw_method",
        "draw_seed",
    )


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

    def get_deleted_objects(self, objs, request):
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, _without_result_perms(perms_needed), protected


@admin.register(Player)
class PlayerAdmin(GuardedAdmin):
    form = forms.PlayerForm
    locked_on_change = ("tournament",)
    list_display = ("name", "key", "tournament", "birth_date")
    list_filter = ("tournament",)
    search_fields = ("name", "key", "email")
    list_select_related = ("tournament",)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change or {"name", "birth_date"} & set(form.changed_data):
            # a new or renamed player joins their atleta (DOMAIN §7.1); any other edit leaves the atleta as it is
            # (a join made on the desk stays)
            atletas_link(players=[obj])


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


class PartidaInline(ReadOnlyAdminMixin, GuardedInline, admin.TabularInline):
    model = Partida
    fields = ("number", "mode", "score_a", "score_b", "lost_by", "penalty_reason")
    readonly_fields = fields
    show_change_link = True


@admin.register(Jogo)
class JogoAdmin(GuardedAdmin):
    form = forms.JogoForm
    locked_on_change = ("tournament", "stage", "group", "dupla_a", "dupla_b")
    derived_fields = ("round", "position", "third_place", "best_of", "entry_order")
    list_display = ("__str__", "tournament", "stage", "group", "round", "mesa", "status")
    list_filter = ("tournament", "status", "stage__kind")
    list_select_related = (
        "tournament",
        "stage",
        "group",
        "dupla_a__player1",
        "dupla_a__player2",
        "dupla_b__player1",
        "dupla_b__player2",
    )
    raw_id_fields = ("dupla_a", "dupla_b")
    readonly_fields = ("sumula", "key", *JOGO_RESULT_FIELDS)
    inlines = [PartidaInline]

    @admin.display(description="Súmula")
    def sumula(self, obj):
        return sumula_note(obj)

    def get_fields(self, request, obj=None):
        fields = [f for f in super().get_fields(request, obj) if f != "sumula"]
        return ["sumula", *fields]

    def has_delete_permission(self, request, obj=None):
        """A jogo with a result is not deleted here (that would drop the result without a trace)."""
        if obj is not None and (obj.status != Jogo.SCHEDULED or obj.walkover or obj.lost_by or obj.partidas.exists()):
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        if not obj.key:  # a jogo added here gets its key as every jogo the site makes
            obj.key = next(
                jogo_keys_new(taken=Jogo.objects.filter(tournament_id=obj.tournament_id).values_list("key", flat=True))
            )
        super().save_model(request, obj, form, change)


class MaoInline(ReadOnlyAdminMixin, GuardedInline, admin.TabularInline):
    model = Mao
    fields = ("order", "to", "points", "how", "reason", "key")  # no account names: who scored is in the log
    readonly_fields = fields


@admin.register(Partida)
class PartidaAdmin(ReadOnlyAdminMixin, GuardedAdmin):
    """Partidas are shown with their mãos, never edited: a result changes through the súmula."""

    def tournament_of(self, obj):
        return obj.jogo.tournament_id

    list_display = ("__str__", "mode", "score_a", "score_b")
    list_filter = ("jogo__tournament",)
    list_select_related = (
        "jogo__dupla_a__player1",
        "jogo__dupla_a__player2",
        "jogo__dupla_b__player1",
        "jogo__dupla_b__player2",
    )
    fields = ("sumula", "jogo", "number", "mode", "score_a", "score_b", "lost_by", "penalty_reason")
    readonly_fields = fields
    inlines = [MaoInline]

    @admin.display(description="Súmula")
    def sumula(self, obj):
        return sumula_note(obj.jogo if obj is not None and obj.jogo_id else None)


@admin.register(SumulaVia)
class SumulaViaAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The earlier vias of corrected súmulas, as they stood when replaced."""

    list_display = ("jogo", "via", "status", "by", "at", "via_reason")
    list_filter = ("jogo__tournament", "status")
    list_select_related = (
        "jogo__dupla_a__player1",
        "jogo__dupla_a__player2",
        "jogo__dupla_b__player1",
        "jogo__dupla_b__player2",
    )
    search_fields = ("jogo__key", "via_reason", "by")
    date_hierarchy = "at"


@admin.register(Appeal)
class AppealAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The appeals (recursos) and the comissão's decisions: filed from the dupla's link, decided on the desk."""

    list_display = ("jogo", "dupla", "via", "filed_at", "decision", "decided_at")
    list_filter = ("jogo__tournament", "decision")
    list_select_related = (
        "jogo__dupla_a__player1",
        "jogo__dupla_a__player2",
        "jogo__dupla_b__player1",
        "jogo__dupla_b__player2",
        "dupla__player1",
        "dupla__player2",
    )
    search_fields = ("jogo__key", "dupla__key", "reason", "decision_reason")
    date_hierarchy = "filed_at"


@admin.register(SumulaEvent)
class SumulaEventAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The súmula's log: every mão, undo, result, confirmation, contest, decision, signature, correction."""

    list_display = ("jogo", "via", "action", "who", "method", "at")
    list_filter = ("jogo__tournament", "action", "method")
    list_select_related = (
        "jogo__dupla_a__player1",
        "jogo__dupla_a__player2",
        "jogo__dupla_b__player1",
        "jogo__dupla_b__player2",
        "user",
        "dupla__player1",
        "dupla__player2",
    )
    search_fields = ("jogo__key", "client_id", "user__username", "dupla__key")
    date_hierarchy = "at"

    @admin.display(description="quem")
    def who(self, obj):
        if obj.user_id:
            return obj.user.get_username()
        if obj.dupla_id:
            return f"dupla {obj.dupla.key}"
        return "—"


@admin.register(Draw)
class DrawAdmin(GuardedAdmin):
    form = forms.DrawForm
    locked_on_change = ("tournament",)
    list_display = ("__str__", "kind", "stage", "group", "seed", "performed_by", "performed_at")
    list_filter = ("tournament", "kind")
    readonly_fields = ("performed_at",)
