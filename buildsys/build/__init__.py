"""The build: `python build.py` assembles dist/ from the pinned downloads, the wheels and the page's code
(`assemble` drives the steps), and `python build.py serve` serves it."""
