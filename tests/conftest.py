"""Shared pytest setup: the package is importable from py/ (pyproject `pythonpath`), nothing installed."""
