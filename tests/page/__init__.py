"""The page's code (web/), run under Node or read as text by CPython."""
