"""Truco rules for Zap: pure Python, no Django, testable without a database.

Every rule of docs/regras.md §3-§7 is written once here and called by the
importer, the pages and the exports alike.
"""
