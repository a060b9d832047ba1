"""Helper functions and data shared by the tests of several folders (fixtures live in conftest.py files)."""
