"""Shared pytest setup: the package is importable from py/ (pyproject `pythonpath`), nothing installed.

Property tests have no deadline: how long one example takes is the machine's load, not the code's
behaviour (speed is measured by `python build.py bench`). Folders with profiles of their own (stream,
workspace) set theirs the same way."""

from hypothesis import settings

settings.register_profile("agentlite", deadline=None, print_blob=True)
settings.load_profile("agentlite")
