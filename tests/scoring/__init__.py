"""Tests of the pure rules (scoring/): no database, no Django."""
