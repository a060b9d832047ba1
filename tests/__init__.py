"""The tests, in folders that mirror the code's packages and audiences; shared helpers in support/, fixtures in conftest.py files."""
