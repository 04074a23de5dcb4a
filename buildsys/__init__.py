"""The build, serve, test and bench commands behind `build.py` (one module per command)."""
