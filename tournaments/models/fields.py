"""Columns with a rule of their own: a name (``NameField``) is stored as ``scoring.text.name_clean`` gives it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import models

from scoring.text import name_clean


class NameFormField(forms.CharField):
    """A name typed in a form: cleaned (``name_clean``) before it is checked, so a name of bidi controls alone is
    an empty one, and its length is the length it will have."""

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return name_clean(value) if isinstance(value, str) else value


class NameField(models.CharField):
    """A name people read: whatever writes it (a form, a file, the admin, a service), the row gets it without bidi
    controls (``name_clean``); the instance too, once saved. The same column as a ``CharField`` (no migration)."""

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = getattr(model_instance, self.attname)
        if isinstance(value, str):
            value = name_clean(value)
            setattr(model_instance, self.attname, value)
        return value

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        return name_clean(value) if isinstance(value, str) else value

    def formfield(self, **kwargs: Any) -> Any:
        return super().formfield(**{"form_class": NameFormField, **kwargs})

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.CharField", args, kwargs


def is_name_column(model: type[models.Model], field: str) -> bool:
    """Whether ``model.field`` holds a name (``NameField``)."""
    return isinstance(model._meta.get_field(field), NameField)
