"""Browser edge modules: the only code that imports `js` or `pyodide` (runs in the agent worker)."""
