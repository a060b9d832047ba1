"""Lookups on the site's columns that Django leaves to the database.

``in`` on a whole-number column drops the values the column cannot hold: they match no row, as Django's own
``exact``, ``lt`` and ``gt`` already say for such a value (``IntegerFieldOverflow``). SQLite refused one with an
``OverflowError`` (a 500): the admin's choice of an account's groups, posted as 2**63, was one.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models.lookups import In


@models.IntegerField.register_lookup
class IntegerFieldIn(In):
    def process_rhs(self, compiler: Any, connection: Any) -> Any:
        if self.rhs_is_direct_value():
            low, high = connection.ops.integer_field_range(self.lhs.output_field.get_internal_type())
            self.rhs = [
                value
                for value in self.rhs
                if not isinstance(value, int) or ((low is None or value >= low) and (high is None or value <= high))
            ]
        return super().process_rhs(compiler, connection)
