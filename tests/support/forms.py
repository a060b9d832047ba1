"""Every form of the site, made: each ``Form`` class of the ``tournaments`` package and each form the admin builds,
for the tests that check something of every field (tests/site/test_form_bounds.py, tests/site/test_names.py)."""

from __future__ import annotations

import importlib
import pkgutil

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory

import tournaments
from tournaments.models import Circuit, Tournament

# what a form needs to be made, for the forms that take more than data (a subclass: as its base)
NEEDS = {
    "CircuitRulesForm": lambda: {"circuit": Circuit(name="Liga", points={"1": 10, "others": 1})},
    "EtapaAttachForm": lambda: {"candidates": []},
    "ExcludeForm": lambda: {"atletas": []},
    "ResultForm": lambda: {"best_of": 3},
    "CorrectionForm": lambda: {"best_of": 3},
    "MesasForm": lambda: {"shown": 2, "staff": [(1, "Ana")]},
    "PreviewForm": lambda: {"positions": 4, "duplas": [("d1", "Dupla 1")]},
    "ConfirmForm": lambda: {"tournament_id": 1, "user_id": 1},
    "RegistrationFields": lambda: {"tournament": Tournament(name="Copa", min_age=18)},
    "ProfileForm": lambda: {"avatars": ("marreco", "tatu")},
}


def site_form_classes() -> list[type[forms.BaseForm]]:
    """Every form class defined in the ``tournaments`` package (its modules imported first)."""
    for info in pkgutil.walk_packages(tournaments.__path__, "tournaments."):
        if ".migrations" not in info.name:
            importlib.import_module(info.name)
    found, todo = set(), [forms.BaseForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("tournaments."):
                found.add(sub)
    return sorted(found, key=lambda c: (c.__module__, c.__qualname__))


def _made(cls: type[forms.BaseForm]) -> forms.BaseForm | None:
    """One form of ``cls``; None for a model form's base class, which has no model of its own."""
    if issubclass(cls, forms.ModelForm) and cls._meta.model is None:
        return None
    needs = next((NEEDS[c.__name__] for c in cls.__mro__ if c.__name__ in NEEDS), dict)
    return cls(**needs())


def _admin_forms() -> list[tuple[str, forms.BaseForm]]:
    """The forms the admin builds for each model it lets a superuser add or change, inlines included."""
    request = RequestFactory().get("/admin/")
    request.user = get_user_model().objects.create_superuser("raiz-dos-formularios", password="senha-dos-forms-1")
    out = []
    for model, model_admin in admin.site._registry.items():
        if not (model_admin.has_add_permission(request) or model_admin.has_change_permission(request)):
            continue
        out.append((f"admin {model._meta.label}", model_admin.get_form(request)()))
        for inline in model_admin.get_inline_instances(request):
            if inline.has_add_permission(request, None) or inline.has_change_permission(request):
                out.append((f"admin {model._meta.label} inline", inline.get_formset(request).form()))
    return out


def site_forms() -> list[tuple[str, forms.BaseForm]]:
    """(where, form) for every form of the site: one of each class of the package, then the admin's (it makes a
    superuser: call inside a test with the database)."""
    made = [(f"{cls.__module__}.{cls.__qualname__}", _made(cls)) for cls in site_form_classes()]
    return [(where, form) for where, form in made if form is not None] + _admin_forms()
